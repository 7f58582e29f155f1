import { Form, Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { CONTENT_TYPE_DEFINITIONS, type ContentType } from "#domain/content-types/index.ts";
import { formatDate } from "#domain/format.ts";
import { formatNumber } from "#domain/plural.ts";
import type { AlertOpens, NowFigures, SearchFigure, SendClicks } from "#server/analytics/queries.server.ts";
import { Empty, ItemsTable, itemPanelUrl, localName, Stat, TableFrame, td, tdEnd, useLang } from "./figures.tsx";

/** The blocks of /admin/analytics that are not a plain ranking (issue 45): now, the period picker, searches, sends, alerts. */

/** Readers in the last 5 and 30 minutes (distinct visitors of the raw rows), and the items they are reading. */
export function NowBlock({ now }: { now: NowFigures }) {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <section aria-labelledby="analytics-now-title" className="rounded-lg border border-sand-200 bg-sand-50 p-4" data-testid="analytics-now">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="analytics-now-title" className="text-lg font-bold">
          {t("analytics.now.title")}
        </h2>
        <p className="text-xs text-ink-soft">
          {t("analytics.now.at")} <time dateTime={now.at}>{formatDate(now.at, lang, "dateTime")}</time>
        </p>
      </div>
      <div className="grid grid-cols-2 gap-3">
        <Stat label={t("analytics.now.last5")} value={now.last5} testId="analytics-now-5" />
        <Stat label={t("analytics.now.last30")} value={now.last30} testId="analytics-now-30" />
      </div>
      <h3 className="mt-4 mb-2 font-bold">{t("analytics.now.items")}</h3>
      <ItemsTable items={now.items} label={t("analytics.now.items")} testId="analytics-now-item" viewsLabel={t("analytics.col.readers")} />
    </section>
  );
}

export type PeriodChoice = "today" | "7d" | "30d" | "custom";

/** Today, 7 days, 30 days as links; any dates through a plain GET form (works without JavaScript). */
export function PeriodPicker({ period, from, to }: { period: PeriodChoice; from: string; to: string }) {
  const { t } = useTranslation();
  const tab = (value: "today" | "7d" | "30d") => (
    <li key={value}>
      <Link
        to={`?period=${value}`}
        aria-current={period === value ? "page" : undefined}
        className={`block rounded-md border px-3 py-1.5 text-sm font-bold ${period === value ? "border-desert-600 bg-desert-600 text-white" : "border-sand-300 bg-white hover:bg-sand-100"}`}
        data-testid={`analytics-period-${value}`}
      >
        {t(`analytics.periods.${value}`)}
      </Link>
    </li>
  );
  return (
    <nav aria-label={t("analytics.periods.label")} className="flex flex-wrap items-end gap-3" data-testid="analytics-periods">
      <ul className="flex flex-wrap gap-2">{(["today", "7d", "30d"] as const).map(tab)}</ul>
      <Form method="get" className="flex flex-wrap items-end gap-2" data-testid="analytics-range">
        <label className="text-sm">
          <span className="block text-ink-soft">{t("analytics.periods.from")}</span>
          <input type="date" name="from" defaultValue={from} required className="rounded-md border border-sand-300 px-2 py-1" data-testid="analytics-from" />
        </label>
        <label className="text-sm">
          <span className="block text-ink-soft">{t("analytics.periods.to")}</span>
          <input type="date" name="to" defaultValue={to} required className="rounded-md border border-sand-300 px-2 py-1" data-testid="analytics-to" />
        </label>
        <button
          type="submit"
          className={`rounded-md border px-3 py-1.5 text-sm font-bold ${period === "custom" ? "border-desert-600 bg-desert-600 text-white" : "border-sand-300 bg-white hover:bg-sand-100"}`}
          data-testid="analytics-range-apply"
        >
          {t("analytics.periods.apply")}
        </button>
      </Form>
    </nav>
  );
}

/** Searches, most frequent first: those that found nothing (what readers want and the site lacks), or all. */
export function SearchesTable({ searches, label, testId }: { searches: readonly SearchFigure[]; label: string; testId: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  if (!searches.length) return <Empty>{t("analytics.searches.none")}</Empty>;
  return (
    <TableFrame label={label} columns={[t("analytics.col.query"), t("analytics.col.count")]}>
      {searches.map((s) => (
        <tr key={s.query} className="border-b border-sand-100" data-testid={testId} data-query={s.query} data-count={s.count}>
          <td className={td} dir="auto">
            <Link to={`/search?q=${encodeURIComponent(s.query)}`} className="hover:underline" target="_blank" rel="noopener">
              {s.query}
            </Link>
          </td>
          <td className={tdEnd}>{formatNumber(lang, s.count)}</td>
        </tr>
      ))}
    </TableFrame>
  );
}

/** Newsletter sends with the clicks their links brought (opens are not tracked). */
export function SendsTable({ sends }: { sends: readonly SendClicks[] }) {
  const { t } = useTranslation();
  const lang = useLang();
  if (!sends.length) return <Empty>{t("analytics.sends.none")}</Empty>;
  return (
    <TableFrame
      label={t("analytics.sends.title")}
      columns={[t("analytics.col.sentAt"), t("analytics.col.subject"), t("analytics.col.recipients"), t("analytics.col.clicks")]}
      figuresFrom={2}
    >
      {sends.map((s) => (
        <tr key={s.id} className="border-b border-sand-100" data-testid="analytics-send" data-id={s.id} data-clicks={s.clicks}>
          <td className={`${td} whitespace-nowrap`}>
            <time dateTime={s.sentAt}>{formatDate(s.sentAt, lang, "short")}</time>
          </td>
          <td className={td} dir="auto">
            {s.subject} <span className="text-xs text-ink-soft">({s.language})</span>
          </td>
          <td className={tdEnd}>{formatNumber(lang, s.total)}</td>
          <td className={tdEnd}>{formatNumber(lang, s.clicks)}</td>
        </tr>
      ))}
    </TableFrame>
  );
}

/** Push alerts with the opens their link brought. */
export function AlertsTable({ alerts }: { alerts: readonly AlertOpens[] }) {
  const { t } = useTranslation();
  const lang = useLang();
  if (!alerts.length) return <Empty>{t("analytics.alerts.none")}</Empty>;
  const isType = (type: string): type is ContentType => type in CONTENT_TYPE_DEFINITIONS;
  return (
    <TableFrame
      label={t("analytics.alerts.title")}
      columns={[t("analytics.col.sentAt"), t("analytics.col.item"), t("analytics.col.recipients"), t("analytics.col.opens")]}
      figuresFrom={2}
    >
      {alerts.map((a) => {
        const title = a.title === null ? `${a.type} ${a.id}` : localName(lang, a.title, a.titleFr);
        return (
          <tr
            key={`${a.type}:${a.id}`}
            className="border-b border-sand-100"
            data-testid="analytics-alert"
            data-type={a.type}
            data-id={a.id}
            data-opens={a.opens}
          >
            <td className={`${td} whitespace-nowrap`}>{a.sentAt ? <time dateTime={a.sentAt}>{formatDate(a.sentAt, lang, "dateTime")}</time> : "—"}</td>
            <td className={td} dir="auto">
              {isType(a.type) ? (
                <Link to={itemPanelUrl(a.type, a.id)} className="hover:underline">
                  {title}
                </Link>
              ) : (
                title
              )}
            </td>
            <td className={tdEnd}>{formatNumber(lang, a.sent)}</td>
            <td className={tdEnd}>{formatNumber(lang, a.opens)}</td>
          </tr>
        );
      })}
    </TableFrame>
  );
}
