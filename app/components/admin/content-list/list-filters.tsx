import { Form, Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { EDITOR_STATUSES, type EditorStatus } from "#domain/content-types/index.ts";
import type { Language } from "#domain/language.ts";
import { formatNumber } from "#domain/plural.ts";
import { linkWith } from "./list-answer.ts";

export type StatusFilter = EditorStatus | "all";
/** The list's status filters, "all" first. */
export const STATUS_FILTERS: StatusFilter[] = ["all", ...EDITOR_STATUSES];

type FiltersProps = { search: URLSearchParams; status: StatusFilter; q: string; counts: Record<StatusFilter, number> };

/** The status filters with their counts, and the search box. */
export function ListFilters({ search, status, q, counts }: FiltersProps) {
  const { t, i18n } = useTranslation();
  const number = { format: (n: number) => formatNumber(i18n.language as Language, n) };
  return (
    <div className="flex flex-col gap-3 lg:flex-row lg:items-center lg:justify-between">
      <nav aria-label={t("newsroom.ui.filterLabel")} data-testid="status-filter">
        <ul className="flex flex-wrap gap-2">
          {STATUS_FILTERS.map((f) => {
            const active = status === f;
            return (
              <li key={f}>
                <Link
                  to={linkWith(search, { status: f, page: 1 })}
                  aria-current={active ? "page" : undefined}
                  data-testid={`filter-${f}`}
                  className={`inline-flex items-center gap-1.5 rounded-full border px-3 py-1 text-sm ${active ? "border-desert-600 bg-desert-600 font-bold text-white" : "border-sand-300 bg-white hover:bg-sand-100"}`}
                >
                  {t(`newsroom.ui.filter.${f}`)}
                  <span data-testid={`count-${f}`} data-value={counts[f]} className={`text-xs ${active ? "text-white/90" : "text-ink-soft"}`}>
                    {number.format(counts[f])}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <Form method="get" role="search" className="flex gap-2" data-testid="list-search">
        {status !== "all" && <input type="hidden" name="status" value={status} />}
        <label htmlFor="list-q" className="sr-only">
          {t("newsroom.ui.searchLabel")}
        </label>
        <input
          id="list-q"
          type="search"
          name="q"
          defaultValue={q}
          key={q}
          maxLength={200}
          placeholder={t("newsroom.ui.searchPlaceholder")}
          className="h-10 w-full min-w-0 rounded-md border border-sand-300 bg-white px-3 text-sm lg:w-72"
        />
        <button type="submit" className="rounded-md border border-sand-300 bg-white px-4 text-sm font-bold hover:bg-sand-100">
          {t("newsroom.ui.searchSubmit")}
        </button>
      </Form>
    </div>
  );
}

/** Previous and next under the list, when there is more than one page. */
export function ListPages({ search, page, pages }: { search: URLSearchParams; page: number; pages: number }) {
  const { t, i18n } = useTranslation();
  const number = { format: (n: number) => formatNumber(i18n.language as Language, n) };
  if (pages <= 1) return null;
  return (
    <nav aria-label={t("newsroom.ui.pagination")} className="flex items-center justify-between gap-3 text-sm" data-testid="pagination">
      {page > 1 ? (
        <Link to={linkWith(search, { page: page - 1 })} rel="prev" className="rounded-md border border-sand-300 bg-white px-3 py-1.5 hover:bg-sand-100">
          {t("newsroom.ui.previous")}
        </Link>
      ) : (
        <span />
      )}
      <span className="text-ink-soft">{t("newsroom.ui.pageOf", { page: number.format(page), pages: number.format(pages) })}</span>
      {page < pages ? (
        <Link to={linkWith(search, { page: page + 1 })} rel="next" className="rounded-md border border-sand-300 bg-white px-3 py-1.5 hover:bg-sand-100">
          {t("newsroom.ui.next")}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
