/**
 * What the search engines and feed readers are told about: every published item that has a detail page,
 * and the latest items of the feed's types for the RSS feed. Both loop over the content-type definitions
 * (domain/content-types/): a type with `detailPage` is in the sitemap, a type with a detail page and a
 * category is in the feed. Published-only through isPublished().
 */
import { count, eq, sql } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { authors } from "#server/db/schema.server.ts";
import { authorPath } from "#domain/authors.ts";
import { hasPublishedItems } from "./authors.server.ts";
import { countTagPages, tagHasPublishedItems } from "./tags.server.ts";
import { tags } from "#server/db/schema.server.ts";
import { tagPath } from "#domain/tags.ts";
import { ALL_CONTENT_TYPES, publicUrl, type ContentType, type ContentTypeDefinition } from "#domain/content-types/index.ts";
import { FOOTER_LINKS, MORE_SECTIONS, NAV_ITEMS } from "#domain/navigation.ts";
import { isPublished } from "./published.server.ts";
import { listPublishedFeedItems, unionOf, type FeedItem } from "./published-items.server.ts";
import { columnOf, tableOf } from "./registry.server.ts";

export type { FeedItem } from "./published-items.server.ts";

export type SitemapEntry = { path: string; lastModified: Date };

/** A sitemap file holds at most 50,000 URLs; past that the site serves a sitemap index (server/content/feeds.server.ts). */
export const SITEMAP_MAX_URLS = 50_000;

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
  { offset = 0, limit = SITEMAP_MAX_URLS }: { offset?: number; limit?: number } = {},
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
          updatedAt: authors.updatedAt,
          publishDate: authors.createdAt,
        })
        .from(authors)
        .where(hasPublishedItems());
    }
    const t = tableOf(type);
    return db
      .select({ rank: sql<number>`${sql.raw(String(rank))}`.as("rank"), id: t.id, slug: t.pageSlug, updatedAt: t.updatedAt, publishDate: t.publishDate })
      .from(t)
      .where(isPublished(t, indexed(type)));
  })
    .orderBy(sql`rank`, sql`publish_date desc`, sql`id desc`)
    .limit(limit)
    .offset(offset);
  // A scheduled item becomes public at its publish date, which may be after its last edit.
  return rows.map((r) => ({
    path: r.rank === types.length ? authorPath(r.slug) : r.rank === types.length + 1 ? tagPath(r.slug) : publicUrl(types[r.rank], r.slug),
    lastModified: r.updatedAt > r.publishDate ? r.updatedAt : r.publishDate,
  }));
}

/** The latest published items of the feed's types together, newest first: the RSS feed. */
export async function listFeedItems(db: Database, limit = 30): Promise<FeedItem[]> {
  return listPublishedFeedItems(db, { types: feedTypes() }, limit);
}
