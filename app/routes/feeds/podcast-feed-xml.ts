import type { Route } from "./+types/podcast-feed-xml";
import { getConfig } from "#server/config.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { findPublishedItem } from "#server/content/detail.server.ts";
import { listPodcastEpisodes } from "#server/content/sitemap.server.ts";
import { podcastRssXml } from "#server/content/feeds.server.ts";
import { xmlFeed } from "#server/http/responses.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import podcast from "#domain/content-types/podcast.ts";
import { programFeedPath, publicUrl } from "#domain/content-types/index.ts";
import { SOCIAL_COVER_IMAGE } from "#domain/social.ts";

/**
 * GET /podcasts/feed.xml: every published podcast episode with an audio file, newest first, as RSS 2.0 with the
 * iTunes tags Apple Podcasts and Spotify read (docs/api.md "Feeds"). In Arabic, the episodes' language.
 * GET /programs/:slug/feed.xml: the same for one program's episodes, the program's title, description and
 * picture as the show's; a program that is not published (or unknown) is a 404.
 */
export function loader({ params }: Route.LoaderArgs) {
  const feed = podcast.feed!;
  const slug = params.slug;
  return xmlFeed(slug === undefined ? "podcast feed" : "program podcast feed", "application/rss+xml", async () => {
    const config = getConfig();
    const db = await getDb();
    const program = slug === undefined ? null : await findPublishedItem(db, "program", { slug });
    if (slug !== undefined && !program) return null;
    const episodes = await listPodcastEpisodes(db, { programId: program?.id });
    const show = program
      ? {
          title: translate("ar", "podcastFeed.programTitle").replace("{{program}}", program.title),
          description: String(program.description ?? "") || translate("ar", "podcastFeed.description"),
          path: programFeedPath(program.pageSlug),
          link: publicUrl("program", program.pageSlug),
          image: (typeof program.imageUrl === "string" && program.imageUrl) || SOCIAL_COVER_IMAGE,
        }
      : {
          title: `${translate("ar", "podcastFeed.title")} ${config.SITE_NAME}`,
          description: translate("ar", "podcastFeed.description"),
          path: feed.path,
          link: feed.link,
          // The site has no square JPEG/PNG artwork yet (Apple asks for 1400–3000 px): the cover image stands in.
          image: SOCIAL_COVER_IMAGE,
        };
    return podcastRssXml(
      {
        ...show,
        language: "ar",
        publicUrl: config.publicUrl,
        author: config.SITE_NAME,
        owner: config.CONTACT_EMAIL ? { name: config.SITE_NAME, email: config.CONTACT_EMAIL } : null,
        category: feed.category,
        explicit: false,
      },
      episodes,
    );
  });
}
