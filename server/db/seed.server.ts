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
import { inArray, sql } from "drizzle-orm";
import type { Database } from "./client.server.ts";
import { authors, categories } from "./schema.server.ts";
import { ALL_CONTENT_TYPES, definitionOf, slugify, type ContentType } from "#domain/content-types/index.ts";
import { ensureTags } from "#server/content/tags.server.ts";
import { prepareDemoAssets, type DemoClip } from "./demo-assets.server.ts";
import { hash32 } from "./demo-drawing.server.ts";
import { DEMO_ARTICLES, DEMO_ITEMS, insertCount, layOutDemoLibrary, seedDemoVideos, type Db, type SeedContext } from "./seed-items.server.ts";
import { CATEGORIES } from "./seed-data/categories.ts";
import { AUTHORS } from "./seed-data/authors.ts";
import { NEWS } from "./seed-data/news.ts";
import { PROGRAMS } from "./seed-data/programs.ts";
import { PODCASTS } from "./seed-data/podcasts.ts";
import { COVERAGES } from "./seed-data/coverages.ts";
import { MEDIA } from "./seed-data/media.ts";
import { syncSearchIndex } from "#server/search/search-index.server.ts";
import { describeFilesWithoutAlt, registerContentFiles } from "#server/media/library.server.ts";

export { DEMO_ARTICLES, DEMO_VIDEO_GUIDS } from "./seed-items.server.ts";

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
export type SeedResult = { inserted: Record<string, number> };

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const HOUR = 3_600_000;
/** Undated items spread over this many hours back from now (~88 days), so listings look lived-in. */
const SPREAD_HOURS = 88 * 24;

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
    const ctx: SeedContext = { at, views, assets, categoryId: await categoryIds(tx), libraryFiles };
    // Each type's items under its table's name, in the order of the seeders (./seed-items.server.ts).
    for (const [type, seed] of Object.entries(DEMO_ITEMS) as [ContentType, NonNullable<(typeof DEMO_ITEMS)[ContentType]>][]) {
      inserted[definitionOf(type).table] = await seed(tx, ctx);
    }
    inserted.videos = await seedDemoVideos(tx, ctx);
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

/** Every type's table, from the registry, for the bylines and tags below. */
const typeTables = () => ALL_CONTENT_TYPES.map((d) => [d.type, d.table] as const);

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
  for (const [type, table] of typeTables()) {
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
  for (const [type, table] of typeTables()) {
    // The summary field's name is its column's (an article's excerpt, a show's description).
    const summary = definitionOf(type).summaryField;
    for (const [i, name] of DEMO_TAGS.entries()) {
      await db.execute(sql`insert into item_tags (content_type, item_id, tag_id)
        select ${type}, t.id, ${ids[i]} from ${sql.identifier(table)} t
        where t.is_demo and (t.title like ${`%${name}%`} or coalesce(t.${sql.identifier(summary)}, '') like ${`%${name}%`})
        on conflict do nothing`);
    }
  }
  return (await db.execute<{ n: number }>(sql`select count(*)::int as n from tags`)).rows[0].n - before;
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
