/**
 * The most-read items (server/analytics/top.server.ts): ranked by the counted views of the rollups over a period,
 * published items only, per language; the public lists of the last 24 hours and 7 days, where an old item's old
 * views do not outrank today's.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { articles, audienceDaily, audienceHourly, news } from "#server/db/schema.server.ts";
import { GRAINS } from "./grains.server.ts";
import { clearCache } from "#server/content/cache.server.ts";
import { publicUrl, type ContentType } from "#domain/content-types/index.ts";
import type { Language } from "#domain/language.ts";
import { mostRead, mostReadLists, readPlan, topItemCards, topItems } from "./top.server.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (iso: string) => new Date(iso);

describe("how a period is read", () => {
  const kept = at("2026-08-01T00:00:00Z");

  it("reads a range of whole days from the daily rows alone", () => {
    expect(readPlan(at("2026-11-01T00:00:00Z"), at("2026-11-08T00:00:00Z"), kept)).toEqual({
      days: { from: at("2026-11-01T00:00:00Z"), to: at("2026-11-08T00:00:00Z") },
      hours: [],
    });
  });

  it("reads the last 24 hours from the hourly slots they touch", () => {
    expect(readPlan(at("2026-11-27T09:31:00Z"), at("2026-11-28T09:31:00Z"), kept)).toEqual({
      hours: [{ from: at("2026-11-27T09:00:00Z"), to: at("2026-11-28T09:31:00Z") }],
    });
  });

  it("reads the whole days inside a longer range by day and its ends by hour", () => {
    expect(readPlan(at("2026-11-21T09:31:00Z"), at("2026-11-28T09:31:00Z"), kept)).toEqual({
      days: { from: at("2026-11-22T00:00:00Z"), to: at("2026-11-28T00:00:00Z") },
      hours: [
        { from: at("2026-11-21T09:00:00Z"), to: at("2026-11-22T00:00:00Z") },
        { from: at("2026-11-28T00:00:00Z"), to: at("2026-11-28T09:31:00Z") },
      ],
    });
  });

  it("reads whole days around the ends that the hourly rows no longer hold", () => {
    expect(readPlan(at("2026-07-20T09:31:00Z"), at("2026-11-28T09:31:00Z"), kept)).toEqual({
      days: { from: at("2026-07-20T00:00:00Z"), to: at("2026-11-28T00:00:00Z") },
      hours: [{ from: at("2026-11-28T00:00:00Z"), to: at("2026-11-28T09:31:00Z") }],
    });
    expect(readPlan(at("2026-07-20T09:31:00Z"), at("2026-07-20T12:00:00Z"), kept)).toEqual({
      days: { from: at("2026-07-20T00:00:00Z"), to: at("2026-07-21T00:00:00Z") },
      hours: [],
    });
  });
});

for (const kind of testDatabaseKinds) {
  describe(`most-read items on ${kind}`, () => {
    let t: TestDatabase;
    const now = new Date();
    const ago = (ms: number) => new Date(now.getTime() - ms);
    let slugs = 0;

    async function item(type: "news" | "article", { title, titleFr = null, status = "published", publishDate = ago(40 * DAY) }: ItemInput) {
      const table = type === "news" ? news : articles;
      const [row] = await t.db
        .insert(table)
        .values({ title, titleFr, content: "<p>نص</p>", pageSlug: `item-${++slugs}`, status, publishDate } as never)
        .returning({ id: table.id, pageSlug: table.pageSlug });
      return { type: type as ContentType, id: row.id, url: publicUrl(type, row.pageSlug, row.id) };
    }
    type ItemInput = { title: string; titleFr?: string | null; status?: string; publishDate?: Date };

    /**
     * `views` counted views of an item at `when`, as the collector's flush writes them: the hour's row and the day's
     * (server/analytics/collect.server.ts); `hourly: false` for a day whose hours were pruned.
     */
    async function viewed(
      target: { type: ContentType; id: number },
      when: Date,
      views: number,
      { lang = "ar", hourly = true }: { lang?: Language; hourly?: boolean } = {},
    ) {
      // The items grain (with its language) and the ranking grain (all languages), as the flush writes both.
      for (const [grain, rowLang] of [
        [GRAINS.items, lang],
        [GRAINS.ranking, ""],
      ] as const) {
        const cols = {
          grain,
          page: `${target.type}:${target.id}`,
          contentType: target.type,
          contentId: target.id,
          lang: rowLang,
          // The items grain keeps no source, device or campaign.
          source: "",
          device: "",
          campaign: "",
          views,
          visitors: 0,
        };
        if (hourly) {
          await t.db
            .insert(audienceHourly)
            .values({ hour: new Date(Math.floor(when.getTime() / HOUR) * HOUR), ...cols })
            .onConflictDoUpdate({
              target: [
                audienceHourly.grain,
                audienceHourly.hour,
                audienceHourly.page,
                audienceHourly.lang,
                audienceHourly.source,
                audienceHourly.device,
                audienceHourly.campaign,
              ],
              set: { views: sql`${audienceHourly.views} + ${views}` },
            });
        }
        await t.db
          .insert(audienceDaily)
          .values({ day: when.toISOString().slice(0, 10), ...cols })
          .onConflictDoUpdate({
            target: [
              audienceDaily.grain,
              audienceDaily.day,
              audienceDaily.page,
              audienceDaily.lang,
              audienceDaily.source,
              audienceDaily.device,
              audienceDaily.campaign,
            ],
            set: { views: sql`${audienceDaily.views} + ${views}` },
          });
      }
    }

    beforeAll(async () => {
      t = await createTestDatabase(kind);
    });
    afterAll(async () => {
      await t?.drop();
    });
    beforeEach(async () => {
      clearCache();
      await t.db.delete(audienceHourly);
      await t.db.delete(audienceDaily);
    });

    it("lists the last 24 hours' reads apart from the last 7 days', most read first", async () => {
      const weekHit = await item("article", { title: "مقال قرأه الناس هذا الأسبوع" });
      const todayHit = await item("news", { title: "خبر اليوم" });
      const both = await item("news", { title: "خبر قرئ أمس واليوم" });
      await viewed(weekHit, ago(3 * DAY), 40);
      await viewed(todayHit, ago(2 * HOUR), 9);
      await viewed(both, ago(30 * HOUR), 20);
      await viewed(both, ago(1 * HOUR), 3);

      const day = await mostRead(t.db, { lang: "ar", window: "24h" });
      expect(day.map((c) => [c.id, c.views])).toEqual([
        [todayHit.id, 9],
        [both.id, 3],
      ]);
      const week = await mostRead(t.db, { lang: "ar", window: "7d" });
      expect(week.map((c) => [c.type, c.id, c.views])).toEqual([
        ["article", weekHit.id, 40],
        ["news", both.id, 23],
        ["news", todayHit.id, 9],
      ]);
      expect(week[0]).toMatchObject({ title: "مقال قرأه الناس هذا الأسبوع", url: weekHit.url });
      expect(await mostReadLists(t.db, "ar")).toEqual({ day, week });
    });

    it("does not let an old item's old views outrank today's", async () => {
      const classic = await item("article", { title: "مقال قديم قرأه الجميع", publishDate: ago(3 * 365 * DAY) });
      const fresh = await item("news", { title: "خبر الساعة", publishDate: ago(3 * HOUR) });
      // Thousands of views over the years, hundreds last month (its hours since pruned), a handful last week.
      await viewed(classic, ago(2 * 365 * DAY), 5000, { hourly: false });
      await viewed(classic, ago(20 * DAY), 800, { hourly: false });
      await viewed(classic, ago(8 * DAY), 300);
      await viewed(fresh, ago(2 * HOUR), 12);
      expect((await mostRead(t.db, { lang: "ar", window: "24h" })).map((c) => c.id)).toEqual([fresh.id]);
      expect((await mostRead(t.db, { lang: "ar", window: "7d" })).map((c) => c.id)).toEqual([fresh.id]);
      // Over a longer period the classic comes back, read from the daily rows.
      expect(await topItems(t.db, { from: ago(30 * DAY), to: now })).toEqual([
        { contentType: "article", contentId: classic.id, views: 1100 },
        { contentType: "news", contentId: fresh.id, views: 12 },
      ]);
    });

    it("counts each language's pages apart, and leaves out of a language's list the items without their own text in it", async () => {
      const bilingual = await item("news", { title: "خبر بلغتين", titleFr: "Une nouvelle en deux langues" });
      const arabicOnly = await item("news", { title: "خبر بالعربية فقط" });
      await viewed(bilingual, ago(HOUR), 2, { lang: "fr" });
      await viewed(arabicOnly, ago(HOUR), 7, { lang: "fr" });
      await viewed(arabicOnly, ago(HOUR), 4, { lang: "ar" });
      await viewed(bilingual, ago(HOUR), 1, { lang: "en" });

      const fr = await mostRead(t.db, { lang: "fr", window: "24h" });
      expect(fr).toEqual([{ type: "news", id: bilingual.id, title: "Une nouvelle en deux langues", url: bilingual.url, views: 2 }]);
      expect((await mostRead(t.db, { lang: "ar", window: "24h" })).map((c) => [c.id, c.views])).toEqual([[arabicOnly.id, 4]]);
      // No item has an English title yet: nothing to list on the English pages.
      expect(await mostRead(t.db, { lang: "en", window: "24h" })).toEqual([]);
      // The newsroom's lists: every item, by language or all together.
      expect(await topItems(t.db, { from: ago(DAY), to: now, lang: "fr" })).toEqual([
        { contentType: "news", contentId: arabicOnly.id, views: 7 },
        { contentType: "news", contentId: bilingual.id, views: 2 },
      ]);
      expect((await topItems(t.db, { from: ago(DAY), to: now })).map((i) => i.views)).toEqual([11, 3]);
    });

    it("ranks only published items: not drafts, not items scheduled later, not an item withdrawn since", async () => {
      const shown = await item("news", { title: "خبر منشور" });
      const draft = await item("news", { title: "مسودة", status: "draft" });
      const scheduled = await item("article", { title: "مقال مجدول", status: "published", publishDate: new Date(now.getTime() + DAY) });
      const withdrawn = await item("article", { title: "مقال سحب" });
      for (const [target, views] of [
        [shown, 1],
        [draft, 50],
        [scheduled, 40],
        [withdrawn, 30],
      ] as const)
        await viewed(target, ago(HOUR), views);
      expect((await topItems(t.db, { from: ago(DAY), to: now })).map((i) => i.contentId)).toEqual([withdrawn.id, shown.id]);
      await t.db.update(articles).set({ status: "draft" }).where(eq(articles.id, withdrawn.id));
      expect(await topItems(t.db, { from: ago(DAY), to: now })).toEqual([{ contentType: "news", contentId: shown.id, views: 1 }]);
      expect((await mostRead(t.db, { lang: "ar", window: "7d" })).map((c) => c.id)).toEqual([shown.id]);
    });

    it("keeps to the limit and the period, and answers nothing for an empty one", async () => {
      const items = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((n) => item("news", { title: `خبر رقم ${n}` })));
      for (const [i, target] of items.entries()) await viewed(target, now, i + 1);
      expect((await mostRead(t.db, { lang: "ar", window: "24h" })).map((c) => c.views)).toEqual([7, 6, 5, 4, 3]);
      expect(await topItems(t.db, { from: ago(DAY), to: now, limit: 2 })).toHaveLength(2);
      // A range of whole days, read from the daily rows: yesterday's reads are in it, today's are not.
      const midnight = new Date(Math.floor(now.getTime() / DAY) * DAY);
      const yesterday = await item("article", { title: "مقال الأمس" });
      await viewed(yesterday, new Date(midnight.getTime() - 2 * HOUR), 30);
      const week = { from: new Date(midnight.getTime() - 7 * DAY), to: midnight };
      expect(await topItemCards(t.db, week)).toEqual([
        { contentType: "article", contentId: yesterday.id, views: 30, title: "مقال الأمس", titleFr: null, url: yesterday.url },
      ]);
      expect((await topItems(t.db, { ...week, to: now })).map((i) => i.views)).toEqual([30, 7, 6, 5, 4, 3, 2, 1]);
      expect(await topItems(t.db, { from: now, to: ago(DAY) })).toEqual([]);
    });
  });
}
