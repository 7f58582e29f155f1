/**
 * The public reading queries of issue 3 on a seeded database: limits, ordering, published-only, related
 * items and the news listing's has-more rule.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../../tests/helpers/db.ts";
import { seedDemoContent } from "../db/seed.ts";
import { articles, news, programs } from "../db/schema.ts";
import { listFeaturedArticles, listLatestArticles } from "./articles.ts";
import { countPublishedNews, listPublishedNews, NEWS_PAGE_SIZE } from "./news.ts";
import { newsPage } from "./news-feed.ts";
import {
  findPublishedArticle,
  findPublishedCoverage,
  findPublishedNews,
  findPublishedPodcast,
  findPublishedProgram,
  listRelated,
  parseItemKey,
} from "./detail.ts";
import { listLatestShows, listPublishedPodcasts, listPublishedPrograms } from "./programs.ts";

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

  it("detail: one published row by slug or id, with its category; drafts are not found", async () => {
    const [published] = await t.db.select({ id: articles.id, slug: articles.pageSlug }).from(articles).where(eq(articles.status, "published")).limit(1);
    const bySlug = await findPublishedArticle(t.db, { slug: published.slug });
    expect(bySlug?.id).toBe(published.id);
    expect(bySlug?.categoryName).toBeTruthy();
    expect((await findPublishedArticle(t.db, { id: published.id }))?.pageSlug).toBe(published.slug);
    expect(await findPublishedArticle(t.db, { slug: "ouadane-visitor-guide-draft" })).toBeNull();
    expect(await findPublishedNews(t.db, { slug: "draft-weather-bulletin-update" })).toBeNull();
    expect(await findPublishedProgram(t.db, { slug: "maqal-salt-of-ijil-draft" })).toBeNull();
    expect(await findPublishedPodcast(t.db, { slug: "tent-talk-s2e5-draft" })).toBeNull();
    expect(await findPublishedArticle(t.db, { slug: "no-such-article" })).toBeNull();
    const [cov] = await t.db.execute<{ page_slug: string }>(sql`select page_slug from coverages where status = 'published' limit 1`).then((r) => r.rows);
    expect((await findPublishedCoverage(t.db, { slug: cov.page_slug }))?.pageSlug).toBe(cov.page_slug);
  });

  it("detail: a future publish date is not public yet", async () => {
    const [row] = await t.db
      .insert(news)
      .values({ title: "مجدول", content: "نص", pageSlug: "scheduled-item", status: "published", publishDate: new Date(Date.now() + 86_400_000) })
      .returning({ id: news.id });
    expect(await findPublishedNews(t.db, { slug: "scheduled-item" })).toBeNull();
    await t.db.delete(news).where(eq(news.id, row.id));
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
  it("accepts slugs and numeric ids, refuses anything else", () => {
    expect(parseItemKey("chinguetti-manuscripts")).toEqual({ slug: "chinguetti-manuscripts" });
    expect(parseItemKey("42")).toEqual({ id: 42 });
    for (const bad of [undefined, "", "a".repeat(201), "<script>", "a--b", "-a", "a b", "١٢", "12abc!"]) expect(parseItemKey(bad)).toBeNull();
  });
});
