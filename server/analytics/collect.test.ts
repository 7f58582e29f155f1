/**
 * The audience collector (issue 45): each source and device counted once per visitor per page per day, a second
 * beacon kept raw only, rollups equal to the raw rows, DNT / Sec-GPC / crawlers / prefetches not recorded, no
 * address or user agent in any stored row, searches and empty searches, pruning, rebuilding, ANALYTICS=off.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { asc, eq, sql } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { articles, audienceDaily, audienceHourly, audienceSearches, audienceSeen, audienceViews, news } from "#server/db/schema.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { GRAINS, type Grain } from "./grains.server.ts";
import { checkConfig } from "#server/config.server.ts";
import { CLIENT_IP_HEADER } from "#server/content/views.server.ts";
import { DEVICES, SOURCES, type Beacon } from "#domain/audience.ts";
import {
  collectBeacon,
  FLUSH_AT_EVENTS,
  flushAudience,
  pruneAudience,
  rebuildAudienceRollups,
  recordAudienceBatch,
  waitingAudienceEvents,
  type AudienceEvent,
} from "./collect.server.ts";

const env = {
  BETTER_AUTH_SECRET: "s".repeat(40),
  DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "audience-cfg-")),
  PUBLIC_URL: "https://sahara.example",
  ANALYTICS_FLUSH_MS: "100",
};
const config = checkConfig(env).config;
const analyticsOff = checkConfig({ ...env, ANALYTICS: "off" }).config;

const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";
const PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36";
const TABLET = "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

const beaconRequest = (ip: string, { ua = DESKTOP, headers = {} }: { ua?: string; headers?: Record<string, string> } = {}) =>
  new Request("https://sahara.example/api/views", { method: "POST", headers: { [CLIENT_IP_HEADER]: ip, "user-agent": ua, ...headers } });

const HOUR = 3_600_000;
const DAY = 86_400_000;

describe.each(testDatabaseKinds)("audience collection on %s", (kind) => {
  let t: TestDatabase;
  let article: number;
  let item: number;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    [{ id: article }] = await t.db
      .insert(articles)
      .values({ title: "مقال", content: "نص", pageSlug: "audience-article", status: "published" })
      .returning({ id: articles.id });
    [{ id: item }] = await t.db.insert(news).values({ title: "خبر", content: "نص", pageSlug: "audience-news", status: "published" }).returning({ id: news.id });
  });
  afterAll(async () => t?.drop());
  beforeEach(async () => {
    await flushAudience();
    for (const table of [audienceViews, audienceSeen, audienceHourly, audienceDaily, audienceSearches]) await t.db.delete(table);
  });

  type CollectOptions = { now?: Date; ua?: string; headers?: Record<string, string>; off?: boolean };
  const collect = (ip: string, beacon: Beacon, { now = new Date(), ua = DESKTOP, headers = {}, off = false }: CollectOptions = {}) =>
    collectBeacon(t.db, beaconRequest(ip, { ua, headers }), beacon, { config: off ? analyticsOff : config, now });
  const raw = () => t.db.select().from(audienceViews).orderBy(asc(audienceViews.at));
  const viewCount = async () => (await t.db.select({ n: articles.viewCount }).from(articles).where(eq(articles.id, article)))[0].n;
  /** A rollup's figures at one grain (each counted view is summed once per grain). */
  const sumOf = async (table: typeof audienceHourly | typeof audienceDaily, grain: Grain = "totals") =>
    rowsOf<{ views: number; visitors: number }>(
      await t.db.execute(
        sql`select coalesce(sum(views), 0)::int as views, coalesce(sum(visitors), 0)::int as visitors from ${table} where grain = ${GRAINS[grain]}`,
      ),
    )[0];

  it("records each source, from utm_source and from the referrer, once per visitor and page a day", async () => {
    const page = `article:${article}`;
    const day = new Date("2026-03-10T09:15:00Z");
    const before = await viewCount();
    const cases: [Omit<Beacon, "page">, string][] = [
      [{ src: "newsletter", camp: "send-12" }, "newsletter"],
      [{ src: "push", camp: "alert-3" }, "push"],
      [{ src: "whatsapp", ref: "https://www.google.com/" }, "whatsapp"],
      [{ src: "telegram" }, "telegram"],
      [{ ref: "https://www.google.com/" }, "search"],
      [{ ref: "https://l.facebook.com/l.php?u=x" }, "facebook"],
      [{ ref: "https://t.co/abc" }, "x"],
      [{ ref: "https://www.lemonde.fr/" }, "other"],
      [{ ref: "https://sahara.example/news" }, "direct"],
      [{}, "direct"],
    ];
    cases.forEach(([fields], i) => collect(`198.51.100.${i + 1}`, { page, lang: "ar", ...fields }, { now: new Date(day.getTime() + i * 1000) }));
    // The same readers again later that day: kept raw, not counted again.
    cases.forEach(([fields], i) => collect(`198.51.100.${i + 1}`, { page, lang: "ar", ...fields }, { now: new Date(day.getTime() + HOUR + i * 1000) }));
    await flushAudience();
    const rows = await raw();
    expect(rows).toHaveLength(20);
    expect(rows.slice(0, 10).map((r) => r.source)).toEqual(cases.map(([, source]) => source));
    expect(rows.slice(0, 10).every((r) => r.counted && r.newVisitor)).toBe(true);
    expect(rows.slice(10).some((r) => r.counted || r.newVisitor)).toBe(false);
    expect(rows[0]).toMatchObject({ page, contentType: "article", contentId: article, lang: "ar", device: "desktop", campaign: "send-12" });
    expect(rows[2].campaign).toBeNull();
    expect(await viewCount()).toBe(before + 10);
    // By source in the day's figures: one view each, and every source of the contract is a known one.
    const bySource = rowsOf<{ source: string; views: number }>(
      await t.db.execute(
        sql`select source, sum(views)::int as views from ${audienceDaily} where day = '2026-03-10' and grain = ${GRAINS.sources} group by source`,
      ),
    );
    const expected = new Map<string, number>();
    for (const [, source] of cases) expected.set(source, (expected.get(source) ?? 0) + 1);
    expect(Object.fromEntries(bySource.map((r) => [r.source, r.views]))).toEqual(Object.fromEntries(expected));
    expect(bySource.every((r) => (SOURCES as readonly string[]).includes(r.source))).toBe(true);
    expect(await sumOf(audienceHourly)).toEqual({ views: 10, visitors: 10 });
    // The campaigns grain: source and campaign only.
    const [campaign] = await t.db.select().from(audienceDaily).where(eq(audienceDaily.campaign, "send-12"));
    expect(campaign).toMatchObject({ grain: GRAINS.campaigns, page: "", contentType: "", contentId: 0, source: "newsletter", views: 1, visitors: 1 });
    // The items grain: one row for the item that day, its views from every source.
    const items = await t.db.select().from(audienceDaily).where(eq(audienceDaily.grain, GRAINS.items));
    expect(items).toEqual([expect.objectContaining({ page, contentType: "article", contentId: article, lang: "ar", source: "", device: "", views: 10 })]);
  });

  it("tells each device, and counts the same reader again the next day", async () => {
    const day = new Date("2026-03-11T20:00:00Z");
    for (const [i, ua] of [PHONE, TABLET, DESKTOP].entries()) collect("203.0.113.9", { page: "home", lang: "fr" }, { ua, now: new Date(day.getTime() + i) });
    collect("203.0.113.9", { page: "home", lang: "fr" }, { ua: PHONE, now: new Date(day.getTime() + 5 * HOUR) });
    await flushAudience();
    const rows = await raw();
    expect(rows.map((r) => [r.device, r.counted])).toEqual([
      ["mobile", true],
      ["tablet", true],
      ["desktop", true],
      ["mobile", true],
    ]);
    // Another user agent is another visitor; the next day, the same one counts anew.
    expect(new Set(rows.slice(0, 3).map((r) => r.visitor)).size).toBe(3);
    expect(rows[3].visitor).not.toBe(rows[0].visitor);
    const devices = rowsOf<{ device: string; views: number }>(
      await t.db.execute(sql`select device, sum(views)::int as views from ${audienceDaily} where grain = ${GRAINS.totals} group by device order by device`),
    );
    expect(devices).toEqual([
      { device: "desktop", views: 1 },
      { device: "mobile", views: 2 },
      { device: "tablet", views: 1 },
    ]);
    expect(devices.every((r) => (DEVICES as readonly string[]).includes(r.device))).toBe(true);
  });

  it("keeps the hourly and daily figures equal to the raw rows over several flushes", async () => {
    const start = new Date("2026-03-12T22:00:00Z").getTime();
    const pages = ["home", "news", `article:${article}`, `news:${item}`, "search"];
    let seed = 7;
    const next = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
    const events: AudienceEvent[] = Array.from({ length: 600 }, () => ({
      at: new Date(start + next(4 * HOUR)),
      visitor: `visitor${next(40)}`,
      page: pages[next(pages.length)],
      lang: (["ar", "fr", "en"] as const)[next(3)],
      source: SOURCES[next(SOURCES.length)],
      device: DEVICES[next(DEVICES.length)],
      campaign: next(5) === 0 ? "send-9" : null,
    }));
    for (let i = 0; i < events.length; i += 150) await recordAudienceBatch(t.db, events.slice(i, i + 150), { analytics: true });
    // Each grain's rows against the raw rows summed here, in SQL written apart from the collector's: the columns a
    // grain keeps, the others blank; the campaigns grain only where there is a campaign.
    const grainColumns: Record<Grain, { kept: string[]; where?: string }> = {
      sources: { kept: ["page", "lang", "source"] },
      items: { kept: ["page", "lang"] },
      totals: { kept: ["lang", "source", "device"] },
      campaigns: { kept: ["source", "campaign"], where: "campaign is not null" },
      ranking: { kept: ["page"] },
    };
    const compare = async (slot: string, table: string, grain: Grain) => {
      const { kept, where } = grainColumns[grain];
      const columns = ["page", "lang", "source", "device", "campaign"].map((c) => (kept.includes(c) ? c : `''`)).join(", ");
      const rawSide = `select ${slot} as slot, ${columns},
          count(*) filter (where counted)::int as views, count(*) filter (where new_visitor)::int as visitors
        from audience_views ${where ? `where ${where}` : ""} group by 1, 2, 3, 4, 5, 6 having count(*) filter (where counted or new_visitor) > 0`;
      const tableSide = `select ${table === "audience_hourly" ? "hour" : "day"}, page, lang, source, device, campaign, views, visitors
        from ${table} where grain = ${GRAINS[grain]}`;
      return rowsOf<{ n: number }>(
        await t.db.execute(sql.raw(`select count(*)::int as n from ((${rawSide} except ${tableSide}) union all (${tableSide} except ${rawSide})) d`)),
      )[0].n;
    };
    for (const grain of Object.keys(GRAINS) as Grain[]) {
      expect(await compare(`date_trunc('hour', at at time zone 'UTC') at time zone 'UTC'`, "audience_hourly", grain), grain).toBe(0);
      expect(await compare(`(at at time zone 'UTC')::date`, "audience_daily", grain), grain).toBe(0);
    }
    // Visitors add up to each day's distinct visitors; views to the visitor-page-days.
    const [distinct] = rowsOf<{ visitors: number; views: number }>(
      await t.db.execute(sql`select count(distinct ((at at time zone 'UTC')::date, visitor))::int as visitors,
        count(distinct ((at at time zone 'UTC')::date, visitor, page))::int as views from ${audienceViews}`),
    );
    for (const grain of ["sources", "items", "totals", "ranking"] as const) {
      expect(await sumOf(audienceDaily, grain), grain).toEqual(distinct);
      expect(await sumOf(audienceHourly, grain), grain).toEqual(distinct);
    }
  });

  it("records nothing for Do Not Track, Global Privacy Control, crawlers and prefetches", async () => {
    const before = await viewCount();
    const page = `article:${article}`;
    collect("192.0.2.1", { page }, { headers: { dnt: "1" } });
    collect("192.0.2.2", { page }, { headers: { "sec-gpc": "1" } });
    collect("192.0.2.3", { page }, { ua: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" });
    collect("192.0.2.4", { page }, { ua: "facebookexternalhit/1.1" });
    collect("192.0.2.5", { page }, { headers: { "sec-purpose": "prefetch" } });
    collect("192.0.2.6", { page }, { ua: "" });
    expect(waitingAudienceEvents()).toBe(0);
    await flushAudience();
    expect(await raw()).toEqual([]);
    expect(await t.db.select().from(audienceSeen)).toEqual([]);
    expect(await viewCount()).toBe(before);
  });

  it("keeps no address and no user agent in any stored row", async () => {
    const ip = "203.0.113.77";
    collect(ip, { page: `article:${article}`, lang: "en", ref: "https://www.google.com/", src: "google", camp: "spring" }, { ua: PHONE });
    collect(ip, { page: "search", lang: "en", q: "Port of Nouakchott", n: 3 }, { ua: PHONE });
    await flushAudience();
    const tables = rowsOf<{ table_name: string }>(
      await t.db.execute(sql`select table_name from information_schema.tables where table_schema = current_schema() and table_name like 'audience%'`),
    ).map((r) => r.table_name);
    expect(tables.sort()).toEqual(["audience_daily", "audience_hourly", "audience_searches", "audience_seen", "audience_views"]);
    let values = 0;
    for (const table of tables) {
      const rows = rowsOf<Record<string, unknown>>(await t.db.execute(sql`select * from ${sql.identifier(table)}`));
      expect(rows.length, table).toBeGreaterThan(0);
      for (const row of rows)
        for (const [column, value] of Object.entries(row)) {
          const text = value instanceof Date ? value.toISOString() : String(value);
          values++;
          for (const secret of [ip, "203.0.113", "Pixel 8", "Android", "Mozilla", "Chrome/130", "AppleWebKit"])
            expect(text, `${table}.${column}`).not.toContain(secret);
        }
    }
    expect(values).toBeGreaterThan(30);
    // The visitor is the daily key cut to 22 characters.
    expect((await raw()).every((r) => /^[A-Za-z0-9_-]{22}$/.test(r.visitor))).toBe(true);
  });

  it("counts searches once per visitor and query a day, and those that found nothing", async () => {
    const day = new Date("2026-03-13T10:00:00Z");
    const search = (ip: string, q: string, n?: number, lang: "ar" | "fr" = "ar") =>
      collect(ip, { page: "search", lang, q, ...(n === undefined ? {} : { n }) }, { now: day });
    search("10.0.0.1", "الصحراء", 5);
    search("10.0.0.1", "الصحراء", 5); // the same reader again: once
    search("10.0.0.2", "  الصحراء  ", 5);
    search("10.0.0.3", "Mine de Fer", 0, "fr");
    search("10.0.0.4", "mine   de fer", 0, "fr");
    search("10.0.0.5", "MINE DE FER", 0, "fr");
    search("10.0.0.6", "mine de fer", undefined, "fr"); // no count said: a search, not known empty
    search("10.0.0.7", "شيء لا يوجد", 0);
    await flushAudience();
    const rows = (await t.db.select().from(audienceSearches)).sort((a, b) => (a.query < b.query ? -1 : 1));
    expect(rows.map(({ day, query, lang, searches, empty }) => ({ day, query, lang, searches, empty }))).toEqual([
      { day: "2026-03-13", query: "mine de fer", lang: "fr", searches: 4, empty: 3 },
      { day: "2026-03-13", query: "الصحراء", lang: "ar", searches: 2, empty: 0 },
      { day: "2026-03-13", query: "شيء لا يوجد", lang: "ar", searches: 1, empty: 1 },
    ]);
    // The dedupe keeps a hash of the query, never its text.
    const seen = await t.db.select().from(audienceSeen);
    expect(seen.some((s) => s.page.includes("mine") || s.page.includes("الصحراء"))).toBe(false);
    // The search page itself: one view per reader.
    expect((await sumOf(audienceDaily)).views).toBe(7);
  });

  it("prunes raw rows, the dedupe, hourly figures and searches by age, and keeps the daily figures", async () => {
    const now = new Date("2026-06-01T12:00:00Z");
    const at = (days: number) => new Date(now.getTime() - days * DAY);
    const base = { lang: "ar", source: "direct", device: "mobile" } as const;
    await recordAudienceBatch(
      t.db,
      [
        { ...base, at: at(91), visitor: "v91", page: "search", search: { query: "قديم", results: 0 } },
        { ...base, at: at(31), visitor: "v31", page: `article:${article}` },
        { ...base, at: at(2), visitor: "v2", page: "home" },
        { ...base, at: now, visitor: "v0", page: "home" },
      ],
      { analytics: true },
    );
    expect(await pruneAudience(t.db, now, { config })).toEqual({ raw: 2, seen: 7, hourly: 4, searches: 1 });
    expect((await raw()).map((r) => r.visitor)).toEqual(["v2", "v0"]);
    expect((await t.db.select().from(audienceSeen)).map((s) => s.visitor).sort()).toEqual(["v0", "v0"]);
    expect(await t.db.select().from(audienceDaily).where(eq(audienceDaily.grain, GRAINS.sources))).toHaveLength(4);
    expect(await pruneAudience(t.db, now, { config })).toEqual({ raw: 0, seen: 0, hourly: 0, searches: 0 });
  });

  it("rebuilds the hourly and daily figures of a period from the raw rows", async () => {
    const start = new Date("2026-03-14T21:30:00Z").getTime();
    const events: AudienceEvent[] = Array.from({ length: 120 }, (_, i) => ({
      at: new Date(start + i * 3 * 60_000),
      visitor: `r${i % 17}`,
      page: i % 3 ? `article:${article}` : "home",
      lang: "ar",
      source: SOURCES[i % SOURCES.length],
      device: DEVICES[i % DEVICES.length],
      campaign: i % 4 ? null : "alert-2",
    }));
    await recordAudienceBatch(t.db, events, { analytics: true });
    const snapshot = async () => ({
      hourly: await t.db.select().from(audienceHourly).orderBy(asc(audienceHourly.hour), asc(audienceHourly.page), asc(audienceHourly.source)),
      daily: await t.db.select().from(audienceDaily).orderBy(asc(audienceDaily.day), asc(audienceDaily.page), asc(audienceDaily.source)),
    });
    const written = await snapshot();
    expect(written.hourly.length).toBeGreaterThan(10);
    await t.db.delete(audienceHourly);
    await t.db.delete(audienceDaily);
    // A period that is not whole hours: the hours and days it touches are rebuilt whole.
    await rebuildAudienceRollups(t.db, { from: new Date(start + 10 * 60_000), to: new Date(start + 5 * HOUR + 40 * 60_000) });
    const sorted = (s: Awaited<ReturnType<typeof snapshot>>) => ({
      hourly: s.hourly.map((r) => JSON.stringify(r)).sort(),
      daily: s.daily.map((r) => JSON.stringify(r)).sort(),
    });
    expect(sorted(await snapshot())).toEqual(sorted(written));
    // Rebuilding again changes nothing.
    await rebuildAudienceRollups(t.db, { from: new Date(start), to: new Date(start + 6 * HOUR) });
    expect(sorted(await snapshot())).toEqual(sorted(written));
  });

  it("with ANALYTICS=off keeps only the items' view counts, once per reader a day", async () => {
    const before = await viewCount();
    collect("192.0.2.50", { page: `article:${article}`, lang: "ar", src: "whatsapp" }, { off: true });
    collect("192.0.2.50", { page: `article:${article}`, lang: "ar" }, { off: true });
    collect("192.0.2.51", { page: `article:${article}`, lang: "ar" }, { off: true });
    collect("192.0.2.50", { page: "home", lang: "ar" }, { off: true });
    await flushAudience();
    expect(await viewCount()).toBe(before + 2);
    expect(await raw()).toEqual([]);
    expect(await t.db.select().from(audienceHourly)).toEqual([]);
    expect(await t.db.select().from(audienceDaily)).toEqual([]);
    expect((await t.db.select().from(audienceSeen)).map((s) => s.page)).toEqual([`article:${article}`, `article:${article}`]);
  });

  it("writes by itself after ANALYTICS_FLUSH_MS, and at once at 500 events", async () => {
    collect("192.0.2.60", { page: "home", lang: "ar" });
    expect(waitingAudienceEvents()).toBe(1);
    await expect.poll(async () => (await raw()).length, { timeout: 10_000 }).toBe(1);
    for (let i = 0; i < FLUSH_AT_EVENTS; i++) collect(`10.1.${i >> 8}.${i & 255}`, { page: "news", lang: "fr" });
    // The 500th took the buffer with it, without waiting for the timer.
    expect(waitingAudienceEvents()).toBe(0);
    await flushAudience();
    expect((await raw()).length).toBe(1 + FLUSH_AT_EVENTS);
    expect(await sumOf(audienceDaily)).toEqual({ views: 1 + FLUSH_AT_EVENTS, visitors: 1 + FLUSH_AT_EVENTS });
  });

  it("logs instead of failing when the database refuses", async () => {
    const broken = { transaction: () => Promise.reject(new Error("down")) } as unknown as typeof t.db;
    expect(() => collectBeacon(broken, beaconRequest("192.0.2.70"), { page: "home" }, { config })).not.toThrow();
    await expect(flushAudience()).resolves.toBeUndefined();
    // The next flush still writes.
    collect("192.0.2.71", { page: "home" });
    await flushAudience();
    expect(await raw()).toHaveLength(1);
  });
});
