/**
 * Published items of several types read together: one UNION query over the types' tables, newest first, for the
 * pages and feeds that list every type at once (an author's page, a tag's page and feed, the site's RSS feed). The
 * caller names the types and, optionally, a condition per type (the items an author signed, the items on a tag:
 * `linkedTo`). Published-only through isPublished(). Imports no other content module, so any of them may use it.
 */
import { and, count, desc, eq, getTableName, gte, sql, type SQL } from "drizzle-orm";
import { unionAll, type PgColumn, type PgTable } from "drizzle-orm/pg-core";
import { definitionOf, publicUrl, type ContentType } from "#domain/content-types/index.ts";
import type { SummaryCard } from "#domain/detail-view.ts";
import type { Database } from "#server/db/client.server.ts";
import { authors, categories, itemAuthors, itemCorrections } from "#server/db/schema.server.ts";
import { isPublished } from "./published.server.ts";
import { columnOf, tableOf } from "./registry.server.ts";

/** One query over several types' tables: the rows `select` makes of each, as one union (drizzle needs two at least). */
export function unionOf<Q>(types: readonly ContentType[], select: (type: ContentType, rank: number) => Q): Q {
  const [first, ...rest] = types.map(select);
  if (!rest.length) return first;
  return (unionAll as unknown as (...q: Q[]) => Q)(first, ...rest);
}

/**
 * The titles of the items of `types` published since `since` that `where` keeps (and, given `upTo`, not after it):
 * one union, each row ranked by its type's place in `types`; the caller orders and limits it (the Google News
 * sitemap, the ticker's breaking items).
 */
export function recentPublished(
  db: Database,
  { types, since, where, upTo }: { types: readonly ContentType[]; since: Date; where: (type: ContentType) => SQL | undefined; upTo?: Date },
) {
  return unionOf(types, (type, rank) => {
    const t = tableOf(type);
    return db
      .select({
        rank: sql<number>`${sql.raw(String(rank))}`.as("rank"),
        id: t.id,
        slug: t.pageSlug,
        title: t.title,
        titleFr: t.titleFr,
        publishDate: t.publishDate,
      })
      .from(t)
      .where(isPublished(t, and(where(type), gte(t.publishDate, since)), upTo && sql`${t.publishDate} <= ${upTo.toISOString()}`));
  });
}

/** Which published items: those of `types` that `where` (a condition on each type's table) keeps. */
export type PublishedItemsOf = { types: readonly ContentType[]; where?: (type: ContentType) => SQL | undefined };

/**
 * A column named with its table ("news"."id"), for a subquery that refers to the row around it: in a select from
 * one table drizzle writes a bare "id", which inside the subquery would mean the subquery's own table's id.
 */
export const outerColumn = (column: PgColumn): SQL => sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/**
 * The items a link table (item_authors, item_tags) ties to one row of another table: `key` (its column naming
 * that row) equal to `value`, as an EXISTS on each type's table.
 */
export function linkedTo(link: PgTable & { contentType: PgColumn; itemId: PgColumn }, key: PgColumn, value: number) {
  return (type: ContentType): SQL =>
    sql`exists (select 1 from ${link} where ${link.contentType} = ${type} and ${link.itemId} = ${outerColumn(tableOf(type).id)} and ${key} = ${value})`;
}

const noText = sql<string | null>`null`;
const rankOf = (rank: number) => sql<number>`${sql.raw(String(rank))}`.as("rank");
/** The column of a type's summary field (an article's excerpt, a video's description). */
const summaryOf = (type: ContentType) => {
  const d = definitionOf(type);
  return d.fields.find((f) => f.name === d.summaryField)!.column;
};
const categoryField = (type: ContentType) => definitionOf(type).fields.find((f) => f.kind === "category");
/** Newest first; at the same time, the type later in the caller's order first (news before articles), then the later id. */
const newestFirst = [desc(sql`publish_date`), desc(sql`rank`), desc(sql`id`)];

/** A published item as a summary card (domain/detail-view.ts), with its type, slug and public path. */
export type PublishedCard = SummaryCard & { type: ContentType; slug: string; url: string };

/** One window (`offset`, `limit`) of the published items, as cards, newest first, and how many there are. */
export async function listPublishedCards(
  db: Database,
  { types, where }: PublishedItemsOf,
  { offset, limit }: { offset: number; limit: number },
): Promise<{ items: PublishedCard[]; total: number }> {
  const [rows, counts] = await Promise.all([
    unionOf(types, (type, rank) => {
      const t = tableOf(type);
      const summary = summaryOf(type);
      return db
        .select({
          rank: rankOf(rank),
          id: t.id,
          slug: t.pageSlug,
          title: t.title,
          titleFr: t.titleFr,
          summary: sql<string | null>`${columnOf(type, summary) ?? noText}`.as("summary"),
          summaryFr: sql<string | null>`${columnOf(type, `${summary}Fr`) ?? noText}`.as("summary_fr"),
          imageUrl: t.imageUrl,
          publishDate: t.publishDate,
        })
        .from(t)
        .where(isPublished(t, where?.(type)));
    })
      .orderBy(...newestFirst)
      .limit(limit)
      .offset(offset),
    unionOf(types, (type) =>
      db
        .select({ n: count() })
        .from(tableOf(type))
        .where(isPublished(tableOf(type), where?.(type))),
    ),
  ]);
  return {
    items: rows.map((r) => ({
      type: types[r.rank],
      id: r.id,
      slug: r.slug,
      url: publicUrl(types[r.rank], r.slug, r.id),
      title: r.title,
      titleFr: r.titleFr,
      summary: r.summary,
      summaryFr: r.summaryFr,
      imageUrl: r.imageUrl,
      publishDate: new Date(r.publishDate),
    })),
    total: counts.reduce((sum, row) => sum + Number(row.n), 0),
  };
}

export type FeedItem = {
  type: ContentType;
  path: string;
  title: string;
  excerpt: string | null;
  /** The French title and summary when written: the French feed's (issue 42). */
  titleFr?: string | null;
  excerptFr?: string | null;
  author: string | null;
  /** The author profiles' names in byline order (dc:creator each); empty: `author`. */
  authors?: string[];
  category: string | null;
  publishDate: Date;
  /** The latest correction (decision 0140): the RSS item shows it and its time (atom:updated). */
  correction?: { text: string; at: Date } | null;
};

/** The Arabic names of an item's byline in order (the feed's dc:creator, one element each, reads the array). */
export function bylineNamesSql(type: ContentType, itemId: PgColumn): SQL<string[]> {
  return sql<
    string[]
  >`(select coalesce(json_agg(${authors.name} order by ${itemAuthors.position}, ${authors.id}), '[]'::json) from ${itemAuthors} join ${authors} on ${authors.id} = ${itemAuthors.authorId} where ${itemAuthors.contentType} = ${type} and ${itemAuthors.itemId} = ${outerColumn(itemId)})`;
}

/**
 * The latest `limit` published items as feed items, newest first. Each names its category (a type without a
 * category field: none), or `category` for all of them (a tag's feed names the tag).
 */
export async function listPublishedFeedItems(db: Database, { types, where }: PublishedItemsOf, limit: number, category?: string): Promise<FeedItem[]> {
  const rows = await unionOf(types, (type, rank) => {
    const t = tableOf(type);
    const field = category === undefined ? categoryField(type) : undefined;
    return (
      db
        .select({
          rank: rankOf(rank),
          id: t.id,
          slug: t.pageSlug,
          title: t.title,
          titleFr: t.titleFr,
          excerpt: sql<string | null>`${columnOf(type, summaryOf(type)) ?? noText}`.as("excerpt"),
          excerptFr: sql<string | null>`${columnOf(type, `${summaryOf(type)}Fr`) ?? noText}`.as("excerpt_fr"),
          author: t.authorName,
          authors: bylineNamesSql(type, t.id).as("authors"),
          category: (field ? sql<string | null>`${categories.name}` : noText).as("category"),
          publishDate: t.publishDate,
          correction: latestCorrectionSql(type, t.id).as("correction"),
        })
        .from(t)
        // Joined on no row when there is no category to read: with a join, drizzle names every selected column with
        // its table, which the byline's subquery needs (a one-table select leaves the names bare).
        .leftJoin(categories, field ? eq(columnOf(type, field.column)!, categories.id) : sql`false`)
        .where(isPublished(t, where?.(type)))
    );
  })
    .orderBy(...newestFirst)
    .limit(limit);
  return rows.map((r) => ({
    type: types[r.rank],
    path: publicUrl(types[r.rank], r.slug, r.id),
    title: r.title,
    titleFr: r.titleFr,
    excerpt: r.excerpt,
    excerptFr: r.excerptFr,
    author: r.author,
    authors: r.authors ?? [],
    category: category ?? r.category,
    publishDate: new Date(r.publishDate),
    correction: r.correction ? { text: r.correction.text, at: new Date(r.correction.at) } : null,
  }));
}

/** An item's latest correction as JSON `{text, at}`, or null (server/content/corrections.server.ts). */
function latestCorrectionSql(type: ContentType, itemId: PgColumn): SQL<{ text: string; at: string } | null> {
  return sql<{
    text: string;
    at: string;
  } | null>`(select json_build_object('text', ${itemCorrections.text}, 'at', ${itemCorrections.createdAt}) from ${itemCorrections} where ${itemCorrections.contentType} = ${type} and ${itemCorrections.itemId} = ${outerColumn(itemId)} order by ${itemCorrections.createdAt} desc, ${itemCorrections.id} desc limit 1)`;
}
