/**
 * Search constants shared by the server (server/search/search.server.ts, authoritative) and the search page's form,
 * filters and paging, which must not pull server code into the browser bundle.
 */
import { ALL_CONTENT_TYPES, type ContentType } from "./content-types/index.ts";
import type { BylineAuthor } from "./authors.ts";

/**
 * The name of a searched type in the search's `type` parameter and in its results (/search, /api/search):
 * the type's table (articles, news, coverages…), the names those links and API clients have used from the
 * start. Everywhere else, the search tables included, a type is named by its key.
 */
export type SearchType = string;

const SEARCHED = ALL_CONTENT_TYPES.filter((d) => d.search !== null);

/** The searched types (every definition with `search`: media has none), in the definitions' order, by their search names. */
export const SEARCH_TYPES: readonly SearchType[] = SEARCHED.map((d) => d.table);

/** The type key behind a search name, or undefined for a name search does not know. */
export function contentTypeOfSearchName(name: string): ContentType | undefined {
  return SEARCHED.find((d) => d.table === name)?.type;
}

/** The search name of a searched type. */
export function searchNameOf(type: ContentType): SearchType {
  const found = SEARCHED.find((d) => d.type === type);
  if (!found) throw new Error(`${type} is not searched`);
  return found.table;
}

/** Results on one page (public-site.md §9 "Search total"). */
export const SEARCH_TOTAL = 20;
export const SEARCH_PAGE_SIZE = SEARCH_TOTAL;
/** Deeper pages are refused: 1,000 results is more than anybody reads; a narrower query serves better. */
export const SEARCH_MAX_PAGE = 50;
export const QUERY_MIN_LENGTH = 2;
export const QUERY_MAX_LENGTH = 200;

/** How the best-ranked part of a result matched, best first (docs/decisions/0071-search-ranking-and-scale.md). */
export const MATCH_KINDS = ["title-exact", "title", "exact", "text"] as const;
export type MatchKind = (typeof MATCH_KINDS)[number];

/**
 * How much of the query a result matched (issue 31, decision 0129): every word as analysed ("full"), every
 * word but through an alternative (a Latin spelling, a typo read as the written word: "near"), or all words
 * but one ("partial"). Full results come first, then near, then partial.
 */
export const CLOSENESS = ["full", "near", "partial"] as const;
export type Closeness = (typeof CLOSENESS)[number];

/** A query word read otherwise, with the written words it was read as: by its other script, or as a typo. */
export type Alternative = { word: string; forms: string[]; kind: "latin" | "typo" };

/**
 * The words a result's text is marked with: the query's, and for a near result the written words its
 * alternatives stand for (so «Atar» marks أطار, «البرلمن» marks البرلمان).
 */
export function highlightQuery(query: string, alternatives: readonly Alternative[], closeness: Closeness): string {
  if (closeness === "full" || !alternatives.length) return query;
  return [query, ...alternatives.flatMap((a) => a.forms)].join(" ");
}

/** One result of a search (server/search/search.server.ts), as the page and the API show it. */
export type SearchResult = {
  type: SearchType;
  id: number;
  title: string;
  titleFr: string | null;
  excerpt: string | null;
  excerptFr: string | null;
  /** Where the query was found in the text, cut around the first match; null when the excerpt shows it or nothing does. */
  snippet: string | null;
  snippetFr: string | null;
  imageUrl: string | null;
  publishDate: Date;
  href: string;
  match: MatchKind;
  /** Whether every word matched as typed, or through an alternative (near), or not every word (partial). */
  closeness: Closeness;
  /** The item's author profiles, in byline order. */
  bylines?: BylineAuthor[];
};

export type SearchPage = {
  query: string;
  page: number;
  results: SearchResult[];
  hasMore: boolean;
  /** A query that finds something, from words of the published texts, when this one found nothing (no full match). */
  suggestion: string | null;
  /** The query words read otherwise for the near results (a Latin name's Arabic forms, a typo's written words). */
  alternatives: Alternative[];
};
