import { useTranslation } from "#app/lib/i18n.ts";
import { Link } from "react-router";
import type { ItemAudience } from "#server/analytics/queries.server.ts";
import { BreakdownTable, Stat, TimelineTable } from "./figures.tsx";
import { ViewsChart } from "./views-chart.tsx";

/**
 * An item's audience under its editor (issue 45), for an account with `analytics.view`: its views over the last days,
 * by hour (chart and table) and by source, the figures of GET /api/admin/analytics/items/{type}/{id}.
 */
export function ItemAudiencePanel({ figures, days }: { figures: ItemAudience; days: number }) {
  const { t } = useTranslation();
  const title = t("analytics.item.title", { n: days });
  const points = figures.hourly.map((h) => ({ at: h.hour, views: h.views, visitors: h.views }));
  return (
    <section
      id="item-audience"
      aria-labelledby="item-audience-title"
      className="space-y-3 rounded-lg border border-sand-200 bg-white p-4"
      data-testid="item-audience"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="item-audience-title" className="text-lg font-bold">
          {title}
        </h2>
        <Link to="/admin/analytics?period=7d" className="text-sm font-bold text-desert-700 underline hover:no-underline">
          {t("analytics.item.dashboard")}
        </Link>
      </div>
      <div className="max-w-xs">
        <Stat label={t("analytics.col.views")} value={figures.views} testId="item-audience-views" />
      </div>
      {figures.views === 0 ? (
        <p className="text-sm text-ink-soft">{t("analytics.noViews")}</p>
      ) : (
        <>
          <ViewsChart points={points} step="hour" label={t("analytics.col.views")} testId="item-audience-chart" />
          <div className="grid gap-4 lg:grid-cols-2">
            <div>
              <h3 className="mb-2 font-bold">{t("analytics.sourcesTitle")}</h3>
              <BreakdownTable
                rows={Object.entries(figures.sources).map(([key, views]) => [key, { views, visitors: views }] as const)}
                label={t("analytics.sourcesTitle")}
                keyLabel={t("analytics.col.source")}
                nameOf={(key) => t(`analytics.sources.${key}`)}
                testId="item-audience-source"
                visitors={false}
              />
            </div>
            <details>
              <summary className="cursor-pointer text-sm font-bold">{t("analytics.timeline.numbers")}</summary>
              <TimelineTable points={points} step="hour" label={t("analytics.timeline.byHour")} visitors={false} />
            </details>
          </div>
        </>
      )}
    </section>
  );
}
