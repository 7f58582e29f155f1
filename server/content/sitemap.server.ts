/**
 * What the search engines and feed readers are told about: every published item that has a detail page,
 * and the latest news and articles for the RSS feed. Published-only through isPublished().
 */
import { count, desc, eq, sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";
import type { Database } from "#server/db/client.server.ts";
import { articles, categories, coverages, news, podcasts, programs } from "#server/db/schema.server.ts";
import { publicUrl, type ContentType } from "#domain/content-paths.ts";
import { FOOTER_LINKS, MORE_SECTIONS, NAV_ITEMS } from "#domain/navigation.ts";
import { isPublished } from "./published.server.ts";

export type SitemapEntry = { path: string; lastModified: Date };

/** A sitemap file holds at most 50,000 URLs; past that the site serves a sitemap index (server/content/feeds.server.ts). */
export const SITEMAP_MAX_URLS = 50_000;

/** The section pages every sitemap lists first, before the items. */
export const SITEMAP_SECTIONS: readonly string[] = [...NAV_ITEMS.map((i) => i.to), ...MORE_SECTIONS.map((i) => i.to), ...FOOTER_LINKS.legal.map((l) => l.to)];

/** The types with a page of their own, in the order the sitemap lists them, with their tables. */
const DETAIL_TABLES = [
  ["news", news],
  ["article", articles],
  ["program", programs],
  ["podcast", podcasts],
  ["coverage", coverages],
] as const satisfies readonly (readonly [ContentType, unknown])[];

/** How many published items have a detail page. */
export async function countSitemapEntries(db: Database): Promise<number> {
  const counts = await Promise.all(DETAIL_TABLES.map(([, t]) => db.select({ n: count() }).from(t).where(isPublished(t))));
  return counts.reduce((sum, [row]) => sum + Number(row?.n ?? 0), 0);
}

/**
 * Published items with a detail page and their last modification, type by type and newest first within a
 * type: one window of that stable order (`offset`, `limit`), so each sitemap file reads only its own rows.
 */
export async function listSitemapEntries(
  db: Database,
  { offset = 0, limit = SITEMAP_MAX_URLS }: { offset?: number; limit?: number } = {},
): Promise<SitemapEntry[]> {
  const [first, second, ...rest] = DETAIL_TABLES.map(([, t], rank) =>
    db
      .select({ rank: sql<number>`${sql.raw(String(rank))}`.as("rank"), id: t.id, slug: t.pageSlug, updatedAt: t.updatedAt, publishDate: t.publishDate })
      .from(t)
      .where(isPublished(t)),
  );
  const rows = await unionAll(first, second, ...rest)
    .orderBy(sql`rank`, sql`publish_date desc`, sql`id desc`)
    .limit(limit)
    .offset(offset);
  // A scheduled item becomes public at its publish date, which may be after its last edit.
  return rows.map((r) => ({
    path: publicUrl(DETAIL_TABLES[r.rank][0], r.slug),
    lastModified: r.updatedAt > r.publishDate ? r.updatedAt : r.publishDate,
  }));
}

export type FeedItem = {
  type: "news" | "articles";
  path: string;
  title: string;
  excerpt: string | null;
  author: string | null;
  category: string | null;
  publishDate: Date;
};

/** The latest published news and articles together, newest first: the RSS feed. */
export async function listFeedItems(db: Database, limit = 30): Promise<FeedItem[]> {
  const [newsRows, articleRows] = await Promise.all([
    db
      .select({
        slug: news.pageSlug,
        title: news.title,
        excerpt: news.excerpt,
        author: news.authorName,
        category: categories.name,
        publishDate: news.publishDate,
      })
      .from(news)
      .leftJoin(categories, eq(news.categoryId, categories.id))
      .where(isPublished(news))
      .orderBy(desc(news.publishDate), desc(news.id))
      .limit(limit),
    db
      .select({
        slug: articles.pageSlug,
        title: articles.title,
        excerpt: articles.excerpt,
        author: articles.authorName,
        category: categories.name,
        publishDate: articles.publishDate,
      })
      .from(articles)
      .leftJoin(categories, eq(articles.categoryId, categories.id))
      .where(isPublished(articles))
      .orderBy(desc(articles.publishDate), desc(articles.id))
      .limit(limit),
  ]);
  const items: FeedItem[] = [
    ...newsRows.map(({ slug, ...r }) => ({ ...r, type: "news" as const, path: publicUrl("news", slug) })),
    ...articleRows.map(({ slug, ...r }) => ({ ...r, type: "articles" as const, path: publicUrl("article", slug) })),
  ];
  return items.sort((a, b) => b.publishDate.getTime() - a.publishDate.getTime()).slice(0, limit);
}
