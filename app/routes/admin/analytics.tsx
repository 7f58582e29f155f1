import { data } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/analytics";
import { AdminError } from "#app/components/admin/guard.tsx";
import { AlertsTable, NowBlock, PeriodPicker, SearchesTable, SendsTable, type PeriodChoice } from "#app/components/admin/analytics/blocks.tsx";
import { Block, BreakdownTable, GroupsTable, ItemsTable, Stat, TimelineTable } from "#app/components/admin/analytics/figures.tsx";
import { ViewsChart } from "#app/components/admin/analytics/views-chart.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { dashboardOf, parseRange, rangeOf, readersNow, type Range } from "#server/analytics/queries.server.ts";

/**
 * The audience dashboard (issue 45, decision 0147), with `analytics.view`: readers now (the last 5 and 30 minutes)
 * and what they read; for today, 7 or 30 days or any dates, the views and visitors over time (chart and table),
 * the most read items (each linked to its edit page's panel), sections and authors, the sources, languages and
 * devices, the searches that found nothing and the most frequent ones, the newsletter's clicks and the push alerts'
 * opens. Every table has its CSV (/api/admin/analytics.csv). Figures lag a view by a few seconds (the collector's
 * flush).
 */
const DAY_INPUT = /^\d{4}-\d{2}-\d{2}$/;

function periodOf(url: URL, now: Date): { period: PeriodChoice; range: Range; invalid: boolean } {
  const from = url.searchParams.get("from") ?? "";
  const to = url.searchParams.get("to") ?? "";
  if (from || to) {
    try {
      if (!DAY_INPUT.test(from) || !DAY_INPUT.test(to)) throw new Error("dates");
      return { period: "custom", range: parseRange({ from, to }, { now }), invalid: false };
    } catch {
      return { period: "today", range: rangeOf("today", now), invalid: true };
    }
  }
  const asked = url.searchParams.get("period");
  const period = asked === "7d" || asked === "30d" ? asked : "today";
  return { period, range: rangeOf(period, now), invalid: asked !== null && asked !== period };
}

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "analytics.view");
  const now = new Date();
  const { period, range, invalid } = periodOf(new URL(request.url), now);
  const db = await getDb();
  const [current, dashboard] = await Promise.all([readersNow(db, { now }), dashboardOf(db, range, { now })]);
  // The dates the form shows: the range's first and last day (its end is excluded).
  const days = { from: range.from.toISOString().slice(0, 10), to: new Date(range.to.getTime() - 1).toISOString().slice(0, 10) };
  const query = period === "custom" ? `from=${days.from}&to=${days.to}` : `period=${period}`;
  return data({ period, invalid, days, query, now: current, dashboard }, { headers: { "Cache-Control": "private, no-store" } });
}

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "analytics.title");

export default function AnalyticsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { period, invalid, days, query, now, dashboard } = loaderData;
  const { summary, timeline } = dashboard;
  const csv = (report: string) => `/api/admin/analytics.csv?report=${report}&${query}`;
  const sourceName = (key: string) => t(`analytics.sources.${key}`);
  const chartLabel = t(timeline.step === "hour" ? "analytics.timeline.byHour" : "analytics.timeline.byDay");
  return (
    <section data-testid="admin-analytics" className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">{t("analytics.title")}</h1>
        <p className="mt-1 text-ink-soft">{t("analytics.intro")}</p>
      </div>
      <NowBlock now={now} />
      <PeriodPicker period={period} from={days.from} to={days.to} />
      {invalid && (
        <p role="alert" className="text-sm font-bold text-red-800" data-testid="analytics-invalid">
          {t("analytics.periods.invalid")}
        </p>
      )}
      <div className="grid grid-cols-2 gap-3" data-testid="analytics-totals" data-from={dashboard.range.from} data-to={dashboard.range.to}>
        <Stat label={t("analytics.col.views")} value={summary.views} testId="analytics-total-views" />
        <Stat label={t("analytics.visitorDays")} value={summary.visitors} testId="analytics-total-visitors" />
      </div>
      <Block id="timeline" title={chartLabel} csv={csv("timeline")} testId="analytics-timeline">
        <ViewsChart points={timeline.points} step={timeline.step} label={t("analytics.col.views")} />
        <details className="mt-3">
          <summary className="cursor-pointer text-sm font-bold">{t("analytics.timeline.numbers")}</summary>
          <TimelineTable points={timeline.points} step={timeline.step} label={chartLabel} />
        </details>
      </Block>
      <div className="grid gap-4 lg:grid-cols-2">
        <Block id="items" title={t("analytics.items")} csv={csv("items")} testId="analytics-items">
          <ItemsTable items={dashboard.items} label={t("analytics.items")} />
        </Block>
        <Block id="sources" title={t("analytics.sourcesTitle")} csv={csv("sources")}>
          <BreakdownTable
            rows={Object.entries(summary.sources)}
            label={t("analytics.sourcesTitle")}
            keyLabel={t("analytics.col.source")}
            nameOf={sourceName}
            testId="analytics-source"
          />
        </Block>
        <Block id="sections" title={t("analytics.sections")} csv={csv("sections")}>
          <GroupsTable groups={dashboard.sections} label={t("analytics.sections")} nameLabel={t("analytics.col.section")} testId="analytics-section" />
        </Block>
        <Block id="authors" title={t("analytics.authors")} csv={csv("authors")}>
          <GroupsTable groups={dashboard.authors} label={t("analytics.authors")} nameLabel={t("analytics.col.author")} testId="analytics-author" />
        </Block>
        <Block id="langs" title={t("analytics.langs")} csv={csv("langs")}>
          <BreakdownTable
            rows={Object.entries(summary.langs)}
            label={t("analytics.langs")}
            keyLabel={t("analytics.col.lang")}
            nameOf={(key) => t(`languageNames.${key}`)}
            testId="analytics-lang"
          />
        </Block>
        <Block id="devices" title={t("analytics.devices")} csv={csv("devices")}>
          <BreakdownTable
            rows={Object.entries(summary.devices)}
            label={t("analytics.devices")}
            keyLabel={t("analytics.col.device")}
            nameOf={(key) => t(`analytics.deviceNames.${key}`)}
            testId="analytics-device"
          />
        </Block>
        <Block id="empty-searches" title={t("analytics.searches.empty")} csv={csv("empty-searches")}>
          <p className="mb-2 text-sm text-ink-soft">{t("analytics.searches.emptyHint")}</p>
          <SearchesTable searches={dashboard.searches.empty} label={t("analytics.searches.empty")} testId="analytics-empty-search" />
        </Block>
        <Block id="searches" title={t("analytics.searches.frequent")} csv={csv("searches")}>
          <SearchesTable searches={dashboard.searches.frequent} label={t("analytics.searches.frequent")} testId="analytics-frequent-search" />
        </Block>
        <Block id="newsletter" title={t("analytics.sends.title")} csv={csv("newsletter")}>
          <p className="mb-2 text-sm text-ink-soft">{t("analytics.sends.hint")}</p>
          <SendsTable sends={dashboard.sends} />
        </Block>
        <Block id="push" title={t("analytics.alerts.title")} csv={csv("push")}>
          <p className="mb-2 text-sm text-ink-soft">{t("analytics.alerts.hint")}</p>
          <AlertsTable alerts={dashboard.alerts} />
        </Block>
      </div>
      <p className="text-xs text-ink-soft">{t("analytics.privacy")}</p>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
