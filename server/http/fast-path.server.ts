/**
 * The page cache's fast path (docs/decisions/0130-fast-path-and-memory-bounds.md): a request that the page cache
 * would answer with a fresh page (HIT) is answered by a `node:http` handler in front of the Express app, before
 * Express's router and middleware stack run — the same status line, headers (in order) and bytes as the long way,
 * made from the same parts, with the work of each answer done once per page where it can be:
 *  - the access log gives the request id (`idOf`: a trusted proxy's X-Request-Id, else a new one) and, when the
 *    answer ends, the access-log line and the metrics (`answered`, server/ops/access-log.server.ts), with the
 *    client's address by Express's own `req.ip` rules and the route label the app's labeller gives; the request
 *    and response are not made Express's (that, with a closure per method and a context per request, cost more
 *    than the answer itself);
 *  - the security headers are those the security middleware sets on a public page, worked out once by running it
 *    (server/http/security.server.ts `publicSecurityHeaders`; its per-request nonce would be replaced anyway);
 *  - the page cache sends the page (`sendFresh`): the whole header block of each answer with it (X-Request-Id,
 *    the security headers with the CSP of the page's script hashes, the page's own and surrogate-key headers,
 *    Cache-Control, Vary, ETag, Age, X-Page-Cache, Content-Encoding, Content-Length) is made once per page and
 *    encoding, and each answer writes its id and Age into it; ETag/304, HEAD, the stored gzip/brotli bytes by
 *    Accept-Encoding. Views are counted by the page's beacon, not by its answers (server/content/views.server.ts).
 * Everything the fast path is not sure of goes the long way, untouched: a request the guards would refuse or
 * rewrite (server/http/request-guard.server.ts `passesGuardsUnchanged`), the bare entry `/` that a reader's stored
 * language sends to `/fr` or `/en` (server/http/entry-redirect.server.ts), any cookie but the language's and the
 * reading choice's (whose copy of the page it answers, decision 0149) or an Authorization header, a page not in the
 * cache under this exact address, a stale or expired page (the middleware renders it again), and an identity body to
 * a client that accepts an encoding compression() in server.js would apply (deflate).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Express } from "express";
import { LRUCache } from "lru-cache";
import type { OutsideAnswer, RequestTracker } from "#server/ops/access-log.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { REQUEST_ID_HEADER } from "#server/ops/request-context.server.ts";
import { preferredEncoding, type FreshLead, type PageCache } from "./page-cache.server.ts";
import { passesGuardsUnchanged } from "./request-guard.server.ts";

export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

export type FastPathParts = {
  /** The Express app whose `trust proxy` (request ids, the client's address) the answer follows. */
  app: Express;
  /** The access log's middleware (trackRequests), whose `idOf` and `answered` the fast path uses. */
  track: RequestTracker;
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

/** Accept-Encoding values that only the long way answers as it would (by their value: a handful, over and over). */
const longWay = new Map<string, boolean>();
function goesTheLongWay(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  let known = longWay.get(accept);
  if (known === undefined) {
    known = preferredEncoding(accept) === "identity" && compressionWouldEncode(accept);
    if (longWay.size >= 256) longWay.clear();
    longWay.set(accept, known);
  }
  return known;
}

/** Returns the handler: true when it answered (or is answering) the request, false when Express must. */
export function createFastPath({ app, track, securityHeaders, cache, label, redirects }: FastPathParts): FastPath {
  const trust = app.get("trust proxy fn") as TrustFn;
  // The request id first (each answer's own value), as the access log's middleware sets it before anything else.
  const lead: FreshLead = [[REQUEST_ID_HEADER, ""], ...securityHeaders];
  /**
   * `req.ip` (trust proxy, X-Forwarded-For) by Express's own getter, without making the request Express's; with no
   * X-Forwarded-For it is the peer's address, which is what that getter gives then.
   */
  const ipOf = (req: IncomingMessage) =>
    req.headers["x-forwarded-for"] === undefined
      ? req.socket.remoteAddress
      : (Reflect.get(app.request, "ip", { app, headers: req.headers, socket: req.socket }) as string | undefined);
  // Whether a connection's peer is a trusted proxy, asked once per connection (parsing its address showed in profiles).
  const trustedPeers = new WeakMap<Socket, boolean>();
  const isTrusted = (socket: Socket) => {
    let trusted = trustedPeers.get(socket);
    if (trusted === undefined) trustedPeers.set(socket, (trusted = trust(socket.remoteAddress ?? "", 0)));
    return trusted;
  };
  // Route labels by path: the same few pages are asked for over and over (bounded like the cache's keys).
  const labels = new LRUCache<string, string>({ max: 5000 });
  return (req, res) => {
    const labeller = label();
    if (!labeller) return false;
    const trusted = isTrusted(req.socket);
    if (!passesGuardsUnchanged(req, trusted)) return false;
    if (redirects(req)) return false;
    const entry = cache.freshPage(req as IncomingMessage & { method: string; url: string });
    if (!entry || goesTheLongWay(req.headers["accept-encoding"])) return false;

    const started = process.hrtime.bigint();
    const target = req.url!;
    const query = target.indexOf("?");
    const path = query === -1 ? target : target.slice(0, query);
    let route = labels.get(path);
    if (route === undefined) labels.set(path, (route = labeller(path)));
    const id = track.idOf(req, trusted);
    const answer: OutsideAnswer = { id, method: req.method!, target, ip: ipOf(req), route, cache: "hit", bytes: 0, started };
    track.answered(res, answer);
    try {
      answer.bytes = cache.sendFresh(req, res, entry, lead, id);
    } catch (error) {
      logger.error({ err: error, path, requestId: id }, "page cache fast path failed");
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader(REQUEST_ID_HEADER, id);
        res.setHeader("Cache-Control", "no-store");
        res.end();
      } else res.destroy();
    }
    return true;
  };
}
