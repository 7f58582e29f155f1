/**
 * The process entry: `node server.js` serves the production build; `node server.js --dev` serves the
 * sources through Vite with hot reload. Both run the same Express app (server/app.server.ts).
 */
import crypto from "node:crypto";
import http from "node:http";
import compression from "compression";
import express from "express";

const dev = process.argv.includes("--dev");
const buildDir = process.env.BUILD_DIR || "build";
const PRODUCTION_REFUSAL = "Application cannot start with invalid configuration in production mode";

async function main() {
  // The port is taken before anything else happens: a second process on a port already served must fail at
  // once (exit code 1), before it migrates, seeds or starts a job worker. Until the app is ready it answers 503.
  let handler = (_req, res) => {
    res.writeHead(503, {
      "Content-Type": "text/plain; charset=utf-8",
      "Retry-After": "1",
      "Cache-Control": "no-store",
      // An id in the app's form (server/ops/request-context.server.ts), though nothing is logged for these.
      "X-Request-Id": Array.from(crypto.randomBytes(9), (b) => "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"[b % 32]).join(""),
    });
    res.end("starting");
  };
  const listener = http.createServer(
    {
      // Node's own requestTimeout would also cut a resumable upload on a slow link: the whole-request limit is
      // applied by the app to the routes that are not uploads (server/http/request-guard.server.ts), the idle limit below to all.
      requestTimeout: 0,
      // Node looks for connections past headersTimeout this often (every 30 s by default, which would let a slow
      // sender of headers keep a connection up to 30 s past the limit).
      connectionsCheckingInterval: 1000,
    },
    (req, res) => handler(req, res),
  );
  // The site proxies nothing: without this, Node would drop a CONNECT request without a word.
  listener.on("connect", (_req, socket) => {
    socket.on("error", () => {});
    socket.end("HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  });
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? "0.0.0.0";
  await new Promise((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(port, host, () => {
      listener.off("error", reject);
      resolve(undefined);
    });
  }).catch((error) => {
    const why = error && error.code === "EADDRINUSE" ? "the address is already in use (is another server running?)" : String(error?.message ?? error);
    console.error(`Cannot listen on ${host}:${port}: ${why}`);
    process.exit(1);
  });

  let appModule;
  let vite;
  /** Answers what the page cache holds fresh before Express runs (server/http/fast-path.server.ts); production only. */
  let fastPath;
  if (dev) {
    vite = await import("vite").then((v) => v.createServer({ server: { middlewareMode: true } }));
    appModule = await vite.ssrLoadModule("./server/app.server.ts");
  } else {
    appModule = await import(new URL(`./${buildDir}/server/index.js`, import.meta.url).href);
  }
  const config = await appModule.prepare();
  const server = express();
  server.disable("x-powered-by");
  server.set("trust proxy", config.TRUST_PROXY);
  // First, before compression (so that the access log counts the bytes that go out) and the static files (so
  // that they carry an X-Request-Id and a log line too): server/ops/access-log.server.ts.
  server.use(appModule.trackRequests({ accessLog: config.ACCESS_LOG === "on" }));
  // A live coverage's event stream (text/event-stream) is never compressed: compression holds bytes until it has
  // enough to squeeze, and each event must reach its reader at once (server/http/live-stream.server.ts).
  server.use(
    compression({ filter: (req, res) => !String(res.getHeader("Content-Type") ?? "").startsWith("text/event-stream") && compression.filter(req, res) }),
  );
  /** Counts a request under `label` when `serve` answers it (a file of the build), not when it passes it on. */
  const labelled = (label, serve) => (req, res, next) => {
    appModule.labelRequest(label);
    serve(req, res, (error) => {
      appModule.labelRequest(undefined);
      next(error);
    });
  };
  if (dev) {
    server.use(vite.middlewares);
    const app = appModule.createApp();
    server.use(async (req, res, next) => {
      try {
        const fresh = await vite.ssrLoadModule("./server/app.server.ts");
        return fresh === appModule ? app(req, res, next) : fresh.createApp()(req, res, next);
      } catch (error) {
        if (typeof error === "object" && error instanceof Error) vite.ssrFixStacktrace(error);
        next(error);
      }
    });
  } else {
    // Hashed assets never change: cache them for a year. Everything else in the client build for an hour.
    server.use("/assets", labelled("/assets", express.static(`${buildDir}/client/assets`, { immutable: true, maxAge: "1y", index: false })));
    server.use(labelled("static", express.static(`${buildDir}/client`, { maxAge: "1h", index: false })));
    const app = appModule.createApp();
    server.use(app);
    fastPath = appModule.fastPathOf(app);
  }

  listener.headersTimeout = config.HTTP_HEADERS_TIMEOUT_MS;
  listener.keepAliveTimeout = config.HTTP_KEEP_ALIVE_TIMEOUT_MS;
  // No byte either way for this long: the connection is closed (a stalled upload, a client that stopped reading).
  listener.timeout = config.HTTP_IDLE_TIMEOUT_MS;
  handler = fastPath ? (req, res) => fastPath(req, res) || server(req, res) : server;
  const address = listener.address();
  const shown = typeof address === "object" && address ? address.port : port;
  appModule.logger.info(`serving on http://localhost:${shown}`);
  // The first start's one-time set-up link, once more and last, framed: among the log lines above it is easy to miss.
  appModule.printFirstRunSetupLink?.();

  // Open live streams would keep the server from ever closing: they are ended first (their readers reconnect elsewhere).
  // The audience beacons still buffered (at most ANALYTICS_FLUSH_MS of them, decision 0147) are written before it exits.
  const stop = () => {
    appModule.endLiveStreams?.();
    listener.close(() => Promise.resolve(appModule.flushAudience?.()).finally(() => process.exit(0)));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((error) => {
  if (error && error.code === "CONFIG_INVALID") {
    console.error(PRODUCTION_REFUSAL);
    for (const problem of error.problems ?? []) console.error(`- ${problem}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
