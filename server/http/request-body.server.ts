/**
 * The one way a request body is read: with a size limit, so an oversized body is refused (413) before
 * anything parses it. The declared Content-Length is checked first, then the bytes actually received,
 * because a chunked body declares nothing.
 *
 * Every string that comes out of a body (each form field, each JSON string and key, a file's name) has its
 * control characters removed (stripControls, domain/sanitize.ts), the same way on every route.
 *
 * Each route has a kind, and each kind one limit (BODY_LIMITS). The request-checking middleware
 * (server/http/request-guard.server.ts) refuses a declared length over its route's limit before the route runs; the
 * readers here stop at the same limit while reading, or at a smaller one a route passes. Resumable uploads
 * (tus) are not read here: they stream to storage with their own limits (docs/decisions/0107-bounded-input.md).
 */
import { stripControls } from "#domain/sanitize.ts";
import { AppError } from "./errors.server.ts";

/** A body refused before anything parses it: too large (413), cut short or not a form/JSON object (400). */
export class RequestBodyError extends AppError {
  declare readonly code: "BODY_TOO_LARGE" | "BAD_FORM" | "BAD_JSON" | "BODY_INCOMPLETE";
  declare readonly status: 413 | 400;
  constructor(code: "BODY_TOO_LARGE" | "BAD_FORM" | "BAD_JSON" | "BODY_INCOMPLETE", status: 413 | 400, message: string) {
    super(status, code, message);
  }
}

/** The largest body a route of each kind accepts, in bytes. */
export const BODY_LIMITS = {
  /** Sign-in, sign-up, password reset, first-run set-up, sign-out, the language toggle, better-auth's API: a few short fields. */
  account: 16 * 1024,
  /** Every other form, public or back-office, without a file (a long text fits well within it). */
  form: 1024 * 1024,
  /** The JSON API (server/content/newsroom/write.server.ts's MAX_CONTENT_JSON_BYTES: a long body and its fields). */
  json: 1024 * 1024,
  /** The newsroom's item editor, which posts its image with the fields (MAX_CONTENT_FORM_BYTES: a 10 MB image and the rest). */
  contentForm: 11 * 1024 * 1024,
} as const;

export type BodyKind = keyof typeof BODY_LIMITS;

/**
 * Kinds whose body may take longer than HTTP_REQUEST_TIMEOUT_MS to arrive on a slow link (an image in a
 * form): only the connection's idle time-out applies to them, as to the tus uploads.
 */
export const SLOW_BODY_KINDS: ReadonlySet<BodyKind> = new Set<BodyKind>(["contentForm"]);

const ACCOUNT_PATHS = new Set(["/auth", "/auth/forgot", "/auth/reset", "/auth/verify", "/auth/sign-out", "/setup", "/language"]);

/**
 * The kind of the route at `pathname`. React Router matches paths without regard to case, decodes them,
 * and answers `/x.data` (and `/_root.data` for the index) for the same route as `/x`: so does this.
 */
export function bodyKindOf(pathname: string): BodyKind {
  let path = pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // Left as it came: the request guard answers such a path with 400 before any route runs.
  }
  path =
    path
      .toLowerCase()
      .replace(/\.data$/, "")
      .replace(/\/_root$/, "/")
      .replace(/\/+$/, "") || "/";
  if (ACCOUNT_PATHS.has(path) || path === "/api/auth" || path.startsWith("/api/auth/")) return "account";
  if (path.startsWith("/api/")) return "json";
  // /admin/<type>/new and /admin/<type>/<id>: the only back-office screens two segments deep are the editors.
  if (/^\/admin\/[^/]+\/[^/]+$/.test(path)) return "contentForm";
  return "form";
}

/** The limit of the request's route kind. */
export function bodyLimitFor(url: string): number {
  return BODY_LIMITS[bodyKindOf(new URL(url, "http://localhost").pathname)];
}

/** Past this much, an oversized upload is cut off instead of read to its end. */
const DISCARD_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Reads and drops the rest of an oversized body in the background, so the client finishes sending and then
 * reads the 413 (cancelling at once would reset the connection under it). A body that keeps coming past
 * DISCARD_LIMIT_BYTES is cut off.
 */
function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>) {
  void (async () => {
    let dropped = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        dropped += value.byteLength;
        if (dropped > DISCARD_LIMIT_BYTES) return void (await reader.cancel());
      }
    } catch {
      // The client went away: nothing left to discard.
    }
  })();
}

/**
 * The body's bytes, at most the route kind's limit or `maxBytes` when smaller: the declared length is
 * checked before reading, the received bytes while reading.
 */
export async function readBody(request: Request, maxBytes?: number): Promise<Uint8Array<ArrayBuffer>> {
  const limit = Math.min(maxBytes ?? Infinity, bodyLimitFor(request.url));
  const tooLarge = () => new RequestBodyError("BODY_TOO_LARGE", 413, `The request body is larger than ${limit} bytes.`);
  const declared = request.headers.get("content-length");
  if (declared !== null && (!/^\d+$/.test(declared) || Number(declared) > limit)) throw tooLarge();

  const chunks: Uint8Array[] = [];
  let received = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch {
        // The client went away, or the server cut a body that took too long (server.js): a client error, not ours.
        throw new RequestBodyError("BODY_INCOMPLETE", 400, "The request body was not received completely.");
      }
      if (next.done) break;
      received += next.value.byteLength;
      if (received > limit) {
        discardRest(reader);
        throw tooLarge();
      }
      chunks.push(next.value);
    }
  }

  const body = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** Reads the body as form data (URL-encoded or multipart), within the route kind's limit or `maxBytes`. */
export async function readFormData(request: Request, maxBytes?: number): Promise<FormData> {
  return parseFormData(await readBody(request, maxBytes), request.headers.get("content-type"));
}

/** Bytes already read (readBody) as form data, its strings without control characters. */
export async function parseFormData(body: Uint8Array<ArrayBuffer>, contentType: string | null): Promise<FormData> {
  let parsed: FormData;
  try {
    parsed = await new Response(body, { headers: { "Content-Type": contentType ?? "application/x-www-form-urlencoded" } }).formData();
  } catch {
    throw new RequestBodyError("BAD_FORM", 400, "The request body is not a form submission.");
  }
  const form = new FormData();
  for (const [name, value] of parsed) {
    if (typeof value === "string") form.append(stripControls(name), stripControls(value));
    else form.append(stripControls(name), value, stripControls(value.name));
  }
  return form;
}

/** A parsed JSON value with every string (and key) without control characters. */
function withoutControls(value: unknown): unknown {
  if (typeof value === "string") return stripControls(value);
  if (Array.isArray(value)) return value.map(withoutControls);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [stripControls(k), withoutControls(v)]));
  return value;
}

/** Reads the body as a JSON object (an array or a scalar is refused), within the route kind's limit or `maxBytes`. */
export async function readJsonObject(request: Request, maxBytes?: number): Promise<Record<string, unknown>> {
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(request.headers.get("content-type") ?? "")) {
    throw new RequestBodyError("BAD_JSON", 400, "The request body must be JSON (Content-Type: application/json).");
  }
  return parseJsonObject(await readBody(request, maxBytes));
}

/** Bytes already read (readBody) as a JSON object. */
export function parseJsonObject(body: Uint8Array): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    throw new RequestBodyError("BAD_JSON", 400, "The request body is not valid JSON.");
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new RequestBodyError("BAD_JSON", 400, "The request body must be a JSON object.");
  return withoutControls(value) as Record<string, unknown>;
}
