import { localizedPath } from "#domain/addresses.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { data, redirect } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/setup";
import { AccountForm, AuthCard, AuthField, EmailField, FailureNotice, PasswordField, useAccountAnswer } from "#app/components/auth/form.tsx";
import { Notice, SubmitButton } from "#app/components/forms/notice.tsx";
import { AUTH_ERRORS, formValues, SetupSchema, type AccountFormError } from "#domain/schemas/auth.ts";
import type { FormAnswer } from "#domain/form-answer.ts";
import { accountHeaders, authMeta } from "#app/lib/auth-meta.ts";
import { getDb } from "#server/db/client.server.ts";
import { signIn } from "#server/auth/flows.server.ts";
import { assertSameOrigin } from "#server/auth/session.server.ts";
import { checkForm, formAction } from "#server/http/form-action.server.ts";
import { completeFirstRunSetup, setupTokenIsValid } from "#server/auth/setup.server.ts";

const FIELDS = ["token", "fullName", "email", "password"] as const;

/** First run: the link printed to the server log creates the first administrator, once. */
export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const valid = await setupTokenIsValid(await getDb(), token);
  return data({ token: valid ? token : "", valid }, { status: valid ? 200 : 404, headers: { "Cache-Control": "no-store" } });
}

/** The one form answer (domain/form-answer.ts); a created administrator goes on to the back-office instead. */
type ActionData = FormAnswer<(typeof FIELDS)[number], AccountFormError>;

export async function action({ request }: Route.ActionArgs) {
  assertSameOrigin(request);
  return formAction<ActionData>(request, { limit: "account" }, async (form) => {
    const admin = checkForm(SetupSchema, formValues(form, FIELDS));
    const done = await completeFirstRunSetup(await getDb(), admin);
    if (!done.ok) return data<ActionData>({ ok: false, formError: done.code }, { status: AUTH_ERRORS[done.code].status });
    // Straight into the back-office; if signing in fails for any reason the sign-in page takes over.
    const session = await signIn(request, { email: admin.email, password: admin.password });
    if (session.ok) throw redirect("/admin", { headers: session.setCookies.map((c) => ["Set-Cookie", c] as [string, string]) });
    throw redirect(localizedPath(languageOfRequest(request), "/auth?notice=setup"));
  });
}

/** Personal pages with one-time tokens in the address (accountHeaders). */
export const headers: Route.HeadersFunction = accountHeaders;

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "auth.setupTitle");

export default function SetupPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const answer = actionData;
  const { check, code, failure } = useAccountAnswer(SetupSchema, FIELDS, answer, "signUp");
  if (!loaderData.valid || code === "INVALID_TOKEN") {
    return (
      <AuthCard title={t("auth.setupTitle")} testId="setup">
        <Notice tone="error" testId="setup-invalid">
          {t("auth.setupInvalid")}
        </Notice>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("auth.setupTitle")} intro={t("auth.setupIntro")} testId="setup">
      <FailureNotice failure={failure} />
      <AccountForm check={check}>
        <input type="hidden" name="token" value={loaderData.token} />
        <AuthField name="fullName" label={t("auth.fullName")} autoComplete="name" required maxLength={100} error={check.errors.fullName} />
        <EmailField error={check.errors.email} />
        <PasswordField label={t("auth.password")} autoComplete="new-password" error={check.errors.password} hint={t("auth.passwordRules")} />
        <SubmitButton pendingLabel={t("auth.submitting")} testId="setup-submit">
          {t("auth.setupCreate")}
        </SubmitButton>
      </AccountForm>
    </AuthCard>
  );
}
