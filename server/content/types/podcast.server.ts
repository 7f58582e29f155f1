/**
 * What podcasts (domain/content-types/podcast.ts) do that other types do not: their feeds. /podcasts/feed.xml
 * carries every published episode with an audio file (the definition's `feed`), and each program with published
 * episodes has a feed of its own, /programs/:slug/feed.xml (issue 32), which the podcasts' admin list announces.
 * The XML itself is written by ../feeds.server.ts; the enclosure's size and type come from the media library row
 * of the audio URL, nothing is fetched from elsewhere.
 */
import { and, desc, eq, isNotNull, ne, sql } from "drizzle-orm";
import podcast from "#domain/content-types/podcast.ts";
import { programFeedPath, publicUrl } from "#domain/content-types/index.ts";
import { localizedPath } from "#domain/addresses.ts";
import type { Language } from "#domain/language.ts";
import { localized } from "#domain/localized.ts";
import { SOCIAL_COVER_IMAGE } from "#domain/social.ts";
import { getConfig } from "#server/config.server.ts";
import type { Database } from "#server/db/client.server.ts";
import { libraryFiles, podcasts, programs } from "#server/db/schema.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { podcastRssXml, type PodcastEpisode } from "../feeds.server.ts";
import { isPublished } from "../published.server.ts";
import type { TypeFeed, TypeHooks } from "./hooks.server.ts";

/** The latest published episodes that have an audio file, newest first: all of them, or one program's. */
export async function listPodcastEpisodes(db: Database, { limit = 300, programId }: { limit?: number; programId?: number } = {}): Promise<PodcastEpisode[]> {
  const rows = await db
    .select({
      slug: podcasts.pageSlug,
      title: podcasts.title,
      titleFr: podcasts.titleFr,
      description: podcasts.description,
      author: sql<string | null>`coalesce(${podcasts.hostName}, ${podcasts.authorName})`,
      episodeNumber: podcasts.episodeNumber,
      season: podcasts.season,
      duration: podcasts.duration,
      imageUrl: podcasts.imageUrl,
      audioUrl: podcasts.audioUrl,
      audioBytes: libraryFiles.bytes,
      audioMime: libraryFiles.mime,
      publishDate: podcasts.publishDate,
    })
    .from(podcasts)
    .leftJoin(libraryFiles, eq(libraryFiles.url, podcasts.audioUrl))
    .where(
      isPublished(
        podcasts,
        and(isNotNull(podcasts.audioUrl), ne(podcasts.audioUrl, "")),
        programId === undefined ? undefined : eq(podcasts.programId, programId),
      ),
    )
    .orderBy(desc(podcasts.publishDate), desc(podcasts.id))
    .limit(limit);
  return rows.map(({ slug, audioUrl, ...r }) => ({ ...r, path: publicUrl("podcast", slug), audioUrl: audioUrl! }));
}

/** The episodes as a feed in `lang` shows them: the French title where written, the episode's address in that language. */
function episodesIn(lang: Language, episodes: readonly (PodcastEpisode & { titleFr?: string | null })[]): PodcastEpisode[] {
  return episodes.map(({ titleFr, ...e }) => ({ ...e, title: localized(lang, e.title, titleFr), path: localizedPath(lang, e.path) }));
}

/** The published programs that have published episodes, by title: each one's podcast feed. */
export async function listProgramFeeds(db: Database): Promise<TypeFeed[]> {
  const rows = await db
    .selectDistinct({ title: programs.title, slug: programs.pageSlug })
    .from(programs)
    .innerJoin(podcasts, eq(podcasts.programId, programs.id))
    .where(and(isPublished(programs), isPublished(podcasts)))
    .orderBy(programs.title);
  return rows.map((r) => ({ title: r.title, path: programFeedPath(r.slug) }));
}

/** The channel of the feed: the site's show, or a published program's (null when the slug names none). */
async function channelOf(db: Database, programSlug: string | undefined, lang: Language) {
  const config = getConfig();
  if (programSlug === undefined) {
    const feed = podcast.feed!;
    return {
      programId: undefined,
      title: `${translate(lang, "podcastFeed.title")} ${lang === "ar" ? config.SITE_NAME : config.SITE_NAME_FR}`,
      description: translate(lang, "podcastFeed.description"),
      path: localizedPath(lang, feed.path),
      link: localizedPath(lang, feed.link),
      // The site has no square JPEG/PNG artwork yet (Apple asks for 1400–3000 px): the cover image stands in.
      image: SOCIAL_COVER_IMAGE,
    };
  }
  const [program] = await db
    .select({
      id: programs.id,
      title: programs.title,
      titleFr: programs.titleFr,
      description: programs.description,
      pageSlug: programs.pageSlug,
      imageUrl: programs.imageUrl,
    })
    .from(programs)
    .where(isPublished(programs, eq(programs.pageSlug, programSlug)))
    .limit(1);
  if (!program) return null;
  return {
    programId: program.id,
    title: translate(lang, "podcastFeed.programTitle").replace("{{program}}", localized(lang, program.title, program.titleFr)),
    description: program.description || translate(lang, "podcastFeed.description"),
    path: localizedPath(lang, programFeedPath(program.pageSlug)),
    link: localizedPath(lang, publicUrl("program", program.pageSlug)),
    image: program.imageUrl || SOCIAL_COVER_IMAGE,
  };
}

/**
 * The podcast feed as RSS 2.0 with the iTunes tags, in `lang` (the address's: /fr/podcasts/feed.xml is French,
 * its links French addresses; the audio is the episodes' own, in Arabic): every episode, or those of the program
 * `programSlug` names; null when that program is not published (or unknown).
 */
export async function podcastFeedXml(db: Database, programSlug?: string, lang: Language = "ar"): Promise<string | null> {
  const channel = await channelOf(db, programSlug, lang);
  if (!channel) return null;
  const { programId, ...show } = channel;
  const episodes = episodesIn(lang, await listPodcastEpisodes(db, { programId }));
  const config = getConfig();
  return podcastRssXml(
    {
      ...show,
      language: lang,
      publicUrl: config.publicUrl,
      author: config.SITE_NAME,
      owner: config.CONTACT_EMAIL ? { name: config.SITE_NAME, email: config.CONTACT_EMAIL } : null,
      category: podcast.feed!.category,
      explicit: false,
    },
    episodes,
  );
}

const hooks: TypeHooks = { feeds: listProgramFeeds };

export default hooks;
