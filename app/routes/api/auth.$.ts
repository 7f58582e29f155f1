import type { Route } from "./+types/auth.$";
import { EMAIL_MAX } from "#domain/schemas/shared.ts";
import { NAME_MAX } from "#domain/schemas/auth.ts";
import { getAuth } from "#server/auth/auth.server.ts";
import { parseFormData, parseJsonObject, readBody, RequestBodyError } from "#server/http/request-body.server.ts";

/**
 * better-auth's own HTTP API (/api/auth/*): sign-in, sign-up, sessions, verification and reset for scripts
 * and the browser. The request passes as it came (server/app.server.ts has set the client-address header on it),
 * except its body: better-auth would read any body whole, so it is read here first within the account
 * forms' limit (server/http/request-body.server.ts) and handed on as bytes. Fields our own forms bound are bounded here
 * too, so that a script cannot sign up with an address no mail server would accept.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return (await getAuth()).handler(request);
}

const NO_STORE = { "Cache-Control": "no-store" };

/** better-auth's error shape, `{ code, message }`. */
const refuse = (status: number, code: string, message: string) => Response.json({ code, message }, { status, headers: NO_STORE });

/** The field our forms would refuse, if any (the same bounds as domain/schemas/auth.ts). */
function fieldTooLong(body: Record<string, unknown>): Response | null {
  if (typeof body.email === "string" && body.email.length > EMAIL_MAX) return refuse(400, "INVALID_EMAIL", `Invalid email: at most ${EMAIL_MAX} characters`);
  if (typeof body.name === "string" && body.name.length > NAME_MAX) return refuse(400, "NAME_TOO_LONG", `Name too long: at most ${NAME_MAX} characters`);
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
    if (!(error instanceof RequestBodyError)) throw error;
    return refuse(error.status, error.code, error.message);
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
  return (await getAuth()).handler(buffered);
}
