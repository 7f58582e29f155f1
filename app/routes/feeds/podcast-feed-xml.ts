import type { Route } from "./+types/podcast-feed-xml";
import { getDb } from "#server/db/client.server.ts";
import { podcastFeedXml } from "#server/content/types/podcast.server.ts";
import { xmlFeed } from "#server/http/responses.server.ts";

/**
 * GET /podcasts/feed.xml: every published podcast episode with an audio file, newest first, as RSS 2.0 with the
 * iTunes tags Apple Podcasts and Spotify read (docs/api.md "Feeds"). In Arabic, the episodes' language.
 * GET /programs/:slug/feed.xml: the same for one program's episodes, the program's title, description and
 * picture as the show's; a program that is not published (or unknown) is a 404. The podcasts' hooks write both.
 */
export function loader({ params }: Route.LoaderArgs) {
  const slug = params.slug;
  return xmlFeed(slug === undefined ? "podcast feed" : "program podcast feed", "application/rss+xml", async () => podcastFeedXml(await getDb(), slug));
}
