/**
 * The page cache's fast path (docs/decisions/0130-fast-path-and-memory-bounds.md): a request that the page cache
 * would answer with a fresh page (HIT) is answered by a `node:http` handler in front of the Express app, before
 * Express's router and middleware stack run — the same bytes and headers as the long way, because the same code
 * makes them:
 *  - the request and response become Express's objects as `app.handle` makes them (prototypes, locals);
 *  - the access log's middleware gives the request id, the access-log line and the metrics
 *    (server/ops/access-log.server.ts); the route label is the React Router pattern, as the app's labeller gives;
 *  - the security headers are those the security middleware sets on a public page, worked out once by running it
 *    (server/http/security.server.ts `publicSecurityHeaders`; its per-request nonce would be replaced anyway);
 *  - the reader's address for the view counter is set from `req.ip` as the app does;
 *  - the page cache sends the page (`sendFresh`: ETag/304, the stored gzip/brotli bytes, Vary, Cache-Control,
 *    the CSP of the page's script hashes) and counts its views, as its middleware does for a HIT.
 * Everything the fast path is not sure of goes the long way, untouched: a request the guards would refuse or
 * rewrite (server/http/request-guard.server.ts `passesGuardsUnchanged`), the bare entry `/` that a reader's stored
 * language sends to `/fr` or `/en` (server/http/entry-redirect.server.ts), any cookie but the language's or an
 * Authorization header, a page not in the cache under this exact address, a stale or expired page
 * (the middleware renders it again), and an identity body to a client that accepts an encoding compression()
 * in server.js would apply (deflate).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Express, Request, RequestHandler, Response } from "express";
import { LRUCache } from "lru-cache";
import { CLIENT_IP_HEADER } from "#server/content/views.server.ts";
import { labelRequest } from "#server/ops/request-context.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { preferredEncoding, type PageCache } from "./page-cache.server.ts";
import { passesGuardsUnchanged } from "./request-guard.server.ts";

export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

export type FastPathParts = {
  /** The Express app whose request and response objects (and `trust proxy`) the answer is made with. */
  app: Express;
  /** The access log's middleware (trackRequests). */
  track: RequestHandler;
  /** The security headers of a public page, in order (publicSecurityHeaders). */
  securityHeaders: readonly (readonly [string, string])[];
  cache: PageCache;
  /** The access log's route label of a path (routeLabeller); undefined until the build's routes are loaded. */
  label: () => ((pathname: string) => string) | undefined;
  /** Whether the app redirects this request elsewhere before its page cache (entryRedirectTarget). */
  redirects: (req: IncomingMessage) => boolean;
};

type TrustFn = (address: string, hop: number) => boolean;

/** Whether compression() would encode an identity body for this Accept-Encoding (it also knows deflate). */
const compressionWouldEncode = (accept: string | undefined) => accept !== undefined && !/^\s*(?:identity(?:\s*;\s*q=[\d.]+)?)?\s*$/i.test(accept);

/** Returns the handler: true when it answered (or is answering) the request, false when Express must. */
export function createFastPath({ app, track, securityHeaders, cache, label, redirects }: FastPathParts): FastPath {
  const trust = app.get("trust proxy fn") as TrustFn;
  // Route labels by path: the same few pages are asked for over and over (bounded like the cache's keys).
  const labels = new LRUCache<string, string>({ max: 5000 });
  return (req, res) => {
    const labeller = label();
    if (!labeller) return false;
    if (!passesGuardsUnchanged(req, trust(req.socket.remoteAddress ?? "", 0))) return false;
    if (redirects(req)) return false;
    const entry = cache.freshPage(req as IncomingMessage & { method: string; url: string });
    if (!entry) return false;
    const accept = req.headers["accept-encoding"];
    if (preferredEncoding(accept) === "identity" && compressionWouldEncode(accept)) return false;

    // From here the request is answered as Express answers it: its objects, as app.handle makes them.
    const request = req as Request;
    const response = res as Response;
    request.res = response;
    response.req = request;
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    response.locals ??= Object.create(null) as Response["locals"];
    request.originalUrl = req.url!;
    const path = req.url!.split("?", 1)[0];
    let route = labels.get(path);
    if (route === undefined) labels.set(path, (route = labeller(path)));
    try {
      track(request, response, () => {
        labelRequest(route);
        for (const [name, value] of securityHeaders) res.setHeader(name, value);
        req.headers[CLIENT_IP_HEADER] = request.ip ?? "";
        cache.sendFresh(request, response, entry);
      });
    } catch (error) {
      logger.error({ err: error, path }, "page cache fast path failed");
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader("Cache-Control", "no-store");
        res.end();
      } else res.destroy();
    }
    return true;
  };
}
