import type { Route } from "./+types/rss-xml";
import { getConfig } from "#server/config.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { listFeedItems } from "#server/content/sitemap.server.ts";
import { feedChannelText, rssXml } from "#server/content/feeds.server.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { xmlFeed } from "#server/http/responses.server.ts";

/**
 * GET /rss.xml, /fr/rss.xml, /en/rss.xml: the latest 30 published news items and articles, newest first (RSS 2.0),
 * in the address's language: its links are that language's addresses, its titles the French ones where written.
 */
export function loader({ request }: Route.LoaderArgs) {
  const lang = languageOfRequest(request);
  return xmlFeed("rss", "application/rss+xml", async () => {
    const config = getConfig();
    const items = await listFeedItems(await getDb(), 30);
    return rssXml({ ...feedChannelText(config, lang), language: lang, publicUrl: config.publicUrl }, items);
  });
}
