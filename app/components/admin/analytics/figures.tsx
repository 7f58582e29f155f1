import type { ReactNode } from "react";
import { Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { CONTENT_TYPE_DEFINITIONS, type ContentType } from "#domain/content-types/index.ts";
import { formatDate } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import { formatNumber } from "#domain/plural.ts";
import type { Counted, GroupFigure, ItemFigure, TimelinePoint } from "#server/analytics/queries.server.ts";

/**
 * The pieces of /admin/analytics and of an item's panel (issue 45): a titled block with its CSV export, and the
 * tables every figure is shown in (a chart only ever repeats one of them). Numbers in the back-office's language.
 */

export const useLang = () => useTranslation().i18n.language as Language;

/** The name to show: the French one in French when there is one. */
export const localName = (lang: Language, name: string, nameFr: string | null) => (lang === "fr" && nameFr ? nameFr : name);

/** An item's edit page, where its panel shows its figures. */
export const itemPanelUrl = (type: ContentType, id: number) => `/admin/${CONTENT_TYPE_DEFINITIONS[type].segment}/${id}#item-audience`;

/** A block of the dashboard: a heading, an optional CSV link, its content. */
export function Block({ id, title, csv, children, testId }: { id: string; title: string; csv?: string; children: ReactNode; testId?: string }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby={`${id}-title`} className="min-w-0 rounded-lg border border-sand-200 bg-white p-4 shadow-sm" data-testid={testId}>
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`${id}-title`} className="text-lg font-bold">
          {title}
        </h2>
        {csv && (
          <a href={csv} download className="text-sm font-bold text-desert-700 underline hover:no-underline" data-testid={`analytics-csv-${id}`}>
            {t("analytics.csv")}
            <span className="sr-only"> – {title}</span>
          </a>
        )}
      </div>
      {children}
    </section>
  );
}

/**
 * A table that may be wider than a phone: it scrolls inside its frame, reachable by keyboard and named. Its header
 * row is `columns`: text columns first (start-aligned), figures from `figuresFrom` on (end-aligned); `false` leaves
 * a column out.
 */
export function TableFrame({
  label,
  columns,
  figuresFrom = 1,
  children,
}: {
  label: string;
  columns: readonly (string | false | undefined)[];
  figuresFrom?: number;
  children: ReactNode;
}) {
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- axe's scrollable-region-focusable: a region that scrolls is reached by keyboard
    <div role="region" aria-label={label} tabIndex={0} className="overflow-x-auto">
      <table className="w-full text-start text-sm">
        <caption className="sr-only">{label}</caption>
        <thead>
          <tr className="border-b border-sand-200">
            {columns.map((name, i) =>
              name === false || name === undefined ? null : (
                <th key={i} scope="col" className={`p-2 font-bold text-ink-soft ${i < figuresFrom ? "text-start" : "text-end"}`}>
                  {name}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** Cells: a name or a date, and a figure. */
export const td = "p-2 align-top";
export const tdEnd = "p-2 text-end align-top tabular-nums";

export function Empty({ children }: { children: ReactNode }) {
  return <p className="rounded-md border border-dashed border-sand-300 p-4 text-center text-sm text-ink-soft">{children}</p>;
}

/** The most read items, each linked to its edit page's panel. */
export function ItemsTable({
  items,
  label,
  testId = "analytics-top-item",
  viewsLabel,
}: {
  items: readonly ItemFigure[];
  label: string;
  testId?: string;
  viewsLabel?: string;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  if (!items.length) return <Empty>{t("analytics.noViews")}</Empty>;
  return (
    <TableFrame label={label} columns={[t("analytics.col.item"), viewsLabel ?? t("analytics.col.views")]}>
      {items.map((item) => (
        <tr
          key={`${item.type}:${item.id}`}
          className="border-b border-sand-100"
          data-testid={testId}
          data-type={item.type}
          data-id={item.id}
          data-views={item.views}
        >
          <td className={td}>
            <Link to={itemPanelUrl(item.type, item.id)} className="font-bold hover:underline" dir="auto">
              {localName(lang, item.title, item.titleFr)}
            </Link>
            <span className="block text-xs text-ink-soft">{t(CONTENT_TYPE_DEFINITIONS[item.type].labels.singular)}</span>
          </td>
          <td className={tdEnd}>{formatNumber(lang, item.views)}</td>
        </tr>
      ))}
    </TableFrame>
  );
}

/** Sections or authors, with their items' views. */
export function GroupsTable({ groups, label, nameLabel, testId }: { groups: readonly GroupFigure[]; label: string; nameLabel: string; testId: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  if (!groups.length) return <Empty>{t("analytics.noViews")}</Empty>;
  return (
    <TableFrame label={label} columns={[nameLabel, t("analytics.col.views")]}>
      {groups.map((g) => (
        <tr key={g.id} className="border-b border-sand-100" data-testid={testId} data-slug={g.slug} data-views={g.views}>
          <td className={td} dir="auto">
            {localName(lang, g.name, g.nameFr)}
          </td>
          <td className={tdEnd}>{formatNumber(lang, g.views)}</td>
        </tr>
      ))}
    </TableFrame>
  );
}

/**
 * Views (and visitors) by source, language or device, with a bar of each one's share: every key, zeros included, in
 * the contract's order.
 */
export function BreakdownTable({
  rows,
  label,
  keyLabel,
  nameOf,
  testId,
  visitors = true,
}: {
  rows: readonly (readonly [string, Counted])[];
  label: string;
  keyLabel: string;
  nameOf: (key: string) => string;
  testId: string;
  visitors?: boolean;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const total = rows.reduce((sum, [, c]) => sum + c.views, 0);
  return (
    <TableFrame label={label} columns={[keyLabel, t("analytics.col.views"), visitors && t("analytics.col.visitors"), t("analytics.col.share")]}>
      {rows.map(([key, c]) => {
        const share = total ? Math.round((c.views / total) * 100) : 0;
        return (
          <tr key={key} className="border-b border-sand-100" data-testid={`${testId}-${key}`} data-views={c.views} data-visitors={c.visitors}>
            <td className={td}>
              {nameOf(key)}
              <span className="mt-1 block h-1.5 rounded bg-sand-100" aria-hidden="true">
                <span className="block h-1.5 rounded bg-desert-500" style={{ width: `${share}%` }} />
              </span>
            </td>
            <td className={tdEnd}>{formatNumber(lang, c.views)}</td>
            {visitors && <td className={tdEnd}>{formatNumber(lang, c.visitors)}</td>}
            <td className={tdEnd}>{formatNumber(lang, share)}%</td>
          </tr>
        );
      })}
    </TableFrame>
  );
}

/** A slot of a timeline as people read it: an hour with its day, or a day. */
export const slotLabel = (at: string, step: "hour" | "day", lang: Language) => formatDate(at, lang, step === "hour" ? "dateTime" : "short");

/** The timeline's numbers (the chart draws the same). */
export function TimelineTable({
  points,
  step,
  label,
  visitors = true,
}: {
  points: readonly TimelinePoint[];
  step: "hour" | "day";
  label: string;
  visitors?: boolean;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  if (!points.length) return <Empty>{t("analytics.noViews")}</Empty>;
  return (
    <TableFrame
      label={label}
      columns={[t(step === "hour" ? "analytics.col.hour" : "analytics.col.day"), t("analytics.col.views"), visitors && t("analytics.col.visitors")]}
    >
      {points.map((p) => (
        <tr key={p.at} className="border-b border-sand-100" data-testid="analytics-slot" data-at={p.at} data-views={p.views}>
          <td className={td}>
            <time dateTime={p.at}>{slotLabel(p.at, step, lang)}</time>
          </td>
          <td className={tdEnd}>{formatNumber(lang, p.views)}</td>
          {visitors && <td className={tdEnd}>{formatNumber(lang, p.visitors)}</td>}
        </tr>
      ))}
    </TableFrame>
  );
}

/** A big number with its label. */
export function Stat({ label, value, testId }: { label: string; value: number; testId: string }) {
  const lang = useLang();
  return (
    <div className="rounded-lg border border-sand-200 bg-white p-4 shadow-sm">
      <p className="text-sm text-ink-soft">{label}</p>
      <p className="mt-1 text-3xl font-bold tabular-nums" data-testid={testId} data-value={value}>
        {formatNumber(lang, value)}
      </p>
    </div>
  );
}
