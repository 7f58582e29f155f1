import type { Route } from "./+types/search";
import { z } from "zod/mini";
import { pageNumber } from "#domain/query.ts";
import { QUERY_MAX_LENGTH, SEARCH_MAX_PAGE } from "#domain/search.ts";
import { getDb } from "#server/db/client.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { apiJson, handleApi, methodNotAllowed, parseQuery } from "#server/http/api.server.ts";
import { BadRequestError, RateLimitedError, UnavailableError } from "#server/http/errors.server.ts";
import {
  parseSearchQuery,
  parseSearchTypes,
  SEARCH_ERROR_KEYS,
  SearchInputError,
  searchPublished,
  SearchTimeoutError,
  type SearchResult,
} from "#server/search/search.server.ts";
import { searchLimits } from "#server/search/search-limits.server.ts";

const Query = z.strictObject({ q: z.string(), type: z.optional(z.string()), page: pageNumber(SEARCH_MAX_PAGE) });

/**
 * GET /api/search?q=…[&type=articles,news][&page=N]: the site search as JSON, ranked and paged as /search.
 * 400 with a stable code for bad input (INVALID_QUERY for the query string itself; QUERY_TOO_SHORT,
 * QUERY_TOO_LONG, QUERY_MALFORMED, INVALID_TYPE for what it asks), 429 RATE_LIMITED (shared with /search, per
 * reader or address: server/search/search-limits.server.ts), 503 SEARCH_TIMEOUT, each with Retry-After.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/search", async () => {
    // A query may be 200 characters: the query-string check allows a little more, and the search says the rest.
    const params = parseQuery(request, Query, { maxLength: QUERY_MAX_LENGTH * 2 });
    try {
      const query = parseSearchQuery(params.q);
      const types = parseSearchTypes(params.type ? [params.type] : []);
      const limit = await searchLimits().check(request);
      if (!limit.allowed) throw new RateLimitedError(message("RATE_LIMITED"), { retryAfterSeconds: limit.retryAfterSeconds });
      const page = await searchPublished(await getDb(), query, { types, page: params.page });
      const response = apiJson(
        {
          query: page.query,
          page: page.page,
          hasMore: page.hasMore,
          suggestion: page.suggestion,
          results: page.results.map(resultJson),
          // Issue 31: the query words read otherwise (Latin ↔ Arabic, typos) for the near results.
          alternatives: page.alternatives,
        },
        // An answer that hands out the search cookie is for this browser only.
        limit.setCookie.length ? { cache: "private, max-age=60" } : undefined,
      );
      for (const line of limit.setCookie) response.headers.append("Set-Cookie", line);
      return response;
    } catch (error) {
      // The search's own words are Arabic (the page's); this endpoint has always answered in English.
      if (error instanceof SearchInputError) throw new BadRequestError(error.code, message(error.code));
      if (error instanceof SearchTimeoutError) throw new UnavailableError(error.code, message(error.code), { headers: { "Retry-After": "5" } });
      throw error;
    }
  });
}

/** Any other method: 405 in the APIs' error shape. */
export const action = methodNotAllowed(["GET"]);

const message = (code: keyof typeof SEARCH_ERROR_KEYS) => translate("en", SEARCH_ERROR_KEYS[code]);

function resultJson(r: SearchResult) {
  return {
    type: r.type,
    id: r.id,
    url: r.href,
    title: r.title,
    titleFr: r.titleFr,
    excerpt: r.excerpt,
    excerptFr: r.excerptFr,
    snippet: r.snippet,
    snippetFr: r.snippetFr,
    imageUrl: r.imageUrl,
    publishDate: r.publishDate.toISOString(),
    match: r.match,
    // Issue 31: full, near (through an alternative) or partial (all words but one).
    closeness: r.closeness,
  };
}
