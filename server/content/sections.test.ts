/**
 * The section pages' queries on a seeded database: chips, every filter (category, content type, region,
 * literature type), featured and paging, trending, counts per region, the timeline, most read, the verse
 * previews and the literature fallback.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { seedDemoContent } from "#server/db/seed.server.ts";
import { articles, categories } from "#server/db/schema.server.ts";
import type { Database } from "#server/db/client.server.ts";
import { CULTURE_ARTICLES } from "#server/db/seed-data/articles-culture.ts";
import { POLITICS_ARTICLES } from "#server/db/seed-data/articles-politics.ts";
import { LITERATURE_ARTICLES } from "#server/db/seed-data/articles-literature.ts";
import { OPINION_ARTICLES } from "#server/db/seed-data/articles-opinion.ts";
import {
  countByRegion,
  groupByYearMonth,
  listLiterature,
  listMostRead,
  listSectionArticles,
  listSectionChips,
  listTrending,
  loadLiteraturePage,
  pageOfSectionArticles,
  sectionTimeline,
  verseLines,
} from "./sections.server.ts";

const published = <T extends { draft?: boolean }>(items: T[]) => items.filter((i) => !i.draft);
const slugs = (rows: { pageSlug: string }[]) => rows.map((r) => r.pageSlug).sort();
const isSortedDesc = (dates: (Date | string)[]) => dates.every((d, i) => i === 0 || new Date(dates[i - 1]).getTime() >= new Date(d).getTime());

describe("verse previews and timeline grouping (pure)", () => {
  it("takes the first n non-empty verse lines", () => {
    expect(verseLines("a\n\n b \nc\r\nd\ne", 4)).toEqual(["a", "b", "c", "d"]);
    expect(verseLines("a\nb\nc", 2)).toEqual(["a", "b"]);
    expect(verseLines(null, 2)).toEqual([]);
  });

  it("groups dated items by year then month, keeping their order", () => {
    const items = ["2025-03-09", "2025-03-01", "2025-01-31", "2024-12-31", "2024-12-02"].map((d, i) => ({ id: i, publishDate: new Date(`${d}T12:00:00Z`) }));
    const groups = groupByYearMonth(items);
    expect(groups.map((y) => [y.year, y.months.map((m) => [m.month, m.items.map((i) => i.id)])])).toEqual([
      [
        2025,
        [
          [3, [0, 1]],
          [1, [2]],
        ],
      ],
      [2024, [[12, [3, 4]]]],
    ]);
  });
});

describe.each(testDatabaseKinds)("section pages on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    await seedDemoContent(t.db, { uploadsDir: fs.mkdtempSync(path.join(os.tmpdir(), "sections-")) });
    // A published article whose date has not come yet: no listing may show it.
    const [politics] = await t.db.select({ id: categories.id }).from(categories).where(eq(categories.slug, "politics"));
    await t.db.insert(articles).values({
      title: "مقال مجدول",
      content: "نص",
      categoryId: politics.id,
      status: "published",
      pageSlug: "scheduled-politics",
      publishDate: new Date(Date.now() + 86_400_000),
      region: "mali",
      isTrending: true,
      isFeatured: true,
    });
  });
  afterAll(async () => t?.drop());

  describe("culture", () => {
    it("has the children of 'culture' as chips, in editorial order", async () => {
      const chips = await listSectionChips(t.db, "culture");
      expect(chips.map((c) => c.slug)).toEqual(["music", "crafts", "manuscripts", "architecture"]);
      expect(chips.every((c) => c.name && c.nameFr)).toBe(true);
    });

    it("lists every published culture article (parent and children), newest first, no draft, no other section", async () => {
      const rows = await listSectionArticles(t.db, "culture", {}, { limit: 100 });
      expect(slugs(rows)).toEqual(
        published(CULTURE_ARTICLES)
          .map((a) => a.slug)
          .sort(),
      );
      expect(isSortedDesc(rows.map((r) => r.publishDate))).toBe(true);
    });

    it("filters by chip: only that child category", async () => {
      for (const chip of ["music", "crafts", "manuscripts", "architecture"]) {
        const rows = await listSectionArticles(t.db, "culture", { category: chip }, { limit: 100 });
        expect(slugs(rows), chip).toEqual(
          published(CULTURE_ARTICLES)
            .filter((a) => a.category === chip)
            .map((a) => a.slug)
            .sort(),
        );
        expect(rows.length, chip).toBeGreaterThan(0);
      }
    });

    it("ignores a chip of another section (no leak across sections)", async () => {
      expect(await listSectionArticles(t.db, "culture", { category: "poetry" })).toEqual([]);
      expect(await listSectionArticles(t.db, "culture", { category: "culture" })).toEqual([]);
    });

    it("featured only, and the grid without the featured ones", async () => {
      const featured = await listSectionArticles(t.db, "culture", { featured: true }, { limit: 3 });
      expect(slugs(featured)).toEqual(
        published(CULTURE_ARTICLES)
          .filter((a) => a.featured)
          .map((a) => a.slug)
          .sort(),
      );
      const grid = await listSectionArticles(t.db, "culture", { excludeIds: featured.map((f) => f.id) }, { limit: 100 });
      expect(grid.some((g) => featured.some((f) => f.id === g.id))).toBe(false);
      expect(grid.length + featured.length).toBe(published(CULTURE_ARTICLES).length);
    });

    it("pages: a page size, has-more, and no item twice", async () => {
      const all = published(CULTURE_ARTICLES).length;
      const seen = new Set<number>();
      let page = 1;
      for (;;) {
        const p = await pageOfSectionArticles(t.db, "culture", {}, { page, pageSize: 5 });
        expect(p.items.length).toBeLessThanOrEqual(5);
        for (const i of p.items) {
          expect(seen.has(i.id)).toBe(false);
          seen.add(i.id);
        }
        if (!p.hasMore) break;
        expect(p.items).toHaveLength(5);
        page++;
      }
      expect(seen.size).toBe(all);
      expect(page).toBe(Math.ceil(all / 5));
    });
  });

  describe("politics", () => {
    const pub = published(POLITICS_ARTICLES);

    it("filters by content type", async () => {
      const videos = await listSectionArticles(t.db, "politics", { contentType: "video" }, { limit: 100 });
      expect(slugs(videos)).toEqual(
        pub
          .filter((a) => a.video)
          .map((a) => a.slug)
          .sort(),
      );
      expect(videos.every((v) => v.videoUrl)).toBe(true);
      const texts = await listSectionArticles(t.db, "politics", { contentType: "article" }, { limit: 100 });
      expect(slugs(texts)).toEqual(
        pub
          .filter((a) => !a.video)
          .map((a) => a.slug)
          .sort(),
      );
    });

    it("filters by each region, and by region and type together", async () => {
      for (const region of ["uae", "morocco", "mauritania", "sahara", "mali"] as const) {
        const rows = await listSectionArticles(t.db, "politics", { region }, { limit: 100 });
        expect(slugs(rows), region).toEqual(
          pub
            .filter((a) => a.region === region)
            .map((a) => a.slug)
            .sort(),
        );
        expect(rows.length, region).toBeGreaterThan(0);
      }
      const both = await listSectionArticles(t.db, "politics", { region: "mauritania", contentType: "video" }, { limit: 100 });
      expect(slugs(both)).toEqual(
        pub
          .filter((a) => a.region === "mauritania" && a.video)
          .map((a) => a.slug)
          .sort(),
      );
    });

    it("trending sidebar: flagged items only, newest first, at most 5, never a future one", async () => {
      const rows = await listTrending(t.db, "politics", 5);
      expect(rows.length).toBeLessThanOrEqual(5);
      expect(slugs(rows)).toEqual(
        pub
          .filter((a) => a.trending)
          .map((a) => a.slug)
          .sort()
          .slice(0, 5),
      );
      expect(rows.some((r) => r.pageSlug === "scheduled-politics")).toBe(false);
      expect(isSortedDesc(rows.map((r) => r.publishDate))).toBe(true);
      expect(await listTrending(t.db, "politics", 2)).toHaveLength(2);
    });

    it("region sidebar: counts per region, in the filter's order, and by content type", async () => {
      const counts = await countByRegion(t.db, "politics");
      expect(counts.map((c) => c.region)).toEqual(["uae", "morocco", "mauritania", "sahara", "mali"]);
      for (const c of counts) expect(c.count, c.region).toBe(pub.filter((a) => a.region === c.region).length);
      const videoCounts = await countByRegion(t.db, "politics", { contentType: "video" });
      for (const c of videoCounts) expect(c.count, c.region).toBe(pub.filter((a) => a.region === c.region && a.video).length);
    });

    it("timeline: every filtered item once, grouped by year and month, newest first", async () => {
      for (const filters of [{}, { region: "morocco" as const }, { contentType: "video" as const }]) {
        const years = await sectionTimeline(t.db, "politics", filters);
        const flat = years.flatMap((y) => y.months.flatMap((m) => m.items));
        const expected = await listSectionArticles(t.db, "politics", filters, { limit: 100 });
        expect(flat.map((i) => i.id)).toEqual(expected.map((i) => i.id));
        expect(isSortedDesc(flat.map((i) => i.publishDate))).toBe(true);
        for (const y of years) {
          for (const m of y.months) {
            for (const item of m.items) {
              const d = new Date(item.publishDate);
              expect([d.getUTCFullYear(), d.getUTCMonth() + 1]).toEqual([y.year, m.month]);
            }
          }
        }
        const keys = years.flatMap((y) => y.months.map((m) => `${y.year}-${m.month}`));
        expect(new Set(keys).size).toBe(keys.length);
      }
    });
  });

  describe("literature", () => {
    const pub = published(LITERATURE_ARTICLES);

    it("filters by each type", async () => {
      for (const type of ["poetry", "prose", "folktales", "translations"] as const) {
        const rows = await listLiterature(t.db, { type }, { limit: 100 });
        expect(slugs(rows), type).toEqual(
          pub
            .filter((a) => a.category === type)
            .map((a) => a.slug)
            .sort(),
        );
        expect(rows.length, type).toBeGreaterThan(0);
      }
      expect(slugs(await listLiterature(t.db, {}, { limit: 100 }))).toEqual(pub.map((a) => a.slug).sort());
    });

    it("previews 4 verse lines of a featured poem and 2 in the list; other texts have none", async () => {
      const page = await loadLiteraturePage(t.db, {});
      expect(page.fallback).toBe(false);
      const featuredPoem = page.featured.find((i) => i.isPoetry)!;
      expect(featuredPoem).toBeDefined();
      const seedPoem = LITERATURE_ARTICLES.find((a) => a.slug === featuredPoem.pageSlug)!;
      expect(featuredPoem.verses).toEqual(seedPoem.body.slice(0, 4));
      const listed = page.items.filter((i) => i.isPoetry);
      expect(listed.length).toBeGreaterThan(0);
      for (const poem of listed) {
        expect(poem.verses).toEqual(LITERATURE_ARTICLES.find((a) => a.slug === poem.pageSlug)!.body.slice(0, 2));
      }
      for (const other of [...page.featured, ...page.items].filter((i) => !i.isPoetry)) expect(other.verses).toEqual([]);
      expect(page.featured.every((f) => f.isFeatured)).toBe(true);
      expect(page.featured.length).toBeLessThanOrEqual(3);
    });

    it("featured and full lists follow the type filter", async () => {
      const prose = await loadLiteraturePage(t.db, { type: "prose" });
      expect([...prose.featured, ...prose.items].every((i) => i.categorySlug === "prose")).toBe(true);
      expect(prose.featured.map((f) => f.pageSlug)).toEqual(pub.filter((a) => a.category === "prose" && a.featured).map((a) => a.slug));
    });

    it("falls back to the built-in samples, marked as demo, when the database fails", async () => {
      const broken = {
        select: () => {
          throw new Error("connection refused");
        },
      } as unknown as Database;
      const all = await loadLiteraturePage(broken, {});
      expect(all.fallback).toBe(true);
      expect(all.items.length).toBeGreaterThanOrEqual(4);
      expect(all.featured.length).toBeGreaterThan(0);
      expect([...all.items, ...all.featured].every((i) => i.isDemo && i.id < 0)).toBe(true);
      expect(new Set(all.items.map((i) => i.categorySlug))).toEqual(new Set(["poetry", "prose", "folktales", "translations"]));
      const poemInList = all.items.find((i) => i.isPoetry)!;
      expect(poemInList.verses).toHaveLength(2);
      expect(all.featured.find((i) => i.isPoetry)!.verses).toHaveLength(4);
      const folktales = await loadLiteraturePage(broken, { type: "folktales" });
      expect(folktales.items.length).toBeGreaterThan(0);
      expect(folktales.items.every((i) => i.categorySlug === "folktales")).toBe(true);
    });
  });

  describe("opinion", () => {
    it("has its chips", async () => {
      expect((await listSectionChips(t.db, "opinion")).map((c) => c.slug)).toEqual(["op-ed", "analysis", "columns"]);
    });

    it("filters by chip", async () => {
      for (const chip of ["op-ed", "analysis", "columns"]) {
        const rows = await listSectionArticles(t.db, "opinion", { category: chip }, { limit: 100 });
        expect(slugs(rows), chip).toEqual(
          published(OPINION_ARTICLES)
            .filter((a) => a.category === chip)
            .map((a) => a.slug)
            .sort(),
        );
      }
    });

    it("most read: the top 5 by view count, published only", async () => {
      const rows = await listMostRead(t.db, "opinion", 5);
      expect(rows).toHaveLength(5);
      const expected = published(OPINION_ARTICLES)
        .sort((a, b) => (b.views ?? 0) - (a.views ?? 0))
        .slice(0, 5)
        .map((a) => a.slug);
      expect(rows.map((r) => r.pageSlug)).toEqual(expected);
      expect(rows.map((r) => r.viewCount)).toEqual([...rows.map((r) => r.viewCount)].sort((a, b) => b - a));
    });

    it("most read follows the counter: an article that gains views climbs", async () => {
      const before = await listMostRead(t.db, "opinion", 5);
      const last = await listSectionArticles(t.db, "opinion", { excludeIds: before.map((b) => b.id) }, { limit: 1 });
      expect(last).toHaveLength(1);
      await t.db
        .update(articles)
        .set({ viewCount: before[0].viewCount + 1 })
        .where(eq(articles.id, last[0].id));
      const after = await listMostRead(t.db, "opinion", 5);
      expect(after[0].id).toBe(last[0].id);
      expect(after).toHaveLength(5);
    });
  });
});
