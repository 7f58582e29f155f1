/**
 * Search constants shared by the server (server/search.ts, authoritative) and the search page's form and
 * filters, which must not pull server code into the browser bundle.
 */
export const SEARCH_TYPES = ["articles", "news", "programs", "podcasts", "coverages"] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** public-site.md §9 "Search total". */
export const SEARCH_TOTAL = 20;
export const QUERY_MIN_LENGTH = 2;
export const QUERY_MAX_LENGTH = 200;
