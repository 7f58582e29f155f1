import { data, Form, redirect } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/setup";
import { AuthCard, Field, Notice, SubmitButton, useAnswerToast, useFormCheck } from "#app/components/auth/form.tsx";
import { AUTH_ERRORS, authErrorText, formValues, SetupSchema, validate, type AuthErrorCode } from "#domain/schemas/auth.ts";
import type { FieldErrors } from "#domain/schemas/shared.ts";
import { authMeta } from "#app/lib/auth-meta.ts";
import { getDb } from "#server/db/client.server.ts";
import { signIn } from "#server/auth/flows.server.ts";
import { assertSameOrigin, readForm } from "#server/auth/session.server.ts";
import { completeFirstRunSetup, setupTokenIsValid } from "#server/auth/setup.server.ts";

const FIELDS = ["token", "fullName", "email", "password"] as const;

/** First run: the link printed to the server log creates the first administrator, once. */
export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const valid = await setupTokenIsValid(await getDb(), token);
  return data({ token: valid ? token : "", valid }, { status: valid ? 200 : 404, headers: { "Cache-Control": "no-store" } });
}

type ActionData = { errors?: FieldErrors; error?: AuthErrorCode; at: number };

export async function action({ request }: Route.ActionArgs) {
  assertSameOrigin(request);
  const form = await readForm(request);
  const at = Date.now();
  const parsed = validate(SetupSchema, formValues(form, FIELDS));
  if (!parsed.ok) return data<ActionData>({ errors: parsed.errors, at }, { status: 400 });
  const done = await completeFirstRunSetup(await getDb(), parsed.data);
  if (!done.ok) return data<ActionData>({ error: done.code, at }, { status: AUTH_ERRORS[done.code].status });
  // Straight into the back-office; if signing in fails for any reason the sign-in page takes over.
  const session = await signIn(request, { email: parsed.data.email, password: parsed.data.password });
  if (session.ok) throw redirect("/admin", { headers: session.setCookies.map((c) => ["Set-Cookie", c] as [string, string]) });
  throw redirect("/auth?notice=setup");
}

/** Personal pages with one-time tokens in the address: never cached, and the address never sent to another site. */
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => {
  const h = new Headers(loaderHeaders);
  h.set("Cache-Control", "no-store");
  // same-origin, not no-referrer: with no-referrer a form post carries "Origin: null" and fails the origin check.
  h.set("Referrer-Policy", "same-origin");
  return h;
};

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "auth.setupTitle");

export default function SetupPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const answer = actionData;
  const check = useFormCheck(SetupSchema, (f) => formValues(new FormData(f), FIELDS), answer?.errors);
  const failure = answer?.error ? authErrorText(answer.error, "signUp") : null;
  useAnswerToast(failure, answer?.at);
  if (!loaderData.valid || answer?.error === "INVALID_TOKEN") {
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
      {failure && (
        <Notice tone="error" testId="auth-error">
          {t(failure.message)}
        </Notice>
      )}
      <Form method="post" noValidate onSubmit={check.onSubmit} onChange={check.onChange} className="space-y-4">
        <input type="hidden" name="token" value={loaderData.token} />
        <Field name="fullName" label={t("auth.fullName")} autoComplete="name" required maxLength={100} error={check.errors.fullName} />
        <Field name="email" label={t("auth.email")} type="email" autoComplete="email" dir="ltr" required maxLength={254} error={check.errors.email} />
        <Field
          name="password"
          label={t("auth.password")}
          type="password"
          dir="ltr"
          autoComplete="new-password"
          required
          maxLength={128}
          error={check.errors.password}
          hint={t("auth.passwordRules")}
        />
        <SubmitButton pendingLabel={t("auth.submitting")} testId="setup-submit">
          {t("auth.setupCreate")}
        </SubmitButton>
      </Form>
    </AuthCard>
  );
}
