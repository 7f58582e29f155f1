/**
 * The one loader of declared listings (domain/listings.ts): the cards of a listing's types, its filter and its order,
 * as one query over their tables (published-items.server.ts `unionOf`), published-only through isPublished(). A card
 * is its type's declared `card` (domain/content-types/*.ts) plus the listing's `with`: no column is named here, and no
 * type, so a field added to a definition's card reaches every listing, page and JSON API item.
 *
 * Cache keys and tags are derived from the declaration (`loadListing`, `loadLeadAndList`): the listing's name and
 * its parameters; its types, and the categories, authors it reads.
 */
import { and, asc, count, desc, eq, inArray, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { definitionOf, type CardField, type ContentType, type DefinitionOf } from "#domain/content-types/index.ts";
import { encodeCursor, refine, type Cursor, type KeysetDirection, type LeadAndList, type Listing, type ListingFilter } from "#domain/listings.ts";
import type { BylineAuthor } from "#domain/authors.ts";
import type { Database } from "#server/db/client.server.ts";
import { categories } from "#server/db/schema.server.ts";
import type * as schema from "#server/db/schema.server.ts";
import { CodedError } from "#server/errors.server.ts";
import { bylineSql } from "./authors.server.ts";
import { cached, type CacheTag } from "./cache.server.ts";
import { unionOf } from "./published-items.server.ts";
import { isPublished } from "./published.server.ts";
import { columnOf, tableOf } from "./registry.server.ts";

// ---- A card's type, from its definition's declared fields ----

type Schema = typeof schema;
/** A type's table row, found by its definition's literal table name among the schema's exports. */
type RowOf<T extends ContentType> = Schema[DefinitionOf<T>["table"] & keyof Schema] extends { $inferSelect: infer R } ? R : never;
type NameOf<F> = F extends string ? F : F extends { name: infer N extends string } ? N : never;
type ColumnKeyOf<F> = F extends string ? F : F extends { column: infer C extends string } ? C : never;
type FieldsOf<T extends ContentType, Fields extends readonly CardField[]> = {
  [F in Fields[number] as NameOf<F>]: RowOf<T>[ColumnKeyOf<F> & keyof RowOf<T>];
};
/** The category a card names (a left join: null when it has none). */
export type CategoryNames = { categoryName: string | null; categoryNameFr: string | null; categorySlug: string | null };
type CardDefOf<T extends ContentType> = DefinitionOf<T>["card"];

/** The card of a type, with a listing's extra fields. */
export type Card<T extends ContentType, With extends readonly CardField[] = readonly []> = { id: number } & FieldsOf<T, CardDefOf<T>["fields"]> &
  (CardDefOf<T> extends { category: true } ? CategoryNames : unknown) &
  (CardDefOf<T> extends { bylines: true } ? { bylines: BylineAuthor[] } : unknown) &
  FieldsOf<T, With>;

type WithOf<L extends Listing> = L["with"] extends readonly CardField[] ? L["with"] : readonly [];
/** A listing's card: its type's; of a listing of several types, each with its `type`. */
export type CardOf<L extends Listing> = L["types"] extends readonly [infer T extends ContentType]
  ? Card<T, WithOf<L>>
  : L["types"][number] extends infer T
    ? T extends ContentType
      ? Card<T, WithOf<L>> & { type: T }
      : never
    : never;

// ---- The query ----

type Part = { name: string; column: string; chars?: number };
const partOf = (field: CardField): Part => (typeof field === "string" ? { name: field, column: field } : field);

class ListingError extends CodedError {}

function columnNamed(type: ContentType, key: string): PgColumn {
  const column = columnOf(type, key);
  if (!column) throw new ListingError("LISTING_UNKNOWN_COLUMN", "A listing or card names a column its type's table does not have", { context: { type, key } });
  return column;
}

/** The column of a type's category field, or undefined when it has none. */
function categoryColumn(type: ContentType): PgColumn | undefined {
  const field = definitionOf(type).fields.find((f) => f.kind === "category");
  return field ? columnOf(type, field.column) : undefined;
}

/** The card's expressions by name: its id, declared fields, the listing's, its category's names and its byline. */
function cardExpressions(type: ContentType, extra: readonly CardField[]): Map<string, { sql: SQL | PgColumn; decoder?: PgColumn }> {
  const t = tableOf(type);
  const card = definitionOf(type).card;
  const out = new Map<string, { sql: SQL | PgColumn; decoder?: PgColumn }>([["id", { sql: t.id, decoder: t.id }]]);
  for (const { name, column, chars } of [...card.fields, ...extra].map(partOf)) {
    const col = columnNamed(type, column);
    out.set(name, chars ? { sql: sql`left(${col}, ${chars})`, decoder: col } : { sql: col, decoder: col });
  }
  if (card.category) {
    out.set("categoryName", { sql: categories.name });
    out.set("categoryNameFr", { sql: categories.nameFr });
    out.set("categorySlug", { sql: categories.slug });
  }
  if (card.bylines) out.set("bylines", { sql: bylineSql(type, t.id) });
  return out;
}

/** Category ids a filter keeps, as a condition on the type's category column (undefined: no condition). */
function categoryCondition(db: Database, type: ContentType, f: ListingFilter): SQL | undefined {
  if (!f.section && !f.category && !f.categories && !f.categoryIds) return undefined;
  const column = categoryColumn(type);
  if (!column) throw new ListingError("LISTING_NO_CATEGORY", "A listing filters by category a type that has none", { context: { type } });
  if (f.categoryIds) return f.categoryIds.length ? inArray(column, [...f.categoryIds]) : sql`false`;
  const idWhere = (where: SQL | undefined) => db.select({ id: categories.id }).from(categories).where(where);
  if (f.categories) return inArray(column, idWhere(inArray(categories.slug, [...f.categories])));
  if (!f.section) return inArray(column, idWhere(eq(categories.slug, f.category!)));
  const children = inArray(categories.parentId, idWhere(eq(categories.slug, f.section)));
  return inArray(column, idWhere(f.category ? and(eq(categories.slug, f.category), children) : or(eq(categories.slug, f.section), children)));
}

/** Which published items of a type a filter keeps. */
export function listingWhere(db: Database, type: ContentType, f: ListingFilter = {}): SQL {
  const t = tableOf(type);
  const equals = Object.entries(f.equals ?? {}).flatMap(([key, value]) => (value === undefined ? [] : [eq(columnNamed(type, key), value)]));
  return isPublished(t, categoryCondition(db, type, f), ...equals, f.excludeIds?.length ? notInArray(t.id, [...f.excludeIds]) : undefined);
}

const orderOf = (l: Listing) => l.order ?? ["publishDate"];

/** One type's cards: its own columns, decoded by drizzle. */
function selectOne(db: Database, type: ContentType, l: Listing) {
  const t = tableOf(type);
  const selection = Object.fromEntries([...cardExpressions(type, l.with ?? [])].map(([name, e]) => [name, e.sql]));
  const query = db.select(selection).from(t);
  const category = definitionOf(type).card.category ? categoryColumn(type) : undefined;
  return (category ? query.leftJoin(categories, eq(category, categories.id)) : query)
    .where(listingWhere(db, type, l.filter))
    .orderBy(...orderOf(l).map((key) => desc(columnNamed(type, key))), desc(t.id));
}

/**
 * Several types' cards in one UNION ALL: every select names every field (null where a type has none) in the same
 * order, with its rank to tell the type; each row keeps only its own type's fields.
 */
async function selectUnion(db: Database, l: Listing, limit: number, offset: number) {
  const perType = l.types.map((type) => cardExpressions(type, l.with ?? []));
  const names = [...new Set(perType.flatMap((e) => [...e.keys()]))];
  const decoderOf = (name: string) => perType.find((e) => e.get(name)?.decoder)?.get(name)?.decoder;
  const rows = await unionOf(l.types, (type, rank) => {
    const own = perType[rank];
    const selection: Record<string, SQL.Aliased> = { rank: sql<number>`${sql.raw(String(rank))}`.as("rank") };
    for (const name of names) {
      const e = own.get(name);
      const decoder = decoderOf(name);
      const value = e ? sql`${e.sql}` : sql`null`;
      selection[name] = (decoder ? value.mapWith(decoder) : value).as(name);
    }
    const t = tableOf(type);
    const category = definitionOf(type).card.category ? categoryColumn(type) : undefined;
    return db
      .select(selection)
      .from(t)
      .leftJoin(categories, category ? eq(category, categories.id) : sql`false`)
      .where(listingWhere(db, type, l.filter));
  })
    .orderBy(...orderOf(l).map((key) => desc(sql.identifier(key))), desc(sql.identifier("id")))
    .limit(limit)
    .offset(offset);
  return rows.map(({ rank, ...row }) => {
    const r = row as Record<string, unknown>;
    return { type: l.types[Number(rank)], ...Object.fromEntries([...perType[Number(rank)].keys()].map((name) => [name, r[name]])) };
  });
}

/** A window of a listing's cards (`limit` unless told: the listing's), in its order. */
export async function listCards<L extends Listing>(
  db: Database,
  l: L,
  { limit = l.limit, offset = 0 }: { limit?: number; offset?: number } = {},
): Promise<CardOf<L>[]> {
  if (l.types.length > 1) return (await selectUnion(db, l, limit, offset)) as CardOf<L>[];
  return (await selectOne(db, l.types[0], l).limit(limit).offset(offset)) as CardOf<L>[];
}

/** How many published items a listing has. */
export async function countCards(db: Database, l: Listing): Promise<number> {
  const counts = await unionOf(l.types, (type) =>
    db
      .select({ n: count() })
      .from(tableOf(type))
      .where(listingWhere(db, type, l.filter)),
  );
  return counts.reduce((sum, row) => sum + Number(row.n), 0);
}

/** One page of a listing (the listing's limit a page) and whether another follows (one extra row is read to know). */
export async function pageOfCards<L extends Listing>(db: Database, l: L, page = 1, pageSize: number = l.limit) {
  const rows = await listCards(db, l, { limit: pageSize + 1, offset: (page - 1) * pageSize });
  return { items: rows.slice(0, pageSize), hasMore: rows.length > pageSize, page };
}

/**
 * A page's lead items (the featured ones; failing that, when told, the newest) and one page of the rest. The lead is
 * read on every page so that no page repeats it; the route shows it on the first.
 */
export async function readLeadAndList<L extends Listing>(
  db: Database,
  { listing: l, lead }: { listing: L; lead: LeadAndList["lead"] },
  filter: ListingFilter,
  page = 1,
) {
  const scoped = refine(l, filter);
  let leadItems = await listCards(db, refine(scoped, { equals: { isFeatured: true } }), { limit: lead.limit });
  if (!leadItems.length && lead.orNewest) leadItems = await listCards(db, scoped, { limit: lead.limit });
  const list = await pageOfCards(db, refine(scoped, { excludeIds: leadItems.map((c) => c.id) }), page);
  return { lead: leadItems, list };
}

// ---- Cached reads: keys and tags from the declaration ----

/** What a listing's cards read: its types' tables, the categories when they name or filter by one, the author profiles of bylines. */
export function listingTags(l: Listing): CacheTag[] {
  const cards = l.types.map((type) => definitionOf(type).card);
  const f = l.filter ?? {};
  const byCategory = cards.some((c) => c.category) || Boolean(f.section || f.category || f.categories || f.categoryIds);
  return [...l.types, ...(byCategory ? (["categories"] as const) : []), ...(cards.some((c) => c.bylines) ? (["authors"] as const) : [])];
}

/** A cache key: the listing's name and what else the read depends on, in a stable order. */
export function listingKey(l: Listing, ...parts: unknown[]): string {
  return [l.name, JSON.stringify(l.filter ?? {}), ...parts.map((p) => (typeof p === "string" ? p : JSON.stringify(p ?? null)))].join(":");
}

/** A listing's cards, cached until one of its tags is invalidated. */
export function loadListing<L extends Listing>(db: Database, l: L, window: { limit?: number; offset?: number } = {}): Promise<CardOf<L>[]> {
  return cached(listingKey(l, window), listingTags(l), () => listCards(db, l, window));
}

/** A lead-and-list page (readLeadAndList), cached the same way. */
export function loadLeadAndList<L extends Listing>(db: Database, page: { listing: L; lead: LeadAndList["lead"] }, filter: ListingFilter, pageNumber = 1) {
  return cached(listingKey(page.listing, "lead", filter, page.lead, pageNumber), listingTags(refine(page.listing, filter)), () =>
    readLeadAndList(db, page, filter, pageNumber),
  );
}

// ---- Keyset pages (issue 42, decision 0144): any depth costs what the second page costs ----

/** A time column as a cursor writes it: UTC to the microsecond, which a JavaScript Date would cut to the millisecond. */
export const cursorTimeSql = (column: PgColumn | SQL): SQL<string> => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The one time column a keyset listing is ordered by (newest first), then its id. */
function keysetColumn(l: Listing): { type: ContentType; time: PgColumn; id: PgColumn } {
  const order = orderOf(l);
  if (l.types.length !== 1 || order.length !== 1) {
    throw new ListingError("LISTING_NO_KEYSET", "Keyset pages read one type ordered by one time column", { context: { listing: l.name } });
  }
  const type = l.types[0];
  return { type, time: columnNamed(type, order[0]), id: tableOf(type).id };
}

/**
 * One page of a listing from a cursor: `before` reads on towards the oldest, `after` back towards the newest. The
 * condition is written so that the index on the time column bounds the scan (`time <= t`, then the tie on id), not
 * as a row comparison the planner may not use. Answers the page, newest first, and the cursors of its neighbours
 * (null where the list ends).
 */
export async function keysetPageOfCards<L extends Listing>(
  db: Database,
  l: L,
  from: { direction: KeysetDirection; cursor: Cursor } | null,
  pageSize: number = l.limit,
): Promise<{ items: CardOf<L>[]; older: string | null; newer: string | null }> {
  const { type, time, id } = keysetColumn(l);
  const t = tableOf(type);
  const selection = Object.fromEntries([...cardExpressions(type, l.with ?? [])].map(([name, e]) => [name, e.sql]));
  const backwards = from?.direction === "after";
  let bound: SQL | undefined;
  if (from) {
    const [at, cursorId] = [sql`${String(from.cursor[0])}::timestamptz`, Number(from.cursor[1])];
    bound = backwards
      ? and(sql`${time} >= ${at}`, or(sql`${time} > ${at}`, sql`${id} > ${cursorId}`))
      : and(sql`${time} <= ${at}`, or(sql`${time} < ${at}`, sql`${id} < ${cursorId}`));
  }
  const category = definitionOf(type).card.category ? categoryColumn(type) : undefined;
  const query = db.select({ ...selection, cursorTime: cursorTimeSql(time) }).from(t);
  const rows = (await (category ? query.leftJoin(categories, eq(category, categories.id)) : query)
    .where(and(listingWhere(db, type, l.filter), bound))
    .orderBy(...(backwards ? [asc(time), asc(id)] : [desc(time), desc(id)]))
    .limit(pageSize + 1)) as (Record<string, unknown> & { id: number; cursorTime: string })[];
  const more = rows.length > pageSize;
  const page = rows.slice(0, pageSize);
  if (backwards) page.reverse();
  const cursorOf = (row: { id: number; cursorTime: string } | undefined) => (row ? encodeCursor([row.cursorTime, row.id]) : null);
  const items = page.map(({ cursorTime: _, ...card }) => card) as CardOf<L>[];
  // Read forwards, the page after a cursor has newer rows (the cursor's own); read back, older ones.
  const older = backwards || more ? cursorOf(page.at(-1)) : null;
  const newer = from && (!backwards || more) ? cursorOf(page[0]) : null;
  return { items, older, newer };
}

/** The cursor of a listing's row (the last of a numbered page, where keyset pages take over), or null. */
export async function cursorOfCard(db: Database, l: Listing, cardId: number): Promise<string | null> {
  const { type, time, id } = keysetColumn(l);
  const [row] = await db
    .select({ at: cursorTimeSql(time) })
    .from(tableOf(type))
    .where(eq(id, cardId))
    .limit(1);
  return row ? encodeCursor([row.at, cardId]) : null;
}

/** A keyset page (keysetPageOfCards), cached until one of its listing's tags is invalidated. */
export function loadKeysetPage<L extends Listing>(db: Database, l: L, from: { direction: KeysetDirection; cursor: Cursor } | null, pageSize: number = l.limit) {
  return cached(listingKey(l, "keyset", from, pageSize), listingTags(l), () => keysetPageOfCards(db, l, from, pageSize));
}
