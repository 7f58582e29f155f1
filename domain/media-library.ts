/**
 * The media page's filters and limits, shared by the server query module and the page (kept free of
 * database imports so the page's browser bundle stays small).
 */

/** The kinds of file a media item holds (the media table's media_type). */
export const MEDIA_TYPES = ["video", "audio", "image", "document"] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/**
 * The filters as the spec names them (all, video, audio, images, documents), in that order, with the
 * media_type each selects. The URL carries the filter name: /media?type=images.
 */
export const MEDIA_FILTERS = [
  { filter: "all", mediaType: null },
  { filter: "video", mediaType: "video" },
  { filter: "audio", mediaType: "audio" },
  { filter: "images", mediaType: "image" },
  { filter: "documents", mediaType: "document" },
] as const satisfies readonly { filter: string; mediaType: MediaType | null }[];
export type MediaFilter = (typeof MEDIA_FILTERS)[number]["filter"];

/**
 * The media type a ?type= value selects: null for all, undefined when the value is unknown. The singular
 * column values (image, document) are accepted too.
 */
export function mediaTypeOfFilter(value: string | null | undefined): MediaType | null | undefined {
  if (value === null || value === undefined || value === "" || value === "all") return null;
  const match = MEDIA_FILTERS.find((f) => f.filter === value || f.mediaType === value);
  return match ? match.mediaType : undefined;
}

export const filterOfMediaType = (type: MediaType | null): MediaFilter => MEDIA_FILTERS.find((f) => f.mediaType === type)?.filter ?? "all";

/** public-site.md §9: the media description is cut at 100 characters; the "opened" toast lasts 4000 ms. */
export const MEDIA_DESCRIPTION_MAX = 100;
export const OPENED_TOAST_MS = 4000;
