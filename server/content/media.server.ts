/**
 * The media library (public-site.md §2 "Media library", §3 media, §7 media): video, audio, image and
 * document items. Every query goes through isPublished().
 */
import { and, desc, eq, inArray, notInArray } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { categories, media } from "#server/db/schema.server.ts";
import type { MediaType } from "#domain/media-library.ts";
import { isPublished } from "./published.server.ts";

export type { MediaType };
export { MEDIA_FILTERS, mediaTypeOfFilter, type MediaFilter } from "#domain/media-library.ts";

/** The columns a media card shows (the spec's full-list selection, plus French variants and the slug). */
export const mediaCardColumns = {
  id: media.id,
  title: media.title,
  titleFr: media.titleFr,
  description: media.description,
  mediaType: media.mediaType,
  publishDate: media.publishDate,
  fileUrl: media.fileUrl,
  thumbnailUrl: media.thumbnailUrl,
  imageUrl: media.imageUrl,
  authorName: media.authorName,
  isFeatured: media.isFeatured,
  views: media.viewCount,
  durationSeconds: media.durationSeconds,
  pageSlug: media.pageSlug,
  isDemo: media.isDemo,
  categoryName: categories.name,
  categoryNameFr: categories.nameFr,
  categorySlug: categories.slug,
};

export type MediaCard = Awaited<ReturnType<typeof listPublishedMedia>>[number];

/** The most the page lists at once (the demo library holds 48 items; the grid stays readable on a phone). */
export const MEDIA_LIST_LIMIT = 60;
/** The featured block of the media page. */
export const MEDIA_FEATURED_LIMIT = 4;
/** Home's media block (public-site.md §9). */
export const HOME_MEDIA_LIMIT = 4;

type ListOptions = { type?: MediaType | null; featured?: boolean; excludeIds?: number[]; limit?: number; offset?: number };

/** Published media, newest first; optionally of one type, featured only, or without some ids. */
export function listPublishedMedia(db: Database, { type, featured, excludeIds, limit = MEDIA_LIST_LIMIT, offset = 0 }: ListOptions = {}) {
  return db
    .select(mediaCardColumns)
    .from(media)
    .leftJoin(categories, eq(media.categoryId, categories.id))
    .where(
      isPublished(
        media,
        type ? eq(media.mediaType, type) : undefined,
        featured === undefined ? undefined : eq(media.isFeatured, featured),
        excludeIds?.length ? notInArray(media.id, excludeIds) : undefined,
      ),
    )
    .orderBy(desc(media.publishDate), desc(media.id))
    .limit(limit)
    .offset(offset);
}

/** Home: featured first, then newest first, 4 items (public-site.md §7). */
export function listHomeMedia(db: Database, limit = HOME_MEDIA_LIMIT) {
  return db
    .select(mediaCardColumns)
    .from(media)
    .leftJoin(categories, eq(media.categoryId, categories.id))
    .where(isPublished(media))
    .orderBy(desc(media.isFeatured), desc(media.publishDate), desc(media.id))
    .limit(limit);
}

/** Videos of some categories, newest first (public-site.md §7: by media_type video and category_id). */
export function listVideosOfCategories(db: Database, categoryIds: number[], limit = 12) {
  if (!categoryIds.length) return Promise.resolve([]);
  return db
    .select(mediaCardColumns)
    .from(media)
    .leftJoin(categories, eq(media.categoryId, categories.id))
    .where(isPublished(media, and(eq(media.mediaType, "video"), inArray(media.categoryId, categoryIds))))
    .orderBy(desc(media.publishDate), desc(media.id))
    .limit(limit);
}

/** Items per page of the media page's list: a phone scrolls through a page, not the whole library (48 items were 21,000 px). */
export const MEDIA_PAGE_SIZE = 12;

/**
 * The media page: the featured block (on the first page) and a page of the list, both for the chosen filter.
 * Items of the featured block are not repeated in the list, on any page.
 */
export async function loadMediaPage(db: Database, type: MediaType | null, page = 1) {
  const featured = await listPublishedMedia(db, { type, featured: true, limit: MEDIA_FEATURED_LIMIT });
  const rows = await listPublishedMedia(db, { type, excludeIds: featured.map((m) => m.id), limit: MEDIA_PAGE_SIZE + 1, offset: (page - 1) * MEDIA_PAGE_SIZE });
  return { featured: page === 1 ? featured : [], items: rows.slice(0, MEDIA_PAGE_SIZE), page, hasMore: rows.length > MEDIA_PAGE_SIZE };
}
