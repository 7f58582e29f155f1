/**
 * Declared listings (issue 41): a list page, a block of the home page or a public JSON list is data — which types,
 * which filter, which order, how many — read by one generic loader (server/content/listings.server.ts) over one
 * query of the types' tables. A card's fields are its type's (`card` in domain/content-types/*.ts); a listing only
 * adds what its page needs beyond them (`with`: the literature's verse lines, the API's full text).
 *
 * A new list page declares its listing here and calls `loadListing` (or `loadLeadAndList`) in its route's loader.
 */
import { data } from "react-router";
import { definitionOf, publicUrl, type ApiFieldMap, type CardField, type ContentType } from "./content-types/index.ts";

/** The section pages: a parent category with its children (public-site.md §2–3). */
export const SECTIONS = ["culture", "politics", "literature", "opinion", "emirates"] as const;
export type Section = (typeof SECTIONS)[number];

/** The literature page's type filter (public-site.md §2): the child categories of `literature`. */
export const LITERATURE_TYPES = ["poetry", "prose", "folktales", "translations"] as const;
export type LiteratureType = (typeof LITERATURE_TYPES)[number];

/** A column's value a listing keeps; undefined: no condition (a filter the reader did not choose). */
export type FilterValue = string | number | boolean | undefined;

/** Which published items a listing shows. Columns are named by their schema key (isFeatured, region, mediaType). */
export type ListingFilter = {
  /** A section: items whose category is its parent category or one of the children. */
  section?: Section;
  /** One child of `section` (a filter chip), or, without a section, one category anywhere. */
  category?: string;
  /** Items filed under any of these category slugs. */
  categories?: readonly string[];
  /** Items filed under any of these category ids (none: no item). */
  categoryIds?: readonly number[];
  /** Columns equal to a value. */
  equals?: Readonly<Record<string, FilterValue>>;
  /** Items already shown elsewhere on the page (a featured block). */
  excludeIds?: readonly number[];
};

export type Listing = {
  /** Its name: the start of its cache keys. */
  name: string;
  /** The types it lists, together in one order (one query over their tables). */
  types: readonly ContentType[];
  filter?: ListingFilter;
  /** Highest first by these columns, in turn, then the newest id: the publish date unless told. */
  order?: readonly string[];
  /** Items a page (or the whole block) shows. */
  limit: number;
  /** Fields beyond its types' cards, for this listing only. */
  with?: readonly CardField[];
  /** Its JSON API item, when it is not its type's (`api` in the definition). */
  api?: ApiFieldMap;
};

/** A listing with its literal types and extra fields, so its cards are typed by them. */
export const listing = <const L extends Listing>(l: L): L => l;

/** The same listing with more conditions (the reader's filter chips, a page's featured items): values given win. */
export function refine<L extends Listing>(l: L, filter: ListingFilter): L {
  const base = l.filter ?? {};
  return { ...l, filter: { ...base, ...filter, equals: { ...base.equals, ...filter.equals } } };
}

/** A page that opens on lead items (the featured ones, or failing that the newest) and lists the rest under them. */
export type LeadAndList = { listing: Listing; lead: { limit: number; orNewest?: boolean } };

/** A section's articles, newest first. */
const sectionArticles = <const S extends Section>(section: S, limit = 12) =>
  listing({ name: `section:${section}`, types: ["article"], filter: { section }, limit });

const LITERATURE_ITEM: ApiFieldMap = {
  id: "id",
  slug: "pageSlug",
  url: "$url",
  type: "categorySlug",
  typeFr: "categoryNameFr",
  category: "categoryName",
  title: "title",
  titleFr: "titleFr",
  excerpt: "excerpt",
  excerptFr: "excerptFr",
  content: "content",
  contentFr: "contentFr",
  author: "authorName",
  authorFr: "authorNameFr",
  imageUrl: "imageUrl",
  date: "publishDate",
  views: "viewCount",
  readTime: "readTimeMinutes",
  featured: "isFeatured",
};

/** Enough of a poem for a preview (a few verse lines), never the whole body. */
const PREVIEW_CHARS = 1200;

/** Every declared listing of the public site. */
export const LISTINGS = {
  section: sectionArticles,
  /** Spec §9: the opinion page's most-read top 5, by view count. */
  mostRead: (section: Section) =>
    listing({ name: `most-read:${section}`, types: ["article"], filter: { section }, order: ["viewCount", "publishDate"], limit: 5 }),
  /** The politics sidebar: items flagged trending. */
  trending: (section: Section) => listing({ name: `trending:${section}`, types: ["article"], filter: { section, equals: { isTrending: true } }, limit: 5 }),
  /** Literature with the start of each text (its first verse lines, for poems). */
  literature: listing({
    name: "literature",
    types: ["article"],
    filter: { section: "literature" },
    limit: 12,
    with: [
      { name: "contentStart", column: "content", chars: PREVIEW_CHARS },
      { name: "contentStartFr", column: "contentFr", chars: PREVIEW_CHARS },
    ],
  }),
  homeFeatured: listing({ name: "home:featured", types: ["article"], filter: { equals: { isFeatured: true } }, limit: 3 }),
  homeLatest: listing({ name: "home:latest", types: ["article"], filter: { equals: { isFeatured: false } }, limit: 3 }),
  /** Programs and podcasts together (home: 4). */
  shows: listing({ name: "shows", types: ["program", "podcast"], limit: 4 }),
  programs: listing({ name: "programs", types: ["program"], limit: 12 }),
  podcasts: listing({ name: "podcasts", types: ["podcast"], limit: 12 }),
  /** No page of its own: the people's sitemap lists it. */
  coverage: listing({ name: "coverage", types: ["coverage"], limit: 12 }),
  /** News, newest first by creation (public-site.md §7), 12 a page. */
  news: listing({ name: "news", types: ["news"], order: ["createdAt"], limit: 12 }),
  /** The media page's list (12 a page); the whole library at most 60 at once. */
  media: listing({ name: "media", types: ["media"], limit: 12 }),
  /** Home's media block: featured first, then newest (public-site.md §7). */
  homeMedia: listing({ name: "home:media", types: ["media"], order: ["isFeatured", "publishDate"], limit: 4 }),
  /** Videos of some categories (the emirates page's). */
  videos: listing({ name: "videos", types: ["media"], filter: { equals: { mediaType: "video" } }, limit: 12 }),
  /** Every published article (the sitemap, /api/articles without a section), with its last change. */
  articles: listing({ name: "articles", types: ["article"], limit: 12, with: ["updatedAt"] }),
  /** /api/literature: the spec's literature item (public-site.md §3), with the full text. */
  literatureApi: listing({
    name: "api:literature",
    types: ["article"],
    filter: { categories: LITERATURE_TYPES },
    limit: 20,
    with: ["content", "contentFr"],
    api: LITERATURE_ITEM,
  }),
} as const;

/** The pages that open on lead items: how many, and whether the newest stands in when none is featured. */
export const LEAD_AND_LIST = {
  culture: { listing: sectionArticles("culture"), lead: { limit: 3 } },
  opinion: { listing: sectionArticles("opinion"), lead: { limit: 1, orNewest: true } },
  politics: { listing: sectionArticles("politics"), lead: { limit: 1, orNewest: true } },
  media: { listing: LISTINGS.media, lead: { limit: 4 } },
} as const satisfies Record<string, LeadAndList>;

/** A card as its JSON API item: each JSON name from its card field, `$url` or `$category`; dates as ISO text. */
export function apiItem(type: ContentType, card: Readonly<Record<string, unknown>>, fields: ApiFieldMap): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([name, source]) => [name, apiValue(type, card, source)]));
}

/** A card as its type's JSON API item (its definition's `api`). */
export function typeApiItem(type: ContentType, card: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return apiItem(type, card, definitionOf(type).api ?? {});
}

function apiValue(type: ContentType, card: Readonly<Record<string, unknown>>, source: string): unknown {
  if (source === "$url") return publicUrl(type, String(card.pageSlug), Number(card.id));
  if (source === "$category") return card.categorySlug ? { slug: card.categorySlug, name: card.categoryName, nameFr: card.categoryNameFr } : null;
  const value = card[source];
  return value instanceof Date ? value.toISOString() : value;
}

// ---- Keyset paging (issue 42, docs/decisions/0144-archive-and-moved-addresses.md) ----

/**
 * A keyset cursor: the sort values of the row a page stops at (a time written to the microsecond, then what breaks
 * ties), so the next page is an index scan from that row, whatever its depth, where an OFFSET would read and drop
 * every row before it. Opaque to readers: base64url of a JSON array.
 */
export type Cursor = readonly (string | number)[];

/** A cursor's time: ISO 8601 in UTC to the microsecond, as the database writes it (a JavaScript Date keeps ms only). */
const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** What each place of a cursor holds: a time, a positive id, or one of a few words (a type). */
export type CursorShape = readonly ("time" | "id" | readonly string[])[];

const toBase64Url = (text: string) => btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export function encodeCursor(values: Cursor): string {
  return toBase64Url(JSON.stringify(values));
}

/** The cursor a parameter holds, or null when it is not one of this shape (a reader's edit, a cut link). */
export function decodeCursor(text: string, shape: CursorShape): Cursor | null {
  if (text.length > 200 || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  let values: unknown;
  try {
    values = JSON.parse(atob(text.replace(/-/g, "+").replace(/_/g, "/")));
  } catch {
    return null;
  }
  if (!Array.isArray(values) || values.length !== shape.length) return null;
  const ok = shape.every((kind, i) => {
    const v: unknown = values[i];
    if (kind === "time") return typeof v === "string" && CURSOR_TIME.test(v) && !Number.isNaN(Date.parse(v));
    if (kind === "id") return Number.isSafeInteger(v) && (v as number) > 0 && (v as number) <= 2_147_483_647;
    return typeof v === "string" && kind.includes(v);
  });
  return ok ? (values as Cursor) : null;
}

/** Which way a keyset page reads from its cursor: `before` (towards the list's end) or `after` (back to its start). */
export type KeysetDirection = "before" | "after";

/**
 * The cursor of a keyset page's request (`?before=` or `?after=`; none: the list's start). A parameter that is not
 * a cursor answers 400, as a bad page number does (domain/query.ts), never the first page again.
 */
export function cursorParam(
  url: URL,
  shape: CursorShape,
  names: readonly KeysetDirection[] = ["before", "after"],
): { direction: KeysetDirection; cursor: Cursor } | null {
  const given = names.filter((name) => url.searchParams.has(name));
  if (!given.length) return null;
  const cursor = given.length === 1 ? decodeCursor(url.searchParams.get(given[0]) ?? "", shape) : null;
  if (!cursor)
    throw data({ error: { code: "INVALID_CURSOR", message: `The ${given.join(" and ")} parameter is not a cursor of this list.` } }, { status: 400 });
  return { direction: given[0], cursor };
}

/** The news listing's cursor: its creation time and id. */
export const NEWS_CURSOR: CursorShape = ["time", "id"];

/** The last `?page=N` of /news (its cumulative pages); older news is reached with `?before=` from there. */
export const NEWS_MAX_PAGE = 20;
