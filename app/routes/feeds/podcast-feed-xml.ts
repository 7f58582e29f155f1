import { getConfig } from "#server/config.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { listPodcastEpisodes } from "#server/content/sitemap.server.ts";
import { podcastRssXml } from "#server/content/feeds.server.ts";
import { xmlFeed } from "#server/http/responses.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import podcast from "#domain/content-types/podcast.ts";
import { SOCIAL_COVER_IMAGE } from "#domain/social.ts";

/**
 * GET /podcasts/feed.xml: every published podcast episode with an audio file, newest first, as RSS 2.0 with the
 * iTunes tags Apple Podcasts and Spotify read (docs/api.md "Feeds"). In Arabic, the episodes' language.
 */
export function loader() {
  const feed = podcast.feed!;
  return xmlFeed("podcast feed", "application/rss+xml", async () => {
    const config = getConfig();
    const episodes = await listPodcastEpisodes(await getDb());
    return podcastRssXml(
      {
        title: `${translate("ar", "podcastFeed.title")} ${config.SITE_NAME}`,
        description: translate("ar", "podcastFeed.description"),
        language: "ar",
        publicUrl: config.publicUrl,
        path: feed.path,
        link: feed.link,
        author: config.SITE_NAME,
        owner: config.CONTACT_EMAIL ? { name: config.SITE_NAME, email: config.CONTACT_EMAIL } : null,
        // The site has no square JPEG/PNG artwork yet (Apple asks for 1400–3000 px): the cover image stands in.
        image: SOCIAL_COVER_IMAGE,
        category: feed.category,
        explicit: false,
      },
      episodes,
    );
  });
}
