import type { Route } from "./+types/podcast-feed-xml";
import { getDb } from "#server/db/client.server.ts";
import { podcastFeedXml } from "#server/content/types/podcast.server.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { xmlFeed } from "#server/http/responses.server.ts";

/**
 * GET /podcasts/feed.xml: every published podcast episode with an audio file, newest first, as RSS 2.0 with the
 * iTunes tags Apple Podcasts and Spotify read (docs/api.md "Feeds"); /fr/… and /en/… are the same feed in French
 * and English (channel text, titles and links in that language).
 * GET /programs/:slug/feed.xml: the same for one program's episodes, the program's title, description and
 * picture as the show's; a program that is not published (or unknown) is a 404. The podcasts' hooks write both.
 */
export function loader({ params, request }: Route.LoaderArgs) {
  const slug = params.slug;
  const lang = languageOfRequest(request);
  return xmlFeed(slug === undefined ? "podcast feed" : "program podcast feed", "application/rss+xml", async () => podcastFeedXml(await getDb(), slug, lang));
}
