import { getConfig } from "#server/config.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { countSitemapEntries, listSitemapEntries, SITEMAP_MAX_URLS, SITEMAP_SECTIONS } from "#server/content/sitemap.server.ts";
import { sitemapFiles, sitemapIndexXml, sitemapXml } from "#server/content/feeds.server.ts";
import { xmlFeed } from "#server/http/responses.server.ts";

/**
 * GET /sitemap.xml: the sections and every published news item, article, program, podcast and coverage in
 * one file; past 50,000 URLs, a sitemap index of /sitemaps/N.xml files instead.
 */
export function loader() {
  return xmlFeed("sitemap", "application/xml", async () => {
    const db = await getDb();
    const { publicUrl } = getConfig();
    const { files } = sitemapFiles(SITEMAP_SECTIONS.length, await countSitemapEntries(db), SITEMAP_MAX_URLS);
    return files === 1 ? sitemapXml(publicUrl, SITEMAP_SECTIONS, await listSitemapEntries(db)) : sitemapIndexXml(publicUrl, files);
  });
}
