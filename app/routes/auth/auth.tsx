import { localizedPath } from "#domain/addresses.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { useLocalPath } from "#app/lib/addresses.ts";
import { data, isRouteErrorResponse, Link, redirect } from "react-router";
import { redirectFrom } from "#app/lib/static-page.ts";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/auth";
import { AccountForm, AuthCard, AuthField, EmailField, PasswordField, useAccountAnswer } from "#app/components/auth/form.tsx";
import { Notice, SubmitButton } from "#app/components/forms/notice.tsx";
import { AUTH_ERRORS, formValues, SignInSchema, SignUpSchema, type AccountFormError } from "#domain/schemas/auth.ts";
import type { FormAnswer } from "#domain/form-answer.ts";
import { safeRedirectPath } from "#domain/navigation.ts";
import { accountHeaders, authMeta } from "#app/lib/auth-meta.ts";
import { signIn, signUp } from "#server/auth/flows.server.ts";
import { assertSameOrigin, getSessionUser } from "#server/auth/session.server.ts";
import { checkForm, formAction } from "#server/http/form-action.server.ts";

type Mode = "signIn" | "signUp";
const NOTICES = ["registered", "reset", "verified", "setup", "invited"] as const;
type NoticeKind = (typeof NOTICES)[number];

/** Where to go after signing in: the remembered origin (same site only), otherwise the back-office. */
const targetOf = (value: unknown) => safeRedirectPath(value, "/admin");

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = targetOf(url.searchParams.get("redirectTo"));
  // Someone already signed in has nothing to do here.
  if (await getSessionUser(request)) throw redirectFrom(redirectTo);
  const notice = url.searchParams.get("notice");
  return data(
    {
      mode: (url.searchParams.get("mode") === "signup" ? "signUp" : "signIn") as Mode,
      redirectTo,
      expired: url.searchParams.get("expired") === "1",
      notice: (NOTICES as readonly string[]).includes(notice ?? "") ? (notice as NoticeKind) : null,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** The one form answer (domain/form-answer.ts), in the mode it was posted in; `values` keeps the e-mail typed. */
type ActionData = FormAnswer<"fullName" | "email" | "password", AccountFormError> & { mode: Mode };

const modeOf = (form: FormData | null): Mode => (form?.get("mode") === "signUp" ? "signUp" : "signIn");

/** Every refusal keeps the mode and the e-mail typed (an unreadable post: sign-in, empty). */
function echo(form: FormData | null) {
  const typed = form?.get("email");
  return { mode: modeOf(form), values: { email: typeof typed === "string" ? typed.slice(0, 254) : "" } };
}

export async function action({ request }: Route.ActionArgs) {
  assertSameOrigin(request);
  return formAction<ActionData>(request, { limit: "account", echo }, (form) =>
    modeOf(form) === "signIn" ? signInWith(request, form) : signUpWith(request, form),
  );
}

async function signInWith(request: Request, form: FormData) {
  const credentials = checkForm(SignInSchema, formValues(form, ["email", "password"]));
  const result = await signIn(request, credentials);
  if (result.ok) throw redirectFrom(targetOf(form.get("redirectTo")), { headers: result.setCookies.map((c) => ["Set-Cookie", c] as [string, string]) });
  const retryAfter = "retryAfterSeconds" in result && result.retryAfterSeconds ? { "Retry-After": String(result.retryAfterSeconds) } : undefined;
  return data<ActionData>(
    { ok: false, mode: "signIn", formError: result.code, values: { email: credentials.email } },
    { status: AUTH_ERRORS[result.code].status, headers: retryAfter },
  );
}

async function signUpWith(request: Request, form: FormData) {
  const mode: Mode = "signUp";
  const redirectTo = targetOf(form.get("redirectTo"));
  const { fullName, email, password } = checkForm(SignUpSchema, formValues(form, ["fullName", "email", "password"]));
  // An empty name stays empty: the display name then falls back to the e-mail (back-office.md §6).
  const result = await signUp(request, { email, password, name: fullName });
  if (result.ok) {
    // Back to sign-in mode with the check-your-e-mail text (public-site.md §2, "/auth").
    const next = new URLSearchParams({ notice: "registered" });
    if (redirectTo !== "/admin") next.set("redirectTo", redirectTo);
    throw redirect(localizedPath(languageOfRequest(request), `/auth?${next}`));
  }
  return data<ActionData>({ ok: false, mode, formError: result.code, values: { email } }, { status: AUTH_ERRORS[result.code].status });
}

/**
 * With JavaScript the form posts through this. When the server cannot be reached (the network down, or an
 * error page instead of the action's answer) the reader stays on the form with the spec's connection-error
 * toast and the e-mail kept (public-site.md §8, "service unreachable"), not the generic error screen.
 */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  // Read before the server call consumes the body.
  const form = await request.clone().formData();
  try {
    return await serverAction();
  } catch (error) {
    // Redirects (signed in, signed up) and the server's own 4xx refusals go on as before.
    if (error instanceof Response || (isRouteErrorResponse(error) && error.status < 500)) throw error;
    const email = form.get("email");
    const answer: ActionData = {
      ok: false,
      mode: form.get("mode") === "signUp" ? "signUp" : "signIn",
      formError: "SERVICE_UNAVAILABLE",
      values: { email: typeof email === "string" ? email.slice(0, 254) : "" },
    };
    // A 5xx status: React Router then skips revalidating the loaders, which would fail the same way.
    return data(answer, { status: 503 });
  }
}

/** Personal pages with one-time tokens in the address (accountHeaders); a refused sign-in says when to come back. */
export const headers: Route.HeadersFunction = accountHeaders;

export const meta: Route.MetaFunction = ({ matches, data: d }) => authMeta(matches, d?.mode === "signUp" ? "auth.signUp" : "auth.signIn");

const NOTICE_TEXT: Record<NoticeKind, string> = {
  registered: "auth.checkEmail",
  reset: "auth.passwordChanged",
  verified: "auth.verified",
  setup: "auth.setupDone",
  invited: "auth.passwordChanged",
};

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData as ActionData | undefined;
  // A failed sign-up stays in sign-up mode; everything else follows the address.
  const mode: Mode = answer?.mode ?? loaderData.mode;
  return <AuthForm key={mode} mode={mode} loaderData={loaderData} answer={answer} />;
}

function AuthForm({ mode, loaderData, answer }: { mode: Mode; loaderData: Route.ComponentProps["loaderData"]; answer: ActionData | undefined }) {
  const { t } = useTranslation();
  const local = useLocalPath();
  const signingUp = mode === "signUp";
  const schema = signingUp ? SignUpSchema : SignInSchema;
  const fields = signingUp ? (["fullName", "email", "password"] as const) : (["email", "password"] as const);
  const { check, code, failure } = useAccountAnswer(schema, fields, answer, mode);

  const toggle = new URLSearchParams();
  if (!signingUp) toggle.set("mode", "signup");
  if (loaderData.redirectTo !== "/admin") toggle.set("redirectTo", loaderData.redirectTo);
  const toggleHref = `/auth${toggle.size ? `?${toggle}` : ""}`;

  return (
    <AuthCard
      title={t(signingUp ? "auth.signUp" : "auth.signIn")}
      intro={t(signingUp ? "auth.signUpIntro" : "auth.signInIntro")}
      testId={`auth-${signingUp ? "sign-up" : "sign-in"}`}
    >
      {loaderData.expired && !answer && (
        <Notice tone="info" testId="notice-expired">
          {t("auth.sessionExpired")}
        </Notice>
      )}
      {loaderData.notice && !answer && (
        <Notice tone="success" testId={`notice-${loaderData.notice}`}>
          {t(NOTICE_TEXT[loaderData.notice])}
        </Notice>
      )}
      {failure && (
        <Notice tone="error" testId="auth-error">
          <p className="font-bold">{t(failure.title)}</p>
          <p>{t(failure.message)}</p>
          {code === "EMAIL_NOT_CONFIRMED" && <p className="mt-1">{t("auth.verificationResent")}</p>}
        </Notice>
      )}
      <AccountForm check={check} replace data-testid="auth-form">
        <input type="hidden" name="mode" value={mode} />
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        {signingUp && (
          <AuthField name="fullName" label={t("auth.fullName")} autoComplete="name" maxLength={100} error={check.errors.fullName} hint={t("auth.optional")} />
        )}
        <EmailField defaultValue={(answer && !answer.ok && answer.values?.email) || ""} error={check.errors.email} />
        <PasswordField
          label={t("auth.password")}
          autoComplete={signingUp ? "new-password" : "current-password"}
          error={check.errors.password}
          hint={signingUp ? t("auth.passwordRules") : undefined}
        />
        <SubmitButton pendingLabel={t("auth.submitting")} testId="auth-submit">
          {t(signingUp ? "auth.signUp" : "auth.signIn")}
        </SubmitButton>
      </AccountForm>
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
        <Link to={local(toggleHref)} className="font-bold text-desert-700 hover:underline" data-testid="auth-toggle">
          {t(signingUp ? "auth.haveAccount" : "auth.noAccount")}
        </Link>
        {!signingUp && (
          <Link to={local("/auth/forgot")} className="text-ink-soft hover:underline" data-testid="forgot-link">
            {t("auth.forgotPassword")}
          </Link>
        )}
      </div>
    </AuthCard>
  );
}
