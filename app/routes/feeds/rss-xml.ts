import { getConfig } from "../../../server/config.ts";
import { getDb } from "../../../server/db/client.ts";
import { listFeedItems } from "../../../server/content/sitemap.ts";
import { rssXml } from "../../../server/feeds.ts";

/** GET /rss.xml: the latest 30 published news items and articles, newest first (RSS 2.0). */
export async function loader() {
  const config = getConfig();
  const items = await listFeedItems(await getDb(), 30);
  const xml = rssXml({ title: config.SITE_NAME, description: config.SITE_DESCRIPTION, language: "ar", publicUrl: config.publicUrl }, items);
  return new Response(xml, { headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "public, max-age=300" } });
}
