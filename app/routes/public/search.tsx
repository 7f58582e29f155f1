import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/search";
import { ContentCard } from "~/components/content/content-card.tsx";
import { Highlight } from "~/components/content/highlight.tsx";
import { SearchIcon } from "~/components/ui/icons.tsx";
import { excerpt } from "~/lib/format.ts";
import { localized } from "~/lib/localized.ts";
import { useLanguage } from "~/lib/i18n.ts";
import { languageOfRequest } from "~/lib/language.server.ts";
import { getDb } from "../../../server/db/client.ts";
import { translate } from "../../../server/i18n.server.ts";
import { QUERY_MAX_LENGTH, QUERY_MIN_LENGTH, SEARCH_TOTAL, SEARCH_TYPES, type SearchType } from "~/lib/search.ts";
import { parseSearchQuery, parseSearchTypes, SEARCH_ERROR_KEYS, SearchInputError, searchPublished } from "../../../server/search.ts";

/**
 * /search?q=…[&type=articles]: the header's search button submits here (a plain GET form, so it works
 * without JavaScript). No query shows the empty state; a query that is too short, too long or not valid
 * text answers HTTP 400 with the message on this page, not an error screen.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const lang = languageOfRequest(request);
  const raw = url.searchParams.get("q") ?? "";
  // What the form shows back: never more than the field accepts.
  const shown = [...raw.replace(/\p{Cc}/gu, " ")].slice(0, QUERY_MAX_LENGTH).join("").trim();
  const title = (query: string) => (query ? translate(lang, "search.resultsFor").replace("{{query}}", query) : translate(lang, "search.title"));
  try {
    const types = parseSearchTypes(url.searchParams.getAll("type"));
    const filter: SearchType | null = types.length === 1 ? types[0] : null;
    if (raw.trim() === "") return { state: "empty" as const, query: "", filter, results: [], title: title("") };
    const query = parseSearchQuery(raw);
    const results = await searchPublished(await getDb(), query, { types });
    return { state: "results" as const, query, filter, results, title: title(query) };
  } catch (error) {
    if (!(error instanceof SearchInputError)) throw error;
    return data(
      {
        state: "invalid" as const,
        query: shown,
        filter: null,
        results: [],
        code: error.code,
        message: translate(lang, SEARCH_ERROR_KEYS[error.code]),
        title: translate(lang, "search.errorTitle"),
      },
      { status: 400 },
    );
  }
}

export const meta: Route.MetaFunction = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex, follow" }];

function searchHref(query: string, type: SearchType | null) {
  const params = new URLSearchParams({ q: query });
  if (type) params.set("type", type);
  return `/search?${params}`;
}

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { state, query, filter, results } = loaderData;
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

      {state !== "invalid" && query && (
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
        <div id="search-error" role="alert" className="mt-8 rounded-lg border border-red-200 bg-red-50 p-4 text-red-800" data-testid="search-error">
          <p className="font-bold">{t("search.errorTitle")}</p>
          <p className="mt-1">{loaderData.message}</p>
        </div>
      ) : state === "empty" ? (
        <div className="mt-10 text-center text-ink-soft" data-testid="search-empty">
          <p className="text-xl font-bold text-ink">{t("search.emptyTitle")}</p>
          <p className="mt-2">{t("search.emptyText")}</p>
        </div>
      ) : results.length === 0 ? (
        <div className="mt-10 text-center text-ink-soft" data-testid="search-no-results" role="status">
          <p className="text-xl font-bold text-ink">{t("search.noResultsTitle")}</p>
          <p className="mt-2">{t("search.noResultsText", { query })}</p>
        </div>
      ) : (
        <section className="mt-6" aria-labelledby="search-count">
          <p id="search-count" className="text-ink-soft" role="status" data-testid="search-count">
            {t("search.count", { count: results.length })}
            {results.length >= SEARCH_TOTAL && <span className="ms-2">{t("search.capped", { count: SEARCH_TOTAL })}</span>}
          </p>
          <div className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {results.map((r, i) => {
              const title = localized(lang, r.title, r.titleFr);
              const summary = excerpt(localized(lang, r.excerpt, r.excerptFr), 160);
              return (
                <ContentCard
                  key={`${r.type}-${r.id}`}
                  href={r.href}
                  title={title}
                  titleNode={<Highlight text={title} query={query} />}
                  excerpt={summary}
                  excerptNode={<Highlight text={summary} query={query} />}
                  imageUrl={r.imageUrl}
                  date={r.publishDate}
                  category={t(`search.types.${r.type}`)}
                  eager={i < 3}
                  testId="search-result"
                />
              );
            })}
          </div>
        </section>
      )}
    </div>
  );
}
