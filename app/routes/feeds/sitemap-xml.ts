import { getDb } from "#server/db/client.server.ts";
import { getConfig } from "#server/config.server.ts";
import { countSitemapEntries, SITEMAP_PAGES_PER_FILE, SITEMAP_SECTIONS } from "#server/content/sitemap.server.ts";
import { sitemapFiles, sitemapIndexXml } from "#server/content/feeds.server.ts";
import { xmlFeed } from "#server/http/responses.server.ts";

/**
 * GET /sitemap.xml: the sitemap index, one set for all languages: the files of pages (/sitemaps/N.xml: the
 * sections, then every published item, author and tag page, each in its languages with hreflang alternates) and
 * the Google News sitemap (/sitemaps/news.xml).
 */
export function loader() {
  return xmlFeed("sitemap", "application/xml", async () => {
    const { files } = sitemapFiles(SITEMAP_SECTIONS.length, await countSitemapEntries(await getDb()), SITEMAP_PAGES_PER_FILE);
    return sitemapIndexXml(getConfig().publicUrl, files);
  });
}
