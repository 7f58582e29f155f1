/**
 * Demo content for the embedded default: every public section gets enough items to show its listing,
 * filters and detail pages (docs/spec/stack.md, "Data").
 *
 * Idempotent by construction: rows are keyed by their unique slug (categories.slug, page_slug per content
 * table, videos.guid) and inserted with ON CONFLICT DO NOTHING, so a second run inserts nothing and a row an
 * editor has changed is never touched. Asset files are written only when missing. The flip side: a demo row
 * an editor deleted comes back on the next run, so callers seed on an empty database (isDatabaseEmpty) or on
 * explicit request (npm run seed).
 */
import fs from "node:fs";
import { inArray, sql } from "drizzle-orm";
import type { Database } from "./client.server.ts";
import { articles, authors, categories, coverages, media, news, podcasts, programs, videos } from "./schema.server.ts";
import { slugify } from "#domain/content-types/index.ts";
import { ensureTags } from "#server/content/tags.server.ts";
import { deterministicUuid, hash32, layOutDemoVideo, prepareDemoAssets, type DemoAssets, type DemoClip } from "./demo-assets.server.ts";
import { AUTHORS } from "./seed-data/authors.ts";
import { CATEGORIES } from "./seed-data/categories.ts";
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
import { syncSearchIndex } from "#server/search/search-index.server.ts";
import { describeFilesWithoutAlt, registerContentFiles } from "#server/media/library.server.ts";

export const DEMO_ARTICLES: ArticleSeed[] = [...CULTURE_ARTICLES, ...POLITICS_ARTICLES, ...LITERATURE_ARTICLES, ...EMIRATES_ARTICLES, ...OPINION_ARTICLES];

export type SeedOptions = {
  uploadsDir: string;
  /**
   * The local video library's folder (DATA_DIR/videos). When given, and ffmpeg is there, each demo video gets
   * files of its own there (a short clip as HLS + MP4, and a thumbnail), so it plays through the playback API
   * with its true length; without it the demo videos all play the one sample MP4, as before.
   */
  videosDir?: string;
  log?: (msg: string) => void;
};
/** The database or an open transaction on it: the helpers below run inside the seed's one transaction. */
type Db = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];
export type SeedResult = { inserted: Record<string, number> };

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const HOUR = 3_600_000;
/** Undated items spread over this many hours back from now (~88 days), so listings look lived-in. */
const SPREAD_HOURS = 88 * 24;

/** Two generated sound files cover every podcast and audio item; the notes only make them distinguishable. */
const AUDIO_NOTES = {
  "podcast-intro": [262, 330, 392, 523],
  "tidinit-motif": [196, 233, 262, 294, 349, 392],
} as const;

export async function seedDemoContent(db: Database, opts: SeedOptions): Promise<SeedResult> {
  const log = opts.log ?? (() => {});
  validateDemoData();

  // Files first and outside the transaction: they are idempotent on their own, and a slow ffmpeg run must not
  // hold database locks. They are ensured even when the rows already exist, so a fresh disk in front of a
  // persistent PostgreSQL gets its demo files back.
  const assets = prepareDemoAssets(opts.uploadsDir, log);
  const libraryFiles = opts.videosDir ? layOutDemoLibrary(opts.videosDir, assets.clips(), log) : new Map<string, DemoClip>();

  // One clock for the whole run: every date is "now minus a fixed offset", so relative order never changes.
  const now = Math.floor(Date.now() / 60_000) * 60_000;
  const at = (table: string, slug: string, hoursAgo?: number) => new Date(now - (hoursAgo ?? 3 + (hash32(`${table}:${slug}`) % SPREAD_HOURS)) * HOUR);
  const views = (table: string, slug: string, draft?: boolean) => (draft ? 0 : 120 + (hash32(`views:${table}:${slug}`) % 4800));

  const inserted: Record<string, number> = {};
  await db.transaction(async (tx) => {
    inserted.categories = await seedCategories(tx);
    const categoryId = await categoryIds(tx);

    inserted.articles = await insertCount(
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

    inserted.news = await insertCount(
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

    inserted.programs = await insertCount(
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

    inserted.podcasts = await insertCount(
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

    inserted.coverages = await insertCount(
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

    const mediaRows = MEDIA.map((m) => {
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
    inserted.media = await insertCount(tx.insert(media).values(mediaRows).onConflictDoNothing({ target: media.pageSlug }).returning({ id: media.id }));

    // The local video library lists these; status 4 (ready) only when there is a file to play, 5 (failed)
    // otherwise, so the back-office's Play button is never enabled for nothing. A video with files of its
    // own has its clip's true length and its thumbnail; the others play the sample.
    const videoRows = mediaRows
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
    inserted.videos = await insertCount(tx.insert(videos).values(videoRows).onConflictDoNothing({ target: videos.guid }).returning({ guid: videos.guid }));
    inserted.authors = await seedAuthors(tx);
    inserted.tags = await seedTags(tx);
  });

  const total = Object.values(inserted).reduce((a, b) => a + b, 0);
  // The seeded items searchable at once, then planner statistics for what was just loaded: PGlite has no
  // autovacuum to gather them, and without them the search's choice of plan (decision 0071) is blind.
  await syncSearchIndex(db);
  // Every demo file in the media library, with its size and dimensions, as an upload would be.
  const libraryAdded = await registerContentFiles(db, { uploadsDir: opts.uploadsDir });
  if (libraryAdded) log(`media library: ${libraryAdded} demo files recorded`);
  // Their alt text in Arabic and French (issue 39), also for the demo rows of an install seeded before it.
  const described = await describeFilesWithoutAlt(db, assets.imageAlts());
  if (described) log(`media library: ${described} demo pictures given alt text`);
  if (total > 0) await db.execute(sql`analyze`);
  log(
    total === 0
      ? "demo content already present: nothing inserted"
      : `demo content inserted: ${Object.entries(inserted)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ")}`,
  );
  if (assets.written()) log(`demo assets written: ${assets.written()} files under ${opts.uploadsDir}/demo`);
  return { inserted };
}

// ---------------------------------------------------------------------------------------------------------

/** The demo media videos' ids, in the order of the data: the demo video library. */
export const DEMO_VIDEO_GUIDS = MEDIA.filter((m) => m.type === "video").map((m) => deterministicUuid(m.slug));

/**
 * Gives each demo video files of its own in the local library's folder, the clips taken in turn (so the
 * lengths vary along the list). Returns the clip each laid-out video plays.
 */
function layOutDemoLibrary(videosDir: string, clips: DemoClip[], log: (msg: string) => void): Map<string, DemoClip> {
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

/** The demo tables by registry type key, for the bylines and tags below. */
const DEMO_TABLES = { article: "articles", news: "news", coverage: "coverages", podcast: "podcasts", program: "programs", media: "media" } as const;

/**
 * The contributors as author profiles (migration 0011 made profiles of the bylines that were there; the demo
 * comes after it), each demo item named by its byline's profile. Keyed by slug: a second run adds nothing.
 */
async function seedAuthors(db: Db): Promise<number> {
  const rows = Object.values(AUTHORS).map((a) => ({
    slug: slugify(a.nameFr.normalize("NFD").replace(/\p{M}/gu, "")),
    name: a.name,
    nameFr: a.nameFr,
    bio: a.bio,
  }));
  const added = await insertCount(db.insert(authors).values(rows).onConflictDoNothing({ target: authors.slug }).returning({ id: authors.id }));
  for (const [type, table] of Object.entries(DEMO_TABLES)) {
    await db.execute(sql`insert into item_authors (content_type, item_id, author_id, position)
      select ${type}, t.id, a.id, 0 from ${sql.identifier(table)} t join authors a on a.name = t.author_name
      where t.is_demo on conflict do nothing`);
  }
  return added;
}

/**
 * Places and themes the demo items are about, as tags: each demo item whose title or summary names one carries
 * it. None of them is a tag the browser tests make (they count their tags' items).
 */
const DEMO_TAGS = ["نواذيبو", "تجكجة", "الزويرات", "كيفة", "الحسانية", "التيدينيت", "المخطوطات"];

async function seedTags(db: Db): Promise<number> {
  const before = (await db.execute<{ n: number }>(sql`select count(*)::int as n from tags`)).rows[0].n;
  const ids = await ensureTags(db as Database, DEMO_TAGS);
  for (const [type, table] of Object.entries(DEMO_TABLES)) {
    const summary = type === "podcast" || type === "program" || type === "media" ? "description" : "excerpt";
    for (const [i, name] of DEMO_TAGS.entries()) {
      await db.execute(sql`insert into item_tags (content_type, item_id, tag_id)
        select ${type}, t.id, ${ids[i]} from ${sql.identifier(table)} t
        where t.is_demo and (t.title like ${`%${name}%`} or coalesce(t.${sql.identifier(summary)}, '') like ${`%${name}%`})
        on conflict do nothing`);
    }
  }
  return (await db.execute<{ n: number }>(sql`select count(*)::int as n from tags`)).rows[0].n - before;
}

async function insertCount(q: Promise<unknown[]>): Promise<number> {
  return (await q).length;
}

/** Parents before children, because a child's parent_id is resolved from the parent's slug. */
async function seedCategories(db: Db): Promise<number> {
  let count = 0;
  const order = new Map<string, number>();
  const sortOrder = (parent: string | undefined) => {
    const key = parent ?? "";
    const n = order.get(key) ?? 0;
    order.set(key, n + 1);
    return n;
  };
  const parents = CATEGORIES.filter((c) => !c.parent).map((c) => ({ ...categoryRow(c, sortOrder(undefined)), parentId: null }));
  count += await insertCount(db.insert(categories).values(parents).onConflictDoNothing({ target: categories.slug }).returning({ id: categories.id }));
  const ids = await categoryIds(db);
  const children = CATEGORIES.filter((c) => c.parent).map((c) => ({ ...categoryRow(c, sortOrder(c.parent)), parentId: ids(c.parent!) }));
  count += await insertCount(db.insert(categories).values(children).onConflictDoNothing({ target: categories.slug }).returning({ id: categories.id }));
  return count;
}

function categoryRow(c: (typeof CATEGORIES)[number], sortOrder: number) {
  return {
    name: c.name,
    nameFr: c.nameFr,
    slug: c.slug,
    type: c.type,
    description: c.description ?? null,
    descriptionFr: c.descriptionFr ?? null,
    sortOrder,
    isDemo: true,
  };
}

/** A lookup from slug to id over the demo slugs; a missing slug is a bug in the data, so it throws. */
async function categoryIds(db: Db): Promise<(slug: string) => number> {
  const rows = await db
    .select({ id: categories.id, slug: categories.slug })
    .from(categories)
    .where(
      inArray(
        categories.slug,
        CATEGORIES.map((c) => c.slug),
      ),
    );
  const map = new Map(rows.map((r) => [r.slug, r.id]));
  return (slug) => {
    const id = map.get(slug);
    if (id === undefined) throw new Error(`Demo seed: category "${slug}" not found`);
    return id;
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

/**
 * Catches mistakes in the hand-written data before anything is written: a bad or duplicate slug would
 * otherwise be silently skipped by ON CONFLICT, and an unknown category would fail half-way.
 */
export function validateDemoData() {
  const problems: string[] = [];
  const categorySlugs = new Set(CATEGORIES.map((c) => c.slug));
  const check = (table: string, items: readonly { slug: string; category?: string }[]) => {
    const seen = new Set<string>();
    for (const item of items) {
      if (!SLUG.test(item.slug)) problems.push(`${table}: bad slug "${item.slug}"`);
      if (seen.has(item.slug)) problems.push(`${table}: duplicate slug "${item.slug}"`);
      seen.add(item.slug);
      if (item.category !== undefined && !categorySlugs.has(item.category)) problems.push(`${table}: unknown category "${item.category}" on ${item.slug}`);
    }
  };
  check("categories", CATEGORIES);
  for (const c of CATEGORIES) if (c.parent && !categorySlugs.has(c.parent)) problems.push(`categories: unknown parent "${c.parent}"`);
  check("articles", DEMO_ARTICLES);
  // The literature page previews 4 verse lines of a featured poem and 2 in the list.
  for (const a of DEMO_ARTICLES) {
    if (a.category === "poetry" && (!a.verse || a.body.length < 6)) problems.push(`articles: poem "${a.slug}" needs at least 6 verse lines`);
  }
  check("news", NEWS);
  check("programs", PROGRAMS);
  check("podcasts", PODCASTS);
  check("coverages", COVERAGES);
  check("media", MEDIA);
  if (problems.length) throw new Error(`Demo seed data is invalid:\n${problems.join("\n")}`);
}
