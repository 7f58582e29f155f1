/**
 * /metrics in Prometheus's text format (prom-client): what each request did (counted by the access log's
 * middleware, server/ops/access-log.server.ts), the page cache's answers, upload sizes, and, read when scraped,
 * the job queue (from the table: every worker, wherever it runs), the PostgreSQL pool and the page cache's size;
 * plus prom-client's process metrics (memory, CPU, event loop lag, GC). Every series and what to alert on:
 * docs/operations.md.
 *
 * Open to a scrape from this machine (isLocalScrape: the socket's own peer, never a forwarded address); from
 * anywhere else only with `Authorization: Bearer <METRICS_TOKEN>`, and a 404 when no token is set, so that the
 * endpoint does not exist for the public. Never cached.
 */
import crypto from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Request, Response } from "express";
import client from "prom-client";
import { cacheStats } from "#server/content/cache.server.ts";
import type { DatabaseHandle } from "#server/db/client.server.ts";
import { queueStats, type QueueStats } from "#server/jobs/queue.server.ts";
import { logger } from "./logger.server.ts";

/** What the scrape reads from elsewhere; set by the app (server/app.server.ts), absent in a bare process. */
export type MetricSources = {
  database?: () => Promise<DatabaseHandle>;
  pageCache?: () => { size: number; bytes: number; fastHits?: number } | undefined;
  /** Live coverage's open event streams in this process (server/http/live-stream.server.ts). */
  liveStreams?: () => number;
  /** CDN purge keys gathered here and not yet queued as a job (server/cdn/purge.server.ts). */
  cdnPurgeBacklog?: () => number;
};

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** A job table read that takes longer is left out of this scrape rather than holding it. */
const SCRAPE_READ_MS = 2000;

function createMetrics() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const sources: MetricSources = {};
  const registers = [registry];

  const requests = new client.Counter({
    name: "http_requests_total",
    help: "HTTP requests answered, by method, route (pattern or mount) and status class",
    labelNames: ["method", "route", "status_class"] as const,
    registers,
  });
  const duration = new client.Histogram({
    name: "http_request_duration_seconds",
    help: "Time from the request's arrival to the last byte of its answer (or the client leaving)",
    labelNames: ["method", "route", "status_class"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const inFlight = new client.Gauge({ name: "http_requests_in_flight", help: "Requests being answered now", registers });
  const pageCache = new client.Counter({
    name: "sahara_page_cache_requests_total",
    help: "Requests the page cache looked at, by its answer (hit, stale, miss, hit-shared, stale-if-error, pass, error, bypass)",
    labelNames: ["result"] as const,
    registers,
  });
  const cdnPurges = new client.Counter({
    name: "sahara_cdn_purges_total",
    help: "Purge attempts of the shared cache (CDN_PURGE) by driver and outcome: ok; retry (failed, tried again later); failed (the last attempt failed)",
    labelNames: ["driver", "outcome"] as const,
    registers,
  });
  const uploads = new client.Histogram({
    name: "sahara_upload_bytes",
    help: "Sizes of the files completed through the resumable upload endpoints, by kind",
    labelNames: ["kind"] as const,
    buckets: client.exponentialBuckets(1024 * 1024, 4, 8), // 1 MB … 16 GB
    registers,
  });

  new client.Gauge({
    name: "sahara_page_cache_entries",
    help: "Pages kept by this process's page cache",
    registers,
    collect() {
      const stats = sources.pageCache?.();
      if (stats) this.set(stats.size);
    },
  });
  new client.Gauge({
    name: "sahara_page_cache_bytes",
    help: "Bytes kept by this process's page cache (all encodings)",
    registers,
    collect() {
      const stats = sources.pageCache?.();
      if (stats) this.set(stats.bytes);
    },
  });

  new client.Gauge({
    name: "sahara_cdn_purge_backlog",
    help: "Surrogate keys this process gathered for a CDN purge and has not yet queued as a cdn.purge job (a burst is gathered for a moment, then queued)",
    registers,
    collect() {
      this.set(sources.cdnPurgeBacklog?.() ?? 0);
    },
  });

  new client.Gauge({
    name: "sahara_live_streams",
    help: "Live coverage event streams open in this process (past LIVE_MAX_STREAMS new readers are told to poll)",
    registers,
    collect() {
      this.set(sources.liveStreams?.() ?? 0);
    },
  });

  new client.Counter({
    name: "sahara_page_cache_fast_path_total",
    help: "Page-cache hits answered before Express's stack ran (server/http/fast-path.server.ts); a share of result=hit",
    registers,
    collect() {
      const stats = sources.pageCache?.();
      this.reset();
      if (stats?.fastHits) this.inc(stats.fastHits);
    },
  });

  new client.Counter({
    name: "sahara_read_cache_invalidations_total",
    help: "Read-cache invalidations this process's writes made, by tag (each empties the cached reads and pages of that tag, and is sent to the other processes with Redis)",
    labelNames: ["tag"] as const,
    registers,
    collect() {
      this.reset();
      for (const [tag, count] of Object.entries(cacheStats().invalidations)) this.inc({ tag }, count);
    },
  });

  registerQueueGauges(sources, registers);
  registerPoolGauges(sources, registers);

  return { registry, sources, requests, duration, inFlight, pageCache, uploads, cdnPurges };
}

/** The job queue's series, read from its table at scrape time. */
function registerQueueGauges(sources: MetricSources, registers: client.Registry[]) {
  // One read of the jobs table serves every queue series of a scrape.
  let queueRead: { at: number; stats: Promise<QueueStats | null> } | undefined;
  const readQueue = (): Promise<QueueStats | null> => {
    const database = sources.database;
    if (!database) return Promise.resolve(null);
    if (queueRead && Date.now() - queueRead.at < 1000) return queueRead.stats;
    const read = database().then((handle) => queueStats(handle.db));
    const stats = Promise.race([
      read,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${SCRAPE_READ_MS} ms`)), SCRAPE_READ_MS).unref()),
    ]).catch((error: unknown) => {
      void read.catch(() => {});
      logger.warn({ err: error }, "metrics: the job queue could not be read");
      return null;
    });
    queueRead = { at: Date.now(), stats };
    return stats;
  };
  new client.Gauge({
    name: "sahara_jobs",
    help: "Jobs in the queue table by name and state (queued, running, done, failed); read at scrape time",
    labelNames: ["name", "state"] as const,
    registers,
    async collect() {
      const stats = await readQueue();
      this.reset();
      for (const row of stats?.counts ?? []) this.set({ name: row.name, state: row.state }, row.jobs);
    },
  });
  new client.Gauge({
    name: "sahara_jobs_retrying",
    help: "Queued jobs whose last attempt failed, waiting for the next",
    labelNames: ["name"] as const,
    registers,
    async collect() {
      const stats = await readQueue();
      this.reset();
      for (const row of stats?.retrying ?? []) this.set({ name: row.name }, row.jobs);
    },
  });
  new client.Gauge({
    name: "sahara_jobs_oldest_due_seconds",
    help: "How long the job longest due has waited for a worker (0: none waiting)",
    registers,
    async collect() {
      const stats = await readQueue();
      this.reset();
      if (stats) this.set(stats.oldestDueSeconds);
    },
  });
}

/** The PostgreSQL pool's series (absent on the embedded database). */
function registerPoolGauges(sources: MetricSources, registers: client.Registry[]) {
  type PoolStats = { total: number; idle: number; waiting: number; max: number };
  const readPool = async (): Promise<PoolStats | null> => {
    if (!sources.database) return null;
    const handle = await sources.database().catch(() => null);
    if (handle?.driver !== "postgres") return null;
    // node-postgres's Pool, which drizzle keeps as $client (server/db/client.server.ts opens it).
    const pool = (handle.db as unknown as { $client?: { totalCount: number; idleCount: number; waitingCount: number; options?: { max?: number } } }).$client;
    return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options?.max ?? 10 } : null;
  };
  // Labelled by driver so that the series are absent, not 0, on the embedded database (it has no pool).
  for (const [key, help] of [
    ["total", "Connections open in this process's PostgreSQL pool"],
    ["idle", "Open pool connections not in use"],
    ["waiting", "Queries waiting for a pool connection (all in use, or one being opened)"],
    ["max", "The pool's size limit"],
  ] as const) {
    new client.Gauge({
      name: `sahara_db_pool_${key}`,
      help,
      labelNames: ["driver"] as const,
      registers,
      async collect() {
        const stats = await readPool();
        this.reset();
        if (stats) this.set({ driver: "postgres" }, stats[key]);
      },
    });
  }
}

type Metrics = ReturnType<typeof createMetrics>;
// One set per process, even when development's module reloading evaluates this file again.
const KEY = Symbol.for("sahara.metrics");
const globals = globalThis as Record<symbol, Metrics | undefined>;
/** Made on first use: a process that never counts (a script, most unit tests) starts no event-loop monitor. */
const metrics = (): Metrics => (globals[KEY] ??= createMetrics());

export function setMetricSources(sources: MetricSources) {
  Object.assign(metrics().sources, sources);
}

export const methodLabel = (method: string) => (METHODS.has(method) ? method : "OTHER");
export const statusClass = (status: number) => (status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : "other");

/** One answered request (the access log's middleware calls this when the answer ends). */
export function observeRequest({
  method,
  route,
  status,
  seconds,
  pageCache,
}: {
  method: string;
  route: string;
  status: number;
  seconds: number;
  pageCache?: string;
}) {
  const m = metrics();
  const labels = { method: methodLabel(method), route, status_class: statusClass(status) };
  m.requests.inc(labels);
  m.duration.observe(labels, seconds);
  if (pageCache) m.pageCache.inc({ result: pageCache });
}

export function requestStarted(): () => void {
  const gauge = metrics().inFlight;
  gauge.inc();
  return () => gauge.dec();
}

/** The same in two calls, for a caller that keeps no closure per request (the page cache's fast path). */
export function inFlightBegun() {
  metrics().inFlight.inc();
}

export function inFlightDone() {
  metrics().inFlight.dec();
}

/** The `kind` of an upload from its declared type: a handful of values, whatever a client declares. */
export function uploadKind(filetype: string | undefined): string {
  const type = (filetype ?? "").toLowerCase();
  if (type === "text/vtt") return "captions";
  if (type === "application/pdf") return "document";
  const family = type.split("/")[0];
  return family === "video" || family === "audio" || family === "image" ? family : "other";
}

/** A file completed through a resumable upload endpoint (server/media/storage/tus.server.ts), by `uploadKind`. */
export function observeUpload(kind: string, bytes: number) {
  if (Number.isFinite(bytes) && bytes >= 0) metrics().uploads.observe({ kind }, bytes);
}

/** One purge attempt of the shared cache (server/cdn/purge.server.ts). */
export function observeCdnPurge(driver: string, outcome: "ok" | "retry" | "failed") {
  metrics().cdnPurges.inc({ driver, outcome });
}

/** The text a scrape gets. */
export function metricsText(): Promise<string> {
  return metrics().registry.metrics();
}

const isLoopback = (address: string | undefined) => !!address && /^(?:127\.|::1$|::ffff:127\.)/.test(address);

/**
 * Headers a proxy adds when it passes a request on. Any of them on the wire means the socket's peer is a proxy
 * and the client is someone else. Read from the raw headers: the target guard drops forwarded headers of an
 * untrusted peer from `req.headers`, and a dropped one still says the request was passed on.
 */
const FORWARDING_HEADER = /^(?:forwarded|x-forwarded-[a-z-]+|x-real-ip|x-client-ip|client-ip|true-client-ip|cf-connecting-ip|via)$/i;

/** A Host naming this machine by a loopback name or address (`localhost:3000`, `127.0.0.1`, `[::1]:9100`). */
function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  try {
    const name = new URL(`http://${host}`).hostname;
    return name === "localhost" || name === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(name);
  } catch {
    return false;
  }
}

/**
 * Whether a request is a scrape from this machine, decided on the connection itself, never on what the client
 * says about itself (X-Forwarded-For, `req.ip`, which follows TRUST_PROXY): its socket's peer is a loopback
 * address, no forwarding header came with it, and its Host names this machine by a loopback name. A reverse
 * proxy on the same host connects from loopback too, for every visitor: what it passes on carries a forwarding
 * header (X-Forwarded-For, Forwarded, X-Real-IP…) or the site's public Host (docs/deploy.md asks for both), and
 * is refused here; it needs the token like any other client.
 */
export function isLocalScrape(req: Pick<IncomingMessage, "socket" | "rawHeaders" | "headers">): boolean {
  if (!isLoopback(req.socket.remoteAddress)) return false;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (FORWARDING_HEADER.test(req.rawHeaders[i])) return false;
  return isLoopbackHost(req.headers.host);
}

const digest = (value: string) => crypto.createHash("sha256").update(value).digest();

/** The /metrics handler: a local scrape (isLocalScrape), or the METRICS_TOKEN bearer. */
export function metricsEndpoint({ METRICS_TOKEN }: { METRICS_TOKEN?: string }) {
  // Compared as digests: equal lengths, so the comparison takes the same time whatever was sent.
  const expected = METRICS_TOKEN ? digest(`Bearer ${METRICS_TOKEN}`) : null;
  return async (req: Request, res: Response) => {
    res.setHeader("Cache-Control", "no-store");
    const sent = req.headers.authorization;
    const authorized = isLocalScrape(req) || (expected !== null && typeof sent === "string" && crypto.timingSafeEqual(digest(sent), expected));
    if (!authorized) {
      if (!expected) return void res.status(404).type("text/plain").send("Not Found");
      return void res.status(401).set("WWW-Authenticate", 'Bearer realm="metrics"').type("text/plain").send("Unauthorized");
    }
    const text = await metricsText();
    res.type(metrics().registry.contentType).send(text);
  };
}
