import { Form, Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { TAG_NAME_MAX } from "#domain/tags.ts";
import { inputClass, smallButton } from "./tags-answer.ts";

/** The search box above the list (the way the form's tag input matches, Arabic-aware). */
export function TagsSearch({ q }: { q: string }) {
  const { t } = useTranslation();
  return (
    <Form
      method="get"
      role="search"
      className="flex flex-wrap items-end gap-2 rounded-lg border border-sand-200 bg-white p-4 shadow-sm"
      data-testid="tags-search"
    >
      <label className="min-w-0 flex-1 basis-60">
        <span className="mb-1 block text-sm font-bold">{t("tags.searchLabel")}</span>
        <input
          type="search"
          name="q"
          defaultValue={q}
          key={q}
          maxLength={TAG_NAME_MAX}
          placeholder={t("tags.searchPlaceholder")}
          dir="auto"
          className={inputClass}
          data-testid="tags-q"
        />
      </label>
      <button type="submit" className="h-11 rounded-md bg-desert-600 px-5 font-bold text-white hover:bg-desert-700" data-testid="tags-search-submit">
        {t("tags.search")}
      </button>
    </Form>
  );
}

/** How many tags, and (with tags.manage) how many are selected and the merge button (two at least). */
export function TagsSummary({ total, canManage, selected, onMerge }: { total: number; canManage: boolean; selected: number; onMerge: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-ink-soft" role="status" data-testid="tags-total">
        {t("tags.total", { total })}
      </p>
      {canManage && (
        <div className="flex flex-wrap items-center gap-3">
          <span className="text-sm text-ink-soft" data-testid="tags-selected">
            {t("tags.selected", { total: selected })}
          </span>
          <button
            type="button"
            className="inline-flex h-10 items-center rounded-md bg-desert-600 px-4 text-sm font-bold text-white hover:bg-desert-700 disabled:cursor-not-allowed disabled:opacity-60"
            disabled={selected < 2}
            aria-describedby="tags-merge-needs"
            onClick={onMerge}
            data-testid="tags-merge"
          >
            {t("tags.merge")}
          </button>
          <span id="tags-merge-needs" className="sr-only">
            {t("tags.mergeNeedsTwo")}
          </span>
        </div>
      )}
    </div>
  );
}

/** Previous and next under the list, when there is more than one page. */
export function TagsPages({ page, pages, href }: { page: number; pages: number; href: (changes: Record<string, string | null>) => string }) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <nav aria-label={t("tags.pagination")} className="flex items-center justify-between gap-3" data-testid="tags-pages">
      {page > 1 ? (
        <Link to={href({ page: page - 1 > 1 ? String(page - 1) : null })} rel="prev" className={smallButton}>
          {t("tags.previous")}
        </Link>
      ) : (
        <span />
      )}
      <span className="text-sm text-ink-soft">{t("tags.pageOf", { page })}</span>
      {page < pages ? (
        <Link to={href({ page: String(page + 1) })} rel="next" className={smallButton}>
          {t("tags.next")}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
