import type { Route } from "./+types/sitemap-file";
import { getConfig } from "#server/config.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { countSitemapEntries, listNewsSitemapItems, listSitemapEntries, SITEMAP_PAGES_PER_FILE, SITEMAP_SECTIONS } from "#server/content/sitemap.server.ts";
import { newsSitemapXml, siteNameIn, sitemapFiles, sitemapXml } from "#server/content/feeds.server.ts";
import { xmlFeed } from "#server/http/responses.server.ts";
import { LANGUAGES } from "#domain/language.ts";

/**
 * GET /sitemaps/N.xml: file N of the sitemap index (the first also lists the sections); 404 past the last.
 * GET /sitemaps/news.xml: the Google News sitemap, the news-like items of the last 48 hours.
 */
export function loader({ params }: Route.LoaderArgs) {
  if (params.file === "news.xml") {
    return xmlFeed("news sitemap", "application/xml", async () => {
      const config = getConfig();
      const names = Object.fromEntries(LANGUAGES.map((lang) => [lang, siteNameIn(config, lang)])) as Record<(typeof LANGUAGES)[number], string>;
      return newsSitemapXml(config.publicUrl, names, await listNewsSitemapItems(await getDb()));
    });
  }
  const file = /^([1-9]\d{0,5})\.xml$/.exec(params.file)?.[1];
  return xmlFeed("sitemap file", "application/xml", async () => {
    if (!file) return null;
    const db = await getDb();
    const window = sitemapFiles(SITEMAP_SECTIONS.length, await countSitemapEntries(db), SITEMAP_PAGES_PER_FILE).itemWindow(Number(file));
    return window ? sitemapXml(getConfig().publicUrl, file === "1" ? SITEMAP_SECTIONS : [], await listSitemapEntries(db, window)) : null;
  });
}
