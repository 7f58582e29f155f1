import { and, desc, eq, inArray } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { articles, categories } from "#server/db/schema.server.ts";
import { isPublished } from "./published.server.ts";
import { bylineSql } from "./authors.server.ts";

/** The columns an article card shows. */
export const articleCardColumns = {
  id: articles.id,
  title: articles.title,
  titleFr: articles.titleFr,
  excerpt: articles.excerpt,
  excerptFr: articles.excerptFr,
  authorName: articles.authorName,
  publishDate: articles.publishDate,
  imageUrl: articles.imageUrl,
  pageSlug: articles.pageSlug,
  categoryName: categories.name,
  categoryNameFr: categories.nameFr,
  categorySlug: categories.slug,
  /** The byline: the article's author profiles (server/content/authors.server.ts). */
  bylines: bylineSql("article", articles.id),
};

export type ArticleCard = Awaited<ReturnType<typeof listFeaturedArticles>>[number];

export function listFeaturedArticles(db: Database, limit = 3) {
  return db
    .select(articleCardColumns)
    .from(articles)
    .leftJoin(categories, eq(articles.categoryId, categories.id))
    .where(isPublished(articles, eq(articles.isFeatured, true)))
    .orderBy(desc(articles.publishDate), desc(articles.id))
    .limit(limit);
}

export function listLatestArticles(db: Database, limit = 3) {
  return db
    .select(articleCardColumns)
    .from(articles)
    .leftJoin(categories, eq(articles.categoryId, categories.id))
    .where(and(isPublished(articles, eq(articles.isFeatured, false))))
    .orderBy(desc(articles.publishDate), desc(articles.id))
    .limit(limit);
}

/** Published articles of every section, newest first (the sitemap page, the feeds, the API without a section). */
export function listPublishedArticles(db: Database, { limit = 12, offset = 0 }: { limit?: number; offset?: number } = {}) {
  return db
    .select({
      ...articleCardColumns,
      isFeatured: articles.isFeatured,
      viewCount: articles.viewCount,
      readTimeMinutes: articles.readTimeMinutes,
      updatedAt: articles.updatedAt,
    })
    .from(articles)
    .leftJoin(categories, eq(articles.categoryId, categories.id))
    .where(isPublished(articles))
    .orderBy(desc(articles.publishDate), desc(articles.id))
    .limit(limit)
    .offset(offset);
}

/**
 * Published articles filed under any of the given category slugs, newest first, with their full text
 * (the literature endpoint: its items carry their content).
 */
export function listPublishedArticlesInCategories(
  db: Database,
  categorySlugs: readonly string[],
  { limit = 12, offset = 0 }: { limit?: number; offset?: number } = {},
) {
  return db
    .select({
      ...articleCardColumns,
      authorNameFr: articles.authorNameFr,
      content: articles.content,
      contentFr: articles.contentFr,
      isFeatured: articles.isFeatured,
      viewCount: articles.viewCount,
      readTimeMinutes: articles.readTimeMinutes,
    })
    .from(articles)
    .innerJoin(categories, eq(articles.categoryId, categories.id))
    .where(isPublished(articles, inArray(categories.slug, [...categorySlugs])))
    .orderBy(desc(articles.publishDate), desc(articles.id))
    .limit(limit)
    .offset(offset);
}
