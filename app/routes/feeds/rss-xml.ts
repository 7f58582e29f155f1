import { getConfig } from "../../../server/config.ts";
import { getDb } from "../../../server/db/client.ts";
import { listFeedItems } from "../../../server/content/sitemap.ts";
import { rssXml } from "../../../server/feeds.ts";
import { xmlFeed } from "../../../server/http.ts";

/** GET /rss.xml: the latest 30 published news items and articles, newest first (RSS 2.0). */
export function loader() {
  return xmlFeed("rss", "application/rss+xml", async () => {
    const config = getConfig();
    const items = await listFeedItems(await getDb(), 30);
    return rssXml({ title: config.SITE_NAME, description: config.SITE_DESCRIPTION, language: "ar", publicUrl: config.publicUrl }, items);
  });
}
