import { useLocalPath } from "#app/lib/addresses.ts";
import { data, Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/verify";
import { AuthCard } from "#app/components/auth/form.tsx";
import { Notice } from "#app/components/forms/notice.tsx";
import { accountHeaders, authMeta } from "#app/lib/auth-meta.ts";
import { verifyEmail } from "#server/auth/flows.server.ts";

/** The link of the verification e-mail: confirms the address, then invites to sign in. */
export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const result = token && token.length <= 2048 ? await verifyEmail(request, token) : ({ ok: false, code: "INVALID_TOKEN" } as const);
  const outcome: "verified" | "busy" | "unavailable" | "invalid" = result.ok
    ? "verified"
    : result.code === "TOO_MANY_REQUESTS"
      ? "busy"
      : result.code === "SERVICE_UNAVAILABLE"
        ? "unavailable"
        : "invalid";
  const status = { verified: 200, busy: 429, unavailable: 503, invalid: 400 }[outcome];
  return data({ outcome }, { status, headers: { "Cache-Control": "no-store" } });
}

/** Personal pages with one-time tokens in the address (accountHeaders). */
export const headers: Route.HeadersFunction = accountHeaders;

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "auth.verifyTitle");

export default function VerifyEmailPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const local = useLocalPath();
  const { outcome } = loaderData;
  const texts: Record<typeof outcome, string> = {
    verified: "auth.verified",
    busy: "auth.tooManyRequests",
    unavailable: "auth.serviceUnavailable",
    invalid: "auth.verifyFailed",
  };
  const text = texts[outcome];
  return (
    <AuthCard title={t("auth.verifyTitle")} testId="auth-verify">
      <Notice tone={outcome === "verified" ? "success" : "error"} testId={`verify-${outcome}`}>
        {t(text)}
      </Notice>
      <Link
        to={local("/auth")}
        className="block rounded-md bg-desert-600 px-4 py-3 text-center font-bold text-white hover:bg-desert-700"
        data-testid="verify-sign-in"
      >
        {t("auth.signIn")}
      </Link>
    </AuthCard>
  );
}
