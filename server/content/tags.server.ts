/**
 * Tags (decision 0122): people, places and events items are about. This module owns the `tags` and `item_tags`
 * tables. A tag is found by its match key, the name as the search analysis normalises it (domain/tags.ts,
 * domain/arabic.ts), so «الإنتخابات» typed by one editor and «الانتخابات» by another are one tag, shown under its
 * first spelling. Here: the items' tags (the newsroom's save), the suggestions of the form's tag input, the tags
 * screen's list, rename, merge and delete, and what readers get (a tag's page, its feed, the sitemap's tag pages).
 * Every change made here invalidates the "tags" cache tag and the types of the items it touched.
 */
import { and, asc, count, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import { ALL_CONTENT_TYPES, slugify, type ContentType } from "#domain/content-types/index.ts";
import {
  rankTagSuggestions,
  TAG_NAME_MAX,
  tagMatchKey,
  tagPath,
  tagQueryCore,
  tagSameKey,
  tidyTagName,
  type TagMergeInput,
  type TagPatchInput,
  type TagSuggestion,
  type TagSummary,
} from "#domain/tags.ts";
import type { Database, Queryable } from "#server/db/client.server.ts";
import { itemTags, tags } from "#server/db/schema.server.ts";
import { ConflictError, NotFoundError } from "#server/http/errors.server.ts";
import { invalidate } from "./cache.server.ts";
import { forgetMovesTo, recordMove } from "./moved-addresses.server.ts";
import { isPublished } from "./published.server.ts";
import { linkedTo, listPublishedCards, listPublishedFeedItems, type FeedItem, type PublishedCard } from "./published-items.server.ts";
import { tableOf } from "./registry.server.ts";

export type ItemTag = { id: number; slug: string; name: string };

export { tagMatchKey };

const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The tags of each of `ids` (items of one type), by name; an item without any maps to []. */
export async function tagsOfItems(db: Queryable, type: ContentType, ids: readonly number[]): Promise<Map<number, ItemTag[]>> {
  const byItem = new Map<number, ItemTag[]>(ids.map((id) => [id, []]));
  if (!ids.length) return byItem;
  const rows = await db
    .select({ itemId: itemTags.itemId, id: tags.id, slug: tags.slug, name: tags.name })
    .from(itemTags)
    .innerJoin(tags, eq(tags.id, itemTags.tagId))
    .where(and(eq(itemTags.contentType, type), inArray(itemTags.itemId, [...ids])))
    .orderBy(asc(itemTags.itemId), asc(tags.name));
  for (const { itemId, ...tag } of rows) byItem.get(itemId)?.push(tag);
  return byItem;
}

/** A slug for a new tag: its name's, numbered when taken (or when the name has no letter a URL keeps). */
async function freeTagSlug(db: Database, name: string): Promise<string> {
  const base = slugify(name) || "tag";
  const taken = new Set(
    (
      await db
        .select({ slug: tags.slug })
        .from(tags)
        .where(sql`${tags.slug} = ${base} or ${tags.slug} like ${`${base.replace(/[\\%_]/g, (c) => `\\${c}`)}-%`}`)
    ).map((r) => r.slug),
  );
  if (!taken.has(base) && !/^\d+$/.test(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/**
 * The tag a name is (domain/tags.ts tagSameKey: «مخطوطات» is «المخطوطات»), other than `except`, or null: the one
 * of the same match key first, else the oldest equivalent. The database narrows by the name's core letters, as
 * the suggestions do; the key decides.
 */
async function equivalentTag(db: Database, name: string, except?: number): Promise<{ id: number } | null> {
  const matchKey = tagMatchKey(name);
  const core = tagQueryCore(name);
  if (!matchKey || !core) return null;
  const candidates = await db
    .select({ id: tags.id, matchKey: tags.matchKey })
    .from(tags)
    .where(and(sql`${tags.matchKey} like ${`%${likeEscaped(core)}%`}`, except === undefined ? undefined : ne(tags.id, except)))
    .orderBy(asc(tags.id));
  const same = tagSameKey(name);
  const found = candidates.find((c) => c.matchKey === matchKey) ?? candidates.find((c) => tagSameKey(c.matchKey) === same);
  return found ? { id: found.id } : null;
}

/**
 * The ids of the tags named `names` (in the caller's transaction), each once: a name reuses the tag it is
 * equivalent to (so one item never carries «التراث» and «تراث»), and a tag is created for a name no tag is.
 */
export async function ensureTags(tx: Database, names: readonly string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const typed of names) {
    const name = tidyTagName(typed).slice(0, TAG_NAME_MAX).trim();
    const matchKey = tagMatchKey(name);
    if (!matchKey) continue;
    const existing = await equivalentTag(tx, name);
    if (existing) {
      ids.push(existing.id);
      continue;
    }
    const [created] = await tx
      .insert(tags)
      .values({ name, matchKey, slug: await freeTagSlug(tx, name) })
      .onConflictDoUpdate({ target: tags.matchKey, set: { matchKey } })
      .returning({ id: tags.id });
    ids.push(created.id);
  }
  return [...new Set(ids)];
}

/** Gives the item exactly the tags named `names`, creating the new ones. */
export async function setItemTags(tx: Queryable, type: ContentType, itemId: number, names: readonly string[]): Promise<void> {
  const ids = await ensureTags(tx, names);
  await tx.delete(itemTags).where(and(eq(itemTags.contentType, type), eq(itemTags.itemId, itemId)));
  if (!ids.length) return;
  await tx.insert(itemTags).values(ids.map((tagId) => ({ contentType: type, itemId, tagId })));
  await touchTags(tx, ids);
}

/** A tag's page changed with its items: its `updated_at` is the sitemap's last modification of that page. */
async function touchTags(tx: Database, ids: readonly number[]): Promise<void> {
  await tx
    .update(tags)
    .set({ updatedAt: new Date() })
    .where(inArray(tags.id, [...ids]));
}

/** Adds the tag named `name` to each of `itemIds` (a bulk action), keeping their other tags. */
export async function addTagToItems(tx: Database, type: ContentType, itemIds: readonly number[], name: string): Promise<void> {
  const [tagId] = await ensureTags(tx, [name]);
  if (tagId === undefined || !itemIds.length) return;
  await tx
    .insert(itemTags)
    .values(itemIds.map((itemId) => ({ contentType: type, itemId, tagId })))
    .onConflictDoNothing();
  await touchTags(tx, [tagId]);
}

/** Forgets the tags of deleted items. */
export async function forgetItemTags(tx: Queryable, type: ContentType, itemIds: readonly number[]): Promise<void> {
  if (itemIds.length) await tx.delete(itemTags).where(and(eq(itemTags.contentType, type), inArray(itemTags.itemId, [...itemIds])));
}

// ---- The form's suggestions ----

/** How many items each of `ids` is on, every type and status together. */
async function itemCounts(db: Database, ids: readonly number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ tagId: itemTags.tagId, n: count() })
    .from(itemTags)
    .where(inArray(itemTags.tagId, [...ids]))
    .groupBy(itemTags.tagId);
  return new Map(rows.map((r) => [r.tagId, Number(r.n)]));
}

/** Most tags one query weighs before ranking: enough for any real newsroom's prefix, bounded for a one-letter one. */
const QUERY_CANDIDATES = 500;

/**
 * The tags that match what is being typed (domain/tags.ts tagMatchRank: normalised, with or without «ال», at the
 * start of a word), best first, at most `limit`. The database narrows by the query's core letters (shortest keys
 * first, QUERY_CANDIDATES at most); the ranking is the one the browser shares.
 */
export async function suggestTags(db: Database, query: string, limit: number): Promise<TagSuggestion[]> {
  const core = tagQueryCore(query);
  if (!core) return [];
  const candidates = await db
    .select({ id: tags.id, slug: tags.slug, name: tags.name })
    .from(tags)
    .where(sql`${tags.matchKey} like ${`%${likeEscaped(core)}%`}`)
    .orderBy(sql`length(${tags.matchKey})`, asc(tags.id))
    .limit(QUERY_CANDIDATES);
  const counts = await itemCounts(
    db,
    candidates.map((c) => c.id),
  );
  return rankTagSuggestions(
    query,
    candidates.map((c) => ({ ...c, count: counts.get(c.id) ?? 0 })),
    limit,
  );
}

// ---- The tags screen ----

/**
 * One page of tags with how many items each is on: all of them by name, or, with `q`, those `q` matches
 * (suggestTags: the best match first).
 */
export async function listTags(
  db: Database,
  { q, page, perPage }: { q?: string; page: number; perPage: number },
): Promise<{ tags: TagSummary[]; total: number; page: number; perPage: number }> {
  const withUrl = (t: TagSuggestion): TagSummary => ({ ...t, url: tagPath(t.slug) });
  if (q?.trim()) {
    const found = await suggestTags(db, q, QUERY_CANDIDATES);
    return { tags: found.slice((page - 1) * perPage, page * perPage).map(withUrl), total: found.length, page, perPage };
  }
  const uses = db
    .select({ tagId: itemTags.tagId, n: count().as("n") })
    .from(itemTags)
    .groupBy(itemTags.tagId)
    .as("uses");
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ id: tags.id, slug: tags.slug, name: tags.name, count: sql<number>`coalesce(${uses.n}, 0)`.mapWith(Number) })
      .from(tags)
      .leftJoin(uses, eq(uses.tagId, tags.id))
      .orderBy(asc(tags.matchKey), asc(tags.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db.select({ total: count() }).from(tags),
  ]);
  return { tags: rows.map(withUrl), total: Number(total), page, perPage };
}

/** One tag with its item count, or null. */
export async function getTag(db: Database, id: number): Promise<TagSummary | null> {
  const [row] = await db.select({ id: tags.id, slug: tags.slug, name: tags.name }).from(tags).where(eq(tags.id, id)).limit(1);
  if (!row) return null;
  return { ...row, count: (await itemCounts(db, [id])).get(id) ?? 0, url: tagPath(row.slug) };
}

/** The types of the items on these tags: what a change to them invalidates besides "tags". */
async function typesOn(db: Database, ids: readonly number[]): Promise<ContentType[]> {
  if (!ids.length) return [];
  const rows = await db
    .selectDistinct({ type: itemTags.contentType })
    .from(itemTags)
    .where(inArray(itemTags.tagId, [...ids]));
  return rows.map((r) => r.type as ContentType);
}

const tagNotFound = () => new NotFoundError("tags.notFound");

/** Folds `from` into `into` in a transaction: items keep one copy of the tag, the others are deleted. */
async function fold(tx: Database, into: number, from: readonly number[]): Promise<void> {
  const others = from.filter((id) => id !== into);
  if (!others.length) return;
  await tx.execute(sql`
    insert into item_tags (content_type, item_id, tag_id)
    select content_type, item_id, ${into} from item_tags where tag_id in (${sql.join(
      others.map((id) => sql`${id}`),
      sql`, `,
    )})
    on conflict do nothing`);
  // The folded tags' pages now live at the tag they went into (decision 0144): their old addresses answer 301.
  const slugs = await tx
    .select({ id: tags.id, slug: tags.slug })
    .from(tags)
    .where(inArray(tags.id, [into, ...others]));
  const target = slugs.find((s) => s.id === into);
  if (target) for (const s of slugs) if (s.id !== into) await recordMove(tx, tagPath(s.slug), tagPath(target.slug));
  // item_tags rows of the deleted tags go with them (on delete cascade).
  await tx.delete(tags).where(inArray(tags.id, others));
}

export type TagChange = { tag: TagSummary; mergedFrom: number[] };

/**
 * Renames a tag (its name, its slug, or both). A name another tag is (tagSameKey: «تراث» is «التراث») is a merge: this tag's
 * items go to that one, which takes the new spelling, and this one is deleted. A slug another tag has answers
 * 409 SLUG_TAKEN. The old slug's page answers 301 to the new one (decision 0144; it was a 404 in decision 0122).
 */
export async function renameTag(db: Database, id: number, patch: TagPatchInput): Promise<TagChange> {
  const touched = await typesOn(db, [id]);
  const result = await db.transaction(async (t) => {
    const tx = t as unknown as Database;
    const [current] = await tx.select().from(tags).where(eq(tags.id, id)).for("update").limit(1);
    if (!current) throw tagNotFound();
    let target = current.id;
    const mergedFrom: number[] = [];
    const set: Partial<typeof tags.$inferInsert> = { updatedAt: new Date() };
    if (patch.name !== undefined) {
      const matchKey = tagMatchKey(patch.name);
      const other = await equivalentTag(tx, patch.name, id);
      if (other) {
        await fold(tx, other.id, [id]);
        target = other.id;
        mergedFrom.push(id);
      }
      Object.assign(set, { name: patch.name, matchKey });
    }
    if (patch.slug !== undefined) {
      const [taken] = await tx
        .select({ id: tags.id })
        .from(tags)
        .where(and(eq(tags.slug, patch.slug), ne(tags.id, target)))
        .limit(1);
      if (taken) throw new ConflictError("tags.slugTaken", "SLUG_TAKEN", { fields: { slug: "tags.slugTaken" } });
      set.slug = patch.slug;
      const [was] = await tx.select({ slug: tags.slug }).from(tags).where(eq(tags.id, target)).limit(1);
      if (was && was.slug !== patch.slug) await recordMove(tx, tagPath(was.slug), tagPath(patch.slug));
    }
    await tx.update(tags).set(set).where(eq(tags.id, target));
    return { target, mergedFrom };
  });
  invalidate("tags", ...touched);
  return { tag: (await getTag(db, result.target))!, mergedFrom: result.mergedFrom };
}

/** Merges tags: every item of `from` gets `into` (once), and the `from` tags are deleted. Unknown ids answer 404. */
export async function mergeTags(db: Database, { into, from }: TagMergeInput): Promise<TagChange> {
  const ids = [...new Set([into, ...from])];
  const found = await db.select({ id: tags.id }).from(tags).where(inArray(tags.id, ids));
  if (found.length !== ids.length) throw tagNotFound();
  const touched = await typesOn(db, ids);
  const others = ids.filter((id) => id !== into);
  await db.transaction(async (t) => fold(t as unknown as Database, into, others));
  invalidate("tags", ...touched);
  return { tag: (await getTag(db, into))!, mergedFrom: others };
}

/** Deletes a tag; its items keep everything else. Answers how many items it was on. */
export async function deleteTag(db: Database, id: number): Promise<{ id: number; items: number }> {
  const tag = await getTag(db, id);
  if (!tag) throw tagNotFound();
  const touched = await typesOn(db, [id]);
  await db.transaction(async (tx) => {
    await tx.delete(tags).where(eq(tags.id, id));
    // Old addresses that led here would lead to a 404 now: they answer their own 404 instead.
    await forgetMovesTo(tx, [tagPath(tag.slug)]);
  });
  invalidate("tags", ...touched);
  return { id, items: tag.count };
}

// ---- What readers get ----

/** The types whose items carry tags, in the definitions' order. */
const taggedTypes = (): ContentType[] => ALL_CONTENT_TYPES.filter((d) => d.fields.some((f) => f.kind === "tags")).map((d) => d.type);

/** A tag by its slug (as in the URL: any Unicode form), or null. */
export async function tagBySlug(db: Database, slug: string): Promise<ItemTag | null> {
  const [row] = await db
    .select({ id: tags.id, slug: tags.slug, name: tags.name })
    .from(tags)
    .where(eq(tags.slug, slug.normalize("NFC").toLowerCase()))
    .limit(1);
  return row ?? null;
}

/** The published items of every type on a tag, newest first: one window of them and how many there are. */
export async function listTagItems(
  db: Database,
  tagId: number,
  { offset, limit }: { offset: number; limit: number },
): Promise<{ items: PublishedCard[]; total: number }> {
  return listPublishedCards(db, { types: taggedTypes(), where: linkedTo(itemTags, itemTags.tagId, tagId) }, { offset, limit });
}

/** The latest published items on a tag as feed items (its RSS): the tag is each item's category. */
export async function listTagFeedItems(db: Database, tag: ItemTag, limit = 30): Promise<FeedItem[]> {
  return listPublishedFeedItems(db, { types: taggedTypes(), where: linkedTo(itemTags, itemTags.tagId, tag.id) }, limit, tag.name);
}

/**
 * Whether the tag in the query (the `tags` table's row) is on at least one published item: a tag page worth
 * listing in the sitemap.
 */
export function tagHasPublishedItems(): SQL {
  const perType = taggedTypes().map((type) => {
    const t = tableOf(type);
    return sql`(${itemTags.contentType} = ${type} and exists (select 1 from ${t} where ${t.id} = ${itemTags.itemId} and ${isPublished(t)}))`;
  });
  return sql`exists (select 1 from ${itemTags} where ${itemTags.tagId} = ${tags.id} and (${sql.join(perType, sql` or `)}))`;
}

/** How many tags have at least one published item. */
export async function countTagPages(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(tags).where(tagHasPublishedItems());
  return Number(row?.n ?? 0);
}
