/**
 * One search asked over HTTP: the one function behind the search page (/search) and the JSON API (/api/search),
 * which only translate its answer, into HTML or into JSON (issue 41). The input is checked (the query, then the
 * types, then the page), the search is counted against the reader's and the address's limits
 * (./search-limits.server.ts: only a search that runs is counted) and run; a refusal is named by its stable code
 * with the HTTP status and the Retry-After it answers: 400 for the input, 429 RATE_LIMITED, 503 SEARCH_TIMEOUT.
 */
import { getDb } from "#server/db/client.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { BadRequestError, RateLimitedError, UnavailableError } from "#server/http/errors.server.ts";
import type { SearchType } from "#domain/search.ts";
import { parseSearchPage, parseSearchQuery, parseSearchTypes, SEARCH_ERROR_KEYS, SearchInputError, SearchTimeoutError } from "./search-input.server.ts";
import { searchLimits } from "./search-limits.server.ts";
import { searchPublished, type SearchPage } from "./search.server.ts";

/** A refused search: its code (a key of SEARCH_ERROR_KEYS), its status, and when to try again (429 and 503). */
export type SearchRefusal = { code: keyof typeof SEARCH_ERROR_KEYS; status: 400 | 429 | 503; retryAfterSeconds: number | null };

export type SearchAnswer =
  | { ok: true; query: string; types: SearchType[]; page: SearchPage; /** The search cookie, when this answer hands it out. */ setCookie: string[] }
  | ({ ok: false } & SearchRefusal);

/** What a search asks: the query as typed, the `type` values, the page (as the URL has it, or already a number). */
export type SearchAsked = { q: string; types: readonly string[]; page?: string | number | null };

/** The refusal an error of the search's input or of its time-out stands for; any other error is thrown again. */
export function searchRefusalOf(error: unknown): SearchRefusal {
  if (error instanceof SearchInputError) return { code: error.code, status: 400, retryAfterSeconds: null };
  if (error instanceof SearchTimeoutError) return { code: "SEARCH_TIMEOUT", status: 503, retryAfterSeconds: 5 };
  throw error;
}

/** Checks, counts and runs one search of `request` (see above). */
export async function answerSearch(request: Request, asked: SearchAsked): Promise<SearchAnswer> {
  try {
    const query = parseSearchQuery(asked.q);
    const types = parseSearchTypes(asked.types);
    const pageNumber = typeof asked.page === "number" ? asked.page : parseSearchPage(asked.page);
    const limit = await searchLimits().check(request);
    if (!limit.allowed) return { ok: false, code: "RATE_LIMITED", status: 429, retryAfterSeconds: limit.retryAfterSeconds };
    const page = await searchPublished(await getDb(), query, { types, page: pageNumber });
    return { ok: true, query, types, page, setCookie: limit.setCookie };
  } catch (error) {
    return { ok: false, ...searchRefusalOf(error) };
  }
}

/**
 * A refusal as the JSON APIs answer it (/api/search, /api/search/suggest): their error shape, in English as they
 * have always answered (the page's words are Arabic), with Retry-After for 429 and 503.
 */
export function searchApiError({ code, status, retryAfterSeconds }: SearchRefusal): Error {
  const message = translate("en", SEARCH_ERROR_KEYS[code]);
  if (status === 429) return new RateLimitedError(message, { retryAfterSeconds: retryAfterSeconds ?? 1 });
  if (status === 503) return new UnavailableError(code, message, { headers: { "Retry-After": String(retryAfterSeconds ?? 5) } });
  return new BadRequestError(code, message);
}
