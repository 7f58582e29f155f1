/**
 * Search constants shared by the server (server/search/search.server.ts, authoritative) and the search page's form,
 * filters and paging, which must not pull server code into the browser bundle.
 */
export const SEARCH_TYPES = ["articles", "news", "programs", "podcasts", "coverages"] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

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
