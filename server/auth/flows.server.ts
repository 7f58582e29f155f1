/**
 * What our account pages do, expressed as calls to better-auth's HTTP handler. A plain form post to /auth is
 * turned into the request a script would have sent to /api/auth/…, carrying the visitor's cookie, origin,
 * fetch metadata and address, so rate limits, origin checks and cookies are better-auth's in both cases.
 * Results come back as stable codes (domain/schemas/auth.ts, AUTH_ERRORS), never as message texts.
 */
import type { AuthErrorCode } from "#domain/schemas/auth.ts";
import { getConfig } from "#server/config.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { CLIENT_IP_HEADER } from "#server/content/views.server.ts";
import { AUTH_BASE_PATH, ACCOUNT_DISABLED, getAuth } from "./auth.server.ts";
import { findAccountByEmail } from "./accounts.server.ts";

/** A refusal for too many attempts says when to come back (Retry-After, in seconds). */
export type FlowResult = { ok: true; setCookies: string[] } | { ok: false; code: AuthErrorCode; retryAfterSeconds?: number };

type AuthAnswer = { status: number; body: Record<string, unknown> | null; setCookies: string[]; location: string | null; retryAfter: string | null };

/** Headers of the visitor's request that better-auth needs to judge it as it would a direct call. */
const FORWARDED = ["cookie", "origin", "referer", "user-agent", "accept-language", "sec-fetch-site", "sec-fetch-mode", "sec-fetch-dest", CLIENT_IP_HEADER];

async function callAuth(
  request: Request,
  path: string,
  init: { method?: "GET" | "POST"; body?: unknown; query?: Record<string, string> } = {},
): Promise<AuthAnswer> {
  const config = getConfig();
  const url = new URL(AUTH_BASE_PATH + path, config.publicUrl);
  for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v);
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const method = init.method ?? "POST";
  if (method === "POST") {
    headers.set("content-type", "application/json");
    // Our pages checked the origin of the post already (assertSameOrigin); state it for requests we start.
    if (!headers.has("origin")) headers.set("origin", new URL(config.publicUrl).origin);
  }
  const auth = await getAuth();
  const response = await auth.handler(new Request(url, { method, headers, body: method === "POST" ? JSON.stringify(init.body ?? {}) : undefined }));
  let body: Record<string, unknown> | null = null;
  const text = await response.text();
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    body = null;
  }
  return {
    status: response.status,
    body,
    setCookies: response.headers.getSetCookie(),
    location: response.headers.get("location"),
    // The per-account limit says Retry-After; better-auth's per-address limit says X-Retry-After.
    retryAfter: response.headers.get("retry-after") ?? response.headers.get("x-retry-after"),
  };
}

/** The stable code of a failed better-auth answer. */
function codeOf(answer: AuthAnswer): AuthErrorCode {
  const code = typeof answer.body?.code === "string" ? answer.body.code : "";
  if (answer.status === 429) return "TOO_MANY_REQUESTS";
  if (answer.status >= 500) return "SERVICE_UNAVAILABLE";
  switch (code) {
    case "INVALID_EMAIL_OR_PASSWORD":
      return "INVALID_CREDENTIALS";
    case "EMAIL_NOT_VERIFIED":
      return "EMAIL_NOT_CONFIRMED";
    case "INVALID_EMAIL":
      return "INVALID_EMAIL";
    case "USER_ALREADY_EXISTS":
    case "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL":
      return "ALREADY_REGISTERED";
    case ACCOUNT_DISABLED:
      return "ACCOUNT_DISABLED";
    case "INVALID_TOKEN":
    case "TOKEN_EXPIRED":
      return "INVALID_TOKEN";
    case "INVALID_ORIGIN":
    case "MISSING_OR_NULL_ORIGIN":
    case "CROSS_SITE_NAVIGATION_LOGIN_BLOCKED":
      return "FORBIDDEN";
    default:
      return "FAILED";
  }
}

/** A database or network failure reads as the spec's "service unreachable", and is logged. */
async function guarded(what: string, run: () => Promise<FlowResult>): Promise<FlowResult> {
  try {
    return await run();
  } catch (error) {
    logger.error({ err: error, what }, "authentication service failed");
    return { ok: false, code: "SERVICE_UNAVAILABLE" };
  }
}

export function signIn(request: Request, input: { email: string; password: string }): Promise<FlowResult> {
  return guarded("sign-in", async () => {
    const answer = await callAuth(request, "/sign-in/email", { body: { email: input.email, password: input.password, rememberMe: true } });
    if (answer.status === 200) return { ok: true, setCookies: answer.setCookies };
    const seconds = Number(answer.retryAfter);
    if (answer.status === 429 && Number.isFinite(seconds) && seconds > 0)
      return { ok: false, code: "TOO_MANY_REQUESTS", retryAfterSeconds: Math.ceil(seconds) };
    return { ok: false, code: codeOf(answer) };
  });
}

/**
 * better-auth answers a sign-up for a registered address exactly like a new one (so a script cannot tell);
 * the spec's sign-up form says 'already registered', so the answer is compared with the stored account.
 */
export function signUp(request: Request, input: { email: string; password: string; name: string }): Promise<FlowResult> {
  return guarded("sign-up", async () => {
    const answer = await callAuth(request, "/sign-up/email", { body: { email: input.email, password: input.password, name: input.name } });
    if (answer.status !== 200) return { ok: false, code: codeOf(answer) };
    const returned = (answer.body?.user as { id?: string } | undefined)?.id;
    const stored = await findAccountByEmail(await getDb(), input.email);
    if (!stored || stored.id !== returned) return { ok: false, code: "ALREADY_REGISTERED" };
    return { ok: true, setCookies: [] };
  });
}

/** Always the same answer whether or not the address has an account (the mail goes out in the background). */
export function requestPasswordReset(request: Request, input: { email: string }): Promise<FlowResult> {
  return guarded("password reset request", async () => {
    const answer = await callAuth(request, "/request-password-reset", { body: { email: input.email, redirectTo: "/auth/reset" } });
    return answer.status === 200 ? { ok: true, setCookies: [] } : { ok: false, code: codeOf(answer) };
  });
}

/** Whether a reset (or invitation) link is still good, without spending it. */
export async function resetTokenIsValid(request: Request, token: string): Promise<boolean> {
  try {
    const answer = await callAuth(request, `/reset-password/${encodeURIComponent(token)}`, { method: "GET", query: { callbackURL: "/auth/reset" } });
    if (!answer.location) return false;
    return !new URL(answer.location, getConfig().publicUrl).searchParams.has("error");
  } catch (error) {
    logger.error({ err: error }, "reset link check failed");
    return false;
  }
}

export function resetPassword(request: Request, input: { token: string; password: string }): Promise<FlowResult> {
  return guarded("password reset", async () => {
    const answer = await callAuth(request, "/reset-password", { body: { token: input.token, newPassword: input.password } });
    return answer.status === 200 ? { ok: true, setCookies: [] } : { ok: false, code: codeOf(answer) };
  });
}

export function verifyEmail(request: Request, token: string): Promise<FlowResult> {
  return guarded("e-mail verification", async () => {
    const answer = await callAuth(request, "/verify-email", { method: "GET", query: { token } });
    return answer.status === 200 ? { ok: true, setCookies: answer.setCookies } : { ok: false, code: codeOf(answer) };
  });
}

/** Ends the session on the server and clears the cookies. */
export function signOut(request: Request): Promise<FlowResult> {
  return guarded("sign-out", async () => {
    const answer = await callAuth(request, "/sign-out", { body: {} });
    return answer.status === 200 ? { ok: true, setCookies: answer.setCookies } : { ok: false, code: codeOf(answer) };
  });
}
