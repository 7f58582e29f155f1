/**
 * Checks every request that reaches the application before any route runs, so that a malformed one gets a
 * 4xx instead of failing deep inside the renderer (the WHATWG Request behind React Router refuses TRACE, an
 * invalid Host, and an absolute-form or `*` request target made an invalid URL — all answered 500).
 *
 * requestTargetGuard, first of all (before the uploads and the local files), makes the request's URL one
 * that parses, so everything after it — React Router's adapter, the page cache, the tus servers — builds
 * the same valid URL (requestUrl):
 *  - a method the site does not use                → 405 with Allow
 *  - `OPTIONS *`                                    → 204 with Allow; `*` with any other method → 400
 *  - an absolute-form target (`GET http://h/p`)     → served as `/p` with Host `h` (RFC 9112 §3.2.2)
 *  - any other target not starting with `/`, or a path whose percent-encoding does not decode or that holds a
 *    control character → 400; a query's control characters are removed (stripControls, as from every body)
 *  - a path starting with `//` (read as another host by every URL parser) → 308 to the same path with one slash
 *  - a request line of a version other than HTTP/1.x → 400
 *  - a Host (or, behind a trusted proxy, X-Forwarded-Host / -Proto) that is not a host name → 400; no Host at
 *    all (HTTP/1.0; Node refuses HTTP/1.1 without one) → the public URL's host
 * requestBodyGuard, after the uploads (whose bodies are tus's):
 *  - a state-changing method whose Origin (or Referer) is not our own → 403 (fromOurOrigin: one rule for
 *    every form and API; the tus endpoints apply the same rule through their permission check), except a mail
 *    client's one-click unsubscribe (isOneClickUnsubscribe: that one path, a small form, answered from any origin
 *    by one-click-unsubscribe.server.ts, which refuses any other body with this same 403). "Our own" is
 *    ourOrigins: the public URL's origin, and without PUBLIC_URL also its loopback names on the same port. A
 *    browser's navigation gets a page in the reader's language saying why (refusal-page.server.ts)
 *  - a declared Content-Length over the route kind's limit (server/http/request-body.server.ts) → 413, before reading
 *  - a body still arriving HTTP_REQUEST_TIMEOUT_MS after its headers → 408 and the connection closed; the slow
 *    kinds (the editor's form) instead must keep to the upload rate (watchTransferRate), and get the deadline
 *    once answered
 * An API (`/api/…`) gets each of these refusals in its one JSON error shape (docs/api-errors.md), a page in words.
 * server.js adds what only the HTTP server can do: header, idle and keep-alive time-outs, CONNECT.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import type { Config } from "#server/config.server.ts";
import { stripControls } from "#domain/sanitize.ts";
import { arabic } from "./errors.server.ts";
import { BODY_LIMITS, bodyKindOf, SLOW_BODY_KINDS } from "./request-body.server.ts";
import { crossOriginPage } from "./refusal-page.server.ts";
import { languageOfTarget } from "./language.server.ts";
import { neutralPath } from "#domain/addresses.ts";

export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const ALLOW = ALLOWED_METHODS.join(", ");
const ALLOWED = new Set<string>(ALLOWED_METHODS);

const ABSOLUTE_FORM = /^[a-z][a-z\d+.-]*:\/\//i;

/** The stable code of each refusal here, for the APIs' one error shape (docs/api-errors.md). */
const API_REFUSAL_CODES: Record<number, string> = {
  400: "BAD_REQUEST",
  403: "CROSS_ORIGIN",
  405: "METHOD_NOT_ALLOWED",
  408: "REQUEST_TIMEOUT",
  413: "BODY_TOO_LARGE",
};

/** Whether a request target is one of the JSON APIs (`/api/…`, in any case, as React Router matches it). */
const isApiTarget = (target: string) => /^\/api\//i.test(target);

/** A refusal in words, or, for an API, in its one JSON error shape (server/http/errors.server.ts). */
function refuse(res: Response, status: number, text: string, headers: Record<string, string> = {}) {
  res.status(status).set({ "Cache-Control": "no-store", ...headers });
  if (isApiTarget(res.req.originalUrl)) return void res.json({ error: { code: API_REFUSAL_CODES[status], message: text } });
  res.type("text/plain; charset=utf-8").send(text);
}

const badRequest = (res: Response) => refuse(res, 400, "طلب غير صالح / Bad request");

/** Rewrites an absolute-form target to origin form; false when the target cannot be served. */
function toOriginForm(req: Request): boolean {
  let target: URL;
  try {
    target = new URL(req.originalUrl);
  } catch {
    return false;
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") return false;
  // The target's authority takes the place of the Host header (RFC 9112 §3.2.2).
  req.headers.host = target.host;
  req.url = req.originalUrl = target.pathname + target.search;
  return true;
}

/** The path percent-decoded, or null when its encoding is not UTF-8. */
function decodedPath(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

/** The query (`?…`) without its control characters, or null when it has none: the URL is left as it came. */
function withoutControls(query: string): string | null {
  if (query.length < 2) return null;
  const params = new URLSearchParams(query);
  const clean = new URLSearchParams();
  let changed = false;
  for (const [name, value] of params) {
    const [n, v] = [stripControls(name), stripControls(value)];
    changed ||= n !== name || v !== value;
    clean.append(n, v);
  }
  return changed ? `?${clean.toString()}` : null;
}

/** The slowest a long body (an upload, the editor's form with its image) may arrive: UPLOAD_MIN_BYTES_PER_SECOND, UPLOAD_RATE_WINDOW_MS. */
export type TransferRate = { bytesPerSecond: number; windowMs: number };

/**
 * Calls `tooSlow` once when the request's body brings less than `rate.bytesPerSecond` on average over a window
 * of `rate.windowMs`: a client sending a byte every few seconds would otherwise hold the connection for ever,
 * since the idle time-out never fires. Counted on the socket: a listener on the request itself would start it
 * flowing before its reader is there.
 */
export function watchTransferRate(req: IncomingMessage, res: ServerResponse, rate: TransferRate, tooSlow: () => void) {
  const socket = req.socket;
  const least = (rate.bytesPerSecond * rate.windowMs) / 1000;
  let mark = socket.bytesRead;
  const timer = setInterval(() => {
    if (req.complete || socket.destroyed) return clearInterval(timer);
    const moved = socket.bytesRead - mark;
    mark = socket.bytesRead;
    if (moved >= least) return;
    clearInterval(timer);
    tooSlow();
  }, rate.windowMs);
  timer.unref();
  res.once("close", () => clearInterval(timer));
}

/** How long a refused body's connection stays open, unread, so that the client reads the answer. */
const LINGER_MS = 2000;

/**
 * Once a refusal answered while the body is still coming has gone out, stops reading the connection and closes
 * it LINGER_MS later. Closing at once would reset the connection on the client's unread bytes, and a reset
 * discards the answer before the client reads it; keeping the connection would read the whole body only to
 * throw it away (a 200 MB upload: 20 s).
 */
export function closeAfterRefusal(req: IncomingMessage, res: ServerResponse) {
  res.once("finish", () => {
    if (req.complete) return;
    // Node resumes reading to drop the rest of the body (on the next tick): stop reading after that, so the
    // client's sending stalls on full buffers while it reads the answer, and close once it has had time to.
    setImmediate(() => req.socket.pause());
    const timer = setTimeout(() => req.socket.destroy(), LINGER_MS);
    timer.unref();
    req.socket.once("close", () => clearTimeout(timer));
  });
}

/** Answers 408 and closes the connection (Connection: close ends the body's stream); cut if an answer began. */
function timeOut(req: Request, res: Response) {
  if (req.complete || req.socket.destroyed) return;
  if (res.headersSent) return void req.socket.destroy();
  refuse(res, 408, "انتهت مهلة الطلب / Request timeout", { Connection: "close" });
}

/** Closes a request whose body has not fully arrived within `ms` of its headers. */
function armBodyDeadline(req: Request, res: Response, ms: number) {
  const timer = setTimeout(() => timeOut(req, res), ms);
  timer.unref();
  req.once("close", () => clearTimeout(timer));
}

/**
 * A Host header value (or X-Forwarded-Host) as a URL authority takes it: a name or address and an optional
 * port, and nothing else (no spaces, user, path, query or fragment; a port that exists).
 */
export function isValidHost(value: string | undefined): value is string {
  if (!value || /[\s/\\?#@]/.test(value)) return false;
  try {
    return new URL(`http://${value}`).hostname !== "";
  } catch {
    return false;
  }
}

/** Whether a forwarded protocol is one the site can be reached by. */
const isValidProto = (value: string) => /^https?$/i.test(value.split(",")[0].trim());

/** The path part of a request target, before its query. */
const pathOf = (target: string) => target.split("?", 1)[0];

/**
 * The one place a request's URL is built from its parts: the path and query as received (a path the target
 * guard let through: one leading slash, percent-encoding that decodes) under `origin`, by default the
 * request's own protocol and host (validated by the target guard). React Router's adapter builds the same
 * URL from the same checked parts.
 */
export function requestUrl(req: Pick<Request, "originalUrl" | "protocol" | "headers">, origin = `${req.protocol}://${req.headers.host}`): URL {
  return new URL(req.originalUrl, origin);
}

/** The names a machine calls itself: on the same port they are one site. */
const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"] as const;

/**
 * The origins that are this site: the public URL's. Without PUBLIC_URL (a first run on one's own machine, the
 * public URL being `http://localhost:PORT`), the loopback names of that port are one site: the set-up link opened
 * at `http://127.0.0.1:3000` or `http://[::1]:3000` works as at `localhost`. Any other origin stays refused,
 * and with PUBLIC_URL set only its own origin counts.
 */
export function ourOrigins(config: Pick<Config, "publicUrl" | "PUBLIC_URL">): string[] {
  const own = new URL(config.publicUrl);
  if (config.PUBLIC_URL || !(LOOPBACK_HOSTS as readonly string[]).includes(own.hostname)) return [own.origin];
  const port = own.port ? `:${own.port}` : "";
  return [own.origin, ...LOOPBACK_HOSTS.map((host) => `${own.protocol}//${host}${port}`).filter((o) => o !== own.origin)];
}

/**
 * A state-changing request comes from a page of ours: its Origin (or, failing that, its Referer) is one of the
 * site's origins (ourOrigins). Browsers send Origin on every POST; a request with neither, or with `Origin: null`,
 * is refused.
 */
export function fromOurOrigin(origin: string | null | undefined, referer: string | null | undefined, expected: string | readonly string[]): boolean {
  let source = origin && origin !== "null" ? origin : null;
  if (!source && referer) {
    try {
      source = new URL(referer).origin;
    } catch {
      source = null;
    }
  }
  return source !== null && (typeof expected === "string" ? source === expected : expected.includes(source));
}

export const MUTATING_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The newsletter's one-click unsubscribe address (RFC 8058), the one target posted to from anywhere. */
export const ONE_CLICK_UNSUBSCRIBE_PATH = "/newsletter/unsubscribe";
/** The largest body a one-click unsubscribe carries: `List-Unsubscribe=One-Click`, urlencoded or as a multipart form. */
export const ONE_CLICK_MAX_BYTES = 1024;

/**
 * A mail client's one-click unsubscribe (RFC 8058 §3.1): a POST to the address of the message's
 * List-Unsubscribe header, from no page of ours (no Origin of ours, no cookie), with the body
 * `List-Unsubscribe=One-Click`. Let through the origin check only for that path, as a small form with a declared
 * length, to its own handler (server/http/one-click-unsubscribe.server.ts): it reads the body, answers the exact
 * one-click form before React Router (whose origin check would refuse a foreign Origin) and refuses any other
 * body with this guard's 403.
 */
export function isOneClickUnsubscribe(req: Pick<Request, "method" | "path" | "headers">): boolean {
  if (req.method !== "POST" || neutralPath(req.path) !== ONE_CLICK_UNSUBSCRIBE_PATH) return false;
  const type = String(req.headers["content-type"] ?? "").toLowerCase();
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data")) return false;
  const length = req.headers["content-length"];
  return length !== undefined && /^\d+$/.test(length) && Number(length) <= ONE_CLICK_MAX_BYTES && req.headers["transfer-encoding"] === undefined;
}

/** The request line and the URL's parts: mounted first, before anything reads the URL (see the top of the file). */
export function requestTargetGuard(config: Pick<Config, "publicUrl">) {
  const publicHost = new URL(config.publicUrl).host;
  return (req: Request, res: Response, next: NextFunction) => {
    if (!ALLOWED.has(req.method)) return refuse(res, 405, "الطريقة غير مسموح بها / Method not allowed", { Allow: ALLOW });

    const target = req.originalUrl;
    if (target === "*") {
      if (req.method === "OPTIONS") return void res.status(204).set({ Allow: ALLOW, "Cache-Control": "no-store" }).end();
      return badRequest(res);
    }
    if (!target.startsWith("/") && !(ABSOLUTE_FORM.test(target) && toOriginForm(req))) return badRequest(res);
    const path = pathOf(req.originalUrl);
    const decoded = decodedPath(path);
    // No path of ours holds a control character; a query's are removed as a body's are (stripControls).
    if (decoded === null || stripControls(decoded) !== decoded) return badRequest(res);
    const query = withoutControls(req.originalUrl.slice(path.length));
    if (query !== null) req.url = req.originalUrl = path + query;

    // HTTP/1.x framing with another version in its request line (HTTP/2.0, HTTP/1.2 is 1.x) is not a request we speak.
    if (req.httpVersionMajor !== 1) return badRequest(res);
    // HTTP/1.0 may leave Host out (Node answers 400 for HTTP/1.1 without one): the request is for this site.
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 0) req.headers.host = publicHost;
    if (!isValidHost(req.headers.host)) return badRequest(res);
    // Forwarded headers count only from a trusted proxy (`trust proxy`); from anyone else they are dropped,
    // from a proxy they must be valid.
    const trusted = (req.app.get("trust proxy fn") as ((address: string, hop: number) => boolean) | undefined)?.(req.socket.remoteAddress ?? "", 0);
    for (const [name, valid] of [
      ["x-forwarded-host", (v: string) => isValidHost(v.split(",")[0].trim())],
      ["x-forwarded-proto", isValidProto],
    ] as const) {
      const value = req.headers[name];
      if (value === undefined) continue;
      if (!trusted) delete req.headers[name];
      else if (typeof value !== "string" || !valid(value)) return badRequest(res);
    }

    // `//x` (or `/\x`) is a path to us, but any URL parser reads it as the host x: the same path with one slash.
    if (/^[/\\]{2}/.test(path)) {
      const location = "/" + path.replace(/^[/\\]+/, "") + req.originalUrl.slice(path.length);
      return void res.status(308).set({ Location: location, "Cache-Control": "no-store" }).end();
    }
    next();
  };
}

/**
 * Whether the two guards would pass this request on exactly as it came — no refusal, no rewrite of its target,
 * no forwarded header dropped, no body to watch — for the page cache's fast path (server/http/fast-path.server.ts),
 * which answers only such requests before Express and leaves every other one to the guards. `trusted`: whether
 * the peer is a trusted proxy (`trust proxy`). Conservative: a doubt is a `false`, and the long way is taken.
 */
export function passesGuardsUnchanged(req: IncomingMessage, trusted: boolean): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  if (req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined) return false;
  if (req.httpVersionMajor !== 1 || !isValidHost(req.headers.host)) return false;
  for (const [name, valid] of [
    ["x-forwarded-host", (v: string) => isValidHost(v.split(",")[0].trim())],
    ["x-forwarded-proto", isValidProto],
  ] as const) {
    const value = req.headers[name];
    if (value !== undefined && !(trusted && typeof value === "string" && valid(value))) return false;
  }
  const target = req.url ?? "";
  const path = pathOf(target);
  if (!path.startsWith("/") || /^[/\\]{2}/.test(path)) return false;
  const decoded = decodedPath(path);
  if (decoded === null || stripControls(decoded) !== decoded) return false;
  return withoutControls(target.slice(path.length)) === null;
}

/** Origin and body limits of every request that is not an upload: mounted after the tus endpoints. */
export function requestBodyGuard(
  config: Pick<Config, "HTTP_REQUEST_TIMEOUT_MS" | "publicUrl" | "PUBLIC_URL" | "UPLOAD_MIN_BYTES_PER_SECOND" | "UPLOAD_RATE_WINDOW_MS">,
) {
  const ours = ourOrigins(config);
  const rate: TransferRate = { bytesPerSecond: config.UPLOAD_MIN_BYTES_PER_SECOND, windowMs: config.UPLOAD_RATE_WINDOW_MS };
  return (req: Request, res: Response, next: NextFunction) => {
    // A one-click unsubscribe's body is read, and anything but the one-click form refused, by its own handler
    // (server/http/one-click-unsubscribe.server.ts), before React Router's origin check would refuse it.
    if (MUTATING_METHODS.has(req.method) && !fromOurOrigin(req.headers.origin, req.headers.referer, ours) && !isOneClickUnsubscribe(req)) {
      return refuseCrossOrigin(req, res, ours);
    }

    const hasBody = req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;
    if (hasBody) {
      const kind = bodyKindOf(req.path);
      const declared = Number(req.headers["content-length"] ?? 0);
      // Connection: close, so the server does not read a large body to its end only to throw it away.
      if (declared > BODY_LIMITS[kind]) return refuse(res, 413, "الطلب كبير جداً / Request too large", { Connection: "close" });
      const deadline = () => armBodyDeadline(req, res, config.HTTP_REQUEST_TIMEOUT_MS);
      if (!SLOW_BODY_KINDS.has(kind)) deadline();
      else {
        // A long body may take its time, but not trickle: below the upload rate it is answered 408.
        watchTransferRate(req, res, rate, () => timeOut(req, res));
        // Once answered (a refusal before reading, say), the rest of a slow body serves nothing: it gets the same
        // deadline, or Node's keep-alive time-out would let it trickle in for as long as it keeps coming.
        res.once("finish", () => req.complete || deadline());
      }
    }
    next();
  };
}

/** The origin check's 403: in an API's error shape, as data for a page's data request or a script, else a page in words. */
export function refuseCrossOrigin(req: Request, res: Response, ours: readonly string[]) {
  // An API answers in its error shape, with the guard's words; a page's data request and a script get the
  // session guard's shape (server/auth/session.server.ts); a page posted from elsewhere, words.
  if (isApiTarget(req.originalUrl)) return refuse(res, 403, arabic("adminShell.crossOrigin"));
  if (req.path.endsWith(".data") || !req.accepts("html")) {
    return void res.status(403).set({ "Cache-Control": "no-store" }).json({ reason: "cross-origin" });
  }
  // A browser's navigation (a form posted without JavaScript, from elsewhere): a page that says why.
  const lang = languageOf(req);
  return void res.status(403).set({ "Cache-Control": "no-store", "Content-Language": lang }).type("html").send(crossOriginPage(lang, ours[0]));
}

/** The language a refusal page is written in: its address's on a reading page, else the reader's (cookie, Accept-Language). */
function languageOf(req: Request) {
  return languageOfTarget(req.path, req.headers.cookie, req.headers["accept-language"]);
}
