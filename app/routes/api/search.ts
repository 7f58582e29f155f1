import type { Route } from "./+types/search";
import { z } from "zod/mini";
import { pageNumber } from "#domain/query.ts";
import { QUERY_MAX_LENGTH, SEARCH_MAX_PAGE } from "#domain/search.ts";
import { apiJson, handleApi, methodNotAllowed, parseQuery } from "#server/http/api.server.ts";
import type { SearchResult } from "#server/search/search.server.ts";
import { answerSearch, searchApiError } from "#server/search/search-request.server.ts";

const Query = z.strictObject({ q: z.string(), type: z.optional(z.string()), page: pageNumber(SEARCH_MAX_PAGE) });

/**
 * GET /api/search?q=…[&type=articles,news][&page=N]: the site search as JSON, ranked and paged as /search, by the
 * same function (server/search/search-request.server.ts); this module only says it in JSON.
 * 400 with a stable code for bad input (INVALID_QUERY for the query string itself; QUERY_TOO_SHORT,
 * QUERY_TOO_LONG, QUERY_MALFORMED, INVALID_TYPE for what it asks), 429 RATE_LIMITED (shared with /search, per
 * reader or address: server/search/search-limits.server.ts), 503 SEARCH_TIMEOUT, each with Retry-After.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/search", async () => {
    // A query may be 200 characters: the query-string check allows a little more, and the search says the rest.
    const params = parseQuery(request, Query, { maxLength: QUERY_MAX_LENGTH * 2 });
    const answer = await answerSearch(request, { q: params.q, types: params.type ? [params.type] : [], page: params.page });
    if (!answer.ok) throw searchApiError(answer);
    const { page } = answer;
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
      answer.setCookie.length ? { cache: "private, max-age=60" } : undefined,
    );
    for (const line of answer.setCookie) response.headers.append("Set-Cookie", line);
    return response;
  });
}

/** Any other method: 405 in the APIs' error shape. */
export const action = methodNotAllowed(["GET"]);

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
