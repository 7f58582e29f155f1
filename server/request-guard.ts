/**
 * Checks every request that reaches the application before any route runs, so that a malformed one gets a
 * 4xx instead of failing deep inside the renderer (the WHATWG Request behind React Router refuses TRACE,
 * and an absolute-form or `*` request target made an invalid URL — both answered 500):
 *  - a method the site does not use                → 405 with Allow
 *  - `OPTIONS *`                                    → 204 with Allow; `*` with any other method → 400
 *  - an absolute-form target (`GET http://h/p`)     → served as `/p` with Host `h` (RFC 9112 §3.2.2)
 *  - any other target not starting with `/`, or a path whose percent-encoding does not decode → 400
 *  - a declared Content-Length over the route kind's limit (server/request-body.ts) → 413, before reading
 *  - a body still arriving HTTP_REQUEST_TIMEOUT_MS after its headers → 408 and the connection closed (for the
 *    slow kinds, HTTP_REQUEST_TIMEOUT_MS after the answer; the tus uploads are mounted before this, never come here)
 * server.js adds what only the HTTP server can do: header, idle and keep-alive time-outs, CONNECT.
 */
import type { NextFunction, Request, Response } from "express";
import type { Config } from "./config.ts";
import { BODY_LIMITS, bodyKindOf, SLOW_BODY_KINDS } from "./request-body.ts";

export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const ALLOW = ALLOWED_METHODS.join(", ");
const ALLOWED = new Set<string>(ALLOWED_METHODS);

const ABSOLUTE_FORM = /^[a-z][a-z\d+.-]*:\/\//i;

function refuse(res: Response, status: number, text: string, headers: Record<string, string> = {}) {
  res
    .status(status)
    .set({ "Cache-Control": "no-store", ...headers })
    .type("text/plain; charset=utf-8")
    .send(text);
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

function decodes(path: string): boolean {
  try {
    // The result is used: a bundler drops a call to decodeURIComponent whose value is thrown away.
    return typeof decodeURIComponent(path) === "string";
  } catch {
    return false;
  }
}

/** Closes a request whose body has not fully arrived within `ms` of its headers. */
function armBodyDeadline(req: Request, res: Response, ms: number) {
  const timer = setTimeout(() => {
    if (req.complete || req.socket.destroyed) return;
    if (res.headersSent) return void req.socket.destroy();
    // Connection: close makes Node end the socket once the answer is written, which ends the body's stream.
    refuse(res, 408, "انتهت مهلة الطلب / Request timeout", { Connection: "close" });
  }, ms);
  timer.unref();
  req.once("close", () => clearTimeout(timer));
}

export function requestGuard(config: Pick<Config, "HTTP_REQUEST_TIMEOUT_MS">) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!ALLOWED.has(req.method)) return refuse(res, 405, "الطريقة غير مسموح بها / Method not allowed", { Allow: ALLOW });

    const target = req.originalUrl;
    if (target === "*") {
      if (req.method === "OPTIONS") return void res.status(204).set({ Allow: ALLOW, "Cache-Control": "no-store" }).end();
      return badRequest(res);
    }
    if (!target.startsWith("/") && !(ABSOLUTE_FORM.test(target) && toOriginForm(req))) return badRequest(res);
    if (!decodes(req.path)) return badRequest(res);

    const hasBody = req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;
    if (hasBody) {
      const kind = bodyKindOf(req.path);
      const declared = Number(req.headers["content-length"] ?? 0);
      // Connection: close, so the server does not read a large body to its end only to throw it away.
      if (declared > BODY_LIMITS[kind]) return refuse(res, 413, "الطلب كبير جداً / Request too large", { Connection: "close" });
      const deadline = () => armBodyDeadline(req, res, config.HTTP_REQUEST_TIMEOUT_MS);
      if (!SLOW_BODY_KINDS.has(kind)) deadline();
      // Once answered (a refusal before reading, say), the rest of a slow body serves nothing: it gets the same
      // deadline, or Node's keep-alive time-out would let it trickle in for as long as it keeps coming.
      else res.once("finish", () => req.complete || deadline());
    }
    next();
  };
}
