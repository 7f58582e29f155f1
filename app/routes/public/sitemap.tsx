import { useLocalPath } from "#app/lib/addresses.ts";
import { Link } from "#app/lib/link.tsx";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/sitemap";
import { cardIsLive, LiveBadge } from "#app/components/content/live/live-entry.tsx";
import { FOOTER_LINKS, MORE_SECTIONS, NAV_ITEMS } from "#domain/navigation.ts";
import { publicUrl } from "#domain/content-types/index.ts";
import { formatDate, isoDate } from "#domain/format.ts";
import { localized } from "#domain/localized.ts";
import type { Language } from "#domain/language.ts";
import { robotsMeta, rootData } from "#app/lib/seo.ts";
import { translationsOf } from "#app/lib/root-data.ts";
import { getDb } from "#server/db/client.server.ts";
import { listPublishedNews } from "#server/content/news.server.ts";
import { listPublishedArticles } from "#server/content/articles.server.ts";
import { listPublishedCoverage } from "#server/content/programs.server.ts";
import type { ReadingHandle } from "#app/lib/static-page.ts";

/** /sitemap: every section of the site, the latest 10 news items and articles, and the coverage of events, for people. */

/** A page of links: no React in the browser (app/lib/static-page.ts). */
export const handle: ReadingHandle = { hydrate: false };

export async function loader(_: Route.LoaderArgs) {
  const db = await getDb();
  const [news, articles, coverage] = await Promise.all([
    listPublishedNews(db, { limit: 10 }),
    listPublishedArticles(db, { limit: 10 }),
    listPublishedCoverage(db, 20),
  ]);
  return { news, articles, coverage };
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = rootData(matches);
  const lang = root?.lang ?? "ar";
  const translations = translationsOf(root) as { footer?: { sitemap?: string } };
  const siteName = (lang === "ar" ? root?.site.siteName : root?.site.siteNameFr) ?? "";
  const title = translations?.footer?.sitemap ?? "";
  return [{ title: siteName ? `${title} | ${siteName}` : title }, robotsMeta()];
};

type Item = { id: number; href: string; title: string; date: Date | string; live?: boolean };

function LatestList({ title, items, testId }: { title: string; items: Item[]; testId: string }) {
  const { t, i18n } = useTranslation();
  const local = useLocalPath();
  const lang = i18n.language as Language;
  return (
    <section data-testid={testId}>
      <h2 className="mb-3 border-s-4 border-desert-600 ps-3 text-xl font-bold">{title}</h2>
      {items.length === 0 ? (
        <p className="text-ink-soft">{t("sitemapPage.empty")}</p>
      ) : (
        <ul className="space-y-2">
          {items.map((item) => (
            <li key={item.id} className="flex flex-col">
              {/* A coverage live now (issue 44). */}
              {item.live && <LiveBadge className="mb-1 self-start" />}
              <Link to={local(item.href)} className="font-bold text-ink hover:text-desert-700 hover:underline">
                {item.title}
              </Link>
              <time dateTime={isoDate(item.date)} className="text-sm text-ink-soft">
                {formatDate(item.date, lang)}
              </time>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function SitemapPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const local = useLocalPath();
  const lang = i18n.language as Language;
  const linkClass = "text-desert-700 hover:underline";
  return (
    <div className="mx-auto max-w-5xl px-4 py-10" data-testid="sitemap-page">
      <h1 className="text-3xl font-bold">{t("footer.sitemap")}</h1>
      <p className="mt-2 text-ink-soft">{t("sitemapPage.intro")}</p>

      <div className="mt-8 grid gap-8 sm:grid-cols-2">
        <section data-testid="sitemap-sections">
          <h2 className="mb-3 border-s-4 border-desert-600 ps-3 text-xl font-bold">{t("sitemapPage.sections")}</h2>
          <ul className="grid grid-cols-2 gap-2">
            {[...NAV_ITEMS, ...MORE_SECTIONS].map((item) => (
              <li key={item.to}>
                <Link to={local(item.to)} className={linkClass}>
                  {t(item.label)}
                </Link>
              </li>
            ))}
          </ul>
        </section>
        <section>
          <h2 className="mb-3 border-s-4 border-desert-600 ps-3 text-xl font-bold">{t("footer.legal")}</h2>
          <ul className="space-y-2">
            {FOOTER_LINKS.legal.map((l) => (
              <li key={l.to}>
                <Link to={local(l.to)} className={linkClass}>
                  {t(l.label)}
                </Link>
              </li>
            ))}
          </ul>
          <h2 className="mb-3 mt-6 border-s-4 border-desert-600 ps-3 text-xl font-bold">{t("sitemapPage.feeds")}</h2>
          <ul className="space-y-2">
            <li>
              <a href={local("/rss.xml")} className={linkClass}>
                {t("sitemapPage.rss")}
              </a>
            </li>
            <li>
              <a href="/sitemap.xml" className={linkClass}>
                {t("sitemapPage.xmlSitemap")}
              </a>
            </li>
          </ul>
        </section>
        <LatestList
          title={t("sitemapPage.latestNews")}
          testId="sitemap-news"
          items={loaderData.news.map((n) => ({
            id: n.id,
            href: publicUrl("news", n.pageSlug, n.id),
            title: localized(lang, n.title, n.titleFr),
            date: n.publishDate,
          }))}
        />
        <LatestList
          title={t("sitemapPage.latestArticles")}
          testId="sitemap-articles"
          items={loaderData.articles.map((a) => ({
            id: a.id,
            href: publicUrl("article", a.pageSlug, a.id),
            title: localized(lang, a.title, a.titleFr),
            date: a.publishDate,
          }))}
        />
        <LatestList
          title={t("sitemapPage.coverage")}
          testId="sitemap-coverage"
          items={loaderData.coverage.map((c) => ({
            id: c.id,
            href: publicUrl("coverage", c.pageSlug, c.id),
            title: localized(lang, c.title, c.titleFr),
            date: c.publishDate,
            live: cardIsLive(c),
          }))}
        />
      </div>
    </div>
  );
}
