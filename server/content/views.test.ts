/**
 * The view counter: one view per reader per item per day, the item's counter bumped exactly once per
 * counted view, reader keys that hide the address and change every day.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, count, eq, sql } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { seedDemoContent } from "#server/db/seed.server.ts";
import { articles, contentViews, media, news } from "#server/db/schema.server.ts";
import { checkConfig } from "#server/config.server.ts";
import { ALL_CONTENT_TYPES } from "#domain/content-types/index.ts";
import { CLIENT_IP_HEADER, countView, isCountableView, pruneViews, readerKeyFor, recordView, VIEW_COUNT_COLUMN } from "./views.server.ts";

const config = checkConfig({ BETTER_AUTH_SECRET: "s".repeat(40), DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "views-cfg-")) }).config;
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";
const request = (ip: string, ua = CHROME, extra: Record<string, string> = {}) =>
  new Request("http://localhost/articles/x", { headers: { [CLIENT_IP_HEADER]: ip, "user-agent": ua, ...extra } });

describe("reader keys", () => {
  const day = new Date("2026-03-10T10:00:00Z");

  it("are stable for one reader on one day, whatever the hour", () => {
    const a = readerKeyFor(request("203.0.113.7"), { day, config });
    expect(readerKeyFor(request("203.0.113.7"), { day: new Date("2026-03-10T23:59:00Z"), config })).toBe(a);
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("differ by address, browser, day and secret, and do not contain the address", () => {
    const a = readerKeyFor(request("203.0.113.7"), { day, config });
    expect(readerKeyFor(request("203.0.113.8"), { day, config })).not.toBe(a);
    expect(readerKeyFor(request("203.0.113.7", "Mozilla/5.0 Firefox/131.0"), { day, config })).not.toBe(a);
    expect(readerKeyFor(request("203.0.113.7"), { day: new Date("2026-03-11T00:00:00Z"), config })).not.toBe(a);
    const other = checkConfig({ BETTER_AUTH_SECRET: "t".repeat(40) }).config;
    expect(readerKeyFor(request("203.0.113.7"), { day, config: other })).not.toBe(a);
    expect(a).not.toContain("203");
  });

  it("skip prefetches, link previews and crawlers", () => {
    expect(isCountableView(request("1.1.1.1"))).toBe(true);
    expect(isCountableView(request("1.1.1.1", CHROME, { "sec-purpose": "prefetch" }))).toBe(false);
    expect(isCountableView(request("1.1.1.1", CHROME, { purpose: "prefetch" }))).toBe(false);
    expect(isCountableView(request("1.1.1.1", "Mozilla/5.0 (compatible; Googlebot/2.1)"))).toBe(false);
    expect(isCountableView(request("1.1.1.1", "facebookexternalhit/1.1"))).toBe(false);
    expect(isCountableView(request("1.1.1.1", ""))).toBe(false);
    const notReaders = [
      "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
      "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
      "WhatsApp/2.23.20.0",
      "TelegramBot (like TwitterBot)",
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/130.0 Safari/537.36",
      "Chrome-Lighthouse",
      "curl/8.5.0",
      "Wget/1.21",
      "python-requests/2.31",
      "axios/1.6.0",
      "node",
      "Go-http-client/1.1",
    ];
    for (const ua of notReaders) expect(isCountableView(request("1.1.1.1", ua)), ua).toBe(false);
    const readers = [
      "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:131.0) Gecko/20100101 Firefox/131.0",
    ];
    for (const ua of readers) expect(isCountableView(request("1.1.1.1", ua)), ua).toBe(true);
  });
});

describe.each(testDatabaseKinds)("view counter on %s", (kind) => {
  let t: TestDatabase;
  let article: { id: number; viewCount: number };
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    await seedDemoContent(t.db, { uploadsDir: fs.mkdtempSync(path.join(os.tmpdir(), "views-")) });
    [article] = await t.db.select({ id: articles.id, viewCount: articles.viewCount }).from(articles).where(eq(articles.pageSlug, "hassaniya-in-school"));
  });
  afterAll(async () => t?.drop());

  const viewCount = async (id: number) => (await t.db.select({ n: articles.viewCount }).from(articles).where(eq(articles.id, id)))[0].n;
  const rowsFor = async (id: number) =>
    Number(
      (
        await t.db
          .select({ n: count() })
          .from(contentViews)
          .where(and(eq(contentViews.contentType, "article"), eq(contentViews.contentId, id)))
      )[0].n,
    );

  it("counts a reader's repeat views on the same day once", async () => {
    const day = new Date("2026-01-05T08:00:00Z");
    const readerKey = readerKeyFor(request("198.51.100.1"), { day, config });
    expect(await recordView(t.db, { contentType: "article", contentId: article.id, readerKey, day })).toBe(true);
    expect(await recordView(t.db, { contentType: "article", contentId: article.id, readerKey, day })).toBe(false);
    expect(await recordView(t.db, { contentType: "article", contentId: article.id, readerKey, day: new Date("2026-01-05T22:00:00Z") })).toBe(false);
    expect(await viewCount(article.id)).toBe(article.viewCount + 1);
    expect(await rowsFor(article.id)).toBe(1);
  });

  it("counts another reader, and the same reader on another day", async () => {
    const before = await viewCount(article.id);
    const day = new Date("2026-01-05T08:00:00Z");
    const other = readerKeyFor(request("198.51.100.2"), { day, config });
    expect(await recordView(t.db, { contentType: "article", contentId: article.id, readerKey: other, day })).toBe(true);
    const nextDay = new Date("2026-01-06T08:00:00Z");
    const sameReaderNextDay = readerKeyFor(request("198.51.100.1"), { day: nextDay, config });
    expect(await recordView(t.db, { contentType: "article", contentId: article.id, readerKey: sameReaderNextDay, day: nextDay })).toBe(true);
    expect(await viewCount(article.id)).toBe(before + 2);
    expect(await rowsFor(article.id)).toBe(3);
  });

  it("increments exactly once when the same view arrives many times at once", async () => {
    const [target] = await t.db.select({ id: articles.id, viewCount: articles.viewCount }).from(articles).where(eq(articles.pageSlug, "a-beach-for-everyone"));
    const day = new Date("2026-02-01T12:00:00Z");
    const readerKey = readerKeyFor(request("192.0.2.50"), { day, config });
    const results = await Promise.all(Array.from({ length: 8 }, () => recordView(t.db, { contentType: "article", contentId: target.id, readerKey, day })));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await viewCount(target.id)).toBe(target.viewCount + 1);
  });

  it("counts media in media.view_count, and records other content without a counter", async () => {
    const [item] = await t.db.select({ id: media.id, viewCount: media.viewCount }).from(media).limit(1);
    const readerKey = readerKeyFor(request("192.0.2.60"), { config });
    expect(await recordView(t.db, { contentType: "media", contentId: item.id, readerKey })).toBe(true);
    expect(await recordView(t.db, { contentType: "media", contentId: item.id, readerKey })).toBe(false);
    const [after] = await t.db.select({ viewCount: media.viewCount }).from(media).where(eq(media.id, item.id));
    expect(after.viewCount).toBe(item.viewCount + 1);
    // The same id in another content type is another item.
    const [n] = await t.db.select({ id: news.id }).from(news).limit(1);
    expect(await recordView(t.db, { contentType: "news", contentId: n.id, readerKey })).toBe(true);
    expect(await recordView(t.db, { contentType: "news", contentId: n.id, readerKey })).toBe(false);
  });

  it("finds view_count on the table of every type whose definition counts views", async () => {
    const columns = await t.db.execute<{ table_name: string }>(
      sql`select table_name from information_schema.columns where table_schema = current_schema() and column_name = ${VIEW_COUNT_COLUMN}`,
    );
    const tables = columns.rows.map((r) => r.table_name);
    for (const d of ALL_CONTENT_TYPES) expect(tables.includes(d.table), d.type).toBe(d.viewCounter);
  });

  it("prunes the rows of past days without touching the totals", async () => {
    const before = await viewCount(article.id);
    expect(await pruneViews(t.db, new Date("2026-01-06T00:00:00Z"))).toBeGreaterThanOrEqual(2);
    expect(await rowsFor(article.id)).toBe(1);
    expect(await viewCount(article.id)).toBe(before);
  });

  it("refuses nonsense without writing", async () => {
    expect(await recordView(t.db, { contentType: "article", contentId: 0, readerKey: "k" })).toBe(false);
    expect(await recordView(t.db, { contentType: "article", contentId: article.id, readerKey: "" })).toBe(false);
  });

  it("countView works in the background and skips prefetches", async () => {
    const [target] = await t.db
      .select({ id: articles.id, viewCount: articles.viewCount })
      .from(articles)
      .where(eq(articles.pageSlug, "who-owns-the-manuscripts"));
    countView(t.db, request("192.0.2.69", CHROME, { "sec-purpose": "prefetch" }), { contentType: "article", contentId: target.id }, { config });
    countView(t.db, request("192.0.2.70"), { contentType: "article", contentId: target.id }, { config });
    await expect.poll(() => viewCount(target.id)).toBe(target.viewCount + 1);
    expect(await rowsFor(target.id)).toBe(1);
    // A failing database is logged, never thrown at the page.
    const broken = { transaction: () => Promise.reject(new Error("down")) } as unknown as typeof t.db;
    expect(() => countView(broken, request("192.0.2.71"), { contentType: "article", contentId: target.id }, { config })).not.toThrow();
  });
});
