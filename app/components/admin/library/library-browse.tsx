import { Form, Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { LIBRARY_QUERY_MAX, type LibraryFilter } from "#domain/library.ts";

const FILTERS = ["all", "image", "audio", "document", "video"] as const;

/** The library page's address with some parameters changed (null removes one); the open file is closed. */
export type LibraryHref = (changes: Record<string, string | null>) => string;

/** The search box and the type filter above the grid. */
export function LibrarySearch({ q, kind, href }: { q: string; kind: LibraryFilter | null; href: LibraryHref }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-3 rounded-lg border border-sand-200 bg-white p-4 shadow-sm">
      <Form method="get" role="search" className="flex flex-wrap items-end gap-2" data-testid="library-search">
        {kind && <input type="hidden" name="kind" value={kind} />}
        <label className="min-w-0 flex-1 basis-60">
          <span className="mb-1 block text-sm font-bold">{t("library.searchLabel")}</span>
          <input
            type="search"
            name="q"
            defaultValue={q}
            key={q}
            maxLength={LIBRARY_QUERY_MAX}
            placeholder={t("library.searchPlaceholder")}
            dir="auto"
            className="h-11 w-full rounded-md border border-sand-300 bg-white px-3 focus:border-desert-500 focus:ring-2 focus:ring-desert-500/30 focus:outline-none"
            data-testid="library-q"
          />
        </label>
        <button type="submit" className="h-11 rounded-md bg-desert-600 px-5 font-bold text-white hover:bg-desert-700" data-testid="library-search-submit">
          {t("library.search")}
        </button>
      </Form>
      <nav aria-label={t("library.typeLabel")}>
        <ul className="flex flex-wrap gap-2">
          {FILTERS.map((filter) => {
            const current = (kind ?? "all") === filter;
            return (
              <li key={filter}>
                <Link
                  to={href({ kind: filter === "all" ? null : filter, page: null })}
                  aria-current={current ? "page" : undefined}
                  className={`inline-flex h-9 items-center rounded-full border px-4 text-sm font-bold ${
                    current ? "border-desert-600 bg-desert-600 text-white" : "border-sand-300 bg-white text-ink hover:bg-sand-100"
                  }`}
                  data-testid={`library-filter-${filter}`}
                >
                  {t(`library.filters.${filter}`)}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
    </div>
  );
}

const pageLinkClass = "rounded-md border border-sand-300 bg-white px-4 py-2 text-sm font-bold hover:bg-sand-100";

/** Previous and next under the grid, when there is more than one page. */
export function LibraryPages({ page, pages, href }: { page: number; pages: number; href: LibraryHref }) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <nav aria-label={t("library.pagination")} className="flex items-center justify-between gap-3" data-testid="library-pages">
      {page > 1 ? (
        <Link to={href({ page: page - 1 > 1 ? String(page - 1) : null })} rel="prev" className={pageLinkClass} data-testid="library-prev">
          {t("library.previous")}
        </Link>
      ) : (
        <span />
      )}
      <span className="text-sm text-ink-soft">{t("library.pageOf", { page, pages })}</span>
      {page < pages ? (
        <Link to={href({ page: String(page + 1) })} rel="next" className={pageLinkClass} data-testid="library-next">
          {t("library.next")}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
