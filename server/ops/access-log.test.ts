/**
 * The operator's view of a request, on a real Express app over real HTTP: its id (made, or a trusted proxy's),
 * sent back and carried by every log line written while it is handled; TRUST_PROXY deciding who may say the
 * client's address; one access-log line per request with its route label, status, bytes and page-cache verdict;
 * and /metrics counting it, open to loopback and to the METRICS_TOKEN bearer only.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkConfig, parseTrustProxy } from "#server/config.server.ts";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { enqueue } from "#server/jobs/queue.server.ts";
import { jobs } from "#server/db/schema.server.ts";
import { createLogger } from "./logger.server.ts";
import { routeLabeller, trackRequests } from "./access-log.server.ts";
import { currentRequestId, labelRequest, notePageCache } from "./request-context.server.ts";
import { metricsEndpoint, observeUpload, setMetricSources } from "./metrics.server.ts";

type Line = Record<string, unknown> & { msg: string; level: number };

function capture() {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const text of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(text) as Line);
      done();
    },
  });
  const log = createLogger(stream);
  log.level = "debug";
  return { log, lines };
}

type App = { url: string; port: number; close: () => Promise<void> };

async function serve(app: express.Express): Promise<App> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The raw bytes of an answer as they came over the wire (fetch would decompress them). */
function rawGet(port: number, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: number; body: string }>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: body.length, body: body.toString() });
        });
      })
      .on("error", reject);
  });
}

/** An app shaped like server.js + createApp: tracking first, compression, a page cache's header, routes that log. */
function buildApp(
  trust: number | string[],
  log: ReturnType<typeof createLogger>,
  { accessLog = true, metricsToken }: { accessLog?: boolean; metricsToken?: string } = {},
) {
  const app = express();
  app.set("trust proxy", trust);
  app.use(trackRequests({ accessLog, logger: log }));
  app.use(compression());
  app.use((req, _res, next) => {
    labelRequest(req.path.startsWith("/items/") ? "/items/:id" : req.path);
    next();
  });
  app.get("/metrics", metricsEndpoint({ METRICS_TOKEN: metricsToken }));
  app.get("/healthz", (_req, res) => void res.json({ status: "ok" }));
  app.get("/items/:id", async (_req, res) => {
    // Deep in a loader, later in the request: the line carries the request's id without being handed it.
    await new Promise((resolve) => setTimeout(resolve, 5));
    log.error({ err: new Error("the query failed") }, "loader failed");
    res.status(500).type("text/plain").send("failed");
  });
  app.get("/page", (req, res) => {
    notePageCache("bypass");
    if (req.query.cached) res.setHeader("X-Page-Cache", "HIT");
    res.type("text/html").send("<p>" + "قافلة ".repeat(2000) + "</p>");
  });
  app.get("/ip", (req, res) => void res.json({ ip: req.ip, id: currentRequestId() }));
  return app;
}

describe("request ids and the access log", () => {
  const { log, lines } = capture();
  let app: App;
  beforeAll(async () => {
    app = await serve(buildApp(["loopback"], log));
  });
  afterAll(() => app?.close());
  const accessLine = (id: string) => lines.find((l) => l.msg === "request" && l.requestId === id);

  it("gives every answer an id, and writes it on every line of that request, deep ones included", async () => {
    const res = await fetch(`${app.url}/items/42?token=s3cret-link-token&page=2`);
    expect(res.status).toBe(500);
    const id = res.headers.get("x-request-id")!;
    expect(id).toMatch(/^[A-HJ-NP-Z2-9]{9}$/);
    const failure = lines.find((l) => l.msg === "loader failed");
    expect(failure?.requestId).toBe(id);
    const access = accessLine(id);
    expect(access).toMatchObject({ level: 30, method: "GET", route: "/items/:id", status: 500, ip: "127.0.0.1" });
    // The path is there without the credential; the route label never has the id.
    expect(access?.path).toBe("/items/42?token=[redacted]&page=2");
    expect(JSON.stringify(lines)).not.toContain("s3cret-link-token");
    // Another request, another id.
    const again = await fetch(`${app.url}/items/43`);
    expect(again.headers.get("x-request-id")).not.toBe(id);
  });

  it("counts the bytes that went out, compressed or not, and notes the page cache's verdict", async () => {
    const gz = await rawGet(app.port, "/page?cached=1", { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    const plain = await rawGet(app.port, "/page", { "accept-encoding": "identity" });
    expect(gz.bytes).toBeLessThan(plain.bytes);
    expect(accessLine(String(gz.headers["x-request-id"]))).toMatchObject({ bytes: gz.bytes, cache: "hit", status: 200 });
    expect(accessLine(String(plain.headers["x-request-id"]))).toMatchObject({ bytes: plain.bytes, cache: "bypass" });
  });

  it("logs the probes at debug", async () => {
    const res = await fetch(`${app.url}/healthz`);
    expect(accessLine(res.headers.get("x-request-id")!)).toMatchObject({ level: 20, route: "/healthz" });
  });
});

describe("TRUST_PROXY: who may say who the client is", () => {
  const { log, lines } = capture();
  let behindLocalProxy: App;
  let proxyElsewhere: App;
  beforeAll(async () => {
    // The default: a proxy on loopback (this test's requests come from 127.0.0.1, standing for it).
    behindLocalProxy = await serve(buildApp(checkConfig({}).config.TRUST_PROXY, log));
    // A balancer on another network: loopback is not trusted, so this test is an ordinary client.
    proxyElsewhere = await serve(buildApp(parseTrustProxy("10.0.0.0/8") as string[], log));
  });
  afterAll(async () => {
    await behindLocalProxy?.close();
    await proxyElsewhere?.close();
  });

  it("takes the forwarded address and request id from a trusted proxy", async () => {
    const res = await fetch(`${behindLocalProxy.url}/ip`, { headers: { "x-forwarded-for": "203.0.113.7", "x-request-id": "lb-5f1c2a9e-77" } });
    expect(await res.json()).toEqual({ ip: "203.0.113.7", id: "lb-5f1c2a9e-77" });
    expect(res.headers.get("x-request-id")).toBe("lb-5f1c2a9e-77");
    expect(lines.find((l) => l.msg === "request" && l.requestId === "lb-5f1c2a9e-77")?.ip).toBe("203.0.113.7");
  });

  it("refuses a trusted proxy's request id that is not sane, and makes one", async () => {
    for (const sent of ["has space", "x".repeat(129), 'quote"d', "<script>"]) {
      const res = await fetch(`${behindLocalProxy.url}/ip`, { headers: { "x-request-id": sent } });
      expect(res.headers.get("x-request-id")).toMatch(/^[A-HJ-NP-Z2-9]{9}$/);
    }
  });

  it("lets nobody else spoof either", async () => {
    const res = await fetch(`${proxyElsewhere.url}/ip`, { headers: { "x-forwarded-for": "203.0.113.7", "x-request-id": "spoofed-id-1" } });
    const body = (await res.json()) as { ip: string; id: string };
    expect(body.ip).toBe("127.0.0.1");
    expect(body.id).not.toBe("spoofed-id-1");
    expect(res.headers.get("x-request-id")).toBe(body.id);
  });
});

describe("the TRUST_PROXY setting", () => {
  it("takes hops, addresses, ranges and Express's names, and defaults to loopback", () => {
    expect(checkConfig({}).config.TRUST_PROXY).toEqual(["loopback"]);
    expect(parseTrustProxy("2")).toBe(2);
    expect(parseTrustProxy("0")).toBe(0);
    expect(parseTrustProxy("loopback, 10.0.0.0/8 ,192.168.1.4,fd00::/8,uniquelocal,linklocal,10.1.0.0/255.255.0.0,::1")).toEqual([
      "loopback",
      "10.0.0.0/8",
      "192.168.1.4",
      "fd00::/8",
      "uniquelocal",
      "linklocal",
      "10.1.0.0/255.255.0.0",
      "::1",
    ]);
    const app = express();
    app.set("trust proxy", parseTrustProxy("10.0.0.0/8,loopback"));
    const trust = app.get("trust proxy fn") as (address: string, hop: number) => boolean;
    expect([trust("10.2.3.4", 0), trust("127.0.0.1", 0), trust("203.0.113.7", 0)]).toEqual([true, true, false]);
  });

  it("refuses anything else with a clear message, and production refuses to start", () => {
    for (const bad of ["true", "everyone", "10.0.0.0/33", "10.0.0.300", "fd00::/129", "11", "-1", "loopback,,", "10.0.0.0/8/8", "1.5"]) {
      expect(typeof parseTrustProxy(bad), bad).toBe("string");
    }
    const { config, errors } = checkConfig({ TRUST_PROXY: "balancer" });
    expect(errors.join("\n")).toMatch(/TRUST_PROXY must be a number of proxy hops .* got "balancer"/);
    // Outside production the default stands in; in production startupCheck refuses on any error.
    expect(config.TRUST_PROXY).toEqual(["loopback"]);
    expect(checkConfig({ NODE_ENV: "production", TRUST_PROXY: "balancer" }).errors.length).toBeGreaterThan(0);
  });
});

describe("route labels of a React Router build", () => {
  const label = routeLabeller({
    root: { id: "root", path: "" },
    "routes/public/layout": { id: "routes/public/layout", parentId: "root" },
    home: { id: "home", parentId: "routes/public/layout", index: true },
    news: { id: "news", parentId: "routes/public/layout", path: "news" },
    detail: { id: "detail", parentId: "routes/public/layout", path: "news/:slug" },
    unknown: { id: "unknown", parentId: "routes/public/layout", path: "*" },
    api: { id: "api", parentId: "root", path: "api/admin/:type/:id" },
    admin: { id: "admin", parentId: "root", path: "admin" },
    dashboard: { id: "dashboard", parentId: "admin", index: true },
  });

  it("names the pattern, never the path", () => {
    expect(label("/")).toBe("/");
    expect(label("/news")).toBe("/news");
    expect(label("/news/%D8%A3%D8%B3%D9%88%D8%A7%D8%B1")).toBe("/news/:slug");
    expect(label("/news/x.data")).toBe("/news/:slug.data");
    expect(label("/_root.data")).toBe("/.data");
    expect(label("/api/admin/articles/12")).toBe("/api/admin/:type/:id");
    expect(label("/admin")).toBe("/admin");
    expect(label("/anything/else")).toBe("/*");
    expect(label("/__manifest")).toBe("/__manifest");
  });

  it("keeps the labels it has computed within bounds, and still names every path right past them", () => {
    // More distinct paths than it keeps (5,000), then paths it had kept and paths too long to keep.
    for (let i = 0; i < 6_000; i++) expect(label(`/news/item-${i}`)).toBe("/news/:slug");
    expect(label("/news")).toBe("/news");
    expect(label("/news/item-3")).toBe("/news/:slug");
    expect(label(`/news/${"ا".repeat(300)}`)).toBe("/news/:slug");
    expect(label(`/anything/${"x".repeat(300)}`)).toBe("/*");
  });
});

describe.each(testDatabaseKinds)("/metrics (jobs on %s)", (kind) => {
  const { log } = capture();
  const TOKEN = "metrics-token-0123456789abcdef";
  let t: TestDatabase;
  let app: App;
  let open: App;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    await t.db.delete(jobs);
    setMetricSources({ database: () => Promise.resolve(t), pageCache: () => ({ size: 3, bytes: 4096 }) });
    app = await serve(buildApp(["loopback"], log, { metricsToken: TOKEN, accessLog: false }));
    open = await serve(buildApp(["loopback"], log));
  });
  afterAll(async () => {
    await app?.close();
    await open?.close();
    await t?.drop();
  });
  const scrape = async (base: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}/metrics`, { headers });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const value = (text: string, series: string) => {
    const line = text.split("\n").find((l) => l.startsWith(series + " "));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };

  it("answers loopback with the listed series, counting", async () => {
    await enqueue(t.db, "video.process", {});
    await enqueue(t.db, "video.process", {}, { runAt: new Date(Date.now() - 60_000) });
    await enqueue(t.db, "views.prune", {});
    await t.db.update(jobs).set({ state: "failed", lastError: "boom" });
    await enqueue(t.db, "video.process", {});
    observeUpload("video", 150 * 1024 * 1024);
    await fetch(`${app.url}/items/1`);
    await fetch(`${app.url}/page?cached=1`);

    const first = await scrape(app.url);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(first.headers.get("cache-control")).toBe("no-store");
    const text = first.text;
    const before = value(text, 'http_requests_total{method="GET",route="/items/:id",status_class="5xx"}') ?? 0;
    expect(before).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/items\/:id",status_class="5xx"\} \d+/m);
    expect(value(text, 'sahara_page_cache_requests_total{result="hit"}')).toBeGreaterThanOrEqual(1);
    expect(value(text, "sahara_page_cache_entries")).toBe(3);
    expect(value(text, "sahara_page_cache_bytes")).toBe(4096);
    expect(value(text, 'sahara_jobs{name="video.process",state="failed"}')).toBe(2);
    expect(value(text, 'sahara_jobs{name="views.prune",state="failed"}')).toBe(1);
    expect(value(text, 'sahara_jobs{name="video.process",state="queued"}')).toBe(1);
    expect(value(text, "sahara_jobs_oldest_due_seconds")).toBeGreaterThanOrEqual(0);
    expect(value(text, 'sahara_upload_bytes_count{kind="video"}')).toBeGreaterThanOrEqual(1);
    expect(value(text, 'sahara_upload_bytes_bucket{le="268435456",kind="video"}')).toBeGreaterThanOrEqual(1);
    for (const series of ["process_resident_memory_bytes", "nodejs_heap_size_used_bytes", "nodejs_eventloop_lag_p99_seconds", "http_requests_in_flight"]) {
      expect(text).toContain(`\n${series} `);
    }
    if (kind === "postgres") {
      expect(value(text, 'sahara_db_pool_max{driver="postgres"}')).toBe(10);
      for (const key of ["total", "idle", "waiting"]) expect(value(text, `sahara_db_pool_${key}{driver="postgres"}`)).toBeGreaterThanOrEqual(0);
    } else {
      expect(text).not.toMatch(/\nsahara_db_pool_total/);
    }

    // Counting: the same request again is one more.
    await fetch(`${app.url}/items/2`);
    const again = (await scrape(app.url)).text;
    expect(value(again, 'http_requests_total{method="GET",route="/items/:id",status_class="5xx"}')).toBe(before + 1);
  });

  it("refuses a client elsewhere: 404 without a token configured, 401 without the right bearer", async () => {
    const elsewhere = { "x-forwarded-for": "203.0.113.9" };
    const noToken = await scrape(open.url, elsewhere);
    expect(noToken.status).toBe(404);
    expect(noToken.text).not.toContain("http_requests_total");
    expect(noToken.headers.get("cache-control")).toBe("no-store");

    expect((await scrape(app.url, elsewhere)).status).toBe(401);
    const wrong = await scrape(app.url, { ...elsewhere, authorization: `Bearer ${TOKEN}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const right = await scrape(app.url, { ...elsewhere, authorization: `Bearer ${TOKEN}` });
    expect(right.status).toBe(200);
    expect(right.text).toContain("http_requests_total");
  });
});
