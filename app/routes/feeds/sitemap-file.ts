import type { Route } from "./+types/sitemap-file";
import { getConfig } from "#server/config.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { countSitemapEntries, listSitemapEntries, SITEMAP_MAX_URLS, SITEMAP_SECTIONS } from "#server/content/sitemap.server.ts";
import { sitemapFiles, sitemapXml } from "#server/content/feeds.server.ts";
import { xmlFeed } from "#server/http/responses.server.ts";

/** GET /sitemaps/N.xml: file N of the sitemap index (the first also lists the sections); 404 past the last. */
export function loader({ params }: Route.LoaderArgs) {
  const file = /^([1-9]\d{0,5})\.xml$/.exec(params.file)?.[1];
  return xmlFeed("sitemap file", "application/xml", async () => {
    if (!file) return null;
    const db = await getDb();
    const window = sitemapFiles(SITEMAP_SECTIONS.length, await countSitemapEntries(db), SITEMAP_MAX_URLS).itemWindow(Number(file));
    return window ? sitemapXml(getConfig().publicUrl, file === "1" ? SITEMAP_SECTIONS : [], await listSitemapEntries(db, window)) : null;
  });
}
