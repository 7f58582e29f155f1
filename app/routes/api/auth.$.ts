import type { Route } from "./+types/auth.$";
import { EMAIL_MAX } from "#domain/schemas/shared.ts";
import { NAME_MAX } from "#domain/schemas/auth.ts";
import { getAuth } from "#server/auth/auth.server.ts";
import { AppError, BadRequestError, errorResponse, INTERNAL_ERROR_MESSAGE } from "#server/http/errors.server.ts";
import { parseFormData, parseJsonObject, readBody } from "#server/http/request-body.server.ts";

/**
 * better-auth's own HTTP API (/api/auth/*): sign-in, sign-up, sessions, verification and reset for scripts.
 * The browser does not use it (no better-auth client): our account pages call better-auth's handler on the
 * server (server/auth/flows.server.ts), so this mount is free to answer refusals in the APIs' one error shape
 * (docs/api-errors.md): better-auth's `{code, message}` becomes `{error: {code, message}}`, its headers kept
 * (Set-Cookie, Retry-After). Successes and redirects pass as better-auth made them.
 *
 * The request passes as it came (server/app.server.ts has set the client-address header on it), except its body:
 * better-auth would read any body whole, so it is read here first within the account forms' limit
 * (server/http/request-body.server.ts) and handed on as bytes. Fields our own forms bound are bounded here too,
 * so that a script cannot sign up with an address no mail server would accept.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return inOurShape(await (await getAuth()).handler(request));
}

/** The code of a better-auth refusal that names none, by status. */
const CODES_BY_STATUS: Record<number, string> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  413: "BODY_TOO_LARGE",
  429: "RATE_LIMITED",
};

/** A refusal's body as better-auth writes it, or null (no body, or not JSON: the status says it). */
function jsonOf(text: string): { code?: unknown; message?: unknown } | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" ? value : null;
  } catch {
    return null;
  }
}

/** better-auth's refusal in the one error shape, with its headers; any other answer as it is. */
async function inOurShape(response: Response): Promise<Response> {
  if (response.status < 400) return response;
  const body = jsonOf(await response.text());
  const code = typeof body?.code === "string" && body.code ? body.code : (CODES_BY_STATUS[response.status] ?? "BAD_REQUEST");
  const message = typeof body?.message === "string" && body.message ? body.message : response.statusText || code;
  const error = response.status >= 500 ? new AppError(response.status, "INTERNAL_ERROR", INTERNAL_ERROR_MESSAGE) : new AppError(response.status, code, message);
  const answer = errorResponse(error, "api/auth");
  for (const [name, value] of response.headers) {
    if (/^(content-type|content-length|content-encoding|cache-control|set-cookie)$/i.test(name)) continue;
    answer.headers.set(name, value);
  }
  for (const cookie of response.headers.getSetCookie()) answer.headers.append("Set-Cookie", cookie);
  return answer;
}

/** The field our forms would refuse, if any (the same bounds as domain/schemas/auth.ts). */
function fieldTooLong(body: Record<string, unknown>): Response | null {
  if (typeof body.email === "string" && body.email.length > EMAIL_MAX) {
    return errorResponse(new BadRequestError("INVALID_EMAIL", `Invalid email: at most ${EMAIL_MAX} characters`));
  }
  if (typeof body.name === "string" && body.name.length > NAME_MAX) {
    return errorResponse(new BadRequestError("NAME_TOO_LONG", `Name too long: at most ${NAME_MAX} characters`));
  }
  return null;
}

/**
 * The submitted fields as better-auth will see them (JSON, or a form as URL-encoded text), their strings
 * without control characters as every body of ours (server/http/request-body.server.ts); null when they do not parse
 * (better-auth answers that in its own words).
 */
async function fieldsOf(body: Uint8Array<ArrayBuffer>, contentType: string): Promise<{ fields: Record<string, unknown>; type: string; text: string } | null> {
  if (body.byteLength === 0) return null;
  try {
    if (/^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType)) {
      const fields = parseJsonObject(body);
      return { fields, type: contentType, text: JSON.stringify(fields) };
    }
    if (/^(?:application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(contentType)) {
      const form = await parseFormData(body, contentType);
      const fields = Object.fromEntries([...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string"));
      return { fields, type: "application/x-www-form-urlencoded", text: new URLSearchParams(fields).toString() };
    }
  } catch {
    // Malformed: better-auth refuses it in its own words.
  }
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  let body: Uint8Array<ArrayBuffer>;
  try {
    body = await readBody(request);
  } catch (error) {
    return errorResponse(error, "api/auth");
  }
  const parsed = await fieldsOf(body, request.headers.get("content-type") ?? "");
  const refused = parsed && fieldTooLong(parsed.fields);
  if (refused) return refused;
  const headers = new Headers(request.headers);
  // The body is now a buffer of known length, not the stream these described.
  headers.delete("transfer-encoding");
  headers.delete("content-length");
  if (parsed) headers.set("content-type", parsed.type);
  const forwarded = parsed ? parsed.text : body.byteLength > 0 ? body : undefined;
  const buffered = new Request(request.url, { method: request.method, headers, body: forwarded, signal: request.signal });
  return inOurShape(await (await getAuth()).handler(buffered));
}
