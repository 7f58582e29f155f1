/**
 * The account pages' pieces (sign-in and sign-up, forgotten and new password, first-run set-up, the e-mail
 * check), on the forms toolkit (app/components/forms/): the card they sit in, their fields, and their answers
 * (domain/form-answer.ts, an AuthErrorCode as the form's error) read the same way on every page.
 */
import type { ComponentProps, ReactNode } from "react";
import { Form } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { z } from "zod/mini";
import { InputField } from "#app/components/forms/field.tsx";
import { schemaCheck, useFormCheck } from "#app/components/forms/form-check.ts";
import { Notice, useAnswerToast } from "#app/components/forms/notice.tsx";
import { fieldsOf, formErrorOf, type FormAnswer } from "#domain/form-answer.ts";
import { authErrorText, formValues, PASSWORD_MAX, type AccountFormError } from "#domain/schemas/auth.ts";
import { EMAIL_MAX } from "#domain/schemas/shared.ts";

type AuthFieldProps = { name: string } & Omit<ComponentProps<typeof InputField>, "id" | "name">;

/**
 * A field of the account pages (the toolkit's InputField): the control `field-{name}`, found by tests as
 * `input-{name}` and its message as `error-{name}`.
 */
export function AuthField({ name, ...field }: AuthFieldProps) {
  return (
    <InputField id={`field-${name}`} name={name} data-testid={`input-${name}`} errorTestId={`error-${name}`} look="card" controlClassName="h-11" {...field} />
  );
}

/** The e-mail address of an account. */
export function EmailField(field: Omit<AuthFieldProps, "name" | "label">) {
  const { t } = useTranslation();
  return <AuthField name="email" label={t("auth.email")} type="email" autoComplete="email" dir="ltr" required maxLength={EMAIL_MAX} {...field} />;
}

/** A password (the current one, or a new one: `autoComplete` says which). */
export function PasswordField({ name = "password", ...field }: Omit<AuthFieldProps, "name"> & { name?: string }) {
  return <AuthField name={name} type="password" dir="ltr" required maxLength={PASSWORD_MAX} {...field} />;
}

type Check = ReturnType<typeof useFormCheck>;

/** An account form: posted to the page's action, checked by the browser first when JavaScript runs. */
export function AccountForm({ check, children, ...form }: { check: Check; children: ReactNode } & Omit<ComponentProps<typeof Form>, "method" | "children">) {
  return (
    <Form method="post" noValidate onSubmit={check.onSubmit} onChange={check.onChange} className="space-y-4" {...form}>
      {children}
    </Form>
  );
}

/**
 * An account page's answer read once: the browser's checks with the form's schema (the server's messages
 * replacing them), and the failure's title and text (a toast once per answer; the page shows it too). A
 * refusal of fields (REQUIRED, INVALID) is told by the fields' messages alone.
 */
export function useAccountAnswer<F extends string>(
  schema: z.ZodMiniType,
  fields: readonly F[],
  answer: FormAnswer<F, AccountFormError> | undefined,
  form: "signIn" | "signUp" | "other",
) {
  const check = useFormCheck<F>(
    schemaCheck(schema, (d) => formValues(d, fields)),
    fieldsOf(answer),
  );
  const given = formErrorOf(answer);
  const code = given === "REQUIRED" || given === "INVALID" ? undefined : given;
  const failure = code ? authErrorText(code, form) : null;
  useAnswerToast(failure, answer);
  return { check, code, failure };
}

/** The failure's text, in the page (it shows without JavaScript too). */
export function FailureNotice({ failure }: { failure: { message: string } | null }) {
  const { t } = useTranslation();
  if (!failure) return null;
  return (
    <Notice tone="error" testId="auth-error">
      {t(failure.message)}
    </Notice>
  );
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
