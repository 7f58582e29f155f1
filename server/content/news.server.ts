/** The news listing (public-site.md §7: newest first by created_at, 12 a page), declared in domain/listings.ts. */
import type { Database } from "#server/db/client.server.ts";
import { LISTINGS } from "#domain/listings.ts";
import { countCards, listCards } from "./listings.server.ts";

export const NEWS_PAGE_SIZE: number = LISTINGS.news.limit;

/** The published total, for the listing's has-more rule (public-site.md §4). */
export function countPublishedNews(db: Database): Promise<number> {
  return countCards(db, LISTINGS.news);
}

/** Published news, newest first by created_at (public-site.md §7), 12 a page. */
export function listPublishedNews(db: Database, { limit = NEWS_PAGE_SIZE, offset = 0 } = {}) {
  return listCards(db, LISTINGS.news, { limit, offset });
}
