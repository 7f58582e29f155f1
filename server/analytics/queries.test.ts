/**
 * What the newsroom reads of its audience (server/analytics/queries.server.ts), on PGlite and on PostgreSQL when
 * TEST_DATABASE_URL is set, from beacons recorded through the collector's own write (recordAudienceBatch): readers
 * now; a period's views and visitors by source, language and device, over time, per item, section and author (each
 * counted once per visitor-day); the searches that found nothing; the newsletter's clicks and the push alerts' opens;
 * the ranges a request may ask for; the CSV exports.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { articles, authors, categories, itemAuthors, news, newsletterSends, pushAlerts } from "#server/db/schema.server.ts";
import { AppError } from "#server/http/errors.server.ts";
import { newsletterCampaign, pushAlertCampaign } from "#domain/link-tags.ts";
import type { Device, Source } from "#domain/audience.ts";
import type { Language } from "#domain/language.ts";
import { recordAudienceBatch, type AudienceEvent } from "./collect.server.ts";
import {
  analyticsCsv,
  dashboardOf,
  itemAudience,
  itemExists,
  lastDays,
  newsletterClicks,
  parseRange,
  periodSummary,
  pushOpens,
  rangeOf,
  readersNow,
  timeline,
  topAuthors,
  topItemsOf,
  topOfPeriod,
  topSearches,
  topSections,
} from "./queries.server.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** A fixed "now" (10:37 UTC), so the day's and hours' edges are where the test says. */
const NOW = new Date("2026-06-15T10:37:00Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms);

function rangeError(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("not refused");
}

describe("the ranges a request may ask for", () => {
  it("reads ready-made periods from now: the last 30 minutes, the UTC day so far, 7 and 30 days", () => {
    expect(rangeOf("now", NOW)).toEqual({ from: ago(30 * MINUTE), to: NOW });
    expect(rangeOf("today", NOW)).toEqual({ from: new Date("2026-06-15T00:00:00Z"), to: NOW });
    expect(rangeOf("7d", NOW)).toEqual({ from: ago(7 * DAY), to: NOW });
    expect(rangeOf("30d", NOW)).toEqual({ from: ago(30 * DAY), to: NOW });
    expect(lastDays(30, NOW)).toEqual({ from: new Date("2026-05-17T00:00:00Z"), to: NOW });
  });

  it("takes ISO 8601 dates and times (a bare end date includes its day), the last 7 days by default", () => {
    expect(parseRange({}, { now: NOW })).toEqual({ from: ago(7 * DAY), to: NOW });
    expect(parseRange({ from: "2026-06-01", to: "2026-06-03" }, { now: NOW })).toEqual({
      from: new Date("2026-06-01T00:00:00Z"),
      to: new Date("2026-06-04T00:00:00Z"),
    });
    expect(parseRange({ from: "2026-06-01T08:00:00+01:00", to: "2026-06-01T12:30Z" }, { now: NOW })).toEqual({
      from: new Date("2026-06-01T07:00:00Z"),
      to: new Date("2026-06-01T12:30:00Z"),
    });
    // A time without a zone is UTC; only `to`: the 7 days before it.
    expect(parseRange({ to: "2026-06-10T00:00" }, { now: NOW })).toEqual({ from: new Date("2026-06-03T00:00:00Z"), to: new Date("2026-06-10T00:00:00Z") });
  });

  it("refuses what is not a date, a range that ends before it starts, and one over 400 days: 400 INVALID_RANGE", () => {
    for (const query of [
      { from: "yesterday" },
      { to: "2026-13-01" },
      { from: "2026-02-30" },
      { from: "1718000000" },
      { from: "2026-06-10", to: "2026-06-01" },
      { from: "2026-06-10T10:00Z", to: "2026-06-10T10:00Z" },
      { from: "2025-01-01", to: "2026-06-01" },
    ]) {
      const error = rangeError(() => parseRange(query, { now: NOW }));
      expect([error.status, error.code], JSON.stringify(query)).toEqual([400, "INVALID_RANGE"]);
    }
    expect(parseRange({ from: "2025-05-12", to: "2026-06-14" }, { now: NOW }).from).toEqual(new Date("2025-05-12T00:00:00Z"));
  });
});

for (const kind of testDatabaseKinds) {
  describe(`audience figures on ${kind}`, () => {
    let t: TestDatabase;
    const ids = { a: 0, b: 0, c: 0, draft: 0, old: 0, send: 0, x: 0, y: 0, world: 0, politics: 0, culture: 0 };

    /** A beacon as the collector keeps it. */
    const beacon = (
      visitor: string,
      page: string,
      at: Date,
      {
        source = "direct",
        device = "desktop",
        lang = "ar",
        campaign = null,
        search = null,
      }: Partial<Pick<AudienceEvent, "campaign" | "search">> & { source?: Source; device?: Device; lang?: Language } = {},
    ): AudienceEvent => ({ visitor, page, at, source, device, lang, campaign, search });

    beforeAll(async () => {
      t = await createTestDatabase(kind);
      const db = t.db;
      // Sections: «اقتصاد» is a child of «العالم»; politics and culture stand alone.
      const [world] = await db.insert(categories).values({ name: "العالم", nameFr: "Monde", slug: "world", type: "news" }).returning();
      const [economy] = await db.insert(categories).values({ name: "اقتصاد", slug: "economy", type: "news", parentId: world.id }).returning();
      const [politics] = await db.insert(categories).values({ name: "سياسة", slug: "politics", type: "news" }).returning();
      const [culture] = await db.insert(categories).values({ name: "ثقافة", slug: "culture", type: "culture" }).returning();
      Object.assign(ids, { world: world.id, politics: politics.id, culture: culture.id });
      const published = { status: "published" as const, publishDate: new Date("2026-01-01T00:00:00Z"), content: "<p>نص</p>" };
      const [a] = await db
        .insert(news)
        .values({ ...published, title: "خبر الاقتصاد", titleFr: "L’économie", pageSlug: "a", categoryId: economy.id })
        .returning();
      const [b] = await db
        .insert(news)
        .values({ ...published, title: "خبر السياسة", pageSlug: "b", categoryId: politics.id })
        .returning();
      const [draft] = await db
        .insert(news)
        .values({ ...published, status: "draft", title: "مسودة", pageSlug: "d", categoryId: politics.id })
        .returning();
      const [c] = await db
        .insert(articles)
        .values({ ...published, title: "مقال الثقافة", pageSlug: "c", categoryId: culture.id })
        .returning();
      Object.assign(ids, { a: a.id, b: b.id, c: c.id, draft: draft.id });
      const [x] = await db.insert(authors).values({ slug: "x", name: "الكاتب الأول", nameFr: "Premier auteur" }).returning();
      const [y] = await db.insert(authors).values({ slug: "y", name: "الكاتب الثاني" }).returning();
      Object.assign(ids, { x: x.id, y: y.id });
      await db.insert(itemAuthors).values([
        { contentType: "news", itemId: a.id, authorId: x.id, position: 0 },
        { contentType: "news", itemId: a.id, authorId: y.id, position: 1 },
        { contentType: "article", itemId: c.id, authorId: x.id, position: 0 },
      ]);
      const [send] = await db
        .insert(newsletterSends)
        .values({
          kind: "item",
          language: "ar",
          subject: "نشرة اليوم",
          items: [],
          state: "sent",
          total: 120,
          createdAt: ago(2 * DAY + HOUR),
          startedAt: ago(2 * DAY + HOUR),
        })
        .returning();
      ids.send = send.id;
      await db
        .insert(pushAlerts)
        .values({ contentType: "news", itemId: a.id, state: "sent", sent: 50, createdAt: ago(2 * DAY + HOUR), startedAt: ago(2 * DAY + HOUR) });

      const A = `news:${a.id}`;
      const B = `news:${b.id}`;
      const C = `article:${c.id}`;
      const D = `news:${draft.id}`;
      const search = (query: string, results: number) => ({ search: { query, results } });
      const { recorded } = await recordAudienceBatch(
        db,
        [
          // Now: v1 and v2 read A (v1 twice: one view), v3 the home page, v2 a draft.
          beacon("v1", A, ago(10 * MINUTE), { source: "facebook", device: "mobile" }),
          beacon("v2", A, ago(10 * MINUTE), { source: "whatsapp", lang: "fr" }),
          beacon("v1", A, ago(8 * MINUTE), { source: "direct", device: "mobile" }),
          beacon("v2", D, ago(9 * MINUTE), { source: "direct", lang: "fr" }),
          beacon("v3", "home", ago(2 * MINUTE), { device: "tablet" }),
          // This morning: v4 from a search engine reads B, then C.
          beacon("v4", B, ago(3 * HOUR), { source: "search", lang: "en" }),
          beacon("v4", C, ago(3 * HOUR - MINUTE), { lang: "en" }),
          // An hour ago: searches, two of them for what the site lacks (the same query typed two ways), one twice.
          beacon("v8", "search", ago(HOUR), search("  Sahara   NEWS ", 0)),
          beacon("v9", "search", ago(HOUR), search("sahara news", 0)),
          beacon("v9", "search", ago(HOUR - MINUTE), search("sahara news", 0)),
          beacon("v10", "search", ago(HOUR), search("mali", 5)),
          // Two days ago: the newsletter's link (A and B) and the push alert's (A).
          beacon("v5", A, ago(2 * DAY), { source: "newsletter", campaign: newsletterCampaign(send.id) }),
          beacon("v5", B, ago(2 * DAY - MINUTE), { source: "newsletter", campaign: newsletterCampaign(send.id) }),
          beacon("v6", A, ago(2 * DAY), { source: "push", campaign: pushAlertCampaign("news", a.id), device: "mobile" }),
          // 20 and 45 days ago.
          beacon("v7", C, ago(20 * DAY), { source: "x" }),
          beacon("v11", B, ago(45 * DAY)),
        ],
        { analytics: true },
      );
      expect(recorded).toBe(16);
    });
    afterAll(async () => {
      await t?.drop();
    });

    it("counts readers now from the raw rows: the last 5 and 30 minutes, and the published items they read", async () => {
      const now = await readersNow(t.db, { now: NOW });
      expect(now).toMatchObject({ at: NOW.toISOString(), last5: 1, last30: 3 });
      // The draft v2 opened is not listed; A has two readers.
      expect(now.items).toEqual([{ type: "news", id: ids.a, title: "خبر الاقتصاد", titleFr: "L’économie", url: "/news/a", views: 2 }]);
      const top = await topOfPeriod(t.db, "now", { now: NOW });
      expect(top.items.map((i) => [i.id, i.views])).toEqual([[ids.a, 2]]);
      expect(top.range).toEqual({ from: ago(30 * MINUTE), to: NOW });
    });

    it("sums a day's views once per visitor and page, its visitors once, by source, language and device", async () => {
      const today = await periodSummary(t.db, rangeOf("today", NOW), NOW);
      // v1 A, v2 A, v2 draft, v3 home, v4 B, v4 C, v8, v9, v10 on the search page.
      expect([today.views, today.visitors]).toEqual([9, 7]);
      expect(today.sources).toEqual({
        search: { views: 1, visitors: 1 },
        facebook: { views: 1, visitors: 1 },
        whatsapp: { views: 1, visitors: 1 },
        telegram: { views: 0, visitors: 0 },
        x: { views: 0, visitors: 0 },
        newsletter: { views: 0, visitors: 0 },
        push: { views: 0, visitors: 0 },
        other: { views: 0, visitors: 0 },
        direct: { views: 6, visitors: 4 },
      });
      expect(today.langs).toEqual({ ar: { views: 5, visitors: 5 }, fr: { views: 2, visitors: 1 }, en: { views: 2, visitors: 1 } });
      expect(today.devices).toEqual({ mobile: { views: 1, visitors: 1 }, tablet: { views: 1, visitors: 1 }, desktop: { views: 7, visitors: 5 } });
    });

    it("reads longer periods from the day rows and the hours at their ends, to the same sums", async () => {
      const week = await periodSummary(t.db, rangeOf("7d", NOW), NOW);
      expect([week.views, week.visitors]).toEqual([12, 9]);
      expect([week.sources.newsletter.views, week.sources.push.views]).toEqual([2, 1]);
      const month = await periodSummary(t.db, rangeOf("30d", NOW), NOW);
      expect([month.views, month.visitors, month.sources.x.views]).toEqual([13, 10, 1]);
      // Whole days, as a request gives them: 45 days ago is in this one.
      const dates = await periodSummary(t.db, parseRange({ from: "2026-04-30", to: "2026-05-01" }, { now: NOW }), NOW);
      expect([dates.views, dates.visitors]).toEqual([1, 1]);
    });

    it("draws today by hour and a month by day, without empty slots", async () => {
      const today = await timeline(t.db, rangeOf("today", NOW), NOW);
      expect(today).toEqual({
        step: "hour",
        points: [
          { at: "2026-06-15T07:00:00.000Z", views: 2, visitors: 1 },
          { at: "2026-06-15T09:00:00.000Z", views: 3, visitors: 3 },
          { at: "2026-06-15T10:00:00.000Z", views: 4, visitors: 3 },
        ],
      });
      const month = await timeline(t.db, rangeOf("30d", NOW), NOW);
      expect(month.step).toBe("day");
      expect(month.points).toEqual([
        { at: "2026-05-26T00:00:00.000Z", views: 1, visitors: 1 },
        { at: "2026-06-13T00:00:00.000Z", views: 3, visitors: 2 },
        { at: "2026-06-15T00:00:00.000Z", views: 9, visitors: 7 },
      ]);
    });

    it("ranks the published items, their sections (a category counts for its parent) and their authors", async () => {
      const week = rangeOf("7d", NOW);
      expect((await topItemsOf(t.db, week, { now: NOW })).map((i) => [i.type, i.id, i.views])).toEqual([
        ["news", ids.a, 4],
        ["news", ids.b, 2],
        ["article", ids.c, 1],
      ]);
      // Ties: the newer id first (topItems' order).
      expect((await topItemsOf(t.db, week, { now: NOW, lang: "en" })).map((i) => [i.type, i.views])).toEqual([
        ["news", 1],
        ["article", 1],
      ]);
      expect(await topSections(t.db, week, { now: NOW })).toEqual([
        { id: ids.world, slug: "world", name: "العالم", nameFr: "Monde", views: 4 },
        // The draft's view counts for its section: views are views, whatever the item has become.
        { id: ids.politics, slug: "politics", name: "سياسة", nameFr: null, views: 3 },
        { id: ids.culture, slug: "culture", name: "ثقافة", nameFr: null, views: 1 },
      ]);
      expect(await topAuthors(t.db, week, { now: NOW })).toEqual([
        { id: ids.x, slug: "x", name: "الكاتب الأول", nameFr: "Premier auteur", views: 5 },
        { id: ids.y, slug: "y", name: "الكاتب الثاني", nameFr: null, views: 4 },
      ]);
      expect(await topSections(t.db, week, { now: NOW, limit: 1 })).toHaveLength(1);
    });

    it("gives one item's views, its visitors (its views), its sources and its hours", async () => {
      const figures = await itemAudience(t.db, "news", ids.a, rangeOf("7d", NOW), NOW);
      expect(figures).toEqual({
        views: 4,
        visitors: 4,
        sources: { search: 0, facebook: 1, whatsapp: 1, telegram: 0, x: 0, newsletter: 1, push: 1, other: 0, direct: 0 },
        hourly: [
          { hour: "2026-06-13T10:00:00.000Z", views: 2 },
          { hour: "2026-06-15T10:00:00.000Z", views: 2 },
        ],
      });
      expect((await itemAudience(t.db, "news", ids.a, rangeOf("today", NOW), NOW)).views).toBe(2);
      expect((await itemAudience(t.db, "article", 987_654, rangeOf("7d", NOW), NOW)).views).toBe(0);
      expect([await itemExists(t.db, "news", ids.draft), await itemExists(t.db, "news", 987_654)]).toEqual([true, false]);
    });

    it("lists the searches that found nothing and the most frequent, each visitor's query once a day", async () => {
      const week = rangeOf("7d", NOW);
      expect(await topSearches(t.db, week, { empty: true })).toEqual([{ query: "sahara news", count: 2 }]);
      expect(await topSearches(t.db, week)).toEqual([
        { query: "sahara news", count: 2 },
        { query: "mali", count: 1 },
      ]);
      expect(await topSearches(t.db, lastDays(1, new Date("2026-06-14T12:00:00Z")))).toEqual([]);
    });

    it("counts the newsletter's clicks by send and the push alert's opens, with their subjects and items", async () => {
      const week = rangeOf("7d", NOW);
      expect(await newsletterClicks(t.db, week, { now: NOW })).toEqual([
        { id: ids.send, subject: "نشرة اليوم", language: "ar", total: 120, sentAt: ago(2 * DAY + HOUR).toISOString(), clicks: 2 },
      ]);
      expect(await pushOpens(t.db, week, { now: NOW })).toEqual([
        { type: "news", id: ids.a, title: "خبر الاقتصاد", titleFr: "L’économie", sent: 50, sentAt: ago(2 * DAY + HOUR).toISOString(), opens: 1 },
      ]);
      // Today: neither was sent nor clicked.
      expect(await newsletterClicks(t.db, rangeOf("today", NOW), { now: NOW })).toEqual([]);
      expect(await pushOpens(t.db, rangeOf("today", NOW), { now: NOW })).toEqual([]);
    });

    it("reads the whole dashboard of a period at once", async () => {
      const dashboard = await dashboardOf(t.db, rangeOf("7d", NOW), { now: NOW });
      expect(dashboard.range).toEqual({ from: ago(7 * DAY).toISOString(), to: NOW.toISOString() });
      expect(dashboard.summary.views).toBe(12);
      expect(dashboard.timeline.step).toBe("day");
      expect(dashboard.items.map((i) => i.id)).toEqual([ids.a, ids.b, ids.c]);
      expect(dashboard.sections.map((s) => s.slug)).toEqual(["world", "politics", "culture"]);
      expect(dashboard.authors.map((a) => a.slug)).toEqual(["x", "y"]);
      expect(dashboard.searches).toEqual({
        empty: [{ query: "sahara news", count: 2 }],
        frequent: [
          { query: "sahara news", count: 2 },
          { query: "mali", count: 1 },
        ],
      });
      expect(dashboard.sends.map((s) => s.clicks)).toEqual([2]);
      expect(dashboard.alerts.map((a) => a.opens)).toEqual([1]);
    });

    it("exports each table as CSV, with a byte-order mark for Excel and cells safe in a spreadsheet", async () => {
      const week = rangeOf("7d", NOW);
      const items = await analyticsCsv(t.db, "items", week, NOW);
      expect(items.startsWith("\uFEFFtype,id,title,title_fr,url,views\r\n")).toBe(true);
      expect(items).toContain(`news,${ids.a},خبر الاقتصاد,L’économie,/news/a,4\r\n`);
      const sources = await analyticsCsv(t.db, "sources", week, NOW);
      expect(sources.split("\r\n").slice(0, 3)).toEqual(["\uFEFFsource,views,visitors", "search,1,1", "facebook,1,1"]);
      expect(await analyticsCsv(t.db, "empty-searches", week, NOW)).toBe("\uFEFFquery,count\r\nsahara news,2\r\n");
      expect(await analyticsCsv(t.db, "newsletter", week, NOW)).toContain(`${ids.send},${ago(2 * DAY + HOUR).toISOString()},ar,نشرة اليوم,120,2`);
      expect((await analyticsCsv(t.db, "timeline", rangeOf("today", NOW), NOW)).split("\r\n")[0]).toBe("\uFEFFhour,views,visitors");
      for (const report of ["sections", "authors", "langs", "devices", "searches", "push"] as const) {
        expect((await analyticsCsv(t.db, report, week, NOW)).split("\r\n").length, report).toBeGreaterThan(2);
      }
    });
  });
}
