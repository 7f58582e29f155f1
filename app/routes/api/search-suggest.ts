import type { Route } from "./+types/search-suggest";
import { z } from "zod/mini";
import { oneOf } from "#domain/query.ts";
import { LANGUAGES } from "#domain/language.ts";
import { localizedPath } from "#domain/addresses.ts";
import { QUERY_MAX_LENGTH } from "#domain/search.ts";
import { getDb } from "#server/db/client.server.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { apiJson, handleApi, methodNotAllowed, parseQuery } from "#server/http/api.server.ts";
import { parseSearchQuery } from "#server/search/search.server.ts";
import { searchApiError, searchRefusalOf } from "#server/search/search-request.server.ts";
import { searchLimits } from "#server/search/search-limits.server.ts";
import { keptSuggestions, SUGGEST_MAX_AGE_S, suggestPublished } from "#server/search/suggest.server.ts";

const Query = z.strictObject({ q: z.string(), lang: oneOf(LANGUAGES) });

/**
 * GET /api/search/suggest?q=…[&lang=ar|fr|en]: suggestions as you type (server/search/suggest.server.ts), as
 * `{ query, suggestions: [{ kind: "title", type, label, url } | { kind: "tag", label, url }] }`, in `lang` (each
 * `url` the page's address in that language: `/fr/news/…`, issue 42)
 * (else the reader's language, and the answer varies with it). The query follows the search's rules (400
 * QUERY_TOO_SHORT, QUERY_TOO_LONG, QUERY_MALFORMED; INVALID_QUERY for the query string itself). An answer
 * this process keeps costs nothing; others count against the suggestion budgets of
 * server/search/search-limits.server.ts (429 RATE_LIMITED with Retry-After). Answers may be kept 30 s.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/search/suggest", async () => {
    const params = parseQuery(request, Query, { maxLength: QUERY_MAX_LENGTH * 2 });
    let query: string;
    try {
      query = parseSearchQuery(params.q);
    } catch (error) {
      throw searchApiError(searchRefusalOf(error));
    }
    // A field that ends with a space holds whole words only; otherwise its last word is being typed.
    const typing = !/\s$/.test(params.q);
    const lang = params.lang ?? languageOfRequest(request);
    let cookies: string[] = [];
    let answer = keptSuggestions(query, lang, { typing });
    if (!answer) {
      const limit = await searchLimits().check(request, "suggest");
      if (!limit.allowed) throw searchApiError({ code: "RATE_LIMITED", status: 429, retryAfterSeconds: limit.retryAfterSeconds });
      cookies = limit.setCookie;
      answer = await suggestPublished(await getDb(), query, lang, { typing });
    }
    // The same for everyone who types the same, briefly; an answer that hands out the search cookie is this browser's.
    // Kept language-neutral (the suggestions' cache), each link leads to the page in the language asked for.
    const localized = { ...answer, suggestions: answer.suggestions.map((s) => ({ ...s, url: localizedPath(lang, s.url) })) };
    const response = apiJson(localized, { cache: `${cookies.length ? "private" : "public"}, max-age=${SUGGEST_MAX_AGE_S}` });
    if (!params.lang) response.headers.set("Vary", "Cookie, Accept-Language");
    for (const line of cookies) response.headers.append("Set-Cookie", line);
    return response;
  });
}

/** Any other method: 405 in the APIs' error shape. */
export const action = methodNotAllowed(["GET"]);
