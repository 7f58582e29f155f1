/**
 * What the search engines and feed readers are told about: every published item that has a detail page,
 * and the latest items of the feed's types for the RSS feed. Both loop over the content-type definitions
 * (domain/content-types/): a type with `detailPage` is in the sitemap, a type with a detail page and a
 * category is in the feed. Published-only through isPublished().
 *
 * Every page has an address per language (issue 42, domain/addresses.ts): a sitemap entry names the languages
 * whose address is a page of its own (`languagesWithText`, domain/localized.ts) and feeds.server.ts writes one
 * `<url>` per language with the others as hreflang alternates. The Google News sitemap lists the news-like items
 * of the last two days the same way.
 */
import { count, desc, eq, sql } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { authors } from "#server/db/schema.server.ts";
import { authorPath } from "#domain/authors.ts";
import { hasPublishedItems } from "./authors.server.ts";
import { countTagPages, tagHasPublishedItems } from "./tags.server.ts";
import { tags } from "#server/db/schema.server.ts";
import { tagPath } from "#domain/tags.ts";
import { ALL_CONTENT_TYPES, publicUrl, type ContentType, type ContentTypeDefinition } from "#domain/content-types/index.ts";
import { LANGUAGES } from "#domain/language.ts";
import { languagesWithText } from "#domain/localized.ts";
import { FOOTER_LINKS, MORE_SECTIONS, NAV_ITEMS } from "#domain/navigation.ts";
import { cached } from "./cache.server.ts";
import { isPublished } from "./published.server.ts";
import { listPublishedFeedItems, recentPublished, unionOf, type FeedItem } from "./published-items.server.ts";
import { columnOf, tableOf } from "./registry.server.ts";
import { hooksOf } from "./types/index.server.ts";

export type { FeedItem } from "./published-items.server.ts";
export type { NewsSitemapItem, SitemapEntry } from "#domain/sitemap-entries.ts";
import type { NewsSitemapItem, SitemapEntry } from "#domain/sitemap-entries.ts";

/** The protocol's bound on the URLs of one sitemap file (sitemaps.org), and on its size: 50 MB uncompressed. */
export const SITEMAP_MAX_URLS = 50_000;

/**
 * How many pages one sitemap file lists. Each page is up to one `<url>` per language, each carrying up to four
 * alternates (three languages and x-default): with the longest slug (120 Arabic letters, percent-encoded to 720
 * bytes) a `<url>` is about 4 KB, so 3,000 pages (9,000 URLs) stay well under 50 MB, which 16,666 pages
 * (50,000 URLs) would not. sitemap.test.ts measures the worst case.
 */
export const SITEMAP_PAGES_PER_FILE = 3_000;

/** The section pages every sitemap lists first, before the items. */
export const SITEMAP_SECTIONS: readonly string[] = [...NAV_ITEMS.map((i) => i.to), ...MORE_SECTIONS.map((i) => i.to), ...FOOTER_LINKS.legal.map((l) => l.to)];

/** The types with a page of their own, in the definitions' order: the order the sitemap lists them. */
const detailTypes = (): ContentType[] => ALL_CONTENT_TYPES.filter((d) => d.detailPage).map((d) => d.type);

/** The feed's types: a page of their own and a category, which each item names (articles and news). */
const categoryField = (d: ContentTypeDefinition) => d.fields.find((f) => f.kind === "category");
const feedTypes = (): ContentType[] => ALL_CONTENT_TYPES.filter((d) => d.detailPage && categoryField(d)).map((d) => d.type);

/** Items an editor kept out of search engines (noindex, issue 29) are not in the sitemap either. */
const indexed = (type: ContentType) => eq(columnOf(type, "noindex")!, false);

/** How many published items have a detail page, and author pages (issue 29) the sitemap lists after them. */
export async function countSitemapEntries(db: Database): Promise<number> {
  const counts = await unionOf(detailTypes(), (type) =>
    db
      .select({ n: count() })
      .from(tableOf(type))
      .where(isPublished(tableOf(type), indexed(type))),
  );
  const [profiles] = await db.select({ n: count() }).from(authors).where(hasPublishedItems());
  return counts.reduce((sum, row) => sum + Number(row.n), 0) + Number(profiles.n) + (await countTagPages(db));
}

/**
 * Published items with a detail page and their last modification, type by type and newest first within a
 * type: one window of that stable order (`offset`, `limit`), so each sitemap file reads only its own rows.
 */
export async function listSitemapEntries(
  db: Database,
  { offset = 0, limit = SITEMAP_PAGES_PER_FILE }: { offset?: number; limit?: number } = {},
): Promise<SitemapEntry[]> {
  const types = detailTypes();
  // The author pages (profiles with a published item, issue 29) come last, as one more "type" of the union.
  const rows = await unionOf([...types, "authors" as ContentType, "tags" as ContentType], (type, rank) => {
    // Then the tag pages (tags on a published item, decision 0122), last modified when an item last got the tag.
    if (rank === types.length + 1) {
      return db
        .select({
          rank: sql<number>`${sql.raw(String(rank))}`.as("rank"),
          id: tags.id,
          slug: tags.slug,
          titleFr: sql<string | null>`null`,
          updatedAt: tags.updatedAt,
          publishDate: tags.createdAt,
        })
        .from(tags)
        .where(tagHasPublishedItems());
    }
    if (rank === types.length) {
      return db
        .select({
          rank: sql<number>`${sql.raw(String(rank))}`.as("rank"),
          id: authors.id,
          slug: authors.slug,
          titleFr: sql<string | null>`null`,
          updatedAt: authors.updatedAt,
          publishDate: authors.createdAt,
        })
        .from(authors)
        .where(hasPublishedItems());
    }
    const t = tableOf(type);
    return db
      .select({
        rank: sql<number>`${sql.raw(String(rank))}`.as("rank"),
        id: t.id,
        slug: t.pageSlug,
        titleFr: t.titleFr,
        // A type whose page moves without its row (a live coverage's entries) says when it last did.
        updatedAt: hooksOf(type).lastModified?.() ?? t.updatedAt,
        publishDate: t.publishDate,
      })
      .from(t)
      .where(isPublished(t, indexed(type)));
  })
    .orderBy(sql`rank`, sql`publish_date desc`, sql`id desc`)
    .limit(limit)
    .offset(offset);
  // A scheduled item becomes public at its publish date, which may be after its last edit.
  return rows.map((r) => {
    const item = r.rank < types.length;
    return {
      path: item ? publicUrl(types[r.rank], r.slug) : r.rank === types.length ? authorPath(r.slug) : tagPath(r.slug),
      lastModified: r.updatedAt > r.publishDate ? r.updatedAt : r.publishDate,
      // An author's or a tag's page is a list in the interface's words: a page of its own in every language.
      languages: item ? languagesWithText(r) : LANGUAGES,
    };
  });
}

/**
 * The types in the Google News sitemap: those whose page is a news article (schema.org NewsArticle and its kinds:
 * news, articles, coverage), not the programs, podcasts and media library.
 */
export const newsSitemapTypes = (): ContentType[] =>
  ALL_CONTENT_TYPES.filter((d) => d.detailPage && d.detail.schema.type.endsWith("NewsArticle")).map((d) => d.type);

/** What Google News reads (https://developers.google.com/search/docs/crawling-indexing/sitemaps/news-sitemap): two days, 1,000 URLs. */
export const NEWS_SITEMAP_HOURS = 48;
export const NEWS_SITEMAP_MAX_URLS = 1_000;

/**
 * The news-like items published in the last 48 hours, newest first, at most 1,000 URLs' worth (an item is a URL
 * per language it has a text in). Kept in the read cache under the types' tags, so a publish, an edit or an
 * unpublish (their `invalidate`) is listed by the next request; a scheduled item reaches it within the TTL.
 */
export function listNewsSitemapItems(db: Database, now = new Date()): Promise<NewsSitemapItem[]> {
  const types = newsSitemapTypes();
  return cached(`news-sitemap:${Math.floor(now.getTime() / 60_000)}`, types, async () => {
    const since = new Date(now.getTime() - NEWS_SITEMAP_HOURS * 3_600_000);
    const rows = await recentPublished(db, { types, since, where: indexed, upTo: now })
      .orderBy(desc(sql`publish_date`), desc(sql`rank`), desc(sql`id`))
      .limit(NEWS_SITEMAP_MAX_URLS);
    const items: NewsSitemapItem[] = [];
    let urls = 0;
    for (const r of rows) {
      const languages = languagesWithText(r);
      if (urls + languages.length > NEWS_SITEMAP_MAX_URLS) break;
      urls += languages.length;
      const titles = Object.fromEntries(languages.map((lang) => [lang, lang === "fr" ? r.titleFr! : r.title]));
      items.push({ path: publicUrl(types[r.rank], r.slug), publishDate: new Date(r.publishDate), titles });
    }
    return items;
  });
}

/** The latest published items of the feed's types together, newest first: the RSS feed. */
export async function listFeedItems(db: Database, limit = 30): Promise<FeedItem[]> {
  return listPublishedFeedItems(db, { types: feedTypes() }, limit);
}
