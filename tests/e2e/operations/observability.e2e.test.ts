/**
 * Issue 27, the operator's view, on the built server (`node server.js`):
 *  - every answer carries an X-Request-Id (pages, their data, the page cache's hits, files of the build, uploads'
 *    endpoints, 404s and API errors), and the server writes one access-log line per request under that id;
 *  - /metrics answers loopback with the listed series, counting, and refuses a client elsewhere;
 *  - TRUST_PROXY decides whose X-Forwarded-For and X-Request-Id count, and an invalid one stops production;
 *  - the error screen's number is the failing request's id, found in the server's log line of the failure:
 *    a page rendered by the server, the same page hydrated, and a page whose data failed after a navigation in
 *    the browser (on PostgreSQL, whose table the test can take away; skipped, saying so, without
 *    TEST_DATABASE_URL or Chromium).
 */
import pg from "pg";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTENT_TYPE_DEFINITIONS } from "#domain/content-types/index.ts";
import { checkConfig } from "#server/config.server.ts";
import { openDatabase } from "#server/db/client.server.ts";
import { createAuth } from "#server/auth/auth.server.ts";
import { FILE_TUS_PATH } from "#server/media/storage/file-uploads.server.ts";
import { createPersona, type Persona } from "#tests/helpers/auth.ts";
import { browserCookies, E2E_SECRET, startAuthServer, type AuthServer } from "#tests/e2e/auth/support.ts";
import { runServerExpectingExit, startServer, type RunningServer } from "#tests/e2e/support/server.ts";
import { createScratchDatabase } from "#tests/helpers/db.ts";
import { hasChromium, hydrated, launchBrowser, newPage, skipReason } from "#tests/e2e/support/browser.ts";

type Line = Record<string, unknown> & { level: number; msg: string };

/** The server's JSON log lines so far. */
const logLines = (server: { output: () => string }): Line[] =>
  server
    .output()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Line);

const accessLine = (server: { output: () => string }, id: string) => logLines(server).find((l) => l.msg === "request" && l.requestId === id);

/** The value of one series in a scrape, or undefined when it is not there. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(series + " "));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** A tiny PDF sent through the content forms' resumable upload endpoint, as the editor's uploader does. */
async function uploadPdf(base: string, cookie: string) {
  const folder = Object.values(CONTENT_TYPE_DEFINITIONS)
    .flatMap((def) => def.fields.filter((f) => f.kind === "file").flatMap((f) => def.folders[f.name] ?? []))
    .at(0)!;
  const body = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
  const b64 = (s: string) => Buffer.from(s).toString("base64");
  const common = { cookie, origin: base, "tus-resumable": "1.0.0" };
  const created = await fetch(base + FILE_TUS_PATH, {
    method: "POST",
    headers: {
      ...common,
      "upload-length": String(body.length),
      "upload-metadata": `filename ${b64("report.pdf")},filetype ${b64("application/pdf")},folder ${b64(folder)}`,
    },
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const location = new URL(created.headers.get("location")!, base + FILE_TUS_PATH + "/").href;
  const sent = await fetch(location, {
    method: "PATCH",
    headers: { ...common, "content-type": "application/offset+octet-stream", "upload-offset": "0" },
    body,
  });
  expect(sent.status, await sent.clone().text()).toBe(204);
  return { created, sent, bytes: body.length };
}

describe("request ids, the access log and /metrics", () => {
  let server: AuthServer<"admin">;
  beforeAll(async () => {
    server = await startAuthServer({ personas: { admin: { email: "ops@observability.test", password: "Passw0rdA", role: "admin" } } });
  });
  afterAll(() => server?.stop());

  it("sends an id with every answer and writes one access-log line under it", async () => {
    const get = (path: string, init: RequestInit = {}) => fetch(server.url + path, { redirect: "manual", ...init });
    const home = await get("/");
    const html = await home.text();
    const asset = /(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset, "the home page names a script of the build").toBeTruthy();
    const answers = {
      page: home,
      "page-cache hit": (await get("/news"), await get("/news")),
      data: await get("/news.data"),
      asset: await get(asset!),
      "static file": await get("/favicon.svg"),
      "404 page": await get("/nothing-here"),
      "API error": await get("/api/search?nope=1"),
      "upload endpoint (refused)": await get(FILE_TUS_PATH, {
        method: "POST",
        headers: { "tus-resumable": "1.0.0", "upload-length": "10", origin: server.url },
      }),
      probe: await get("/healthz"),
    };
    expect(answers["page-cache hit"].headers.get("x-page-cache")).toBe("HIT");
    expect(answers["404 page"].status).toBe(404);
    expect(answers["API error"].status).toBe(400);
    expect(answers["upload endpoint (refused)"].status).toBe(401);

    const ids = new Set<string>();
    for (const [what, res] of Object.entries(answers)) {
      const id = res.headers.get("x-request-id");
      expect(id, what).toMatch(/^[A-HJ-NP-Z2-9]{9}$/);
      ids.add(id!);
    }
    expect(ids.size).toBe(Object.keys(answers).length);

    const lineOf = async (res: Response) => {
      const id = res.headers.get("x-request-id")!;
      await expect.poll(() => accessLine(server, id)).toBeTruthy();
      return accessLine(server, id)!;
    };
    expect(await lineOf(answers.page)).toMatchObject({ level: 30, method: "GET", route: "/", path: "/", status: 200, ip: "127.0.0.1" });
    const hit = await lineOf(answers["page-cache hit"]);
    expect(hit).toMatchObject({ route: "/news", status: 200, cache: "hit" });
    expect(hit.bytes).toBeGreaterThan(1000);
    expect(hit.ms).toBeTypeOf("number");
    expect(await lineOf(answers.data)).toMatchObject({ route: "/news.data", status: 200 });
    expect(await lineOf(answers.asset)).toMatchObject({ route: "/assets", status: 200 });
    expect(await lineOf(answers["static file"])).toMatchObject({ route: "static", path: "/favicon.svg" });
    expect(await lineOf(answers["404 page"])).toMatchObject({ route: "/*", status: 404 });
    expect(await lineOf(answers["API error"])).toMatchObject({ route: "/api/search", status: 400, cache: "bypass" });
    expect(await lineOf(answers["upload endpoint (refused)"])).toMatchObject({ route: FILE_TUS_PATH, status: 401 });
    // Probes are at debug: not in an info log.
    expect(accessLine(server, answers.probe.headers.get("x-request-id")!)).toBeUndefined();
  });

  it("keeps credentials out of the access log", async () => {
    const res = await fetch(`${server.url}/auth/reset?token=reset-token-4f7a9c2e61b8`);
    await expect.poll(() => accessLine(server, res.headers.get("x-request-id")!)).toBeTruthy();
    expect(accessLine(server, res.headers.get("x-request-id")!)?.path).toBe("/auth/reset?token=[redacted]");
    expect(server.output()).not.toContain("reset-token-4f7a9c2e61b8");
  });

  it("answers /metrics to loopback with the listed series, counting, and not to a client elsewhere", async () => {
    const scrape = async (headers: Record<string, string> = {}) => {
      const res = await fetch(`${server.url}/metrics`, { headers });
      return { status: res.status, control: res.headers.get("cache-control"), text: await res.text() };
    };
    await uploadPdf(server.url, server.personas.admin.cookie);
    const first = await scrape();
    expect(first.status).toBe(200);
    expect(first.control).toBe("no-store");
    const text = first.text;
    const news = 'http_requests_total{method="GET",route="/news",status_class="2xx"}';
    expect(sample(text, news)).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/\nhttp_request_duration_seconds_bucket\{le="[^"]+",method="GET",route="\/news",status_class="2xx"\} \d+/);
    expect(sample(text, 'sahara_page_cache_requests_total{result="hit"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'sahara_page_cache_requests_total{result="miss"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, "sahara_page_cache_entries")).toBeGreaterThanOrEqual(1);
    // The recurring jobs the embedded worker schedules at start, read from the jobs table.
    expect(text).toMatch(/\nsahara_jobs\{name="[^"]+",state="(queued|running|done)"\} \d+/);
    expect(text).toMatch(/\nsahara_jobs_oldest_due_seconds \d/);
    expect(sample(text, 'sahara_upload_bytes_count{kind="document"}')).toBe(1);
    for (const series of ["process_resident_memory_bytes", "nodejs_heap_size_used_bytes", "nodejs_eventloop_lag_p99_seconds", "http_requests_in_flight"]) {
      expect(text, series).toMatch(new RegExp(`\\n${series} \\d`));
    }
    // The embedded database has no pool: its series are absent rather than 0.
    expect(text).not.toMatch(/\nsahara_db_pool_total/);

    await fetch(`${server.url}/news`);
    expect(sample((await scrape()).text, news)).toBe(sample(text, news)! + 1);

    // A client elsewhere, through the trusted local proxy this test stands for: no token is set, so 404.
    const elsewhere = await scrape({ "x-forwarded-for": "203.0.113.9" });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.text).not.toContain("http_requests_total");
  });
});

describe("TRUST_PROXY and METRICS_TOKEN", () => {
  const TOKEN = "scrape-token-5c1e9a7b3d2f4e60";
  let server: RunningServer;
  beforeAll(async () => {
    // A balancer on another network: this test's loopback requests are an ordinary client's.
    server = await startServer({ SEED_DEMO: "false", TRUST_PROXY: "10.0.0.0/8", METRICS_TOKEN: TOKEN });
  });
  afterAll(() => server?.stop());

  it("lets an untrusted client spoof neither its address nor its request id", async () => {
    const res = await fetch(`${server.url}/news`, { headers: { "x-forwarded-for": "198.51.100.23", "x-request-id": "spoofed-request-1" } });
    const id = res.headers.get("x-request-id")!;
    expect(id).not.toBe("spoofed-request-1");
    await expect.poll(() => accessLine(server, id)).toBeTruthy();
    expect(accessLine(server, id)?.ip).toBe("127.0.0.1");
    expect(server.output()).not.toContain("spoofed-request-1");
    // /metrics never takes a forwarded address, trusted or not: a request that carries one was passed on, so it
    // needs the token; the same loopback client without it is a local scrape.
    expect((await fetch(`${server.url}/metrics`, { headers: { "x-forwarded-for": "198.51.100.23" } })).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(200);
  });

  it("takes a trusted proxy's address and id (the default, loopback), and asks elsewhere for the token", async () => {
    const local = await startServer({ SEED_DEMO: "false", METRICS_TOKEN: TOKEN });
    try {
      const res = await fetch(`${local.url}/news`, { headers: { "x-forwarded-for": "198.51.100.23", "x-request-id": "lb-7d1e0c55a2" } });
      expect(res.headers.get("x-request-id")).toBe("lb-7d1e0c55a2");
      await expect.poll(() => accessLine(local, "lb-7d1e0c55a2")).toBeTruthy();
      expect(accessLine(local, "lb-7d1e0c55a2")?.ip).toBe("198.51.100.23");
      const elsewhere = { "x-forwarded-for": "198.51.100.23" };
      const refused = await fetch(`${local.url}/metrics`, { headers: elsewhere });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect((await fetch(`${local.url}/metrics`, { headers: { ...elsewhere, authorization: "Bearer wrong-token-0000000000" } })).status).toBe(401);
      const allowed = await fetch(`${local.url}/metrics`, { headers: { ...elsewhere, authorization: `Bearer ${TOKEN}` } });
      expect(allowed.status).toBe(200);
      expect(await allowed.text()).toContain("http_requests_total");
      expect(local.output()).not.toContain(TOKEN);
    } finally {
      await local.stop();
    }
  });

  it("refuses to start in production with an invalid TRUST_PROXY", async () => {
    const { code, output } = await runServerExpectingExit({ NODE_ENV: "production", TRUST_PROXY: "the-balancer", SEED_DEMO: "false" });
    expect(code).toBe(1);
    expect(output).toContain("Application cannot start with invalid configuration in production mode");
    expect(output).toMatch(/TRUST_PROXY must be a number of proxy hops .*got "the-balancer"/);
  });
});

const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) console.warn("\nThe error-number test is skipped: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)\n");
else if (!hasChromium) console.warn(`\nThe error-number test is skipped: ${skipReason}\n`);

describe.skipIf(!adminUrl || !hasChromium)("the error screen's number is the failing request's id, in the server's log", () => {
  let direct: URL;
  let dropDatabase = async () => {};
  let server: RunningServer;
  let admin: Persona;
  let browser: Browser;

  /** The error line the server wrote for the request with this id. */
  const failureLine = (id: string) => logLines(server).find((l) => l.requestId === id && l.level >= 50);

  beforeAll(async () => {
    const database = await createScratchDatabase("t_errnum");
    dropDatabase = database.drop;
    direct = new URL(database.url);
    const handle = openDatabase({ url: direct.toString() });
    try {
      await handle.migrate();
      const { config } = checkConfig({ DATABASE_URL: direct.toString(), BETTER_AUTH_SECRET: E2E_SECRET, LOG_LEVEL: "silent" });
      admin = await createPersona(createAuth({ db: handle.db, config }), handle.db, { email: "chief@errors.test", password: "Passw0rdA", role: "admin" });
    } finally {
      await handle.close();
    }
    server = await startServer({ DATABASE_URL: direct.toString(), BETTER_AUTH_SECRET: E2E_SECRET, SEED_DEMO: "false" });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await dropDatabase();
  });

  /** The dashboard's loader counts the messages: without their table it fails, as a query does in an outage. */
  const breakDashboard = async (broken: boolean) => {
    const c = new pg.Client({ connectionString: direct.toString() });
    await c.connect();
    await c.query(broken ? "alter table contacts rename to contacts_away" : "alter table contacts_away rename to contacts");
    await c.end();
  };

  it("shows the id of a page the server failed to render, hydrated or not", async () => {
    await breakDashboard(true);
    try {
      const res = await fetch(`${server.url}/admin`, { headers: { cookie: admin.cookie } });
      expect(res.status).toBe(500);
      const id = res.headers.get("x-request-id")!;
      const html = await res.text();
      expect(/data-testid="error-number"[^>]*>([^<]+)</.exec(html)?.[1]).toBe(id);
      await expect.poll(() => failureLine(id)).toBeTruthy();
      expect(JSON.stringify(failureLine(id))).toContain("contacts");

      const { context, page } = await newPage(browser);
      await context.addCookies(browserCookies(admin, server.url));
      const answer = await page.goto(`${server.url}/admin`);
      expect(answer?.status()).toBe(500);
      await hydrated(page);
      const shown = page.getByTestId("error-number");
      expect((await shown.textContent())?.trim()).toBe(await answer!.headerValue("x-request-id"));
      expect(await shown.getAttribute("data-error-source")).toBe("server");
      await context.close();
    } finally {
      await breakDashboard(false);
    }
  });

  it("shows the id of the data request that failed after a navigation in the browser", async () => {
    const { context, page } = await newPage(browser);
    await context.addCookies(browserCookies(admin, server.url));
    await page.goto(`${server.url}/admin/users`);
    await hydrated(page);
    await breakDashboard(true);
    try {
      // The navigation's own fetch, not the link's prefetch on hover.
      const dataAnswer = page.waitForResponse((r) => new URL(r.url()).pathname === "/admin.data" && r.request().resourceType() === "fetch");
      await page.getByTestId("admin-menu-link-dashboard").click();
      const failed = await dataAnswer;
      expect(failed.status()).toBe(500);
      await page.getByTestId("error-screen").waitFor();
      const id = await failed.headerValue("x-request-id");
      const shown = page.getByTestId("error-number");
      expect((await shown.textContent())?.trim()).toBe(id);
      expect(await shown.getAttribute("data-error-source")).toBe("request");
      await expect.poll(() => failureLine(id!)).toBeTruthy();
    } finally {
      await breakDashboard(false);
      await context.close();
    }
  });
});
