import { count, desc, eq } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { categories, news } from "#server/db/schema.server.ts";
import { isPublished } from "./published.server.ts";
import { bylineSql } from "./authors.server.ts";

export const newsCardColumns = {
  id: news.id,
  title: news.title,
  titleFr: news.titleFr,
  excerpt: news.excerpt,
  excerptFr: news.excerptFr,
  imageUrl: news.imageUrl,
  location: news.location,
  priority: news.priority,
  pageSlug: news.pageSlug,
  publishDate: news.publishDate,
  createdAt: news.createdAt,
  categoryName: categories.name,
  categoryNameFr: categories.nameFr,
  categorySlug: categories.slug,
  /** The byline: the item's author profiles (server/content/authors.server.ts). */
  bylines: bylineSql("news", news.id),
};

export const NEWS_PAGE_SIZE = 12;

/** The published total, for the listing's has-more rule (public-site.md §4). */
export async function countPublishedNews(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(news).where(isPublished(news));
  return Number(row?.n ?? 0);
}

/** Published news, newest first by created_at (public-site.md §7), 12 a page. */
export function listPublishedNews(db: Database, { limit = NEWS_PAGE_SIZE, offset = 0 } = {}) {
  return db
    .select(newsCardColumns)
    .from(news)
    .leftJoin(categories, eq(news.categoryId, categories.id))
    .where(isPublished(news))
    .orderBy(desc(news.createdAt), desc(news.id))
    .limit(limit)
    .offset(offset);
}
