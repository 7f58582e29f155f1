/**
 * The article listings that are not a section's: home's featured and latest, and every published article (the
 * sitemap, the feeds, /api/articles without a section). Declared in domain/listings.ts, read by ./listings.server.ts.
 */
import type { Database } from "#server/db/client.server.ts";
import { LISTINGS, refine } from "#domain/listings.ts";
import { listCards, type Card } from "./listings.server.ts";

export type ArticleCard = Card<"article">;

export function listFeaturedArticles(db: Database, limit = 3) {
  return listCards(db, LISTINGS.homeFeatured, { limit });
}

export function listLatestArticles(db: Database, limit = 3) {
  return listCards(db, LISTINGS.homeLatest, { limit });
}

/** Published articles of every section, newest first (the sitemap page, the feeds, the API without a section). */
export function listPublishedArticles(db: Database, { limit = 12, offset = 0 }: { limit?: number; offset?: number } = {}) {
  return listCards(db, LISTINGS.articles, { limit, offset });
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
  return listCards(db, refine(LISTINGS.literatureApi, { categories: categorySlugs }), { limit, offset });
}
