/**
 * What the search engines and feed readers are told about: every published item that has a detail page,
 * and the latest news and articles for the RSS feed. Published-only through isPublished().
 */
import { desc, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { articles, categories, coverages, news, podcasts, programs } from "../db/schema.ts";
import { isPublished } from "./published.ts";

/** Detail pages by content type (public-site.md §2, route table). */
export const DETAIL_PATHS = {
  news: "/news",
  articles: "/articles",
  programs: "/programs",
  podcasts: "/podcasts",
  coverages: "/coverage",
} as const;

export type DetailType = keyof typeof DETAIL_PATHS;

export const detailPath = (type: DetailType, slug: string) => `${DETAIL_PATHS[type]}/${encodeURIComponent(slug)}`;

export type SitemapEntry = { path: string; lastModified: Date };

/** A sitemap file holds at most 50,000 URLs; past that the site needs a sitemap index. */
export const SITEMAP_MAX_URLS = 50_000;

/** Every published item with a detail page, newest first per type, with its last modification. */
export async function listSitemapEntries(db: Database, { perType = 10_000 } = {}): Promise<SitemapEntry[]> {
  const tables = { news, articles, programs, podcasts, coverages } as const;
  const lists = await Promise.all(
    (Object.keys(tables) as DetailType[]).map(async (type) => {
      const t = tables[type];
      const rows = await db
        .select({ slug: t.pageSlug, updatedAt: t.updatedAt, publishDate: t.publishDate })
        .from(t)
        .where(isPublished(t))
        .orderBy(desc(t.publishDate), desc(t.id))
        .limit(perType);
      // A scheduled item becomes public at its publish date, which may be after its last edit.
      return rows.map((r) => ({ path: detailPath(type, r.slug), lastModified: r.updatedAt > r.publishDate ? r.updatedAt : r.publishDate }));
    }),
  );
  return lists.flat();
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
    ...newsRows.map(({ slug, ...r }) => ({ ...r, type: "news" as const, path: detailPath("news", slug) })),
    ...articleRows.map(({ slug, ...r }) => ({ ...r, type: "articles" as const, path: detailPath("articles", slug) })),
  ];
  return items.sort((a, b) => b.publishDate.getTime() - a.publishDate.getTime()).slice(0, limit);
}
