/**
 * Bulk actions of a back-office list (issue 29): the rows' selection (a checkbox per row, one for the page, and
 * "all N matching the filter" across pages) and the action bar that posts the chosen action to the list's own
 * route action (intent `bulk`), which runs server/content/bulk.server.ts. A delete asks first, with the spec's
 * 'تأكيد الحذف' and the count. The checkboxes and the bar are one form (`BULK_FORM`), so a browser without
 * JavaScript posts what it ticked.
 */
import { useId, useState, type FormEvent } from "react";
import { Form, useNavigation } from "react-router";
import { BULK_ACTIONS, type BulkAction } from "#domain/bulk-actions.ts";
import type { ContentTypeDefinition } from "#domain/content-types/index.ts";
import { TAG_NAME_MAX } from "#domain/content-types/define.ts";
import { formatNumber } from "#domain/plural.ts";
import type { Language } from "#domain/language.ts";
import { useCount, useTranslation } from "#app/lib/i18n.ts";
import { DateTimeInput } from "#app/components/forms/date-time-input.tsx";
import { ConfirmationDialog, ConfirmationStep, type Question } from "./confirmation.tsx";
import type { RowSelection } from "./content-table.tsx";

export const BULK_FORM = "bulk-form";

export type CategoryOption = { id: number; name: string; nameFr: string | null };

/** What the list's filter is (the bar posts it when every matching item is selected). */
export type ListFilter = { q: string; status: string };

/** The selection of a list: ids ticked on this page (or others), or every item matching the filter. */
export function useRowSelection(pageIds: readonly number[], viewKey: string) {
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set());
  const [allMatching, setAllMatching] = useState(false);
  // Another view of the list (search, status filter) starts a new selection.
  const [shownView, setShownView] = useState(viewKey);
  if (shownView !== viewKey) {
    setShownView(viewKey);
    setSelected(new Set());
    setAllMatching(false);
  }
  const onPage = pageIds.filter((id) => allMatching || selected.has(id)).length;
  const selection: RowSelection = {
    form: BULK_FORM,
    isSelected: (id) => allMatching || selected.has(id),
    toggle: (id, on) => {
      setAllMatching(false);
      setSelected((current) => {
        const next = new Set(allMatching ? pageIds : current);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      });
    },
    page: onPage === 0 ? "none" : onPage === pageIds.length ? "all" : "some",
    togglePage: (on) => {
      setAllMatching(false);
      setSelected((current) => {
        const next = new Set(current);
        for (const id of pageIds) {
          if (on) next.add(id);
          else next.delete(id);
        }
        return next;
      });
    },
  };
  return {
    selection,
    ids: [...selected],
    allMatching,
    pageFullySelected: pageIds.length > 0 && onPage === pageIds.length,
    selectAllMatching: () => setAllMatching(true),
    clear: () => {
      setSelected(new Set());
      setAllMatching(false);
    },
  };
}

const button = "inline-flex h-10 items-center justify-center rounded-md px-4 text-sm font-bold";
const field = "h-10 rounded-md border border-sand-300 bg-white px-3 text-sm";

/** The hidden fields of the selection: `all` with the filter, or the ids (one string, for the dialog's form). */
function selectionFields(ids: readonly number[], allMatching: boolean, filter: ListFilter): Record<string, string> {
  return allMatching ? { all: "1", q: filter.q, status: filter.status } : { ids: ids.join(",") };
}

/**
 * Whether a bulk action asks before it runs (issue 40, decision 0140): a delete, an unpublish (live stories leave
 * the site), and any action over every item the filter matches (the editor sees how many).
 */
export const bulkAsks = (action: string, allMatching: boolean) => action === "delete" || action === "unpublish" || allMatching;

/**
 * The question before a bulk action that asks: a delete 'تأكيد الحذف' and how many items go; another action its
 * name and how many items it changes, in the language's plural form. `fields` are what is posted again, confirmed.
 */
function useBulkDeleteQuestion(count: number, fields: Record<string, string> | null): Question | null {
  const { t } = useTranslation();
  const counted = useCount();
  if (!fields) return null;
  const action = fields.action ?? "delete";
  if (action !== "delete") {
    return {
      name: "bulk-delete",
      title: t("bulkConfirm.title"),
      text: t(action === "unpublish" ? "bulkConfirm.unpublishText" : "bulkConfirm.text", {
        action: t(`newsroom.bulk.actions.${action}`),
        items: counted("newsroom.bulk.items", count),
      }),
      subject: counted("newsroom.bulk.items", count),
      subjectTestId: "bulk-delete-count",
      intent: "bulk",
      fields: { ...fields, confirmed: "1" },
      confirm: {
        label: t(`newsroom.bulk.actions.${action}`),
        className: "rounded-md bg-desert-600 px-4 py-2 text-sm font-bold text-white hover:bg-desert-700 disabled:opacity-70",
        testId: "bulk-delete-confirm",
      },
    };
  }
  return {
    name: "bulk-delete",
    title: t("admin.confirmDeleteTitle"),
    text: counted("newsroom.bulk.confirmText", count),
    subject: counted("newsroom.bulk.items", count),
    subjectTestId: "bulk-delete-count",
    intent: "bulk",
    fields: { action: "delete", confirmed: "1", ...fields },
    confirm: {
      label: t("admin.delete"),
      className: "rounded-md bg-red-700 px-4 py-2 text-sm font-bold text-white hover:bg-red-800 disabled:opacity-70",
      testId: "bulk-delete-confirm",
    },
  };
}

/** The confirmation as a step of the page (a browser without JavaScript posted a delete). */
export function BulkDeleteStep({ count, fields, back }: { count: number; fields: Record<string, string>; back: string }) {
  const question = useBulkDeleteQuestion(count, fields);
  return question && <ConfirmationStep question={question} back={back} className="rounded-xl border border-red-200 bg-white p-6 shadow-sm" />;
}

export type BulkBarProps = {
  def: ContentTypeDefinition;
  state: ReturnType<typeof useRowSelection>;
  /** How many items the list's filter matches (every page). */
  total: number;
  /** Rows on this page. */
  pageSize: number;
  filter: ListFilter;
  categories: CategoryOption[] | null;
  canDelete: boolean;
  /** Whether publish, unpublish and schedule are offered (content.publish, issue 40); offered when omitted. */
  canPublish?: boolean;
  /** The failure of the last bulk post (a translation key), shown in the bar. */
  failure: string | null;
};

/** The bar over the list while items are selected: the count, "select all N", the action and its value, apply. */
export function BulkBar({ def, state, total, pageSize, filter, categories, canDelete, canPublish = true, failure }: BulkBarProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const navigation = useNavigation();
  const uid = useId();
  const isOffered = (a: BulkAction) =>
    a === "delete"
      ? canDelete
      : a === "category"
        ? categories !== null
        : a === "tag"
          ? def.fields.some((f) => f.kind === "tags")
          : canPublish || !["publish", "unpublish", "schedule"].includes(a);
  const [action, setAction] = useState<BulkAction>(() => BULK_ACTIONS.find(isOffered) ?? "publish");
  const [confirming, setConfirming] = useState<Record<string, string> | null>(null);
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "bulk";
  const count = state.allMatching ? total : state.ids.length;
  const offered = BULK_ACTIONS.filter(isOffered);
  const question = useBulkDeleteQuestion(count, confirming);

  // The dialog closes once the post is answered (the navigation back to idle).
  const [seenState, setSeenState] = useState(navigation.state);
  if (seenState !== navigation.state) {
    setSeenState(navigation.state);
    if (navigation.state === "idle") setConfirming(null);
  }

  const submit = (e: FormEvent<HTMLFormElement>) => {
    if (!bulkAsks(action, state.allMatching)) return;
    e.preventDefault();
    // What the bar would have posted (the action and its value), posted again from the dialog once confirmed.
    const posted: Record<string, string> = {};
    for (const [name, value] of new FormData(e.currentTarget)) if (typeof value === "string" && name !== "intent" && name !== "id") posted[name] = value;
    setConfirming({ ...posted, ...selectionFields(state.ids, state.allMatching, filter) });
  };

  const n = (value: number) => formatNumber(lang, value);
  return (
    <section
      aria-label={t("newsroom.bulk.barLabel")}
      hidden={count === 0}
      className="sticky bottom-0 z-10 rounded-lg border border-desert-600 bg-white p-3 shadow-md md:static"
      data-testid="bulk-bar"
      data-count={count}
    >
      <Form method="post" id={BULK_FORM} onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="bulk" />
        {Object.entries(selectionFields([], state.allMatching, filter))
          .filter(([name]) => name !== "ids")
          .map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
        <div className="flex min-w-0 flex-col gap-1">
          <p role="status" className="text-sm font-bold" data-testid="bulk-count">
            {t("newsroom.bulk.selected", { n: n(count) })}
          </p>
          <div className="flex flex-wrap gap-x-3 text-sm">
            {state.allMatching ? (
              <span data-testid="bulk-all-selected">{t("newsroom.bulk.allSelected", { n: n(total) })}</span>
            ) : (
              state.pageFullySelected &&
              total > pageSize && (
                <button type="button" onClick={state.selectAllMatching} className="font-bold text-desert-700 underline" data-testid="bulk-select-all">
                  {t("newsroom.bulk.selectAll", { n: n(total) })}
                </button>
              )
            )}
            <button type="button" onClick={state.clear} className="text-ink-soft underline" data-testid="bulk-clear">
              {t("newsroom.bulk.clear")}
            </button>
          </div>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${uid}-action`} className="text-xs font-bold text-ink-soft">
            {t("newsroom.bulk.action")}
          </label>
          <select
            id={`${uid}-action`}
            name="action"
            value={action}
            onChange={(e) => setAction(e.currentTarget.value as BulkAction)}
            className={field}
            data-testid="bulk-action"
          >
            {offered.map((a) => (
              <option key={a} value={a}>
                {t(`newsroom.bulk.actions.${a}`)}
              </option>
            ))}
          </select>
        </div>
        {action === "publish" && (
          <label className="flex h-10 items-center gap-2 text-sm">
            <input type="checkbox" name="use_today" value="1" className="size-4" data-testid="bulk-use-today" />
            {t("bulkConfirm.useToday")}
          </label>
        )}
        {action === "schedule" && (
          <div className="flex flex-col gap-1">
            <span id={`${uid}-date`} className="text-xs font-bold text-ink-soft">
              {t("newsroom.bulk.publishDate")}
            </span>
            <DateTimeInput name="publish_date" mode="datetime" required aria-labelledby={`${uid}-date`} data-testid="bulk-publish-date" />
          </div>
        )}
        {action === "category" && categories && (
          <div className="flex flex-col gap-1">
            <label htmlFor={`${uid}-category`} className="text-xs font-bold text-ink-soft">
              {t("newsroom.bulk.category")}
            </label>
            <select id={`${uid}-category`} name="category_id" required className={field} data-testid="bulk-category">
              <option value="">{t("newsroom.ui.choose")}</option>
              {categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {lang === "ar" ? c.name : (c.nameFr ?? c.name)}
                </option>
              ))}
            </select>
          </div>
        )}
        {action === "tag" && (
          <div className="flex flex-col gap-1">
            <label htmlFor={`${uid}-tag`} className="text-xs font-bold text-ink-soft">
              {t("newsroom.bulk.tag")}
            </label>
            <input id={`${uid}-tag`} name="tag" required maxLength={TAG_NAME_MAX} dir="auto" className={field} data-testid="bulk-tag" />
          </div>
        )}
        <button
          type="submit"
          disabled={busy || count === 0}
          aria-busy={busy || undefined}
          className={`${button} ${action === "delete" ? "bg-red-700 hover:bg-red-800" : "bg-desert-600 hover:bg-desert-700"} text-white disabled:opacity-70`}
          data-testid="bulk-apply"
        >
          {busy ? t("newsroom.bulk.applying") : t("newsroom.bulk.apply")}
        </button>
        {failure && (
          <p role="alert" className="w-full text-sm font-bold text-red-800" data-testid="bulk-failure">
            {t(failure)}
          </p>
        )}
      </Form>
      <ConfirmationDialog name="bulk-delete" question={question} onClose={() => setConfirming(null)} />
    </section>
  );
}
