import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/search";
import type { ReadingHandle } from "#app/lib/static-page.ts";
import { ContentCard } from "#app/components/content/content-card.tsx";
import { ImageDetailsProvider } from "#app/components/content/image-details.tsx";
import { Highlight } from "#app/components/content/highlight.tsx";
import { PageLinks } from "#app/components/sections/section-ui.tsx";
import { SearchIcon } from "#app/components/ui/icons.tsx";
import { excerpt } from "#domain/format.ts";
import { bylineLinks } from "#domain/authors.ts";
import { localized } from "#domain/localized.ts";
import { useLanguage } from "#app/lib/i18n.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { imageDetailsOf } from "#server/content/image-details.server.ts";
import { CLOSENESS, highlightQuery, QUERY_MAX_LENGTH, QUERY_MIN_LENGTH, SEARCH_PAGE_SIZE, SEARCH_TYPES, type SearchType } from "#domain/search.ts";
import {
  displayedQuery,
  parseSearchPage,
  parseSearchQuery,
  parseSearchTypes,
  SEARCH_ERROR_KEYS,
  SearchInputError,
  searchPublished,
  SearchTimeoutError,
  type SearchPage as ResultsPage,
} from "#server/search/search.server.ts";
import { searchCookieHeaders, searchLimits } from "#server/search/search-limits.server.ts";

/** No React in the browser: links and GET forms only (decision 0131). */
export const handle: ReadingHandle = { hydrate: false };

type Failure = { code: keyof typeof SEARCH_ERROR_KEYS; status: 400 | 429 | 503; headers?: HeadersInit };

/**
 * /search?q=…[&type=articles][&page=2]: the header's search button submits here (a plain GET form, so it
 * works without JavaScript). No query shows the empty state. A query that is too short, too long or not
 * valid text answers 400, too many searches from one reader or address 429 (server/search/search-limits.server.ts:
 * only searches that run are counted, a page-cache hit never), a search the database could not finish in a
 * second 503: each with its message on this page, never an error screen.
 */
/** A refused search tells the browser when to try again (Retry-After of the 429 and the 503). */
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const lang = languageOfRequest(request);
  const raw = url.searchParams.get("q") ?? "";
  const shown = displayedQuery(raw);
  const title = (query: string) => (query ? translate(lang, "search.resultsFor").replace("{{query}}", query) : translate(lang, "search.title"));
  const failed = ({ code, status, headers }: Failure) =>
    data(
      {
        state: "invalid" as const,
        query: shown,
        filter: null,
        page: null,
        code,
        message: translate(lang, SEARCH_ERROR_KEYS[code]),
        title: translate(lang, "search.errorTitle"),
      },
      { status, headers },
    );
  try {
    const types = parseSearchTypes(url.searchParams.getAll("type"));
    const filter: SearchType | null = types.length === 1 ? types[0] : null;
    if (raw.trim() === "") return { state: "empty" as const, query: "", filter, page: null, title: title("") };
    const query = parseSearchQuery(raw);
    const pageNumber = parseSearchPage(url.searchParams.get("page"));
    // Counted once the input is known to be a search: what costs is the search that runs.
    const limit = await searchLimits().check(request);
    if (!limit.allowed) return failed({ code: "RATE_LIMITED", status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } });
    const db = await getDb();
    const page: ResultsPage = await searchPublished(db, query, { types, page: pageNumber });
    // The results' pictures' alt text and focal points from the media library, in one query.
    return data(
      { state: "results" as const, query, filter, page, images: await imageDetailsOf(db, page.results), title: title(query) },
      { headers: searchCookieHeaders(limit) },
    );
  } catch (error) {
    if (error instanceof SearchInputError) return failed({ code: error.code, status: 400 });
    if (error instanceof SearchTimeoutError) return failed({ code: "SEARCH_TIMEOUT", status: 503, headers: { "Retry-After": "5" } });
    throw error;
  }
}

export const meta: Route.MetaFunction = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex, follow" }];

function searchHref(query: string, type: SearchType | null, page = 1) {
  const params = new URLSearchParams({ q: query });
  if (type) params.set("type", type);
  if (page > 1) params.set("page", String(page));
  return `/search?${params}`;
}

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { state, query, filter } = loaderData;
  const found = loaderData.state === "results" ? loaderData.page : null;
  return (
    <div className="mx-auto max-w-6xl px-4 py-8" data-testid="search-page">
      <h1 className="text-3xl font-bold">{state === "results" ? t("search.resultsFor", { query }) : t("search.heading")}</h1>

      <Form method="get" action="/search" role="search" className="mt-6 flex max-w-3xl gap-2" data-testid="search-form">
        <label htmlFor="search-q" className="sr-only">
          {t("search.label")}
        </label>
        <input
          // A new search remounts the field, so it shows the query the results are for.
          key={query}
          id="search-q"
          name="q"
          type="search"
          defaultValue={query}
          required
          minLength={QUERY_MIN_LENGTH}
          maxLength={QUERY_MAX_LENGTH}
          placeholder={t("search.placeholder")}
          aria-invalid={state === "invalid" || undefined}
          aria-describedby={state === "invalid" ? "search-error" : undefined}
          className="min-w-0 flex-1 rounded-md border border-sand-300 bg-white px-3 py-2"
          data-testid="search-page-input"
        />
        {filter && <input type="hidden" name="type" value={filter} />}
        <button type="submit" className="inline-flex items-center gap-2 rounded-md bg-desert-600 px-4 py-2 font-bold text-white hover:bg-desert-700">
          <SearchIcon />
          {t("search.submit")}
        </button>
      </Form>

      {state === "results" && (
        <nav aria-label={t("search.filterLabel")} className="mt-4" data-testid="search-filters">
          <ul className="flex flex-wrap gap-2">
            {[null, ...SEARCH_TYPES].map((type) => (
              <li key={type ?? "all"}>
                <Link
                  to={searchHref(query, type)}
                  aria-current={filter === type ? "page" : undefined}
                  className={`inline-block rounded-full border px-3 py-1 text-sm ${filter === type ? "border-desert-600 bg-desert-600 font-bold text-white" : "border-sand-300 bg-white hover:bg-sand-100"}`}
                >
                  {type ? t(`search.filters.${type}`) : t("search.all")}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}

      {loaderData.state === "invalid" ? (
        <div
          id="search-error"
          role="alert"
          className="mt-8 rounded-lg border border-red-200 bg-red-50 p-4 text-red-800"
          data-testid="search-error"
          data-code={loaderData.code}
        >
          <p className="font-bold">{t("search.errorTitle")}</p>
          <p className="mt-1">{loaderData.message}</p>
        </div>
      ) : !found ? (
        <div className="mt-10 text-center text-ink-soft" data-testid="search-empty">
          <p className="text-xl font-bold text-ink">{t("search.emptyTitle")}</p>
          <p className="mt-2">{t("search.emptyText")}</p>
        </div>
      ) : found.results.length === 0 ? (
        <div className="mt-10 text-center text-ink-soft" data-testid="search-no-results" role="status">
          <p className="text-xl font-bold text-ink">{t("search.noResultsTitle")}</p>
          <p className="mt-2">{t("search.noResultsText", { query })}</p>
          {found.suggestion && (
            <p className="mt-4 text-lg" data-testid="search-suggestion">
              {t("search.didYouMean")}{" "}
              <Link to={searchHref(found.suggestion, filter)} className="font-bold text-desert-700 underline">
                {found.suggestion}
              </Link>
              {lang === "ar" ? "؟" : " ?"}
            </p>
          )}
        </div>
      ) : (
        <section className="mt-6" aria-labelledby="search-count">
          {/* The count is the results' heading: the cards' h3 titles then follow an h2, not the h1. */}
          <h2 className="text-base font-normal text-ink-soft">
            <span id="search-count" role="status" data-testid="search-count">
              {t("search.range", {
                from: (found.page - 1) * SEARCH_PAGE_SIZE + 1,
                to: (found.page - 1) * SEARCH_PAGE_SIZE + found.results.length,
              })}
            </span>
          </h2>
          {found.suggestion && (
            // No result matched the whole query (issue 31: the near and partial ones follow): "did you mean" stays.
            <p className="mt-2 text-lg" data-testid="search-suggestion">
              {t("search.didYouMean")}{" "}
              <Link to={searchHref(found.suggestion, filter)} className="font-bold text-desert-700 underline">
                {found.suggestion}
              </Link>
              {lang === "ar" ? "؟" : " ?"}
            </p>
          )}
          <ImageDetailsProvider images={loaderData.state === "results" ? loaderData.images : undefined}>
            {/* Full matches, then near ones (another script, a typo read as the written word), then partial ones, each under its heading. */}
            {CLOSENESS.map((closeness) => {
              const group = found.results.map((r, i) => ({ r, i })).filter(({ r }) => r.closeness === closeness);
              if (!group.length) return null;
              const marked = highlightQuery(query, found.alternatives, closeness);
              return (
                <div key={closeness} data-testid={`search-group-${closeness}`}>
                  {closeness !== "full" && (
                    <>
                      <h2 className="mt-8 text-xl font-bold text-ink" data-testid={`search-heading-${closeness}`}>
                        {t(closeness === "near" ? "search.nearHeading" : "search.partialHeading")}
                      </h2>
                      <p className="mt-1 text-sm text-ink-soft">
                        {closeness === "near"
                          ? t("search.nearText", { words: [...new Set(found.alternatives.flatMap((a) => a.forms))].join(lang === "ar" ? "، " : ", ") })
                          : t("search.partialText")}
                      </p>
                    </>
                  )}
                  <div className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
                    {group.map(({ r, i }) => {
                      const title = localized(lang, r.title, r.titleFr);
                      // Where the query was found, in the reader's language when that text has it; else the excerpt.
                      const snippet = lang === "fr" && (r.snippetFr || r.excerptFr) ? r.snippetFr : r.snippet;
                      const summary = snippet ?? excerpt(localized(lang, r.excerpt, r.excerptFr), 160);
                      return (
                        <ContentCard
                          key={`${r.type}-${r.id}`}
                          href={r.href}
                          title={title}
                          titleNode={<Highlight text={title} query={marked} />}
                          excerpt={summary}
                          excerptNode={<Highlight text={summary} query={marked} />}
                          imageUrl={r.imageUrl}
                          date={r.publishDate}
                          category={t(`search.types.${r.type}`)}
                          authors={bylineLinks(lang, r.bylines)}
                          eager={i < 3}
                          testId="search-result"
                        />
                      );
                    })}
                  </div>
                </div>
              );
            })}
          </ImageDetailsProvider>
          <PageLinks
            page={found.page}
            hasMore={found.hasMore}
            hrefOf={(p) => searchHref(query, filter, p)}
            labels={{ nav: t("search.pagination"), previous: t("search.previous"), next: t("search.next"), current: t("search.pageOf", { page: found.page }) }}
            testId="search-pagination"
            nextTestId="search-next"
          />
        </section>
      )}
    </div>
  );
}
