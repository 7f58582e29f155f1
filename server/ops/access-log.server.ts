/**
 * The operator's view of each request: the first middleware of the process (server.js) gives it its id (a
 * trusted proxy's X-Request-Id, else a new one), sends that back as X-Request-Id on every answer, runs the rest
 * of the request inside its context (server/ops/request-context.server.ts: every log line then carries the id),
 * and when the answer ends writes one access-log line and counts it in /metrics (server/ops/metrics.server.ts).
 *
 * The line: `{"level":30,"time":…,"requestId":"7KQ2MX9PA","method":"GET","route":"/news/:slug","path":"/news/x",
 * "status":200,"bytes":5120,"ms":12.4,"cache":"hit","ip":"203.0.113.7","msg":"request"}`. `route` is a bounded
 * label (what /metrics counts by); `path` is the target with credential-shaped query values replaced; `bytes` what
 * went out after compression; a client gone before the answer is `"status":499,"aborted":true`. The probes
 * (/healthz, /readyz, /metrics) are logged at debug.
 */
import type { NextFunction, Request, Response } from "express";
import { matchRoutes, type RouteObject } from "react-router";
import { logger as defaultLogger, scrubSecrets, type Logger } from "./logger.server.ts";
import { acceptedRequestId, newRequestId, REQUEST_ID_HEADER, runWithRequest, type RequestContext } from "./request-context.server.ts";
import { observeRequest, requestStarted } from "./metrics.server.ts";

const PROBES = new Set(["/healthz", "/readyz", "/metrics"]);
const MAX_LOGGED_PATH = 1000;
const TRACKED = Symbol("sahara.tracked");

type TrustFn = (address: string, hop: number) => boolean;

export type TrackRequestsOptions = { accessLog: boolean; logger?: Logger };

function byteLength(chunk: unknown, encoding: unknown): number {
  if (typeof chunk === "string") return Buffer.byteLength(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
  if (chunk instanceof Uint8Array) return chunk.byteLength;
  return 0;
}

/**
 * The middleware. Mounted on an app whose `trust proxy` is TRUST_PROXY: a proxy's X-Request-Id is taken only from
 * a peer it trusts, as X-Forwarded-For is; `req.ip` is read here, so `ip` is the client as that setting makes it out.
 */
export function trackRequests({ accessLog, logger = defaultLogger }: TrackRequestsOptions) {
  return (req: Request, res: Response, next: NextFunction) => {
    const marked = req as Request & { [TRACKED]?: true };
    if (marked[TRACKED]) return next();
    marked[TRACKED] = true;

    const trusted = (req.app.get("trust proxy fn") as TrustFn | undefined)?.(req.socket.remoteAddress ?? "", 0) ?? false;
    const id = (trusted && acceptedRequestId(req.headers["x-request-id"])) || newRequestId();
    // Whatever reads the header further on (React Router's request, a rendered page's request) sees our id.
    req.headers["x-request-id"] = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    const context: RequestContext = { id };
    const started = process.hrtime.bigint();
    const { method } = req;
    const target = req.originalUrl;
    const ip = req.ip;
    const finished = requestStarted();

    // Counted below compression (mounted after this): the bytes that went out.
    let bytes = 0;
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      bytes += byteLength(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== "function") bytes += byteLength(chunk, rest[0]);
      return end(chunk, ...rest);
    }) as typeof res.end;

    res.once("close", () => {
      finished();
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const aborted = !res.writableFinished;
      const status = res.headersSent ? res.statusCode : 499;
      const route = context.route ?? "other";
      const header = res.getHeader("X-Page-Cache");
      const cache = typeof header === "string" ? header.toLowerCase() : context.pageCache;
      observeRequest({ method, route, status, seconds: ms / 1000, pageCache: cache });
      if (!accessLog) return;
      const line = {
        requestId: id,
        method,
        route,
        path: scrubSecrets(target.length > MAX_LOGGED_PATH ? `${target.slice(0, MAX_LOGGED_PATH)}…` : target),
        status,
        bytes,
        ms: Math.round(ms * 10) / 10,
        ...(cache ? { cache } : {}),
        ip,
        ...(aborted ? { aborted } : {}),
      };
      if (PROBES.has(route)) logger.debug(line, "request");
      else logger.info(line, "request");
    });
    runWithRequest(context, next);
  };
}

type ManifestRoute = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean };

/**
 * The route label of a React Router build (`build.routes`): `/news/abc` → `/news/:slug`, a data request
 * `/news/abc.data` → `/news/:slug.data`, the root's `/_root.data` → `/.data`. Unknown URLs end on the public splat
 * (`/*`); a path no route takes at all is `unmatched`. Bounded by the route table, whatever the URLs.
 */
export function routeLabeller(manifest: Record<string, ManifestRoute | undefined>): (pathname: string) => string {
  const routes = Object.values(manifest).filter((r): r is ManifestRoute => Boolean(r));
  const children = (parentId: string | undefined): RouteObject[] =>
    routes
      .filter((r) => r.parentId === parentId)
      .map((r) => (r.index ? { id: r.id, index: true, path: r.path } : { id: r.id, path: r.path, caseSensitive: r.caseSensitive, children: children(r.id) }));
  const tree = children(undefined);
  return (pathname) => {
    if (pathname === "/__manifest") return pathname;
    const data = pathname.endsWith(".data");
    const page = data ? pathname.slice(0, -".data".length).replace(/\/_root$/, "/") || "/" : pathname;
    const matches = matchRoutes(tree, page);
    if (!matches) return "unmatched";
    const pattern =
      "/" +
      matches
        .map((m) => m.route.path ?? "")
        .filter(Boolean)
        .join("/");
    return pattern.replace(/\/{2,}/g, "/") + (data ? ".data" : "");
  };
}
