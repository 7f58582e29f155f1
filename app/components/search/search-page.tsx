/**
 * The parts of the search page (app/routes/public/search.tsx): the form, the type filters, the states without
 * results (an error, the empty page, nothing found) and the results grouped by how closely they matched. Server
 * markup only: the page is not hydrated (decision 0131); links and a GET form do the work.
 */
import { Form } from "react-router";
import { Link } from "#app/lib/link.tsx";
import { ContentCard } from "#app/components/content/content-card.tsx";
import { Highlight } from "#app/components/content/highlight.tsx";
import { ImageDetailsProvider } from "#app/components/content/image-details.tsx";
import { PageLinks } from "#app/components/sections/section-ui.tsx";
import { SearchIcon } from "#app/components/ui/icons.tsx";
import { useLanguage, useText, useTranslation } from "#app/lib/i18n.ts";
import { useLocalPath } from "#app/lib/addresses.ts";
import { analyzeQuery, type QueryAnalysis } from "#domain/arabic.ts";
import { excerpt } from "#domain/format.ts";
import { bylineLinks } from "#domain/authors.ts";
import { localized } from "#domain/localized.ts";
import type { ImageDetailsMap } from "#domain/image-details.ts";
import {
  CLOSENESS,
  highlightQuery,
  QUERY_MAX_LENGTH,
  QUERY_MIN_LENGTH,
  SEARCH_PAGE_SIZE,
  SEARCH_TYPES,
  type Alternative,
  type Closeness,
  type SearchPage as ResultsPage,
  type SearchResult,
  type SearchType,
} from "#domain/search.ts";

/** The address of a search: its query, its type filter, its page. */
export function searchHref(query: string, type: SearchType | null, page = 1) {
  const params = new URLSearchParams({ q: query });
  if (type) params.set("type", type);
  if (page > 1) params.set("page", String(page));
  return `/search?${params}`;
}

/** The search field and its button: a GET form, so it works without JavaScript. */
export function SearchForm({ query, filter, invalid }: { query: string; filter: SearchType | null; invalid: boolean }) {
  const { t } = useTranslation();
  const local = useLocalPath();
  return (
    <Form method="get" action={local("/search")} role="search" className="mt-6 flex max-w-3xl gap-2" data-testid="search-form">
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
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? "search-error" : undefined}
        className="min-w-0 flex-1 rounded-md border border-sand-300 bg-white px-3 py-2"
        data-testid="search-page-input"
      />
      {filter && <input type="hidden" name="type" value={filter} />}
      <button type="submit" className="inline-flex items-center gap-2 rounded-md bg-desert-600 px-4 py-2 font-bold text-white hover:bg-desert-700">
        <SearchIcon />
        {t("search.submit")}
      </button>
    </Form>
  );
}

/** All types, then each searched type: links to the same query filtered. */
export function SearchFilters({ query, filter }: { query: string; filter: SearchType | null }) {
  const { t } = useTranslation();
  const local = useLocalPath();
  return (
    <nav aria-label={t("search.filterLabel")} className="mt-4" data-testid="search-filters">
      <ul className="flex flex-wrap gap-2">
        {[null, ...SEARCH_TYPES].map((type) => (
          <li key={type ?? "all"}>
            <Link
              to={local(searchHref(query, type))}
              aria-current={filter === type ? "page" : undefined}
              className={`inline-block rounded-full border px-3 py-1 text-sm ${filter === type ? "border-desert-600 bg-desert-600 font-bold text-white" : "border-sand-300 bg-white hover:bg-sand-100"}`}
            >
              {type ? t(`search.filters.${type}`) : t("search.all")}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A refused search (400, 429, 503): its message on the page, never an error screen. */
export function SearchError({ code, message }: { code: string; message: string }) {
  const { t } = useTranslation();
  return (
    <div
      id="search-error"
      role="alert"
      className="mt-8 rounded-lg border border-red-200 bg-red-50 p-4 text-red-800"
      data-testid="search-error"
      data-code={code}
    >
      <p className="font-bold">{t("search.errorTitle")}</p>
      <p className="mt-1">{message}</p>
    </div>
  );
}

/** The page before any query. */
export function SearchEmpty() {
  const { t } = useTranslation();
  return (
    <div className="mt-10 text-center text-ink-soft" data-testid="search-empty">
      <p className="text-xl font-bold text-ink">{t("search.emptyTitle")}</p>
      <p className="mt-2">{t("search.emptyText")}</p>
    </div>
  );
}

/** "Did you mean": a query that finds something, from words of the published texts. */
function DidYouMean({ suggestion, filter, className }: { suggestion: string; filter: SearchType | null; className: string }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const local = useLocalPath();
  return (
    <p className={className} data-testid="search-suggestion">
      {t("search.didYouMean")}{" "}
      <Link to={local(searchHref(suggestion, filter))} className="font-bold text-desert-700 underline">
        {suggestion}
      </Link>
      {lang === "ar" ? "؟" : " ?"}
    </p>
  );
}

/** Nothing found, with "did you mean" when the search has a proposal. */
export function SearchNoResults({ query, suggestion, filter }: { query: string; suggestion: string | null; filter: SearchType | null }) {
  const { t } = useTranslation();
  return (
    <div className="mt-10 text-center text-ink-soft" data-testid="search-no-results" role="status">
      <p className="text-xl font-bold text-ink">{t("search.noResultsTitle")}</p>
      <p className="mt-2">{t("search.noResultsText", { query })}</p>
      {suggestion && <DidYouMean suggestion={suggestion} filter={filter} className="mt-4 text-lg" />}
    </div>
  );
}

/** One result as a card, its title and its snippet (or excerpt) with the query's words marked. */
function SearchResultCard({ result: r, marked, eager }: { result: SearchResult; marked: QueryAnalysis; eager: boolean }) {
  // Twenty cards a page: useTranslation()'s per-call wrapper showed in the page's render profile (decision 0153).
  const text = useText();
  const lang = useLanguage();
  const title = localized(lang, r.title, r.titleFr);
  // Where the query was found, in the reader's language when that text has it; else the excerpt.
  const snippet = lang === "fr" && (r.snippetFr || r.excerptFr) ? r.snippetFr : r.snippet;
  const summary = snippet ?? excerpt(localized(lang, r.excerpt, r.excerptFr), 160);
  return (
    <ContentCard
      href={r.href}
      title={title}
      titleNode={<Highlight text={title} query={marked} />}
      excerpt={summary}
      excerptNode={<Highlight text={summary} query={marked} />}
      imageUrl={r.imageUrl}
      date={r.publishDate}
      category={text(`search.types.${r.type}`)}
      authors={bylineLinks(lang, r.bylines)}
      eager={eager}
      testId="search-result"
    />
  );
}

/** The results of one closeness, under their heading (none for the full matches). */
function SearchGroup({
  closeness,
  group,
  query,
  alternatives,
}: {
  closeness: Closeness;
  group: { r: SearchResult; i: number }[];
  query: string;
  alternatives: Alternative[];
}) {
  const { t } = useTranslation();
  const lang = useLanguage();
  // Analysed once for the whole group: its cards' highlights share it.
  const marked = analyzeQuery(highlightQuery(query, alternatives, closeness));
  return (
    <div data-testid={`search-group-${closeness}`}>
      {closeness !== "full" && (
        <>
          <h2 className="mt-8 text-xl font-bold text-ink" data-testid={`search-heading-${closeness}`}>
            {t(closeness === "near" ? "search.nearHeading" : "search.partialHeading")}
          </h2>
          <p className="mt-1 text-sm text-ink-soft">
            {closeness === "near"
              ? t("search.nearText", { words: [...new Set(alternatives.flatMap((a) => a.forms))].join(lang === "ar" ? "، " : ", ") })
              : t("search.partialText")}
          </p>
        </>
      )}
      <div className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {group.map(({ r, i }) => (
          <SearchResultCard key={`${r.type}-${r.id}`} result={r} marked={marked} eager={i < 3} />
        ))}
      </div>
    </div>
  );
}

/** A page of results: the count, "did you mean" when no result matched the whole query, the groups, the paging. */
export function SearchResults({ found, query, filter, images }: { found: ResultsPage; query: string; filter: SearchType | null; images: ImageDetailsMap }) {
  const { t } = useTranslation();
  return (
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
      {/* No result matched the whole query (issue 31: the near and partial ones follow): "did you mean" stays. */}
      {found.suggestion && <DidYouMean suggestion={found.suggestion} filter={filter} className="mt-2 text-lg" />}
      <ImageDetailsProvider images={images}>
        {/* Full matches, then near ones (another script, a typo read as the written word), then partial ones, each under its heading. */}
        {CLOSENESS.map((closeness) => {
          const group = found.results.map((r, i) => ({ r, i })).filter(({ r }) => r.closeness === closeness);
          return group.length ? <SearchGroup key={closeness} closeness={closeness} group={group} query={query} alternatives={found.alternatives} /> : null;
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
  );
}
