import { localizedPath } from "#domain/addresses.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { useLocalPath } from "#app/lib/addresses.ts";
import { data, Link, redirect } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/reset";
import { AccountForm, AuthCard, FailureNotice, PasswordField, useAccountAnswer } from "#app/components/auth/form.tsx";
import { Notice, SubmitButton } from "#app/components/forms/notice.tsx";
import { AUTH_ERRORS, formValues, NewPasswordSchema, type AccountFormError } from "#domain/schemas/auth.ts";
import type { FormAnswer } from "#domain/form-answer.ts";
import { accountHeaders, authMeta } from "#app/lib/auth-meta.ts";
import { resetPassword, resetTokenIsValid } from "#server/auth/flows.server.ts";
import { assertSameOrigin } from "#server/auth/session.server.ts";
import { checkForm, formAction } from "#server/http/form-action.server.ts";

/** The link of a password-reset e-mail, and of a staff invitation (`invite=1`): choose a password. */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  const invite = url.searchParams.get("invite") === "1";
  const valid = token.length > 0 && token.length <= 512 && (await resetTokenIsValid(request, token));
  return data({ token: valid ? token : "", invite, valid }, { status: valid ? 200 : 400, headers: { "Cache-Control": "no-store" } });
}

/** The one form answer (domain/form-answer.ts); a saved password goes on to sign-in instead. */
type ActionData = FormAnswer<"token" | "password" | "confirm", AccountFormError>;

export async function action({ request }: Route.ActionArgs) {
  assertSameOrigin(request);
  return formAction<ActionData>(request, { limit: "account" }, async (form) => {
    const result = await resetPassword(request, checkForm(NewPasswordSchema, formValues(form, ["token", "password", "confirm"])));
    if (!result.ok) return data<ActionData>({ ok: false, formError: result.code }, { status: AUTH_ERRORS[result.code].status });
    throw redirect(localizedPath(languageOfRequest(request), `/auth?notice=${form.get("invite") === "1" ? "invited" : "reset"}`));
  });
}

/** Personal pages with one-time tokens in the address (accountHeaders). */
export const headers: Route.HeadersFunction = accountHeaders;

export const meta: Route.MetaFunction = ({ matches, data: d }) => authMeta(matches, d?.invite ? "auth.inviteTitle" : "auth.resetTitle");

export default function ResetPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const local = useLocalPath();
  const answer = actionData;
  const { check, code, failure } = useAccountAnswer(NewPasswordSchema, ["token", "password", "confirm"], answer, "other");
  const title = t(loaderData.invite ? "auth.inviteTitle" : "auth.resetTitle");

  if (!loaderData.valid || code === "INVALID_TOKEN") {
    return (
      <AuthCard title={title} testId="auth-reset">
        <Notice tone="error" testId="reset-invalid">
          {t("auth.linkInvalid")}
        </Notice>
        <Link to={local("/auth/forgot")} className="block text-sm font-bold text-desert-700 hover:underline">
          {t("auth.requestNewLink")}
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={title} intro={t(loaderData.invite ? "auth.inviteIntro" : "auth.resetIntro")} testId="auth-reset">
      <FailureNotice failure={failure} />
      <AccountForm check={check}>
        <input type="hidden" name="token" value={loaderData.token} />
        {loaderData.invite && <input type="hidden" name="invite" value="1" />}
        <PasswordField label={t("auth.newPassword")} autoComplete="new-password" error={check.errors.password} hint={t("auth.passwordRules")} />
        <PasswordField name="confirm" label={t("auth.confirmPassword")} autoComplete="new-password" error={check.errors.confirm} />
        <SubmitButton pendingLabel={t("auth.submitting")} testId="reset-submit">
          {t("auth.savePassword")}
        </SubmitButton>
      </AccountForm>
    </AuthCard>
  );
}
