import type { Route } from "./+types/tag-feed-xml";
import { getConfig } from "#server/config.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { feedChannelText, rssXml } from "#server/content/feeds.server.ts";
import { listTagFeedItems, tagBySlug } from "#server/content/tags.server.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { xmlFeed } from "#server/http/responses.server.ts";
import { tagFeedPath, tagPath } from "#domain/tags.ts";

/**
 * GET /tags/:slug/feed.xml (and its /fr, /en twins): the latest 30 published items of every type on a tag, newest
 * first (RSS 2.0, the tag as each item's category), links in the address's language. An unknown tag (or one merged
 * away) is a 404.
 */
export function loader({ params, request }: Route.LoaderArgs) {
  const lang = languageOfRequest(request);
  return xmlFeed("tag feed", "application/rss+xml", async () => {
    const db = await getDb();
    const tag = await tagBySlug(db, params.slug ?? "");
    if (!tag) return null;
    const config = getConfig();
    const items = await listTagFeedItems(db, tag, 30);
    const site = feedChannelText(config, lang);
    return rssXml(
      {
        title: `${site.title} — ${tag.name}`,
        description: site.description,
        language: lang,
        publicUrl: config.publicUrl,
        path: tagFeedPath(tag.slug),
        link: tagPath(tag.slug),
      },
      items,
    );
  });
}
