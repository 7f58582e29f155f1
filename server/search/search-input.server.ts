/**
 * The search's input, as readers and API clients give it: the query (control characters out, 2–200 characters,
 * two letters or digits at least), the types by their search names, the page; and the errors a refused or
 * timed-out search answers, each with a stable code and its message (domain/locales/<lang>/common.json →
 * search.errors). Read by server/search/search.server.ts and by the one function behind the page and the API
 * (server/search/search-request.server.ts).
 */
import { translate } from "#server/http/i18n.server.ts";
import { BadRequestError, UnavailableError } from "#server/http/errors.server.ts";
import { normalizeArabic } from "#domain/arabic.ts";
import { QUERY_MAX_LENGTH, QUERY_MIN_LENGTH, SEARCH_MAX_PAGE, SEARCH_TYPES, type SearchType } from "#domain/search.ts";

export const SEARCH_ERROR_CODES = ["QUERY_TOO_SHORT", "QUERY_TOO_LONG", "QUERY_MALFORMED", "INVALID_TYPE", "INVALID_PAGE"] as const;
export type SearchErrorCode = (typeof SEARCH_ERROR_CODES)[number];

/** The translation key of each error (domain/locales/<lang>/common.json → search.errors). */
export const SEARCH_ERROR_KEYS: Record<SearchErrorCode | "SEARCH_TIMEOUT" | "RATE_LIMITED", string> = {
  QUERY_TOO_SHORT: "search.errors.queryTooShort",
  QUERY_TOO_LONG: "search.errors.queryTooLong",
  QUERY_MALFORMED: "search.errors.queryMalformed",
  INVALID_TYPE: "search.errors.invalidType",
  INVALID_PAGE: "search.errors.invalidPage",
  SEARCH_TIMEOUT: "search.errors.timeout",
  RATE_LIMITED: "search.errors.rateLimited",
};

/** Bad search input: a 400 for the caller. Branch on `code`; `message` is the Arabic text for logs and APIs. */
export class SearchInputError extends BadRequestError {
  declare readonly code: SearchErrorCode;
  declare readonly status: 400;
  constructor(code: SearchErrorCode) {
    super(code, translate("ar", SEARCH_ERROR_KEYS[code]));
  }
}

/** The search needed more than SEARCH_TIMEOUT_MS: a 503 the reader sees as a message; the database is free again. */
export class SearchTimeoutError extends UnavailableError {
  declare readonly code: "SEARCH_TIMEOUT";
  declare readonly status: 503;
  constructor(options?: { cause?: unknown }) {
    super("SEARCH_TIMEOUT", translate("ar", SEARCH_ERROR_KEYS.SEARCH_TIMEOUT), options);
  }
}

// Tabs and line breaks separate words; every other control character (C0, DEL, C1) and the bidi overrides
// that make text display differently from what it says are dropped.
const LINE_CONTROLS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
const isControl = (cp: number) => cp <= 0x1f || (cp >= 0x7f && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
const withoutControls = (text: string) => [...text].filter((ch) => !isControl(ch.codePointAt(0)!)).join("");

/** The query as the form shows it back: line breaks as spaces, no control character, never longer than the field. */
export function displayedQuery(raw: string): string {
  return [...withoutControls(raw.replace(LINE_CONTROLS, " "))].slice(0, QUERY_MAX_LENGTH).join("").trim();
}

/**
 * The query as searched: control characters stripped, spaces collapsed, trimmed, 2–200 characters, and at
 * least two letters or digits once normalised ("ًً" or "؟!" are not a search). A query string that was not
 * valid UTF-8 (it decodes to U+FFFD) is malformed.
 */
export function parseSearchQuery(raw: string): string {
  if (raw.includes("\uFFFD")) throw new SearchInputError("QUERY_MALFORMED");
  const query = withoutControls(raw.replace(LINE_CONTROLS, " ")).replace(/ {2,}/g, " ").trim();
  const length = [...query].length;
  if (length > QUERY_MAX_LENGTH) throw new SearchInputError("QUERY_TOO_LONG");
  if (length < QUERY_MIN_LENGTH || [...normalizeArabic(query).replaceAll(" ", "")].length < QUERY_MIN_LENGTH) {
    throw new SearchInputError("QUERY_TOO_SHORT");
  }
  return query;
}

/** `type` values (repeated or comma-separated search names) → the types to search; none means every searched type. */
export function parseSearchTypes(values: readonly string[] | undefined): SearchType[] {
  const wanted = (values ?? [])
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
  for (const v of wanted) if (!SEARCH_TYPES.includes(v)) throw new SearchInputError("INVALID_TYPE");
  return wanted.length === 0 ? [...SEARCH_TYPES] : SEARCH_TYPES.filter((t) => wanted.includes(t));
}

/** `page`: 1 when absent, else a whole number from 1 to SEARCH_MAX_PAGE. */
export function parseSearchPage(value: string | null | undefined): number {
  if (value === null || value === undefined || value === "") return 1;
  if (!/^\d{1,4}$/.test(value) || Number(value) < 1 || Number(value) > SEARCH_MAX_PAGE) throw new SearchInputError("INVALID_PAGE");
  return Number(value);
}
