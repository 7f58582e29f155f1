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
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import pino from "pino";
import { matchRoutes, type RouteObject } from "react-router";
import { logger as defaultLogger, scrubSecrets, type Logger } from "./logger.server.ts";
import { acceptedRequestId, newRequestId, REQUEST_ID_HEADER, runWithRequest, type RequestContext } from "./request-context.server.ts";
import { inFlightBegun, inFlightDone, observeRequest, requestStarted } from "./metrics.server.ts";

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

/** What an answer's access-log line and metrics are made of, whichever way it was answered. */
type Answered = { id: string; method: string; target: string; ip: string | undefined; route: string; cache: string | undefined; bytes: number };

/** Counts an answer that has ended in /metrics and, with the access log on, writes its line. */
function report(res: ServerResponse, { accessLog, logger }: Required<TrackRequestsOptions>, answer: Answered, started: bigint) {
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const aborted = !res.writableFinished;
  const status = res.headersSent ? res.statusCode : 499;
  const { id, method, target, ip, route, cache, bytes } = answer;
  observeRequest({ method, route, status, seconds: ms / 1000, pageCache: cache });
  const probe = PROBES.has(answer.route);
  // Not even made when it would not be written (a process logging at warn).
  if (!accessLog || !logger.isLevelEnabled(probe ? "debug" : "info")) return;
  const level = probe ? "debug" : "info";
  const line = {
    requestId: scrubSecrets(id),
    method,
    route: scrubSecrets(route),
    path: scrubSecrets(target.length > MAX_LOGGED_PATH ? `${target.slice(0, MAX_LOGGED_PATH)}…` : target),
    status,
    bytes,
    ms: Math.round(ms * 10) / 10,
    ...(cache ? { cache: scrubSecrets(cache) } : {}),
    ip: ip === undefined ? ip : scrubSecrets(ip),
    ...(aborted ? { aborted } : {}),
  };
  // The line pino would write (level, time, the fields, msg), written to its stream: every field is ours and
  // scrubbed above as its formatter would, none is named like a secret, and going through pino's formatter
  // and redaction cost more than the rest of a cached answer (about 100 µs of CPU a line).
  const stream = (logger as unknown as Record<symbol, { write?: (text: string) => unknown } | undefined>)[pino.symbols.streamSym];
  if (typeof stream?.write !== "function") return void logger[level](line, "request");
  stream.write(`${JSON.stringify({ level: logger.levels.values[level], time: Date.now(), ...line, msg: "request" })}\n`);
}

/**
 * An answer made outside Express (the page cache's fast path, server/http/fast-path.server.ts), which works out
 * itself what the middleware would: the id (`idOf`), the client's address as `req.ip` gives it, the route label,
 * the page cache's verdict and the bytes of the body it sends.
 */
export type OutsideAnswer = Answered & { started: bigint };

export type RequestTracker = ((req: Request, res: Response, next: NextFunction) => void) & {
  /** The id of a request, as the middleware gives it (a trusted proxy's X-Request-Id, else a new one), set on its headers. */
  idOf: (req: IncomingMessage, trusted: boolean) => string;
  /** Counts and logs, when it ends, an answer made outside Express, as the middleware does its answers. */
  answered: (res: ServerResponse, answer: OutsideAnswer) => void;
};

/** The id of a request: a trusted proxy's X-Request-Id, else a new one; whatever reads the header later sees it. */
function idOf(req: IncomingMessage, trusted: boolean): string {
  const id = (trusted && acceptedRequestId(req.headers["x-request-id"])) || newRequestId();
  req.headers["x-request-id"] = id;
  return id;
}

const OUTSIDE = Symbol("sahara.outsideAnswer");
type Reported = ServerResponse & { [OUTSIDE]?: { options: Required<TrackRequestsOptions>; answer: OutsideAnswer } };

// One listener for every answer made outside Express: no closure per request on the hottest path.
function outsideClosed(this: Reported) {
  const finished = this[OUTSIDE];
  if (!finished) return;
  this[OUTSIDE] = undefined;
  inFlightDone();
  report(this, finished.options, finished.answer, finished.answer.started);
}

/**
 * The middleware. Mounted on an app whose `trust proxy` is TRUST_PROXY: a proxy's X-Request-Id is taken only from
 * a peer it trusts, as X-Forwarded-For is; `req.ip` is read here, so `ip` is the client as that setting makes it out.
 */
export function trackRequests({ accessLog, logger = defaultLogger }: TrackRequestsOptions): RequestTracker {
  const options = { accessLog, logger };
  const middleware = (req: Request, res: Response, next: NextFunction) => {
    const marked = req as Request & { [TRACKED]?: true };
    if (marked[TRACKED]) return next();
    marked[TRACKED] = true;

    const trusted = (req.app.get("trust proxy fn") as TrustFn | undefined)?.(req.socket.remoteAddress ?? "", 0) ?? false;
    const id = idOf(req, trusted);
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
      const header = res.getHeader("X-Page-Cache");
      const cache = typeof header === "string" ? header.toLowerCase() : context.pageCache;
      report(res, options, { id, method, target, ip, route: context.route ?? "other", cache, bytes }, started);
    });
    runWithRequest(context, next);
  };
  return Object.assign(middleware, {
    idOf,
    answered(res: ServerResponse, answer: OutsideAnswer) {
      inFlightBegun();
      (res as Reported)[OUTSIDE] = { options, answer };
      res.on("close", outsideClosed);
    },
  });
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
  // matchRoutes flattens, ranks and compiles the whole table at every call (about 2 ms here): a path's label is
  // kept, for as many paths as LABELLED_PATHS, then the memory starts again (the popular paths come back first).
  const labels = new Map<string, string>();
  return (pathname) => {
    if (pathname.length > LABELLED_PATH_LENGTH) return labelOf(pathname);
    let label = labels.get(pathname);
    if (label === undefined) {
      if (labels.size >= LABELLED_PATHS) labels.clear();
      labels.set(pathname, (label = labelOf(pathname)));
    }
    return label;
  };
  function labelOf(pathname: string): string {
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
  }
}

/** How many paths' labels routeLabeller keeps, and the longest path it keeps one of: at most about 3 MB. */
const LABELLED_PATHS = 5_000;
const LABELLED_PATH_LENGTH = 256;
