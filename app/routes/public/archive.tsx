import { data } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/archive";
import { EmptyState, PageIntro, sectionMeta } from "#app/components/sections/section-ui.tsx";
import { useLocalPath } from "#app/lib/addresses.ts";
import type { ReadingHandle } from "#app/lib/static-page.ts";
import {
  ARCHIVE_CURSOR,
  ARCHIVE_PAGE_SIZE,
  ARCHIVE_TYPES,
  archivePath,
  countUnitOf,
  parentPeriod,
  parseArchivePeriod,
  type ArchivePeriod,
} from "#domain/archive.ts";
import { formatCalendarDay } from "#domain/calendar.ts";
import { formatDate, formatNumber, localizeDigits } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import { cursorParam } from "#domain/listings.ts";
import { localized, textProps } from "#domain/localized.ts";
import { getDb } from "#server/db/client.server.ts";
import { loadArchiveCounts, loadArchivePage } from "#server/content/archive.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { notFound } from "#server/http/responses.server.ts";

/** The period's name in a language: the year, «مايو 2025», «3 mai 2025». */
function periodName(period: ArchivePeriod, lang: Language): string {
  const { year, month, day } = period;
  if (month === undefined) return localizeDigits(String(year), lang);
  const first = `${year}-${String(month).padStart(2, "0")}-${String(day ?? 1).padStart(2, "0")}`;
  return day === undefined ? formatDate(`${first}T00:00:00Z`, lang, "month") : formatCalendarDay(first, lang, "date");
}

/**
 * /archive/YYYY, /archive/YYYY/MM, /archive/YYYY/MM/DD (decision 0144): what was published then, oldest first, by
 * type, in keyset pages (`?after=`, `?before=`: a cursor, 400 when it is not one); a year names its months and a
 * month its days with their counts. Not a real date, before the archive's first year or in the future: 404; a day
 * with nothing: 200 and the empty state.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const period = parseArchivePeriod(params);
  if (!period) notFound();
  const url = new URL(request.url);
  const from = cursorParam(url, ARCHIVE_CURSOR);
  const lang = languageOfRequest(request);
  const db = await getDb();
  const unit = countUnitOf(period);
  const [page, counts] = await Promise.all([
    loadArchivePage(db, period, from, ARCHIVE_PAGE_SIZE),
    unit && !from ? loadArchiveCounts(db, period, unit) : Promise.resolve([]),
  ]);
  // A cursor is only ever made from a row of this period: one that reads nothing was not ours.
  if (from && !page.items.length) throw data({ error: { code: "INVALID_CURSOR", message: "The cursor is not one of this archive page." } }, { status: 400 });
  const name = periodName(period, lang);
  const parent = parentPeriod(period);
  return {
    period,
    unit,
    counts,
    ...page,
    path: archivePath(period),
    parent: parent ? { path: archivePath(parent), name: periodName(parent, lang) } : null,
    title: translate(lang, "archive.pageTitle").replace("{{period}}", name),
    intro: translate(lang, "archive.intro").replace("{{period}}", name),
  };
}

/** A list of links: no React in the browser (decision 0131). */
export const handle: ReadingHandle = { hydrate: false };

export const meta: Route.MetaFunction = ({ data: page, matches, location }) => {
  const tags = sectionMeta(matches, page, location);
  if (!page) return tags;
  const local = location.pathname.slice(0, location.pathname.length - page.path.length);
  const link = (rel: string, query: string) => ({ tagName: "link", rel, href: `${local}${page.path}?${query}` });
  return [...tags, ...(page.prev ? [link("prev", `before=${page.prev}`)] : []), ...(page.next ? [link("next", `after=${page.next}`)] : [])];
};

export default function ArchivePage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const local = useLocalPath();
  const { period, unit, counts, items, next, prev, path, parent } = loaderData;
  const pad = (n: number) => String(n).padStart(2, "0");
  const unitPath = (n: number) => archivePath(unit === "month" ? { year: period.year, month: n } : { year: period.year, month: period.month, day: n });
  const unitName = (n: number) =>
    unit === "month"
      ? formatDate(`${period.year}-${pad(n)}-01T00:00:00Z`, lang, "month")
      : formatCalendarDay(`${period.year}-${pad(period.month ?? 1)}-${pad(n)}`, lang, "date");
  const groups = ARCHIVE_TYPES.map((type) => ({ type, items: items.filter((item) => item.type === type) })).filter((g) => g.items.length);
  return (
    <div data-testid="archive-page" data-period={path}>
      <PageIntro title={loaderData.title} intro={loaderData.intro} testId="archive-intro">
        {parent && (
          <a href={local(parent.path)} className="mt-3 inline-block text-sm font-bold text-desert-700 underline" data-testid="archive-up">
            {t("archive.up", { period: parent.name })}
          </a>
        )}
      </PageIntro>
      <div className="mx-auto max-w-7xl px-4 py-8">
        {unit && counts.length > 0 && (
          <nav aria-labelledby="archive-units" className="mb-8">
            <h2 id="archive-units" className="mb-3 text-xl font-bold">
              {t(unit === "month" ? "archive.months" : "archive.days")}
            </h2>
            <ul className="flex flex-wrap gap-2" data-testid="archive-units">
              {counts.map((c) => (
                <li key={c.unit}>
                  <a
                    href={local(unitPath(c.unit))}
                    className="inline-flex gap-2 rounded-md border border-sand-300 px-3 py-1.5 hover:bg-sand-100"
                    data-testid="archive-unit"
                    data-count={c.count}
                  >
                    <span>{unitName(c.unit)}</span>
                    <span className="text-ink-soft">({formatNumber(lang, c.count)})</span>
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
        {groups.length === 0 ? (
          <EmptyState>{t("archive.empty")}</EmptyState>
        ) : (
          groups.map((group) => (
            <section key={group.type} className="mb-8" aria-labelledby={`archive-${group.type}`} data-testid="archive-group" data-type={group.type}>
              <h2 id={`archive-${group.type}`} className="mb-3 border-s-4 border-desert-600 ps-3 text-2xl font-bold">
                {t(`archive.types.${group.type}`)}
              </h2>
              <ul className="divide-y divide-sand-200">
                {group.items.map((item) => {
                  const title = localized(lang, item.title, item.titleFr);
                  return (
                    <li key={item.id} className="flex flex-wrap items-baseline justify-between gap-2 py-2" data-testid="archive-item">
                      <a href={local(item.url)} className="font-bold hover:underline" {...textProps(lang, title)}>
                        {title}
                      </a>
                      <time dateTime={new Date(item.publishDate).toISOString()} className="text-sm text-ink-soft">
                        {formatDate(item.publishDate, lang, "dateTime")}
                      </time>
                    </li>
                  );
                })}
              </ul>
            </section>
          ))
        )}
        {(prev || next) && (
          <nav aria-label={t("archive.pagination")} className="mt-8 flex justify-between gap-4" data-testid="archive-pager">
            {prev ? (
              <a rel="prev" href={`${local(path)}?before=${prev}`} className="font-bold text-desert-700 underline" data-testid="archive-prev">
                {t("archive.previous")}
              </a>
            ) : (
              <span />
            )}
            {next && (
              <a rel="next" href={`${local(path)}?after=${next}`} className="font-bold text-desert-700 underline" data-testid="archive-next">
                {t("archive.next")}
              </a>
            )}
          </nav>
        )}
      </div>
    </div>
  );
}
