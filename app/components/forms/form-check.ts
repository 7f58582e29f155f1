/**
 * The forms toolkit's checks in the browser: a form checks itself on submit with its own schema (the one the
 * server runs, domain/schemas/*), shows the messages and sends nothing; once a message shows, the fields
 * with one, and the one being changed, are checked again on each change. The server's messages (the
 * answer's `fields`, domain/form-answer.ts) replace what the browser found: the server has the last word.
 * Without JavaScript none of this runs, and the server's answer shows the same messages.
 */
import { useState, type FormEvent } from "react";
import { z } from "zod/mini";
import { fieldErrorsOf, type FieldErrors } from "#domain/schemas/shared.ts";

/** What the form holds, checked: the first message of each field. `override` replaces values read from it. */
export type FormChecker<F extends string = string> = (form: HTMLFormElement, override?: Record<string, string>) => FieldErrors<F>;

/** A checker from a schema and the function that reads the schema's input from the form's data. */
export function schemaCheck<F extends string = string>(schema: z.ZodMiniType, read: (data: FormData) => unknown): FormChecker<F> {
  return (form) => {
    const result = z.safeParse(schema, read(new FormData(form)));
    return result.success ? {} : fieldErrorsOf<F>(result.error);
  };
}

export type FormCheckOptions<F extends string> = {
  /** After a refused submit (the messages are set and the first field focused): a toast, say. */
  onInvalid?: (errors: FieldErrors<F>, form: HTMLFormElement) => void;
  /** The id of a field's control, to focus it; by default the first visible control of that name. */
  controlId?: (name: F) => string;
  /** Fields checked again when another one changes (the editor's publish date with its status). */
  linked?: Partial<Record<string, F[]>>;
};

export function useFormCheck<F extends string = string>(check: FormChecker<F>, serverErrors: FieldErrors<F> | undefined, options: FormCheckOptions<F> = {}) {
  const [errors, setErrors] = useState<FieldErrors<F>>(serverErrors ?? {});
  // A new answer from the server replaces what the browser found (React's "adjust state on prop change").
  const [shownServerErrors, setShownServerErrors] = useState(serverErrors);
  if (shownServerErrors !== serverErrors) {
    setShownServerErrors(serverErrors);
    setErrors(serverErrors ?? {});
  }

  /** Checks before sending: a refused form is not sent, its first field takes the focus. */
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    const form = e.currentTarget;
    const found = check(form);
    const first = Object.keys(found)[0] as F | undefined;
    if (!first) {
      setErrors({});
      return;
    }
    e.preventDefault();
    setErrors(found);
    const control = options.controlId
      ? document.getElementById(options.controlId(first))
      : form.querySelector<HTMLElement>(`[name="${CSS.escape(first)}"]:not([type="hidden"])`);
    control?.focus();
    options.onInvalid?.(found, form);
  };

  /** Once a message shows: the fields that show one, and `changed`, checked again (with `override` values). */
  const recheck = (form: HTMLFormElement, changed: string, override?: Record<string, string>) => {
    if (!Object.keys(errors).length) return;
    const found = check(form, override);
    setErrors((prev) => {
      const next: FieldErrors<F> = {};
      const watched = new Set([...Object.keys(prev), changed, ...(options.linked?.[changed] ?? [])]) as Set<F>;
      for (const name of watched) if (found[name]) next[name] = found[name];
      return next;
    });
  };

  const onChange = (e: FormEvent<HTMLFormElement>) => {
    const name = (e.target as HTMLInputElement).name;
    if (name) recheck(e.currentTarget, name);
  };

  return { errors, setErrors, onSubmit, onChange, recheck };
}
