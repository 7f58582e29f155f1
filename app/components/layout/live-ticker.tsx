import { useRouteLoaderData } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { RootLoaderData } from "#app/lib/root-data.ts";
import { useLocalPath } from "#app/lib/addresses.ts";
import { useStaticPage } from "#app/lib/static-page.ts";
import type { TickerItem } from "#domain/live.ts";
import { LANGUAGE_PREFIX } from "#domain/addresses.ts";
import type { Language } from "#domain/language.ts";
// no-inline: a script this small would become a data: URL, which the CSP (script-src 'self') refuses.
import tickerScript from "#app/enhance/ticker.js?url&no-inline";

/**
 * The header's ticker (issue 44): the coverages live now, then the breaking items of the last hours, one line
 * under the header's bar, in the server's HTML. Only a page whose ticker has items has the bar and its script
 * (app/enhance/ticker.js), which refreshes the items in place: the bar's height is fixed and the script never adds
 * or removes it, so nothing under it moves.
 */
export function LiveTicker({ lang }: { lang: Language }) {
  const items: readonly TickerItem[] = useRouteLoaderData<RootLoaderData>("root")?.ticker ?? [];
  const { t } = useTranslation();
  const local = useLocalPath();
  const staticPage = useStaticPage();
  if (!items.length) return null;
  return (
    <div className="border-t border-sand-200 bg-white" data-testid="live-ticker">
      {/* A region, not a <nav>: the speculation rules prefetch the links of nav elements, and these lead to stories. */}
      <section aria-label={t("live.tickerLabel")} className="mx-auto flex h-10 max-w-7xl items-center px-4">
        {/* One item at a time, whole: a strip scrolled sideways would cut its links off at the edge of a phone. The
            others are a press of "next" away (ticker.js shows the button when there are several). */}
        <ul
          className="flex min-w-0 flex-1 items-center text-sm"
          data-ticker-src={`${LANGUAGE_PREFIX[lang]}/live.json`}
          data-label-live={t("live.badge")}
          data-label-breaking={t("live.breaking")}
        >
          {items.map((item, i) => (
            <li key={item.url} className="flex min-w-0 items-center gap-2" data-testid="live-ticker-item" data-kind={item.kind} hidden={i > 0}>
              <span className={`shrink-0 rounded px-1.5 py-0.5 text-xs font-bold text-white ${item.kind === "live" ? "bg-red-700" : "bg-ink"}`}>
                {item.kind === "live" ? t("live.badge") : t("live.breaking")}
              </span>
              <a href={local(item.url)} className="block min-w-0 truncate font-bold text-ink hover:text-desert-700 hover:underline">
                {item.title}
              </a>
            </li>
          ))}
        </ul>
        <button
          type="button"
          data-ticker-next=""
          data-testid="live-ticker-next"
          aria-label={t("live.tickerNext")}
          className="ms-2 inline-flex h-8 min-w-8 shrink-0 items-center justify-center rounded-md border border-sand-300 font-bold text-ink hover:bg-sand-100"
          hidden
        >
          <span aria-hidden="true" className="rtl:-scale-x-100">
            ›
          </span>
        </button>
      </section>
      {/* The page's own enhancement (the static document's): keeps the items current while the tab is visible. */}
      {staticPage && <script type="module" src={tickerScript} />}
    </div>
  );
}
