/**
 * The Express application: security headers, health probes, local media files and the React Router
 * handler. `server.js` mounts it after compression and the static build; in development Vite loads this
 * file directly. `prepare()` runs the start-up check, the migrations and the first-run seed.
 */
import "react-router";
import { STATUS_CODES, type IncomingMessage } from "node:http";
import path from "node:path";
import fs from "node:fs";
import express from "express";
import { sql } from "drizzle-orm";
import { createRequestHandler } from "@react-router/express";
import { createRequestHandler as createFetchHandler, type ServerBuild } from "react-router";
import { getConfig, startupCheck, type Config } from "./config.server.ts";
import { ensureSchema, getDatabaseHandle, seedIfEmpty } from "./db/client.server.ts";
import { logger } from "./ops/logger.server.ts";
import { publicSecurityHeaders, securityHeaders } from "./http/security.server.ts";
import { BODY_LIMITS } from "./http/request-body.server.ts";
import { ourOrigins, requestBodyGuard, requestTargetGuard } from "./http/request-guard.server.ts";
import { oneClickUnsubscribe } from "./http/one-click-unsubscribe.server.ts";
import { entryRedirect, entryRedirectTarget } from "./http/entry-redirect.server.ts";
import { localVideoFiles, LOCAL_TUS_PATH, LOCAL_VIDEO_URL_PREFIX } from "./media/video/local.server.ts";
import { announceFirstRunSetup, printFirstRunSetupLink } from "./auth/setup.server.ts";
import { armScheduledPublishing } from "./content/newsroom/scheduling.server.ts";
import { syncSearchIndex } from "./search/search-index.server.ts";
import { CLIENT_IP_HEADER } from "./content/views.server.ts";
import { createPageCache, followInvalidations, responseCachePolicy, type PageCache } from "./http/page-cache.server.ts";
import { MEDIA_SURROGATE_HEADERS, sharedPageCacheControl } from "./http/shared-cache.server.ts";
import { createFastPath, type FastPath } from "./http/fast-path.server.ts";
import { endLiveStreams, LIVE_STREAM_PATHS, liveStream, openLiveStreams } from "./http/live-stream.server.ts";
import { startCacheBus, type CacheBus } from "./content/cache-bus.server.ts";
import { startLiveBus, stopLiveBus } from "./content/live/bus.server.ts";
import { flushAudience } from "./analytics/collect.server.ts";
import { setReadCacheLimit } from "./content/cache.server.ts";
import { onSocialFeedChanged } from "./social/feed.server.ts";
import { startJobWorker, queueVideoProcessing } from "./jobs/index.server.ts";
import { followInvalidationsToCdn, type CdnPurgeFollower } from "./cdn/purge.server.ts";
import { releaseOrphanedJobs, type Worker } from "./jobs/queue.server.ts";
import { createLocalTusServer } from "./media/video/tus.server.ts";
import { createFileUploadServer, FILE_TUS_PATH } from "./media/storage/file-uploads.server.ts";
import { recordLibraryFileQuietly } from "./media/library.server.ts";
import { getStorage, sharedStorage } from "./media/storage/index.server.ts";
import { requirePermission } from "./auth/session.server.ts";
import { getDb } from "./db/client.server.ts";
import { checkReadiness } from "./ops/readiness.server.ts";
import { routeLabeller, trackRequests } from "./ops/access-log.server.ts";
import { currentRequestId, labelRequest, notePageCache } from "./ops/request-context.server.ts";
import { metricsEndpoint, setMetricSources } from "./ops/metrics.server.ts";
import { getAuth } from "./auth/auth.server.ts";

declare module "react-router" {
  interface AppLoadContext {
    nonce: string;
    /** The request's id (server/ops/request-context.server.ts): the error screen's number. */
    requestId: string;
  }
}

/**
 * React Router's build. In production it never changes: imported once. Handed a function instead, React Router
 * would derive its route table and static handler again for every request, and each dynamic import() resolves the
 * module's address again (together about 3 ms of every rendered page here, issue 47). In development Vite may hand
 * a new build after an edit, so it is asked for each time.
 */
const importServerBuild = () => import("virtual:react-router/server-build") as Promise<ServerBuild>;
let productionBuild: Promise<ServerBuild> | undefined;
const serverBuild = () => (process.env.NODE_ENV === "production" ? (productionBuild ??= importServerBuild()) : importServerBuild());

/** What `make` derives from the build, derived once per build (once in production). */
function perBuild<T>(make: (build: ServerBuild) => T): () => Promise<T> {
  let derived: { build: ServerBuild; value: T } | undefined;
  return async () => {
    const build = await serverBuild();
    if (derived?.build !== build) derived = { build, value: make(build) };
    return derived.value;
  };
}

let prepared: Promise<Config> | undefined;
let worker: Worker | undefined;
let cacheBus: CacheBus | undefined;
let cdnPurge: CdnPurgeFollower | null | undefined;

/** The largest form body an action without a file accepts; each route kind's limit is in server/request-body.ts. */
export const MAX_FORM_BYTES = BODY_LIMITS.form;

/** Logs "still <doing> (N s)…" every 10 s until the answered function is called: no long step of a start is silent. */
function stillGoing(doing: string): () => void {
  const started = Date.now();
  const timer = setInterval(() => logger.info(`still ${doing} (${Math.round((Date.now() - started) / 1000)} s)…`), 10_000);
  timer.unref();
  return () => clearInterval(timer);
}

export function prepare(env: Record<string, string | undefined> = process.env): Promise<Config> {
  prepared ??= (async () => {
    const config = startupCheck(env, {
      info: (m) => logger.info(m),
      warn: (m) => logger.warn(m),
      error: (m) => logger.error(m),
    });
    fs.mkdirSync(path.join(config.dataDir, "uploads"), { recursive: true });
    setReadCacheLimit(config.READ_CACHE_MAX_ENTRIES);
    // Each step of a start says it begins, and a long one that it is still going: a first start's embedded
    // database takes some 20 s to create, its demo content more, and a silent wait looks like a hang (issue 46).
    const creating = !config.DATABASE_URL && !fs.existsSync(path.join(config.dataDir, "db", "PG_VERSION"));
    logger.info(creating ? `creating the embedded database in ${path.join(config.dataDir, "db")} (first start: about 20 s)…` : "opening the database…");
    const handle = await getDatabaseHandle();
    const schemaStep = stillGoing("preparing the database");
    // Any number of processes may start at once on one PostgreSQL: the first to take the migration lock
    // migrates, the others wait for it (or, with MIGRATE_ON_START=off, for `npm run db:migrate`).
    const changes = await ensureSchema(handle, { migrate: config.MIGRATE_ON_START, log: (m) => logger.info(m) }).finally(schemaStep);
    const outcome = !changes
      ? "database schema current"
      : changes.migrations.length
        ? "database migrated"
        : changes.triggers.length
          ? "search triggers updated"
          : "database schema made current by another process";
    logger.info({ driver: handle.driver, migrations: changes?.migrations ?? [], triggers: changes?.triggers.length ?? 0 }, outcome);
    // PGlite has no autovacuum: refresh planner statistics at start so the search indexes stay in use as
    // content grows (PostgreSQL does this by itself).
    if (handle.driver === "pglite") await handle.db.execute(sql`analyze`);
    if (config.SEED_DEMO) {
      // Seeded once, under the migration lock, however many processes find the database empty together.
      await seedIfEmpty(
        handle,
        async () => {
          logger.info("seeding demo content (first start only)…");
          const seedStep = stillGoing("seeding demo content");
          const { seedDemoContent } = await import("./db/seed.server.ts");
          const { inserted } = await seedDemoContent(handle.db, {
            uploadsDir: path.join(config.dataDir, "uploads"),
            videosDir: path.join(config.dataDir, "videos"),
            log: (m) => logger.info(m),
          }).finally(seedStep);
          logger.info({ inserted }, "demo content seeded on first start");
        },
        () => logger.info("another process is migrating or seeding the database: waiting for it"),
      );
    }
    // With no administrator yet, print a one-time link that lets the owner create the first one.
    await announceFirstRunSetup(handle.db);
    // With several processes, each hears the others' invalidations (docs/decisions/0106-page-cache.md).
    if (config.REDIS_URL) cacheBus ??= startCacheBus({ url: config.REDIS_URL });
    // Live coverage's changes reach the readers of every process: Redis, else PostgreSQL's notifications (issue 44).
    startLiveBus({ redisUrl: config.REDIS_URL, databaseUrl: config.DATABASE_URL, handle });
    // The shared cache in front (CDN_PURGE) is told, from the job queue, what each write here changed (issue 43).
    cdnPurge ??= followInvalidationsToCdn(handle.db, config, { onSocialChange: (listener) => onSocialFeedChanged(() => listener()) });
    // Items scheduled before this start appear at their time (the read cache is told when one comes due).
    await armScheduledPublishing(handle.db);
    // What was queued for search while the server was down (an import, a migration that changed the
    // analysis) is indexed in the background: the site serves meanwhile, and searches find it as it lands.
    void syncSearchIndex(handle.db)
      .then((n) => n && logger.info({ items: n }, "search index caught up"))
      .catch((error: unknown) => logger.error({ err: error }, "search index drain failed"));
    // Video processing and daily pruning; with JOB_WORKER=off, `npm run worker` processes run them instead.
    if (config.JOB_WORKER === "embedded") {
      if (handle.driver === "pglite") {
        const released = await releaseOrphanedJobs(handle.db);
        if (released) logger.info({ released }, "jobs of the previous run resumed");
      }
      worker = startJobWorker(handle.db, config);
    }
    return config;
  })();
  return prepared;
}

/** Lets a running job finish (or hand its lease back by stopping) before the process exits. */
export async function shutdown() {
  // The audience beacons buffered since the last flush (at most ANALYTICS_FLUSH_MS of them) are written, not lost.
  await flushAudience();
  await cdnPurge?.stop();
  await worker?.stop();
  await cacheBus?.stop();
  await stopLiveBus();
}

export function createApp() {
  const config = getConfig();
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.TRUST_PROXY);
  // The request's id, context and access-log line; server.js mounts it first, before its static files.
  const track = trackRequests({ accessLog: config.ACCESS_LOG === "on" });
  app.use(track);
  app.use(securityHeaders(config));
  // Malformed request lines, targets and hosts get a 4xx before anything builds a URL from them.
  app.use(requestTargetGuard(config));
  // What the access log and /metrics count a request under: the mount below that answers it, else its React
  // Router route's pattern (never the raw path: ids and slugs would make every URL a series).
  const mounts = ["/healthz", "/readyz", "/metrics", "/uploads", LOCAL_VIDEO_URL_PREFIX, LOCAL_TUS_PATH, FILE_TUS_PATH];
  let labeller: ((pathname: string) => string) | undefined;
  const labellerOfBuild = perBuild((build) => routeLabeller(build.routes));
  const loadLabeller = () => labellerOfBuild().then((label) => (labeller = label));
  app.use((req, _res, next) => {
    const mount = mounts.find((m) => req.path === m || req.path.startsWith(`${m}/`));
    if (mount) return void (labelRequest(mount), next());
    loadLabeller().then((label) => (labelRequest(label(req.path)), next()), next);
  });
  setMetricSources({
    database: getDatabaseHandle,
    pageCache: () => pageCache?.cache.stats(),
    liveStreams: openLiveStreams,
    cdnPurgeBacklog: () => cdnPurge?.backlog() ?? 0,
  });

  app.get("/healthz", (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.json({ status: "ok", uptime: Math.round(process.uptime()) });
  });
  // Ready = the database answers, DATA_DIR takes writes and sessions can be signed (server/ops/readiness.server.ts).
  app.get("/readyz", async (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    const report = await checkReadiness({ config, database: getDatabaseHandle, auth: getAuth });
    res.status(report.status === "ready" ? 200 : 503).json(report);
  });
  // Prometheus's scrape (server/ops/metrics.server.ts): a local scrape (the socket's peer, never a forwarded
  // address), or else the METRICS_TOKEN bearer.
  app.get("/metrics", metricsEndpoint(config));

  // Local storage driver: uploaded and demo files, with Range support and a long cache (names are unique).
  app.use(
    "/uploads",
    express.static(path.join(config.dataDir, "uploads"), {
      maxAge: "365d",
      immutable: true,
      fallthrough: false,
      index: false,
      dotfiles: "deny",
      // Never changed under its name, so no purge needs it but the whole site's (decision 0145).
      setHeaders: (res) => {
        for (const [name, value] of MEDIA_SURROGATE_HEADERS) res.setHeader(name, value);
      },
    }),
  );

  // Local video library driver: renditions, playlists and thumbnails by video id.
  app.use(LOCAL_VIDEO_URL_PREFIX, localVideoFiles(config));

  // Resumable video uploads of the embedded library: stored as they arrive, so mounted before the body limit; in
  // S3 or Bunny storage when configured, so any process takes any request of an upload (decision 0119).
  const minRate = { bytesPerSecond: config.UPLOAD_MIN_BYTES_PER_SECOND, windowMs: config.UPLOAD_RATE_WINDOW_MS };
  // A failure inside tus after its answer began (the client gone mid-body) is logged, never left unhandled.
  const uploadFailed = (error: unknown) => logger.warn({ err: error }, "upload request ended with an error");
  if (config.drivers.video === "local") {
    const tus = createLocalTusServer({
      minRate,
      dataDir: config.dataDir,
      sharedStorage: sharedStorage(config),
      db: getDb,
      authorize: (request) => requirePermission(request, "videos.manage", { mode: "api" }),
      onVideoUploaded: queueVideoProcessing,
    });
    app.use((req, res, next) => (tus.matches(req.path) ? void tus.handle(req, res).catch(uploadFailed) : next()));
  }
  // Resumable image, audio and document uploads of the content forms, streamed into the configured storage.
  const fileUploads = createFileUploadServer({
    minRate,
    dataDir: config.dataDir,
    sharedStorage: sharedStorage(config),
    storage: getStorage,
    authorize: (request) => requirePermission(request, "content.write", { mode: "api" }),
    record: async (file) => recordLibraryFileQuietly(await getDb(), file),
  });
  app.use((req, res, next) => (fileUploads.matches(req.path) ? void fileUploads.handle(req, res).catch(uploadFailed) : next()));

  // The reader's address for the view counter (server/content/views.server.ts): set from req.ip on every request,
  // overwriting anything the client sent under that name.
  app.use((req, _res, next) => {
    req.headers[CLIENT_IP_HEADER] = req.ip ?? "";
    next();
  });

  // A state-changing request from another site is refused here; a body over its route kind's limit is refused
  // before any handler reads it, one still arriving after HTTP_REQUEST_TIMEOUT_MS is cut
  // (server/http/request-guard.server.ts). Uploads are above, with their own checks.
  app.use(requestBodyGuard(config));
  // A mail client's one-click unsubscribe (RFC 8058) from any origin, answered before React Router's own origin
  // check refuses it (server/http/one-click-unsubscribe.server.ts).
  app.use(oneClickUnsubscribe(config));

  // A live coverage's event stream (issue 44, server/http/live-stream.server.ts): held open for as long as its reader
  // reads, never kept by any cache nor compressed (server.js), so it is answered before the caches.
  app.get(LIVE_STREAM_PATHS, liveStream(config, getDb));

  // The reader's stored language, honoured at the bare entry `/` only, before any cache could answer with the
  // Arabic home (server/http/entry-redirect.server.ts).
  app.use(entryRedirect(config));

  // Whatever depends on the session is private, in any format (server/http/page-cache.server.ts), with the cache on or off.
  // Public answers carry the shared cache's lifetimes (CDN_MAX_AGE…) and their surrogate keys (decision 0145).
  app.use(responseCachePolicy(sharedPageCacheControl(config)));
  // Anonymous public pages and feeds from the full-page cache (server/http/page-cache.server.ts); everything else renders below.
  if (config.PAGE_CACHE === "on") {
    const cache = pageCacheFor(config);
    // Its verdict is its X-Page-Cache header; a request it passes without one was a bypass.
    app.use((req, res, next) => (notePageCache("bypass"), cache.middleware(req, res, next)));
    // Its fresh pages, answered before Express runs when server.js puts fastPathOf(app) in front (server/http/fast-path.server.ts).
    if (config.PAGE_CACHE_FAST_PATH === "on") {
      void loadLabeller().catch(() => {}); // the label middleware reports a failure to load the build
      const ours = ourOrigins(config);
      const redirects = (req: IncomingMessage) => entryRedirectTarget(req, ours) !== undefined;
      fastPaths.set(app, createFastPath({ app, track, securityHeaders: publicSecurityHeaders(config), cache, label: () => labeller, redirects }));
    }
  }

  const reactRouter = perBuild((build) =>
    createRequestHandler({
      build,
      getLoadContext: (_req, res) => ({ nonce: String(res.locals.nonce ?? ""), requestId: currentRequestId() ?? "" }),
    }),
  );
  app.use((req, res, next) => void reactRouter().then((handle) => handle(req, res, next), next));

  // The last word on errors no route answered: express.static with fallthrough:false reports a missing file as
  // a 404 error, a client that went away mid-request a 4xx; those are the client's (info). Anything else is ours.
  app.use((err: { status?: number; statusCode?: number }, req: express.Request, res: express.Response, next: express.NextFunction) => {
    const status = err.status ?? err.statusCode ?? 500;
    if (status >= 400 && status < 500) logger.info({ status, method: req.method, path: req.path }, "client error");
    else logger.error({ err, method: req.method, path: req.path }, "request failed");
    if (res.headersSent) return next(err);
    const answered = status >= 400 && status < 600 ? status : 500;
    res
      .status(answered)
      .set("Cache-Control", "no-store")
      .type("text/plain")
      .send(STATUS_CODES[answered] ?? "Error");
  });
  return app;
}

const fastPaths = new WeakMap<express.Express, FastPath>();

/**
 * The handler to put in front of an app made by createApp (server.js): it answers the requests the page cache can
 * answer with a fresh page and returns true, else returns false and the app must answer. Undefined when
 * PAGE_CACHE or PAGE_CACHE_FAST_PATH is off.
 */
export function fastPathOf(app: express.Express): FastPath | undefined {
  return fastPaths.get(app);
}

let pageCache: { cache: PageCache; unfollow: () => void } | undefined;

/**
 * The process's page cache: pages rendered without a nonce (their CSP lists script hashes), sent with the shared
 * cache's lifetimes. Its own fresh time stays its default (a minute): every write expires it at once, and the
 * minute bounds what changes without one (decision 0145). Views are counted by the page's beacon, not here.
 */
function pageCacheFor(config: Config): PageCache {
  pageCache?.unfollow(); // a new app in development: the old cache stops following
  const renderPage = perBuild((build) => createFetchHandler(build, process.env.NODE_ENV));
  const cache = createPageCache({
    // The render runs in the context of the request that started it: an error page shows that request's id.
    render: async (request) => (await renderPage())(request, { nonce: "", requestId: currentRequestId() ?? "" }),
    origin: config.publicUrl,
    maxBytes: config.PAGE_CACHE_MAX_BYTES,
    cacheControl: sharedPageCacheControl(config),
  });
  pageCache = { cache, unfollow: followInvalidations(cache, (listener) => onSocialFeedChanged(() => listener())) };
  return cache;
}

/** For tests and the bench: the running page cache, if any. */
export function currentPageCache(): PageCache | undefined {
  return pageCache?.cache;
}

export { logger, trackRequests, labelRequest, endLiveStreams, flushAudience, printFirstRunSetupLink };
