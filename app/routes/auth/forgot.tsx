import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/forgot";
import { AuthCard, Field, Notice, SubmitButton, useAnswerToast, useFormCheck } from "#app/components/auth/form.tsx";
import { AUTH_ERRORS, authErrorText, ForgotPasswordSchema, formValues, validate, type AuthErrorCode } from "#domain/schemas/auth.ts";
import type { FieldErrors } from "#domain/schemas/shared.ts";
import { authMeta } from "#app/lib/auth-meta.ts";
import { requestPasswordReset } from "#server/auth/flows.server.ts";
import { assertSameOrigin, readForm } from "#server/auth/session.server.ts";

type ActionData = { sent?: boolean; errors?: FieldErrors; error?: AuthErrorCode; at: number };

export function loader() {
  return data(null, { headers: { "Cache-Control": "no-store" } });
}

/**
 * The answer is the same whether or not the address has an account, and takes the same time: the e-mail
 * goes out in the background (server/auth/auth.server.ts, sendResetPassword).
 */
export async function action({ request }: Route.ActionArgs) {
  assertSameOrigin(request);
  const form = await readForm(request);
  const at = Date.now();
  const parsed = validate(ForgotPasswordSchema, formValues(form, ["email"]));
  if (!parsed.ok) return data<ActionData>({ errors: parsed.errors, at }, { status: 400 });
  const result = await requestPasswordReset(request, parsed.data);
  if (!result.ok) return data<ActionData>({ error: result.code, at }, { status: AUTH_ERRORS[result.code].status });
  return data<ActionData>({ sent: true, at });
}

/** Personal pages with one-time tokens in the address: never cached, and the address never sent to another site. */
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => {
  const h = new Headers(loaderHeaders);
  h.set("Cache-Control", "no-store");
  // same-origin, not no-referrer: with no-referrer a form post carries "Origin: null" and fails the origin check.
  h.set("Referrer-Policy", "same-origin");
  return h;
};

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "auth.forgotTitle");

export default function ForgotPasswordPage({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const answer = actionData;
  const check = useFormCheck(ForgotPasswordSchema, (f) => formValues(new FormData(f), ["email"]), answer?.errors);
  const failure = answer?.error ? authErrorText(answer.error, "other") : null;
  useAnswerToast(failure, answer?.at);
  return (
    <AuthCard title={t("auth.forgotTitle")} intro={t("auth.forgotIntro")} testId="auth-forgot">
      {answer?.sent && (
        <Notice tone="success" testId="notice-reset-sent">
          {t("auth.resetSent")}
        </Notice>
      )}
      {failure && (
        <Notice tone="error" testId="auth-error">
          {t(failure.message)}
        </Notice>
      )}
      <Form method="post" noValidate onSubmit={check.onSubmit} onChange={check.onChange} className="space-y-4">
        <Field name="email" label={t("auth.email")} type="email" autoComplete="email" dir="ltr" required maxLength={254} error={check.errors.email} />
        <SubmitButton pendingLabel={t("auth.submitting")} testId="forgot-submit">
          {t("auth.sendResetLink")}
        </SubmitButton>
      </Form>
      <Link to="/auth" className="block text-sm font-bold text-desert-700 hover:underline">
        {t("auth.backToSignIn")}
      </Link>
    </AuthCard>
  );
}
