import { and, desc, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { articles, categories } from "../db/schema.ts";
import { isPublished } from "./published.ts";

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
