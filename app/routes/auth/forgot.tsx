import { useLocalPath } from "#app/lib/addresses.ts";
import { data, Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/forgot";
import { AccountForm, AuthCard, EmailField, FailureNotice, useAccountAnswer } from "#app/components/auth/form.tsx";
import { Notice, SubmitButton } from "#app/components/forms/notice.tsx";
import { AUTH_ERRORS, ForgotPasswordSchema, formValues, type AccountFormError } from "#domain/schemas/auth.ts";
import type { FormAnswer } from "#domain/form-answer.ts";
import { accountHeaders, authMeta } from "#app/lib/auth-meta.ts";
import { requestPasswordReset } from "#server/auth/flows.server.ts";
import { assertSameOrigin } from "#server/auth/session.server.ts";
import { checkForm, formAction } from "#server/http/form-action.server.ts";

/** The one form answer (domain/form-answer.ts): `ok` once the link is on its way. */
type ActionData = FormAnswer<"email", AccountFormError>;

export function loader() {
  return data(null, { headers: { "Cache-Control": "no-store" } });
}

/**
 * The answer is the same whether or not the address has an account, and takes the same time: the e-mail
 * goes out in the background (server/auth/auth.server.ts, sendResetPassword).
 */
export async function action({ request }: Route.ActionArgs) {
  assertSameOrigin(request);
  return formAction<ActionData>(request, { limit: "account" }, async (form) => {
    const result = await requestPasswordReset(request, checkForm(ForgotPasswordSchema, formValues(form, ["email"])));
    if (!result.ok) return data<ActionData>({ ok: false, formError: result.code }, { status: AUTH_ERRORS[result.code].status });
    return data<ActionData>({ ok: true });
  });
}

/** Personal pages with one-time tokens in the address (accountHeaders). */
export const headers: Route.HeadersFunction = accountHeaders;

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "auth.forgotTitle");

export default function ForgotPasswordPage({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const local = useLocalPath();
  const answer = actionData;
  const { check, failure } = useAccountAnswer(ForgotPasswordSchema, ["email"], answer, "other");
  return (
    <AuthCard title={t("auth.forgotTitle")} intro={t("auth.forgotIntro")} testId="auth-forgot">
      {answer?.ok && (
        <Notice tone="success" testId="notice-reset-sent">
          {t("auth.resetSent")}
        </Notice>
      )}
      <FailureNotice failure={failure} />
      <AccountForm check={check}>
        <EmailField error={check.errors.email} />
        <SubmitButton pendingLabel={t("auth.submitting")} testId="forgot-submit">
          {t("auth.sendResetLink")}
        </SubmitButton>
      </AccountForm>
      <Link to={local("/auth")} className="block text-sm font-bold text-desert-700 hover:underline">
        {t("auth.backToSignIn")}
      </Link>
    </AuthCard>
  );
}
