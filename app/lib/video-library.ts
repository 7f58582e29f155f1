/**
 * Search and sort of the video library page, shared by the server (a plain GET form works without
 * JavaScript) and the browser (results change as the reader types). Matching goes through the one Arabic
 * normaliser, so "الاگ" finds "ألاگ" and "ecole" finds "École".
 */
import { normalizeArabic } from "#domain/arabic.ts";
import type { Language } from "#domain/language.ts";

export const VIDEO_SORTS = ["newest", "views", "duration", "title"] as const;
export type VideoSort = (typeof VIDEO_SORTS)[number];
export const DEFAULT_VIDEO_SORT: VideoSort = "newest";
/** Longer queries are cut: nobody types more, and a huge one would only cost time. */
export const VIDEO_QUERY_MAX = 100;

export function toVideoSort(value: string | null | undefined): VideoSort | null {
  if (!value) return DEFAULT_VIDEO_SORT;
  return (VIDEO_SORTS as readonly string[]).includes(value) ? (value as VideoSort) : null;
}

export type SearchableVideo = { guid: string; title: string; description: string | null; dateUploaded: string; views: number; length: number };

const collators = new Map<string, Intl.Collator>();
const collator = (lang: Language) => {
  let c = collators.get(lang);
  if (!c) collators.set(lang, (c = new Intl.Collator(lang, { sensitivity: "base", numeric: true })));
  return c;
};

/** Every word of the query must occur in the title or the description (after normalising both). */
export function searchVideos<T extends SearchableVideo>(items: readonly T[], query: string): T[] {
  const words = normalizeArabic(query.slice(0, VIDEO_QUERY_MAX)).split(" ").filter(Boolean);
  if (!words.length) return [...items];
  return items.filter((v) => {
    const haystack = normalizeArabic(`${v.title} ${v.description ?? ""}`);
    return words.every((w) => haystack.includes(w));
  });
}

/** newest: upload date; views and duration: largest first; title: alphabetical in the reader's language. Ties keep a stable order by id. */
export function sortVideos<T extends SearchableVideo>(items: readonly T[], sort: VideoSort, lang: Language): T[] {
  const byId = (a: T, b: T) => (a.guid < b.guid ? -1 : a.guid > b.guid ? 1 : 0);
  const compare: Record<VideoSort, (a: T, b: T) => number> = {
    newest: (a, b) => Date.parse(b.dateUploaded) - Date.parse(a.dateUploaded),
    views: (a, b) => b.views - a.views,
    duration: (a, b) => b.length - a.length,
    title: (a, b) => collator(lang).compare(a.title, b.title),
  };
  return [...items].sort((a, b) => compare[sort](a, b) || byId(a, b));
}

export function searchAndSortVideos<T extends SearchableVideo>(items: readonly T[], query: string, sort: VideoSort, lang: Language): T[] {
  return sortVideos(searchVideos(items, query), sort, lang);
}
