import { useEffect, useRef, useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigation } from "react-router";
import type { z } from "zod/mini";
import { useToast } from "#app/components/ui/toast.tsx";
import { validate } from "#domain/schemas/auth.ts";
import type { FieldErrors } from "#domain/schemas/shared.ts";

/** A labelled input with its message underneath, tied together for screen readers. */
export function Field({
  name,
  label,
  error,
  hint,
  ...input
}: { name: string; label: string; error?: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const { t } = useTranslation();
  const id = `field-${name}`;
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-bold text-ink">
        {label}
      </label>
      <input
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        data-testid={`input-${name}`}
        className={`block h-11 w-full rounded-md border px-3 text-base outline-none focus:ring-2 focus:ring-desert-500 ${error ? "border-red-600" : "border-sand-300"}`}
        {...input}
      />
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-ink-soft">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700" data-testid={`error-${name}`}>
          {t(error)}
        </p>
      )}
    </div>
  );
}

/** A message box the server rendered (so it shows without JavaScript too). */
export function Notice({ tone = "info", children, testId }: { tone?: "info" | "success" | "error"; children: ReactNode; testId?: string }) {
  const tones = {
    info: "border-sand-300 bg-sand-50 text-ink",
    success: "border-palm-600 bg-emerald-50 text-emerald-950",
    error: "border-red-600 bg-red-50 text-red-900",
  } as const;
  return (
    <div role={tone === "error" ? "alert" : "status"} data-testid={testId} className={`rounded-md border border-s-4 px-4 py-3 text-sm ${tones[tone]}`}>
      {children}
    </div>
  );
}

export function SubmitButton({ children, pendingLabel, testId }: { children: ReactNode; pendingLabel: string; testId?: string }) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  return (
    <button
      type="submit"
      disabled={pending}
      data-testid={testId}
      className="w-full rounded-md bg-desert-600 px-4 py-3 font-bold text-white hover:bg-desert-700 disabled:cursor-wait disabled:opacity-70"
    >
      {pending ? pendingLabel : children}
    </button>
  );
}

/**
 * Client-side validation with the form's own schema: on submit, and again on each change once a field has
 * shown a message. The server validates the same way and has the last word.
 */
export function useFormCheck<S extends z.ZodMiniType>(schema: S, read: (form: HTMLFormElement) => unknown, serverErrors: FieldErrors | undefined) {
  const [errors, setErrors] = useState<FieldErrors>(serverErrors ?? {});
  // A new answer from the server replaces what the browser found (React's "adjust state on prop change").
  const [shownServerErrors, setShownServerErrors] = useState(serverErrors);
  if (shownServerErrors !== serverErrors) {
    setShownServerErrors(serverErrors);
    setErrors(serverErrors ?? {});
  }
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    const result = validate(schema, read(e.currentTarget));
    if (!result.ok) {
      e.preventDefault();
      setErrors(result.errors);
      const first = Object.keys(result.errors)[0];
      if (first) e.currentTarget.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
    } else setErrors({});
  };
  const onChange = (e: FormEvent<HTMLFormElement>) => {
    if (!Object.keys(errors).length) return;
    const result = validate(schema, read(e.currentTarget));
    const field = (e.target as HTMLInputElement).name;
    setErrors((prev) => {
      const next = { ...prev };
      const message = result.ok ? undefined : result.errors[field];
      if (message) next[field] = message;
      else delete next[field];
      return next;
    });
  };
  return { errors, onSubmit, onChange };
}

/** Shows a server answer as a toast once per answer (the inline notice covers the no-JavaScript case). */
export function useAnswerToast(answer: { title: string; message: string; variant?: "destructive" | "success" } | null | undefined, key: unknown) {
  const toast = useToast();
  const { t } = useTranslation();
  const shown = useRef<unknown>(null);
  useEffect(() => {
    if (!answer || shown.current === key) return;
    shown.current = key;
    toast({ title: t(answer.title), description: t(answer.message), variant: answer.variant ?? "destructive" });
  }, [answer, key, t, toast]);
}

/** The card every account page sits in. */
export function AuthCard({ title, intro, children, testId }: { title: string; intro?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <section className="mx-auto w-full max-w-md px-4 py-10 sm:py-16" data-testid={testId}>
      <div className="rounded-xl border border-sand-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold">{title}</h1>
        {intro && <div className="mt-2 text-sm text-ink-soft">{intro}</div>}
        <div className="mt-6 space-y-5">{children}</div>
      </div>
    </section>
  );
}
