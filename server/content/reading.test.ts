/**
 * The public reading queries of issue 3 on a seeded database: limits, ordering, published-only, related
 * items and the news listing's has-more rule.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { seedDemoContent } from "#server/db/seed.server.ts";
import { articles, news, programs, slugRedirects } from "#server/db/schema.server.ts";
import { listFeaturedArticles, listLatestArticles } from "./articles.server.ts";
import { countPublishedNews, listPublishedNews, NEWS_PAGE_SIZE } from "./news.server.ts";
import { newsPage } from "./news-feed.server.ts";
import { findItemForStaff, findPublishedItem, findRedirectedItemId, listRelated, parseItemKey } from "./detail.server.ts";
import { listLatestShows, listPublishedPodcasts, listPublishedPrograms } from "./programs.server.ts";

const isSortedDesc = (dates: (Date | string)[]) => dates.every((d, i) => i === 0 || new Date(dates[i - 1]).getTime() >= new Date(d).getTime());

describe.each(testDatabaseKinds)("public reading on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    await seedDemoContent(t.db, { uploadsDir: fs.mkdtempSync(path.join(os.tmpdir(), "reading-")) });
  });
  afterAll(async () => t?.drop());

  it("home: 3 featured and 3 latest non-featured articles, newest first, published only", async () => {
    const featured = await listFeaturedArticles(t.db, 3);
    expect(featured).toHaveLength(3);
    expect(isSortedDesc(featured.map((a) => a.publishDate))).toBe(true);
    const latest = await listLatestArticles(t.db, 3);
    expect(latest).toHaveLength(3);
    const ids = latest.map((a) => a.id);
    const rows = await t.db.select({ id: articles.id, isFeatured: articles.isFeatured, status: articles.status }).from(articles);
    for (const id of ids) expect(rows.find((r) => r.id === id)).toMatchObject({ isFeatured: false, status: "published" });
  });

  it("home: the latest programs and podcasts together, 4, newest first", async () => {
    const shows = await listLatestShows(t.db, 4);
    expect(shows).toHaveLength(4);
    expect(isSortedDesc(shows.map((s) => s.publishDate))).toBe(true);
    expect(new Set(shows.map((s) => s.kind)).size).toBeGreaterThan(0);
  });

  it("news: 12 a page by created_at, the total counts published only, has-more by the total", async () => {
    const total = await countPublishedNews(t.db);
    const [{ all }] = await t.db.select({ all: sql<number>`count(*)::int` }).from(news);
    expect(total).toBeLessThan(Number(all));
    const first = await listPublishedNews(t.db);
    expect(first).toHaveLength(NEWS_PAGE_SIZE);
    expect(isSortedDesc(first.map((n) => n.createdAt))).toBe(true);
    const pages = Math.ceil(total / NEWS_PAGE_SIZE);
    const last = await newsPage(t.db, pages);
    expect(last.hasMore).toBe(false);
    expect(last.items.length).toBe(total - (pages - 1) * NEWS_PAGE_SIZE);
    expect((await newsPage(t.db, 1)).hasMore).toBe(true);
    const cumulative = await newsPage(t.db, 2, { cumulative: true });
    expect(cumulative.items).toHaveLength(Math.min(total, 24));
    // Pages do not overlap.
    const second = await newsPage(t.db, 2);
    const firstIds = new Set(first.map((n) => n.id));
    expect(second.items.some((n) => firstIds.has(n.id))).toBe(false);
  });

  it("detail: one published row by slug or id for every type with a page, with its category; drafts are not found", async () => {
    const [published] = await t.db.select({ id: articles.id, slug: articles.pageSlug }).from(articles).where(eq(articles.status, "published")).limit(1);
    const bySlug = await findPublishedItem(t.db, "article", { slug: published.slug });
    expect(bySlug?.id).toBe(published.id);
    expect(bySlug?.categoryName).toBeTruthy();
    expect((await findPublishedItem(t.db, "article", { id: published.id }))?.pageSlug).toBe(published.slug);
    expect(await findPublishedItem(t.db, "article", { slug: "ouadane-visitor-guide-draft" })).toBeNull();
    expect(await findPublishedItem(t.db, "news", { slug: "draft-weather-bulletin-update" })).toBeNull();
    expect(await findPublishedItem(t.db, "program", { slug: "maqal-salt-of-ijil-draft" })).toBeNull();
    expect(await findPublishedItem(t.db, "podcast", { slug: "tent-talk-s2e5-draft" })).toBeNull();
    expect(await findPublishedItem(t.db, "article", { slug: "no-such-article" })).toBeNull();
    for (const [type, table] of [
      ["news", "news"],
      ["coverage", "coverages"],
      ["podcast", "podcasts"],
      ["program", "programs"],
      ["media", "media"],
    ] as const) {
      const [row] = await t.db.execute<{ page_slug: string }>(sql.raw(`select page_slug from ${table} where status = 'published' limit 1`)).then((r) => r.rows);
      expect((await findPublishedItem(t.db, type, { slug: row.page_slug }))?.pageSlug, type).toBe(row.page_slug);
    }
  });

  it("detail: the columns of the type's definition and the read-only ones its page shows, nothing else", async () => {
    const [a] = await t.db.select({ slug: articles.pageSlug }).from(articles).where(eq(articles.status, "published")).limit(1);
    const article = (await findPublishedItem(t.db, "article", { slug: a.slug }))!;
    for (const key of ["title", "excerpt", "content", "categoryId", "categoryName", "categorySlug", "readTimeMinutes", "viewCount", "authorBio", "isDemo"]) {
      expect(article, key).toHaveProperty(key);
    }
    expect(article).not.toHaveProperty("authorId");
    expect(article).not.toHaveProperty("region");
    const [p] = await t.db.select({ slug: programs.pageSlug }).from(programs).where(eq(programs.status, "published")).limit(1);
    const program = (await findPublishedItem(t.db, "program", { slug: p.slug }))!;
    for (const key of ["description", "programType", "hostName", "episodeNumber", "airDate", "videoUrl"]) expect(program, key).toHaveProperty(key);
    expect(program).not.toHaveProperty("categoryName");
  });

  it("detail: a future publish date is not public yet, and the staff reader sees drafts and scheduled items", async () => {
    const [row] = await t.db
      .insert(news)
      .values({ title: "مجدول", content: "نص", pageSlug: "scheduled-item", status: "published", publishDate: new Date(Date.now() + 86_400_000) })
      .returning({ id: news.id });
    expect(await findPublishedItem(t.db, "news", { slug: "scheduled-item" })).toBeNull();
    expect(await findPublishedItem(t.db, "news", { id: row.id })).toBeNull();
    expect((await findItemForStaff(t.db, "news", row.id))?.title).toBe("مجدول");
    const [draft] = await t.db.select({ id: programs.id }).from(programs).where(eq(programs.pageSlug, "maqal-salt-of-ijil-draft"));
    expect((await findItemForStaff(t.db, "program", draft.id))?.status).toBe("draft");
    expect(await findItemForStaff(t.db, "program", 999_999)).toBeNull();
    await t.db.delete(news).where(eq(news.id, row.id));
  });

  it("detail: an old slug of a type names the item it was moved from, in that type only", async () => {
    const [a] = await t.db.select({ id: articles.id }).from(articles).where(eq(articles.status, "published")).limit(1);
    await t.db.insert(slugRedirects).values({ contentType: "article", oldSlug: "الاسم-القديم", itemId: a.id });
    expect(await findRedirectedItemId(t.db, "article", "الاسم-القديم")).toBe(a.id);
    expect(await findRedirectedItemId(t.db, "news", "الاسم-القديم")).toBeNull();
    expect(await findRedirectedItemId(t.db, "article", "no-such-slug")).toBeNull();
  });

  it("related: up to 4 of the same type and category, newest first, never the item itself nor a draft", async () => {
    const [item] = await t.db
      .select({ id: articles.id, categoryId: articles.categoryId })
      .from(articles)
      .where(
        sql`${articles.status} = 'published' and ${articles.categoryId} in (select category_id from articles where status = 'published' group by category_id having count(*) > 5)`,
      )
      .limit(1);
    const related = await listRelated(t.db, "article", item);
    expect(related).toHaveLength(4);
    expect(related.map((r) => r.id)).not.toContain(item.id);
    expect(isSortedDesc(related.map((r) => r.publishDate))).toBe(true);
    const rows = await t.db.select({ id: articles.id, categoryId: articles.categoryId, status: articles.status }).from(articles);
    for (const r of related) expect(rows.find((x) => x.id === r.id)).toMatchObject({ categoryId: item.categoryId, status: "published" });

    const [program] = await t.db.select({ id: programs.id }).from(programs).where(eq(programs.status, "published")).limit(1);
    const relatedPrograms = await listRelated(t.db, "program", program);
    expect(relatedPrograms.length).toBeLessThanOrEqual(4);
    expect(relatedPrograms.map((r) => r.id)).not.toContain(program.id);
  });

  it("programs and podcasts: 12 each at most, newest first, no drafts", async () => {
    const p = await listPublishedPrograms(t.db);
    const c = await listPublishedPodcasts(t.db);
    expect(p.length).toBe(8);
    expect(c.length).toBe(8);
    expect(isSortedDesc(p.map((x) => x.publishDate))).toBe(true);
    expect(p.map((x) => x.pageSlug)).not.toContain("maqal-salt-of-ijil-draft");
    expect(c.map((x) => x.pageSlug)).not.toContain("tent-talk-s2e5-draft");
  });
});

describe("item keys in URLs", () => {
  it("accepts slugs in any script and numeric ids, refuses anything else", () => {
    expect(parseItemKey("chinguetti-manuscripts")).toEqual({ slug: "chinguetti-manuscripts" });
    expect(parseItemKey("Chinguetti-Manuscripts")).toEqual({ slug: "chinguetti-manuscripts" });
    expect(parseItemKey("مخطوطات-شنقيط")).toEqual({ slug: "مخطوطات-شنقيط" });
    expect(parseItemKey("مهرجان-2024")).toEqual({ slug: "مهرجان-2024" });
    expect(parseItemKey("42")).toEqual({ id: 42 });
    for (const bad of [undefined, "", "a".repeat(201), "<script>", "a--b", "-a", "a b", "12abc!", "مخطوطات_شنقيط", "%D9%85", "a/b", "ً"]) {
      expect(parseItemKey(bad), bad).toBeNull();
    }
  });
});
