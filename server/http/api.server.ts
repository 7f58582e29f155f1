/**
 * Every JSON endpoint's common ground (public-site.md §7 "REST endpoints", the newsroom's API of
 * back-office.md): one runner (handleApi) that turns whatever an endpoint throws into the one error shape
 * `{ error: { code, message, fields? } }` (server/http/errors.server.ts, docs/api-errors.md), one strict reading
 * of query strings (parseQuery, 400 INVALID_QUERY), a short public cache on the public endpoints' success and
 * `no-store` on everything else.
 */
import { z } from "zod/mini";
import {
  BadRequestError,
  errorResponse,
  ForbiddenError,
  isThrownResponse,
  MethodNotAllowedError,
  UnauthorizedError,
  type AppError,
  type ErrorFields,
} from "./errors.server.ts";
import { sharedCacheControl, sharedCacheDirectives } from "./shared-cache.server.ts";

/** Browsers keep a public answer a minute; shared caches as the CDN_* settings say (server/http/shared-cache.server.ts). */
export const PUBLIC_API_BROWSER_SECONDS = 60;

/**
 * A success answer: public endpoints keep the default short cache, shared caches the CDN_* settings' (their surrogate
 * keys are added as the answer is sent, server/http/page-cache.server.ts `responseCachePolicy`); the back-office's pass `no-store`.
 */
export function apiJson(body: unknown, { status = 200, cache }: { status?: number; cache?: string } = {}): Response {
  return Response.json(body, { status, headers: { "Cache-Control": withSharedLifetimes(cache) } });
}

/** An endpoint's own public cache (`public, max-age=30`) is the browsers'; shared caches keep it as the CDN_* settings say. */
function withSharedLifetimes(cache: string | undefined): string {
  if (cache === undefined) return sharedCacheControl(PUBLIC_API_BROWSER_SECONDS);
  return /^public\b/.test(cache) && !/\bs-maxage\b/.test(cache) ? `${cache}, ${sharedCacheDirectives()}` : cache;
}

/** A back-office success answer: never stored by any cache (it depends on who asks). */
export function privateJson(body: unknown, status = 200): Response {
  return apiJson(body, { status, cache: "no-store" });
}

/**
 * The session guard's refusals (server/auth/session.server.ts throws `data({reason}, {status})` for pages and
 * forms) as the API's errors: the reason as a stable code, the words the back-office's guard screen shows
 * (app/components/admin/guard.tsx), and its headers (the Set-Cookie that clears an expired session).
 */
const GUARD_REFUSALS: Record<string, { code: string; message: string }> = {
  unauthenticated: { code: "UNAUTHENTICATED", message: "adminShell.signInNeeded" },
  "access-denied": { code: "ACCESS_DENIED", message: "admin.accessDenied" },
  "permission-needed": { code: "PERMISSION_NEEDED", message: "admin.permissionNeeded" },
  "confirm-email": { code: "CONFIRM_EMAIL", message: "admin.confirmEmail" },
  "cross-origin": { code: "CROSS_ORIGIN", message: "adminShell.crossOrigin" },
};

/** A thrown guard refusal as an AppError (without the guard's headers), or null for anything else thrown. */
export function guardRefusalOf(thrown: unknown): AppError | null {
  if (!isThrownResponse(thrown) || thrown instanceof Response) return null;
  const { data, init } = thrown as { data: unknown; init?: ResponseInit | null };
  const reason = (data as { reason?: unknown } | null)?.reason;
  const refusal = typeof reason === "string" ? GUARD_REFUSALS[reason] : undefined;
  if (!refusal || !init?.status) return null;
  return init.status === 401 ? new UnauthorizedError(refusal.message, refusal.code) : new ForbiddenError(refusal.message, refusal.code);
}

/**
 * A thrown guard refusal as the API's error answer, or null for anything else thrown. The guard's headers go
 * with it (the Set-Cookie lines that clear an expired session).
 */
function guardRefusalResponse(thrown: unknown, what: string): Response | null {
  const refusal = guardRefusalOf(thrown);
  if (!refusal) return null;
  const response = errorResponse(refusal, what);
  const init = (thrown as { init?: ResponseInit | null }).init;
  for (const cookie of new Headers(init?.headers).getSetCookie()) response.headers.append("Set-Cookie", cookie);
  return response;
}

/**
 * Runs an endpoint (`what` names it in the log): an AppError, or the session guard's refusal, becomes its
 * status and the one error shape; anything else a logged 500 INTERNAL_ERROR that reveals nothing. The guard
 * runs inside, so that its refusals take the same shape.
 */
export async function handleApi(what: string, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    const refusal = guardRefusalResponse(error, what);
    if (refusal) return refusal;
    if (isThrownResponse(error)) throw error;
    return errorResponse(error, what);
  }
}

/**
 * The handler of a method an endpoint does not answer (a resource route without a loader or an action would
 * get React Router's own answer, in another shape): 405 METHOD_NOT_ALLOWED with Allow. `first` runs before,
 * for the checks the endpoint makes of every request (its guard, whether the thing at the URL exists).
 */
export function methodNotAllowed(allowed: readonly string[], first?: (request: Request, params: Record<string, string | undefined>) => Promise<unknown>) {
  return ({ request, params }: { request: Request; params: Record<string, string | undefined> }) =>
    handleApi("method not allowed", async () => {
      await first?.(request, params);
      throw new MethodNotAllowedError(allowed);
    });
}

const MAX_VALUE_LENGTH = 100;

/** What an endpoint's query schema is: z.strictObject of pieces from domain/query.ts. */
type QuerySchema = z.ZodMiniObject<z.core.$ZodLooseShape, z.core.$strict>;

/** The query schema of an endpoint that takes no parameters: any parameter is refused. */
export const NO_QUERY = z.strictObject({});

/**
 * The query string of a request, checked by the endpoint's one schema: unknown parameters, repeated ones,
 * oversized values and bad values answer 400 INVALID_QUERY, with one message per parameter in `fields` and
 * the first of them as the message. No message echoes a value.
 */
export function parseQuery<S extends QuerySchema>(request: Request, schema: S, { maxLength = MAX_VALUE_LENGTH } = {}): z.output<S> {
  const raw = Object.create(null) as Record<string, string>;
  const fields: ErrorFields = {};
  for (const [name, value] of new URL(request.url).searchParams) {
    const shown = safeName(name);
    if (Object.hasOwn(raw, name)) fields[shown] ??= `The ${shown} parameter may be given only once.`;
    else if (value.length > maxLength) fields[shown] ??= `The ${shown} parameter is too long.`;
    raw[name] = value;
  }
  if (!Object.keys(fields).length) {
    const parsed = z.safeParse(schema, raw);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      if (issue.code === "unrecognized_keys") {
        const allowed = Object.keys(schema.shape);
        const known = allowed.length ? `Allowed: ${allowed.join(", ")}.` : "This endpoint takes none.";
        for (const key of issue.keys) fields[safeName(key)] ??= `Unknown query parameter "${safeName(key)}". ${known}`;
      } else {
        const name = String(issue.path[0]);
        fields[name] ??= `The ${name} parameter ${issue.message}.`;
      }
    }
  }
  throw new BadRequestError("INVALID_QUERY", Object.values(fields)[0] ?? "The query string is not valid.", { fields });
}

/** A parameter name as it may appear in a message: short, and nothing but word characters. */
const safeName = (name: string) => name.slice(0, 40).replace(/[^\w-]/g, "?");
