/**
 * Readers: reader keys that hide the address and change every day, the requests that are not a reader, and those
 * of readers who asked not to be followed. The counting is server/analytics/collect.test.ts's.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { checkConfig } from "#server/config.server.ts";
import { ALL_CONTENT_TYPES } from "#domain/content-types/index.ts";
import { asksNotToBeTracked, CLIENT_IP_HEADER, isCountableView, readerKeyFor, VIEW_COUNT_COLUMN } from "./views.server.ts";

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

describe("requests not recorded", () => {
  it("Do Not Track and Global Privacy Control", () => {
    expect(asksNotToBeTracked(request("1.1.1.1"))).toBe(false);
    expect(asksNotToBeTracked(request("1.1.1.1", CHROME, { dnt: "1" }))).toBe(true);
    expect(asksNotToBeTracked(request("1.1.1.1", CHROME, { "sec-gpc": "1" }))).toBe(true);
    expect(asksNotToBeTracked(request("1.1.1.1", CHROME, { dnt: "0" }))).toBe(false);
  });
});

describe.each(testDatabaseKinds)("view counters on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => t?.drop());

  it("finds view_count on the table of every type whose definition counts views", async () => {
    const columns = await t.db.execute<{ table_name: string }>(
      sql`select table_name from information_schema.columns where table_schema = current_schema() and column_name = ${VIEW_COUNT_COLUMN}`,
    );
    const tables = columns.rows.map((r) => r.table_name);
    for (const d of ALL_CONTENT_TYPES) expect(tables.includes(d.table), d.type).toBe(d.viewCounter);
  });
});
