/**
 * The demo items of each content type (server/db/seed.server.ts runs them in its one transaction): one function a
 * type, each building its rows from the hand-written data (./seed-data/) and inserting them by slug with ON CONFLICT
 * DO NOTHING. The media items also fill the local video library.
 */
import fs from "node:fs";
import type { ContentType } from "#domain/content-types/index.ts";
import type { Database } from "./client.server.ts";
import { articles, coverages, media, news, podcasts, programs, videos } from "./schema.server.ts";
import { layOutDemoVideo, type DemoAssets, type DemoClip } from "./demo-assets.server.ts";
import { deterministicUuid } from "./demo-drawing.server.ts";
import { AUTHORS } from "./seed-data/authors.ts";
import { CULTURE_ARTICLES } from "./seed-data/articles-culture.ts";
import { POLITICS_ARTICLES } from "./seed-data/articles-politics.ts";
import { LITERATURE_ARTICLES } from "./seed-data/articles-literature.ts";
import { EMIRATES_ARTICLES } from "./seed-data/articles-emirates.ts";
import { OPINION_ARTICLES } from "./seed-data/articles-opinion.ts";
import { NEWS } from "./seed-data/news.ts";
import { PROGRAMS } from "./seed-data/programs.ts";
import { PODCASTS } from "./seed-data/podcasts.ts";
import { COVERAGES } from "./seed-data/coverages.ts";
import { MEDIA } from "./seed-data/media.ts";
import type { ArticleSeed } from "./seed-data/types.ts";

export const DEMO_ARTICLES: ArticleSeed[] = [...CULTURE_ARTICLES, ...POLITICS_ARTICLES, ...LITERATURE_ARTICLES, ...EMIRATES_ARTICLES, ...OPINION_ARTICLES];

/** The database or an open transaction on it: the seeders run inside the seed's one transaction. */
export type Db = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];

/** What every type's seeder reads: the run's clock, view counts, the demo files and the categories' ids. */
export type SeedContext = {
  /** An item's date: `hoursAgo` before the run's clock, or a spread fixed by its table and slug. */
  at: (table: string, slug: string, hoursAgo?: number) => Date;
  views: (table: string, slug: string, draft?: boolean) => number;
  assets: DemoAssets;
  categoryId: (slug: string) => number;
  /** The local video library's files of each demo video, by guid (none without a videos folder). */
  libraryFiles: Map<string, DemoClip>;
};

const HOUR = 3_600_000;

/** Two generated sound files cover every podcast and audio item; the notes only make them distinguishable. */
const AUDIO_NOTES = {
  "podcast-intro": [262, 330, 392, 523],
  "tidinit-motif": [196, 233, 262, 294, 349, 392],
} as const;

/** The articles of every section; a video article plays the sample video. */
async function seedArticles(tx: Db, { at, views, assets, categoryId }: SeedContext): Promise<number> {
  return insertCount(
    tx
      .insert(articles)
      .values(
        DEMO_ARTICLES.map((a) => {
          const date = at("articles", a.slug, a.hoursAgo);
          const content = a.body.join(a.verse ? "\n" : "\n\n");
          const author = AUTHORS[a.author];
          return {
            title: a.title,
            titleFr: a.titleFr ?? null,
            content,
            excerpt: a.excerpt,
            excerptFr: a.excerptFr ?? null,
            categoryId: categoryId(a.category),
            authorName: author.name,
            authorNameFr: author.nameFr,
            authorBio: author.bio,
            imageUrl: assets.image("articles", a.slug, a.video ? "play" : "none"),
            isFeatured: !a.draft && !!a.featured,
            viewCount: a.views ?? views("articles", a.slug, a.draft),
            region: a.region ?? null,
            isTrending: !!a.trending,
            contentType: a.video ? ("video" as const) : ("article" as const),
            videoUrl: a.video ? assets.videoUrl : null,
            readTimeMinutes: readTime(content),
            ...rowState(a.slug, date, a.draft),
          };
        }),
      )
      .onConflictDoNothing({ target: articles.pageSlug })
      .returning({ id: articles.id }),
  );
}

/** The news items. */
async function seedNews(tx: Db, { at, assets, categoryId }: SeedContext): Promise<number> {
  return insertCount(
    tx
      .insert(news)
      .values(
        NEWS.map((n) => ({
          title: n.title,
          titleFr: n.titleFr ?? null,
          content: n.body.join("\n\n"),
          excerpt: n.excerpt,
          excerptFr: n.excerptFr ?? null,
          categoryId: categoryId(n.category),
          priority: n.priority,
          location: n.location,
          authorName: AUTHORS[n.author].name,
          imageUrl: assets.image("news", n.slug),
          ...rowState(n.slug, at("news", n.slug, n.hoursAgo), n.draft),
        })),
      )
      .onConflictDoNothing({ target: news.pageSlug })
      .returning({ id: news.id }),
  );
}

/** The programs, with captions and transcripts where the data has them. */
async function seedPrograms(tx: Db, { at, assets }: SeedContext): Promise<number> {
  return insertCount(
    tx
      .insert(programs)
      .values(
        PROGRAMS.map((p) => {
          const date = at("programs", p.slug, p.hoursAgo);
          return {
            title: p.title,
            titleFr: p.titleFr ?? null,
            description: p.description,
            content: p.body.join("\n\n"),
            programType: p.type,
            episodeNumber: p.episode,
            season: p.season ?? "1",
            hostName: p.host,
            guestName: p.guest ?? null,
            duration: p.duration,
            airDate: isoDay(date),
            videoUrl: assets.videoUrl,
            captionsUrl: assets.videoUrl && p.captions ? assets.captions(p.slug, p.captions) : null,
            transcript: p.transcript?.join("\n\n") ?? null,
            imageUrl: assets.image("programs", p.slug, "play"),
            authorName: AUTHORS[p.author].name,
            ...rowState(p.slug, date, p.draft),
          };
        }),
      )
      .onConflictDoNothing({ target: programs.pageSlug })
      .returning({ id: programs.id }),
  );
}

/** The podcast episodes, each playing one of the two generated sound files. */
async function seedPodcasts(tx: Db, { at, assets }: SeedContext): Promise<number> {
  return insertCount(
    tx
      .insert(podcasts)
      .values(
        PODCASTS.map((p) => ({
          title: p.title,
          titleFr: p.titleFr ?? null,
          description: p.description,
          content: p.body.join("\n\n"),
          episodeNumber: p.episode,
          season: p.season,
          duration: p.duration,
          hostName: p.host,
          guestName: p.guest ?? null,
          audioUrl: assets.audio(p.audio, [...AUDIO_NOTES[p.audio]]),
          transcript: p.transcript?.join("\n\n") ?? null,
          imageUrl: assets.image("podcasts", p.slug, "wave"),
          authorName: AUTHORS[p.author].name,
          ...rowState(p.slug, at("podcasts", p.slug, p.hoursAgo), p.draft),
        })),
      )
      .onConflictDoNothing({ target: podcasts.pageSlug })
      .returning({ id: podcasts.id }),
  );
}

/** The coverage of events. */
async function seedCoverages(tx: Db, { at, assets }: SeedContext): Promise<number> {
  return insertCount(
    tx
      .insert(coverages)
      .values(
        COVERAGES.map((c) => {
          const date = at("coverages", c.slug, c.hoursAgo);
          return {
            title: c.title,
            titleFr: c.titleFr ?? null,
            excerpt: c.excerpt,
            content: c.body.join("\n\n"),
            coverageType: c.type,
            eventLocation: c.location,
            eventDate: isoDay(new Date(date.getTime() - c.eventDaysBefore * 24 * HOUR)),
            reporterName: c.reporter,
            authorName: AUTHORS[c.author].name,
            imageUrl: assets.image("coverages", c.slug, c.video ? "play" : "none"),
            videoUrl: c.video ? assets.videoUrl : null,
            ...rowState(c.slug, date, c.draft),
          };
        }),
      )
      .onConflictDoNothing({ target: coverages.pageSlug })
      .returning({ id: coverages.id }),
  );
}

/** The media items' rows (the same on every call: one clock, files written once). */
function mediaRowsOf({ at, views, assets, categoryId }: SeedContext) {
  return MEDIA.map((m) => {
    const files = mediaFiles(assets, m);
    return {
      title: m.title,
      titleFr: m.titleFr ?? null,
      description: m.description,
      mediaType: m.type,
      fileUrl: files.fileUrl,
      thumbnailUrl: files.thumbnailUrl,
      imageUrl: files.thumbnailUrl,
      authorName: AUTHORS[m.author].name,
      isFeatured: !!m.featured,
      viewCount: m.views ?? views("media", m.slug, m.draft),
      durationSeconds: m.durationSeconds ?? null,
      categoryId: categoryId(m.category),
      region: m.region ?? null,
      isTrending: !!m.trending,
      ...rowState(m.slug, at("media", m.slug, m.hoursAgo), m.draft),
    };
  });
}

/** The media items. */
async function seedMedia(tx: Db, ctx: SeedContext): Promise<number> {
  return insertCount(tx.insert(media).values(mediaRowsOf(ctx)).onConflictDoNothing({ target: media.pageSlug }).returning({ id: media.id }));
}

/**
 * The local video library's rows of the demo media videos.
 */
export async function seedDemoVideos(tx: Db, ctx: SeedContext): Promise<number> {
  const { assets, libraryFiles } = ctx;
  // The local video library lists these; status 4 (ready) only when there is a file to play, 5 (failed)
  // otherwise, so the back-office's Play button is never enabled for nothing. A video with files of its
  // own has its clip's true length and its thumbnail; the others play the sample.
  const videoRows = mediaRowsOf(ctx)
    .filter((m) => m.mediaType === "video")
    .map((m) => {
      const guid = deterministicUuid(m.pageSlug);
      const clip = libraryFiles.get(guid);
      return {
        guid,
        title: m.title,
        description: m.description,
        status: clip || assets.videoUrl ? 4 : 5,
        lengthSeconds: clip ? clip.seconds : (m.durationSeconds ?? 0),
        thumbnailFileName: clip ? "thumbnail.jpg" : null,
        views: m.viewCount,
        isDemo: true,
        dateUploaded: m.publishDate,
        updatedAt: m.publishDate,
      };
    });
  return insertCount(tx.insert(videos).values(videoRows).onConflictDoNothing({ target: videos.guid }).returning({ guid: videos.guid }));
}

/**
 * The demo items' seeders by type, in the order they are written; each returns how many rows it added. A type
 * without demo items has none here.
 */
export const DEMO_ITEMS: Readonly<Partial<Record<ContentType, (tx: Db, ctx: SeedContext) => Promise<number>>>> = {
  article: seedArticles,
  news: seedNews,
  program: seedPrograms,
  podcast: seedPodcasts,
  coverage: seedCoverages,
  media: seedMedia,
};

export async function insertCount(q: Promise<unknown[]>): Promise<number> {
  return (await q).length;
}

/** The demo media videos' ids, in the order of the data: the demo video library. */
export const DEMO_VIDEO_GUIDS = MEDIA.filter((m) => m.type === "video").map((m) => deterministicUuid(m.slug));

/**
 * Gives each demo video files of its own in the local library's folder, the clips taken in turn (so the
 * lengths vary along the list). Returns the clip each laid-out video plays.
 */
export function layOutDemoLibrary(videosDir: string, clips: DemoClip[], log: (msg: string) => void): Map<string, DemoClip> {
  const out = new Map<string, DemoClip>();
  if (!clips.length) return out;
  fs.mkdirSync(videosDir, { recursive: true });
  DEMO_VIDEO_GUIDS.forEach((guid, i) => {
    const clip = clips[i % clips.length];
    // The k-th video of a clip shows the clip's k-th thumbnail: each its own picture.
    if (layOutDemoVideo(videosDir, guid, clip, Math.floor(i / clips.length) + 1)) out.set(guid, clip);
  });
  log(`demo videos with files of their own: ${out.size} under ${videosDir}`);
  return out;
}

/** Status, slug, dates and the demo flag, the same for every content table. */
function rowState(slug: string, date: Date, draft?: boolean) {
  return {
    status: draft ? ("draft" as const) : ("published" as const),
    pageSlug: slug,
    publishDate: date,
    createdAt: date,
    updatedAt: date,
    isDemo: true,
  };
}

function mediaFiles(assets: DemoAssets, m: (typeof MEDIA)[number]): { fileUrl: string | null; thumbnailUrl: string } {
  switch (m.type) {
    case "video":
      return { fileUrl: assets.videoUrl, thumbnailUrl: assets.image("media", m.slug, "play") };
    case "audio": {
      const name = m.category === "music" || m.category === "poetry" ? "tidinit-motif" : "podcast-intro";
      return { fileUrl: assets.audio(name, [...AUDIO_NOTES[name]]), thumbnailUrl: assets.image("media", m.slug, "wave") };
    }
    case "image": {
      const url = assets.image("media", m.slug);
      return { fileUrl: url, thumbnailUrl: url };
    }
    case "document":
      return {
        fileUrl: assets.document(m.slug, m.titleFr ?? m.slug, m.pdfText ?? []),
        thumbnailUrl: assets.image("media", m.slug, "doc"),
      };
  }
}

/** Minutes at ~140 words a minute (measured silent-reading speed for Arabic is lower than for Latin scripts). */
function readTime(text: string): number {
  return Math.max(1, Math.round(text.split(/\s+/).filter(Boolean).length / 140));
}

function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}
