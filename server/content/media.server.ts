/**
 * The media library (public-site.md §2 "Media library", §3 media, §7 media): video, audio, image and
 * document items. Every query goes through isPublished().
 */
import type { Database } from "#server/db/client.server.ts";
import type { MediaType } from "#domain/media-library.ts";
import { LEAD_AND_LIST, LISTINGS, refine } from "#domain/listings.ts";
import { listCards, readLeadAndList, type Card } from "./listings.server.ts";

export type { MediaType };
export { MEDIA_FILTERS, mediaTypeOfFilter, type MediaFilter } from "#domain/media-library.ts";

export type MediaCard = Card<"media">;

/** The most the page lists at once (the demo library holds 48 items; the grid stays readable on a phone). */
export const MEDIA_LIST_LIMIT = 60;
/** The featured block of the media page. */
export const MEDIA_FEATURED_LIMIT = 4;
/** Home's media block (public-site.md §9). */
export const HOME_MEDIA_LIMIT = 4;

type ListOptions = { type?: MediaType | null; featured?: boolean; excludeIds?: number[]; limit?: number; offset?: number };

/** Published media, newest first; optionally of one type, featured only, or without some ids. */
export function listPublishedMedia(db: Database, { type, featured, excludeIds, limit = MEDIA_LIST_LIMIT, offset = 0 }: ListOptions = {}) {
  return listCards(db, refine(LISTINGS.media, { excludeIds, equals: { mediaType: type ?? undefined, isFeatured: featured } }), { limit, offset });
}

/** Home: featured first, then newest first, 4 items (public-site.md §7). */
export function listHomeMedia(db: Database, limit = HOME_MEDIA_LIMIT) {
  return listCards(db, LISTINGS.homeMedia, { limit });
}

/** Videos of some categories, newest first (public-site.md §7: by media_type video and category_id). */
export function listVideosOfCategories(db: Database, categoryIds: number[], limit = 12) {
  if (!categoryIds.length) return Promise.resolve([]);
  return listCards(db, refine(LISTINGS.videos, { categoryIds }), { limit });
}

/** Items per page of the media page's list: a phone scrolls through a page, not the whole library (48 items were 21,000 px). */
export const MEDIA_PAGE_SIZE: number = LISTINGS.media.limit;

/**
 * The media page: the featured block (on the first page) and a page of the list, both for the chosen filter.
 * Items of the featured block are not repeated in the list, on any page.
 */
export async function loadMediaPage(db: Database, type: MediaType | null, page = 1) {
  const { lead, list } = await readLeadAndList(db, LEAD_AND_LIST.media, { equals: { mediaType: type ?? undefined } }, page);
  return { featured: page === 1 ? lead : [], items: list.items, page, hasMore: list.hasMore };
}
