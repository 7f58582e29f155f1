import { data } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/search";
import type { ReadingHandle } from "#app/lib/static-page.ts";
import { SEARCH_RESULTS_META } from "#app/lib/view-beacon.ts";
import { SearchEmpty, SearchError, SearchFilters, SearchForm, SearchNoResults, SearchResults } from "#app/components/search/search-page.tsx";
import type { SearchType } from "#domain/search.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { imageDetailsOf } from "#server/content/image-details.server.ts";
import { displayedQuery, parseSearchTypes, SEARCH_ERROR_KEYS } from "#server/search/search.server.ts";
import { answerSearch, searchRefusalOf, type SearchRefusal } from "#server/search/search-request.server.ts";

/** No React in the browser: links and GET forms only (decision 0131). */
export const handle: ReadingHandle = { hydrate: false };

/**
 * /search?q=…[&type=articles][&page=2]: the header's search button submits here (a plain GET form, so it
 * works without JavaScript). No query shows the empty state. The search is the one behind /api/search
 * (server/search/search-request.server.ts); this page says its answer in HTML. A query that is too short, too
 * long or not valid text answers 400, too many searches from one reader or address 429 (only searches that run
 * are counted, a page-cache hit never), a search the database could not finish in a second 503: each with its
 * message on this page, never an error screen.
 */
/** A refused search tells the browser when to try again (Retry-After of the 429 and the 503). */
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const lang = languageOfRequest(request);
  const raw = url.searchParams.get("q") ?? "";
  const title = (query: string) => (query ? translate(lang, "search.resultsFor").replace("{{query}}", query) : translate(lang, "search.title"));
  const failed = ({ code, status, retryAfterSeconds }: SearchRefusal) =>
    data(
      {
        state: "invalid" as const,
        query: displayedQuery(raw),
        filter: null,
        page: null,
        code,
        message: translate(lang, SEARCH_ERROR_KEYS[code]),
        title: translate(lang, "search.errorTitle"),
      },
      { status, headers: retryAfterSeconds === null ? undefined : { "Retry-After": String(retryAfterSeconds) } },
    );
  // The types first: the empty page keeps its filter.
  let types: SearchType[];
  try {
    types = parseSearchTypes(url.searchParams.getAll("type"));
  } catch (error) {
    return failed(searchRefusalOf(error));
  }
  const filter: SearchType | null = types.length === 1 ? types[0] : null;
  if (raw.trim() === "") return { state: "empty" as const, query: "", filter, page: null, title: title("") };
  const answer = await answerSearch(request, { q: raw, types, page: url.searchParams.get("page") });
  if (!answer.ok) return failed(answer);
  const headers = new Headers();
  for (const line of answer.setCookie) headers.append("Set-Cookie", line);
  // The results' pictures' alt text and focal points from the media library, in one query.
  const images = await imageDetailsOf(await getDb(), answer.page.results);
  return data({ state: "results" as const, query: answer.query, filter, page: answer.page, images, title: title(answer.query) }, { headers });
}

/**
 * The search shown, for the audience beacon (decision 0147): its number of results on its first page, so that the
 * newsroom sees what readers searched for in vain (the query is the address's `q`).
 */
export const meta: Route.MetaFunction = ({ data }) => [
  { title: data?.title },
  { name: "robots", content: "noindex, follow" },
  ...(data?.state === "results" && data.page.page === 1 ? [{ name: SEARCH_RESULTS_META, content: String(data.page.results.length) }] : []),
];

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { state, query, filter } = loaderData;
  return (
    <div className="mx-auto max-w-6xl px-4 py-8" data-testid="search-page">
      <h1 className="text-3xl font-bold">{state === "results" ? t("search.resultsFor", { query }) : t("search.heading")}</h1>
      <SearchForm query={query} filter={filter} invalid={state === "invalid"} />
      {state === "results" && <SearchFilters query={query} filter={filter} />}
      {loaderData.state === "invalid" ? (
        <SearchError code={loaderData.code} message={loaderData.message} />
      ) : loaderData.state === "empty" ? (
        <SearchEmpty />
      ) : loaderData.page.results.length === 0 ? (
        <SearchNoResults query={query} suggestion={loaderData.page.suggestion} filter={filter} />
      ) : (
        <SearchResults found={loaderData.page} query={query} filter={filter} images={loaderData.images} />
      )}
    </div>
  );
}
