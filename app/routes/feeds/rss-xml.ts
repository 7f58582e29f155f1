import { getConfig } from "#server/config.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { listFeedItems } from "#server/content/sitemap.server.ts";
import { rssXml } from "#server/content/feeds.server.ts";
import { xmlFeed } from "#server/http/responses.server.ts";

/** GET /rss.xml: the latest 30 published news items and articles, newest first (RSS 2.0). */
export function loader() {
  return xmlFeed("rss", "application/rss+xml", async () => {
    const config = getConfig();
    const items = await listFeedItems(await getDb(), 30);
    return rssXml({ title: config.SITE_NAME, description: config.SITE_DESCRIPTION, language: "ar", publicUrl: config.publicUrl }, items);
  });
}
