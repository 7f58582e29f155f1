/**
 * The section pages (culture, politics and history, literature, opinion, the emirates): their filter chips, the
 * politics sidebar's counts and timeline, and the literature's verse previews and fallback. A section is a parent
 * category (categories.slug = culture, politics, literature, opinion, emirates) with its children; its listings are
 * declared (domain/listings.ts) and read by the one listing loader (./listings.server.ts).
 */
import { and, asc, count, eq, inArray, isNotNull } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { articles, categories, REGIONS } from "#server/db/schema.server.ts";
import { LISTINGS, refine, type LiteratureType, type Section } from "#domain/listings.ts";
import { listCards, listingWhere, pageOfCards } from "./listings.server.ts";
import { cached } from "./cache.server.ts";
import { literatureSamples } from "./literature-samples.server.ts";
import type { LiteratureItem, Region, SectionCard, SectionContentType } from "./section-types.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { markDegraded } from "#server/http/render-scope.server.ts";

export { LITERATURE_TYPES, SECTIONS, type LiteratureType, type Section } from "#domain/listings.ts";
export type { LiteratureItem, Region, SectionCard, SectionContentType } from "./section-types.server.ts";

export type SectionFilters = {
  /** A child category slug of the section (the chips); absent for "all". */
  category?: string;
  region?: Region;
  contentType?: SectionContentType;
  featured?: boolean;
  trending?: boolean;
  /** Items already shown elsewhere on the page (the featured block). */
  excludeIds?: number[];
};

/** A section's listing with the reader's filters. */
export function sectionListing(section: Section, f: SectionFilters = {}, limit = 12) {
  return refine(LISTINGS.section(section, limit), {
    category: f.category,
    excludeIds: f.excludeIds,
    equals: { region: f.region, contentType: f.contentType, isFeatured: f.featured, isTrending: f.trending },
  });
}

export type SectionChip = { id: number; slug: string; name: string; nameFr: string | null };

/** The section's parent category (name and description for the page heading), or null when it is missing. */
export async function findSection(db: Database, section: Section) {
  const [row] = await db
    .select({
      id: categories.id,
      slug: categories.slug,
      name: categories.name,
      nameFr: categories.nameFr,
      description: categories.description,
      descriptionFr: categories.descriptionFr,
    })
    .from(categories)
    .where(eq(categories.slug, section))
    .limit(1);
  return row ?? null;
}

/** A section page's heading (its parent category) and filter chips, cached until the categories change. */
export function loadSectionHead(db: Database, section: Section) {
  return cached(`${section}:head`, ["categories"], async () => {
    const [found, chips] = await Promise.all([findSection(db, section), listSectionChips(db, section)]);
    return { section: found, chips };
  });
}

/** The filter chips of a section: the children of its parent category, in their editorial order. */
export function listSectionChips(db: Database, section: Section): Promise<SectionChip[]> {
  const parent = db.select({ id: categories.id }).from(categories).where(eq(categories.slug, section));
  return db
    .select({ id: categories.id, slug: categories.slug, name: categories.name, nameFr: categories.nameFr })
    .from(categories)
    .where(inArray(categories.parentId, parent))
    .orderBy(asc(categories.sortOrder), asc(categories.id));
}

/** Published articles of a section, newest first. */
export function listSectionArticles(
  db: Database,
  section: Section,
  filters: SectionFilters = {},
  { limit = 12, offset = 0 }: { limit?: number; offset?: number } = {},
): Promise<SectionCard[]> {
  return listCards(db, sectionListing(section, filters), { limit, offset });
}

/** One page of a listing and whether another follows (one extra row is read to know). */
export function pageOfSectionArticles(db: Database, section: Section, filters: SectionFilters, { page = 1, pageSize = 12 } = {}) {
  return pageOfCards(db, sectionListing(section, filters), page, pageSize);
}

/** Most read first: the opinion page's top 5 (public-site.md §9), backed by articles.view_count. */
export function listMostRead(db: Database, section: Section, limit = 5): Promise<SectionCard[]> {
  return listCards(db, LISTINGS.mostRead(section), { limit });
}

/** The politics trending sidebar: items flagged trending, newest first. */
export function listTrending(db: Database, section: Section, limit = 5): Promise<SectionCard[]> {
  return listCards(db, LISTINGS.trending(section), { limit });
}

export type RegionCount = { region: Region; count: number };

/** Items per region for the region sidebar (regions without items are listed with 0, in the filter's order). */
export async function countByRegion(db: Database, section: Section, filters: Pick<SectionFilters, "contentType"> = {}): Promise<RegionCount[]> {
  const rows = await db
    .select({ region: articles.region, n: count() })
    .from(articles)
    .where(and(listingWhere(db, "article", sectionListing(section, filters).filter), isNotNull(articles.region)))
    .groupBy(articles.region);
  const byRegion = new Map(rows.map((r) => [r.region, Number(r.n)]));
  return REGIONS.map((region) => ({ region, count: byRegion.get(region) ?? 0 }));
}

export type TimelineMonth = { month: number; items: SectionCard[] };
export type TimelineYear = { year: number; months: TimelineMonth[] };

/** The most a timeline shows at once; older items stay reachable through the paged list. */
export const TIMELINE_LIMIT = 200;

/** The politics timeline: the filtered items grouped by year and month, newest first (dates in UTC). */
export async function sectionTimeline(db: Database, section: Section, filters: SectionFilters = {}): Promise<TimelineYear[]> {
  return groupByYearMonth(await listSectionArticles(db, section, filters, { limit: TIMELINE_LIMIT }));
}

/** Groups items (already in date order) by year, then month, keeping that order. */
export function groupByYearMonth<T extends { publishDate: Date | string }>(items: T[]): { year: number; months: { month: number; items: T[] }[] }[] {
  const years: { year: number; months: { month: number; items: T[] }[] }[] = [];
  for (const item of items) {
    const d = new Date(item.publishDate);
    const year = d.getUTCFullYear();
    const month = d.getUTCMonth() + 1;
    let y = years.at(-1);
    if (!y || y.year !== year) years.push((y = { year, months: [] }));
    let m = y.months.at(-1);
    if (!m || m.month !== month) y.months.push((m = { month, items: [] }));
    m.items.push(item);
  }
  return years;
}

// ---- Literature ----------------------------------------------------------------------------------------

/**
 * Published literature, newest first. Poems (category `poetry`, one verse per line) come with their first
 * `verseCount` lines: the page previews 4 lines of a featured poem and 2 in the list (public-site.md §2).
 */
export async function listLiterature(
  db: Database,
  filters: { type?: LiteratureType; featured?: boolean },
  { limit = 12, offset = 0, verseCount = 2 }: { limit?: number; offset?: number; verseCount?: number } = {},
): Promise<LiteratureItem[]> {
  const rows = await listCards(db, refine(LISTINGS.literature, { category: filters.type, equals: { isFeatured: filters.featured } }), { limit, offset });
  return rows.map(({ contentStart, contentStartFr, ...r }) => {
    const isPoetry = r.categorySlug === "poetry";
    return { ...r, isPoetry, verses: isPoetry ? verseLines(contentStart, verseCount) : [], versesFr: isPoetry ? verseLines(contentStartFr, verseCount) : [] };
  });
}

/** The first `n` verse lines of a poem (one verse per line in the content). */
export function verseLines(content: string | null | undefined, n: number): string[] {
  if (!content) return [];
  return content
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, n);
}

/** Featured literature shown above the full list. */
export const LITERATURE_FEATURED_LIMIT = 3;

/**
 * Everything the literature page lists: featured items (4 verse lines for poems) and the full list (2 lines),
 * both filtered by type. Throws when the database cannot be read; loadLiteraturePage() falls back instead.
 */
export async function readLiteraturePage(db: Database, { type, page = 1, pageSize = 12 }: { type?: LiteratureType; page?: number; pageSize?: number }) {
  const [featured, rows] = await Promise.all([
    listLiterature(db, { type, featured: true }, { limit: LITERATURE_FEATURED_LIMIT, verseCount: 4 }),
    listLiterature(db, { type }, { limit: pageSize + 1, offset: (page - 1) * pageSize, verseCount: 2 }),
  ]);
  return { featured, items: rows.slice(0, pageSize), hasMore: rows.length > pageSize, fallback: false };
}

/**
 * The literature page's lists, or — when the database cannot be read — the built-in samples, marked as demo
 * (public-site.md §2, "Fallback lists are used when the calls fail"), rather than a failed page.
 */
export async function loadLiteraturePage(
  db: Database | Promise<Database>,
  options: { type?: LiteratureType; page?: number; pageSize?: number },
  read = readLiteraturePage,
) {
  try {
    return await read(await db, options);
  } catch (error) {
    logger.error({ err: error }, "literature: could not read the database, showing the built-in samples");
    // Served, never kept: the page cache keeps the last real page instead, and the next reader tries again.
    markDegraded();
    return literatureFallback({ type: options.type });
  }
}

/** The built-in lists the literature page shows when its data cannot be read. */
export function literatureFallback({ type }: { type?: LiteratureType }) {
  return {
    featured: literatureSamples({ type, featured: true }, 4),
    items: literatureSamples({ type }, 2),
    hasMore: false,
    fallback: true,
  };
}
