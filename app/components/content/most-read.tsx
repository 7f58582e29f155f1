import { useTranslation } from "#app/lib/i18n.ts";
import { BlockHeading, RankedItem } from "#app/components/sections/section-ui.tsx";
import type { MostReadLists } from "#server/analytics/top.server.ts";

/**
 * «الأكثر قراءة» of the home and detail pages (issue 45): the items most read on this language's pages in the last
 * 24 hours and in the last 7 days (server/analytics/top.server.ts `mostReadLists`), two lists side by side, rendered
 * by the server: no script, no tab to switch, and one copy of the page for the caches. A list with nothing in it is
 * left out; with neither, the block is.
 */
export function MostReadBlock({ lists, className = "" }: { lists: MostReadLists | null | undefined; className?: string }) {
  const { t } = useTranslation();
  const shown = lists ? (["day", "week"] as const).filter((key) => lists[key].length > 0) : [];
  if (!lists || shown.length === 0) return null;
  return (
    <section aria-labelledby="most-read-block-title" className={`mx-auto px-4 py-8 ${className}`} data-testid="most-read-block">
      <BlockHeading id="most-read-block-title">{t("mostReadBlock.title")}</BlockHeading>
      <div className="grid gap-6 md:grid-cols-2">
        {shown.map((key) => (
          <section
            key={key}
            aria-labelledby={`most-read-${key}-title`}
            className="min-w-0 rounded-xl border border-sand-200 bg-white p-5"
            data-testid={`most-read-${key}`}
          >
            <h3 id={`most-read-${key}-title`} className="mb-4 text-lg font-bold">
              {t(`mostReadBlock.${key}`)}
            </h3>
            <ol className="space-y-4">
              {lists[key].map((item, i) => (
                <RankedItem key={`${item.type}-${item.id}`} rank={i + 1} href={item.url} title={item.title} testId="most-read-block-item" views={item.views}>
                  {null}
                </RankedItem>
              ))}
            </ol>
          </section>
        ))}
      </div>
    </section>
  );
}
