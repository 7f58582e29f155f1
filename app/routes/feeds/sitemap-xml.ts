import type { Route } from "./+types/sitemap-xml";
import { FOOTER_LINKS, NAV_ITEMS } from "~/lib/navigation.ts";
import { getConfig } from "../../../server/config.ts";
import { getDb } from "../../../server/db/client.ts";
import { listSitemapEntries, SITEMAP_MAX_URLS } from "../../../server/content/sitemap.ts";
import { sitemapXml } from "../../../server/feeds.ts";

/** The section pages every sitemap lists, before the items. */
const SITEMAP_SECTIONS = [...NAV_ITEMS.map((i) => i.to), ...FOOTER_LINKS.legal.map((l) => l.to)];

/** GET /sitemap.xml: the sections and every published news item, article, program, podcast and coverage. */
export async function loader(_: Route.LoaderArgs) {
  const entries = await listSitemapEntries(await getDb());
  const xml = sitemapXml(getConfig().publicUrl, SITEMAP_SECTIONS, entries.slice(0, SITEMAP_MAX_URLS - SITEMAP_SECTIONS.length));
  return new Response(xml, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=300" } });
}
