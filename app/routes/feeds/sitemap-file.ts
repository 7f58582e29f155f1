import type { Route } from "./+types/sitemap-file";
import { getConfig } from "../../../server/config.ts";
import { getDb } from "../../../server/db/client.ts";
import { countSitemapEntries, listSitemapEntries, SITEMAP_MAX_URLS, SITEMAP_SECTIONS } from "../../../server/content/sitemap.ts";
import { sitemapFiles, sitemapXml } from "../../../server/feeds.ts";

/** GET /sitemaps/N.xml: file N of the sitemap index (the first also lists the sections); 404 past the last. */
export async function loader({ params }: Route.LoaderArgs) {
  const file = /^([1-9]\d{0,5})\.xml$/.exec(params.file)?.[1];
  const db = await getDb();
  const window = file ? sitemapFiles(SITEMAP_SECTIONS.length, await countSitemapEntries(db), SITEMAP_MAX_URLS).itemWindow(Number(file)) : null;
  if (!window) return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const xml = sitemapXml(getConfig().publicUrl, file === "1" ? SITEMAP_SECTIONS : [], await listSitemapEntries(db, window));
  return new Response(xml, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=300" } });
}
