import type { MouseEvent, ReactNode } from "react";
import { Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { ColumnDefinition, ContentTypeDefinition, EditorStatus } from "#domain/content-types/index.ts";
import { asText } from "#domain/content-form.ts";
import { excerpt, formatDate } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import { EditIcon, ExternalIcon, TrashIcon } from "./icons.tsx";

/** One item of an admin list, as the list's loader sends it: what its columns and actions need. */
export type ContentRow = {
  id: number;
  title: string;
  status: EditorStatus;
  summary: string | null;
  categoryName: string | null;
  /** The category's French name (the French and English back-offices show it, as the form does). */
  categoryNameFr: string | null;
  /** Where the extra action opens the item's audio or video (back-office.md §2), or null. */
  openMedia: string | null;
  /** The raw value of each column's field. */
  values: Record<string, unknown>;
};

/** Media descriptions are cut at 50 characters in the table (back-office.md §2, "Media management"). */
const PREVIEW_CHARS = 50;

const STATUS_STYLE: Record<EditorStatus, string> = {
  published: "bg-emerald-100 text-emerald-900",
  draft: "bg-sand-100 text-ink-soft",
  scheduled: "bg-amber-100 text-amber-900",
  review: "bg-sky-100 text-sky-900",
  changes_requested: "bg-rose-100 text-rose-900",
  approved: "bg-violet-100 text-violet-900",
};

export function StatusBadge({ status }: { status: EditorStatus }) {
  const { t } = useTranslation();
  return (
    <span
      className={`inline-block whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-bold ${STATUS_STYLE[status]}`}
      data-testid="row-status"
      data-status={status}
    >
      {t(`newsroom.status.${status}`)}
    </span>
  );
}

const present = (value: unknown) => asText(value).trim() !== "";

/** A column's cell by its display type (back-office.md §2 "Column display types"). */
function Cell({ def, column, row, editHref }: { def: ContentTypeDefinition; column: ColumnDefinition; row: ContentRow; editHref: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const value = row.values[column.field];
  const notSet = <span className="text-ink-soft">{t("admin.notSet")}</span>;
  const isTitle = column.field === def.titleField;
  switch (column.display) {
    case "date":
      return present(value) ? <span className="whitespace-nowrap">{formatDate(asText(value), lang, "short")}</span> : notSet;
    case "status":
      return <StatusBadge status={row.status} />;
    case "media":
      return present(value) ? (
        <span className="whitespace-nowrap text-palm-700" data-testid="media-available">
          {t("newsroom.ui.mediaAvailable")}
        </span>
      ) : (
        <span className="whitespace-nowrap text-ink-soft">{t("newsroom.ui.mediaMissing")}</span>
      );
    case "category":
      return row.categoryName ? <span data-testid="row-category">{lang === "ar" ? row.categoryName : (row.categoryNameFr ?? row.categoryName)}</span> : notSet;
    case "option": {
      const field = def.fields.find((f) => f.name === column.field);
      return present(value) && field?.optionLabels ? <>{t(`${field.optionLabels}.${asText(value)}`)}</> : notSet;
    }
    case "excerpt":
      if (isTitle) {
        return (
          <div className="min-w-48">
            <TitleLink href={editHref} title={row.title} />
            {row.summary && (
              <p dir="auto" className="mt-1 line-clamp-2 text-sm text-ink-soft">
                {row.summary}
              </p>
            )}
          </div>
        );
      }
      // Staff text keeps its own direction whatever the interface language: an Arabic excerpt in the French back-office.
      return present(value) ? (
        <p dir="auto" className="line-clamp-2 min-w-40 text-sm">
          {excerpt(asText(value), PREVIEW_CHARS)}
        </p>
      ) : (
        notSet
      );
    case "text":
      if (isTitle) return <TitleLink href={editHref} title={row.title} />;
      return present(value) ? <bdi>{asText(value)}</bdi> : notSet;
  }
}

function TitleLink({ href, title }: { href: string; title: string }) {
  return (
    <Link to={href} dir="auto" className="font-bold text-ink hover:text-desert-700 hover:underline" data-testid="row-title">
      {title}
    </Link>
  );
}

const iconButton = "inline-flex h-9 w-9 items-center justify-center rounded-md border border-sand-200 text-ink-soft hover:bg-sand-100 hover:text-ink";

type Actions = {
  editHref: (row: ContentRow) => string;
  deleteHref: ((row: ContentRow) => string) | null;
  onDelete: (row: ContentRow, e: MouseEvent<HTMLAnchorElement>) => void;
};

/**
 * The rows' checkboxes of the bulk actions (app/components/admin/bulk-actions.tsx): each posts `id` with the
 * bulk form (`form`), so a browser without JavaScript posts what it ticked.
 */
export type RowSelection = {
  form: string;
  isSelected: (id: number) => boolean;
  toggle: (id: number, on: boolean) => void;
  /** The page's rows all selected, some, or none (the header checkbox). */
  page: "all" | "some" | "none";
  togglePage: (on: boolean) => void;
};

const checkboxClass = "h-5 w-5 cursor-pointer rounded border-sand-300 accent-desert-600";

function RowCheckbox({ row, selection, where }: { row: ContentRow; selection: RowSelection; where: "table" | "card" }) {
  const { t } = useTranslation();
  return (
    <input
      type="checkbox"
      name="id"
      value={row.id}
      form={selection.form}
      id={`select-${where}-${row.id}`}
      checked={selection.isSelected(row.id)}
      onChange={(e) => selection.toggle(row.id, e.currentTarget.checked)}
      aria-label={t("newsroom.bulk.selectRow", { title: row.title })}
      className={checkboxClass}
      data-testid="row-select"
    />
  );
}

function PageCheckbox({ selection }: { selection: RowSelection }) {
  const { t } = useTranslation();
  return (
    <input
      type="checkbox"
      checked={selection.page === "all"}
      ref={(el) => {
        if (el) el.indeterminate = selection.page === "some";
      }}
      onChange={(e) => selection.togglePage(e.currentTarget.checked)}
      aria-label={t("newsroom.bulk.selectPage")}
      className={checkboxClass}
      data-testid="select-page"
    />
  );
}

/** Edit, delete (when allowed) and the open-media action of podcasts and programs. */
function RowActions({ row, actions }: { row: ContentRow; actions: Actions }) {
  const { t } = useTranslation();
  return (
    <div className="flex items-center gap-1.5">
      <Link to={actions.editHref(row)} className={iconButton} aria-label={t("admin.edit")} title={t("admin.edit")} data-testid="row-edit">
        <EditIcon />
      </Link>
      {row.openMedia && (
        <a
          href={row.openMedia}
          target="_blank"
          rel="noopener noreferrer"
          className={iconButton}
          aria-label={t("newsroom.ui.openMedia")}
          title={t("newsroom.ui.openMedia")}
          data-testid="row-open-media"
        >
          <ExternalIcon />
        </a>
      )}
      {actions.deleteHref && (
        <a
          href={actions.deleteHref(row)}
          onClick={(e) => actions.onDelete(row, e)}
          className={`${iconButton} hover:border-red-300 hover:bg-red-50 hover:text-red-700`}
          aria-label={t("admin.delete")}
          title={t("admin.delete")}
          data-testid="row-delete"
        >
          <TrashIcon />
        </a>
      )}
    </div>
  );
}

/** The list on wide screens: a table with the type's columns and the row actions. */
export function ContentTable({
  def,
  rows,
  actions,
  selection,
}: {
  def: ContentTypeDefinition;
  rows: ContentRow[];
  actions: Actions;
  selection?: RowSelection;
}) {
  const { t } = useTranslation();
  return (
    <div className="hidden overflow-x-auto rounded-lg border border-sand-200 bg-white shadow-sm md:block">
      <table className="w-full text-start text-sm" data-testid="content-table">
        <thead className="bg-sand-50 text-xs text-ink-soft">
          <tr>
            {selection && (
              <th scope="col" className="w-10 px-3 py-2.5 text-start">
                <PageCheckbox selection={selection} />
              </th>
            )}
            {def.columns.map((c) => (
              <th key={c.field} scope="col" className="px-3 py-2.5 text-start font-bold">
                {t(c.label)}
              </th>
            ))}
            <th scope="col" className="px-3 py-2.5 text-start font-bold">
              {t("newsroom.ui.actions")}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-sand-100">
          {rows.map((row) => (
            <tr
              key={row.id}
              data-testid="content-row"
              data-id={row.id}
              data-selected={selection?.isSelected(row.id) || undefined}
              className="align-top hover:bg-sand-50/60 data-selected:bg-sand-100"
            >
              {selection && (
                <td className="px-3 py-3">
                  <RowCheckbox row={row} selection={selection} where="table" />
                </td>
              )}
              {def.columns.map((c) => (
                <td key={c.field} className="px-3 py-3">
                  <Cell def={def} column={c} row={row} editHref={actions.editHref(row)} />
                </td>
              ))}
              <td className="px-3 py-2">
                <RowActions row={row} actions={actions} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The list on phones: one card per item, its columns as labelled lines. */
export function ContentCards({
  def,
  rows,
  actions,
  selection,
}: {
  def: ContentTypeDefinition;
  rows: ContentRow[];
  actions: Actions;
  selection?: RowSelection;
}) {
  const { t } = useTranslation();
  const rest = def.columns.filter((c) => c.field !== def.titleField && c.display !== "status");
  return (
    <ul className="space-y-3 md:hidden" data-testid="content-cards">
      {selection && (
        <li className="flex items-center gap-3 px-1 text-sm">
          <PageCheckbox selection={selection} />
          <span aria-hidden="true" className="text-ink-soft">
            {t("newsroom.bulk.selectPage")}
          </span>
        </li>
      )}
      {rows.map((row) => (
        <li key={row.id} className="rounded-lg border border-sand-200 bg-white p-4 shadow-sm" data-testid="content-card" data-id={row.id}>
          <div className="flex items-start justify-between gap-3">
            {selection && (
              <div className="pt-0.5">
                <RowCheckbox row={row} selection={selection} where="card" />
              </div>
            )}
            <div className="min-w-0 flex-1">
              <TitleLink href={actions.editHref(row)} title={row.title} />
              {row.summary && (
                <p dir="auto" className="mt-1 line-clamp-2 text-sm text-ink-soft">
                  {row.summary}
                </p>
              )}
            </div>
            <StatusBadge status={row.status} />
          </div>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            {rest.map((c) => (
              <CardLine key={c.field} label={t(c.label)}>
                <Cell def={def} column={c} row={row} editHref={actions.editHref(row)} />
              </CardLine>
            ))}
          </dl>
          <div className="mt-3 flex justify-end border-t border-sand-100 pt-3">
            <RowActions row={row} actions={actions} />
          </div>
        </li>
      ))}
    </ul>
  );
}

function CardLine({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-ink-soft">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}
