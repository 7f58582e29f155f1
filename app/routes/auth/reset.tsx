import { data, Form, Link, redirect } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/reset";
import { AuthCard, Field, Notice, SubmitButton, useAnswerToast, useFormCheck } from "#app/components/auth/form.tsx";
import { AUTH_ERRORS, authErrorText, formValues, NewPasswordSchema, validate, type AuthErrorCode } from "#domain/schemas/auth.ts";
import type { FieldErrors } from "#domain/schemas/shared.ts";
import { authMeta } from "#app/lib/auth-meta.ts";
import { resetPassword, resetTokenIsValid } from "#server/auth/flows.server.ts";
import { assertSameOrigin, readForm } from "#server/auth/session.server.ts";

/** The link of a password-reset e-mail, and of a staff invitation (`invite=1`): choose a password. */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  const invite = url.searchParams.get("invite") === "1";
  const valid = token.length > 0 && token.length <= 512 && (await resetTokenIsValid(request, token));
  return data({ token: valid ? token : "", invite, valid }, { status: valid ? 200 : 400, headers: { "Cache-Control": "no-store" } });
}

type ActionData = { errors?: FieldErrors; error?: AuthErrorCode; at: number };

export async function action({ request }: Route.ActionArgs) {
  assertSameOrigin(request);
  const form = await readForm(request);
  const at = Date.now();
  const parsed = validate(NewPasswordSchema, formValues(form, ["token", "password", "confirm"]));
  if (!parsed.ok) return data<ActionData>({ errors: parsed.errors, at }, { status: 400 });
  const result = await resetPassword(request, parsed.data);
  if (!result.ok) return data<ActionData>({ error: result.code, at }, { status: AUTH_ERRORS[result.code].status });
  throw redirect(`/auth?notice=${form.get("invite") === "1" ? "invited" : "reset"}`);
}

/** Personal pages with one-time tokens in the address: never cached, and the address never sent to another site. */
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => {
  const h = new Headers(loaderHeaders);
  h.set("Cache-Control", "no-store");
  // same-origin, not no-referrer: with no-referrer a form post carries "Origin: null" and fails the origin check.
  h.set("Referrer-Policy", "same-origin");
  return h;
};

export const meta: Route.MetaFunction = ({ matches, data: d }) => authMeta(matches, d?.invite ? "auth.inviteTitle" : "auth.resetTitle");

export default function ResetPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const answer = actionData;
  const check = useFormCheck(NewPasswordSchema, (f) => formValues(new FormData(f), ["token", "password", "confirm"]), answer?.errors);
  const failure = answer?.error ? authErrorText(answer.error, "other") : null;
  useAnswerToast(failure, answer?.at);
  const title = t(loaderData.invite ? "auth.inviteTitle" : "auth.resetTitle");

  if (!loaderData.valid || answer?.error === "INVALID_TOKEN") {
    return (
      <AuthCard title={title} testId="auth-reset">
        <Notice tone="error" testId="reset-invalid">
          {t("auth.linkInvalid")}
        </Notice>
        <Link to="/auth/forgot" className="block text-sm font-bold text-desert-700 hover:underline">
          {t("auth.requestNewLink")}
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={title} intro={t(loaderData.invite ? "auth.inviteIntro" : "auth.resetIntro")} testId="auth-reset">
      {failure && (
        <Notice tone="error" testId="auth-error">
          {t(failure.message)}
        </Notice>
      )}
      <Form method="post" noValidate onSubmit={check.onSubmit} onChange={check.onChange} className="space-y-4">
        <input type="hidden" name="token" value={loaderData.token} />
        {loaderData.invite && <input type="hidden" name="invite" value="1" />}
        <Field
          name="password"
          label={t("auth.newPassword")}
          type="password"
          dir="ltr"
          autoComplete="new-password"
          required
          maxLength={128}
          error={check.errors.password}
          hint={t("auth.passwordRules")}
        />
        <Field
          name="confirm"
          label={t("auth.confirmPassword")}
          type="password"
          dir="ltr"
          autoComplete="new-password"
          required
          maxLength={128}
          error={check.errors.confirm}
        />
        <SubmitButton pendingLabel={t("auth.submitting")} testId="reset-submit">
          {t("auth.savePassword")}
        </SubmitButton>
      </Form>
    </AuthCard>
  );
}
