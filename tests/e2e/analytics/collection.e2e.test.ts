/**
 * Audience figures collected from a real browser (issue 45, decision 0147): reading pages of the built server post
 * their beacon — an item's `{type, id}` with the address's utm_ tags, a list's `{page}` with its referrer, the search
 * page's query and number of results — and the rows appear; an anonymous page answers without Set-Cookie; a browser
 * that says Global Privacy Control sends nothing. On PostgreSQL (TEST_DATABASE_URL) the rows are read while the
 * server runs; on the embedded database, whose folder the server holds, once it has stopped — which writes what it
 * still had buffered (server.js).
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page, Response } from "playwright-core";
import { sql } from "drizzle-orm";
import { openDatabase, type DatabaseHandle } from "#server/db/client.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { createScratchDatabase } from "#tests/helpers/db.ts";
import { startServer, type RunningServer } from "#tests/e2e/support/server.ts";
import { hasChromium, hydrated, launchBrowser } from "#tests/e2e/support/browser.ts";

/** A reader's browser: the headless one's own user agent is a crawler's, and is not counted. */
const READER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const EMPTY_QUERY = "zqxwvy";

type Row = { page: string; content_type: string | null; lang: string; source: string; campaign: string | null; device: string; counted: boolean };

describe.skipIf(!hasChromium)("audience collection in Chromium on the embedded database", () => collection({ postgres: false }));
describe.skipIf(!hasChromium || !process.env.TEST_DATABASE_URL)("audience collection in Chromium on PostgreSQL", () => collection({ postgres: true }));

function collection({ postgres }: { postgres: boolean }) {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let article = "";
  let articleId = 0;
  const beacons: Record<string, unknown>[] = [];

  beforeAll(async () => {
    database = postgres ? await createScratchDatabase("audience") : undefined;
    server = await startServer({ ANALYTICS_FLUSH_MS: "200", ...(database ? { DATABASE_URL: database.url } : {}) });
    const home = await (await fetch(server.url + "/", { headers: { "User-Agent": READER } })).text();
    article = /href="(\/articles\/[^"#?]+)"/.exec(home)?.[1] ?? "";
    expect(article, "the home page links to an article").not.toBe("");
    browser = await launchBrowser();
    context = await browser.newContext({ userAgent: READER, locale: "ar", viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(60_000);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await database?.drop();
    if (server && !database) fs.rmSync(server.dataDir, { recursive: true, force: true });
  });

  /** The beacon a page sends while `go` loads it, once the server has answered it 204; and the page's answer. */
  async function beaconOf(page: Page, go: () => Promise<Response | null>) {
    const sent = page.waitForRequest((r) => new URL(r.url()).pathname === "/api/views");
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/views");
    const res = await go();
    expect((await answered).status()).toBe(204);
    const beacon = JSON.parse((await sent).postData() ?? "{}") as Record<string, unknown>;
    beacons.push(beacon);
    return { headers: res ? await res.allHeaders() : {}, beacon };
  }

  /** The rows the server wrote: polled while it runs (PostgreSQL), or read after it stopped (its folder is its own). */
  async function rowsOfServer(): Promise<Row[]> {
    const read = async (handle: DatabaseHandle) =>
      rowsOf<Row>(await handle.db.execute(sql`select page, content_type, lang, source, campaign, device, counted from audience_views order by at`));
    if (database) {
      const handle = openDatabase({ url: database.url });
      try {
        let rows: Row[] = [];
        await expect.poll(async () => (rows = await read(handle)).length).toBe(beacons.length);
        return rows;
      } finally {
        await handle.close();
      }
    }
    await server.stop();
    const handle = openDatabase({ dataDir: server.dataDir });
    try {
      return await read(handle);
    } finally {
      await handle.close();
    }
  }

  it("records the beacons of an item's page, a list and a search, with their source, language and device", async () => {
    const page = await context.newPage();
    const item = await beaconOf(page, () => page.goto(`${server.url}${article}?utm_source=whatsapp&utm_campaign=e2e-share`));
    // An anonymous page sets no cookie.
    expect(item.headers["set-cookie"]).toBeUndefined();
    const [type, id] = (await page.locator('meta[name="sahara-view"]').getAttribute("content"))!.split(":");
    articleId = Number(id);
    expect(item.beacon).toEqual({ type, id: articleId, lang: "ar", src: "whatsapp", camp: "e2e-share" });
    // On to a list from the article: its beacon names the article as its referrer, a move within the site.
    const list = await beaconOf(page, async () => {
      await page.evaluate(() => location.assign("/fr/news"));
      await page.waitForURL(/\/fr\/news$/);
      return null;
    });
    expect(list.beacon).toEqual({ page: "news", lang: "fr", ref: `${server.url}${article}?utm_source=whatsapp&utm_campaign=e2e-share` });
    const search = await beaconOf(page, () => page.goto(`${server.url}/search?q=${EMPTY_QUERY}`));
    expect(search.beacon).toMatchObject({ page: "search", lang: "ar", q: EMPTY_QUERY, n: 0 });
    for (const path of [article, "/fr/news", "/"])
      expect((await fetch(server.url + path, { headers: { "User-Agent": READER } })).headers.get("set-cookie"), path).toBeNull();

    // A browser that asks not to be followed sends nothing.
    const gpc = await context.newPage();
    await gpc.addInitScript(() => Object.defineProperty(Navigator.prototype, "globalPrivacyControl", { get: () => true }));
    let sentByGpc = 0;
    gpc.on("request", (r) => {
      if (new URL(r.url()).pathname === "/api/views") sentByGpc++;
    });
    await gpc.goto(`${server.url}/en`);
    await hydrated(gpc);
    expect(sentByGpc).toBe(0);

    const rows = await rowsOfServer();
    expect(rows).toEqual([
      { page: `article:${articleId}`, content_type: "article", lang: "ar", source: "whatsapp", campaign: "e2e-share", device: "desktop", counted: true },
      { page: "news", content_type: null, lang: "fr", source: "direct", campaign: null, device: "desktop", counted: true },
      { page: "search", content_type: null, lang: "ar", source: "direct", campaign: null, device: "desktop", counted: true },
    ]);
    expect(rows.some((r) => r.lang === "en")).toBe(false);
  });
}
