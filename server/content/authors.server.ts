/**
 * Author profiles (decision 0121): the bylines of items. This module owns the `authors` and `item_authors`
 * tables: the profiles themselves (the back-office's screen and the JSON API), which profiles an item names, in
 * byline order, an account's default byline (made on the fly from its name the first time it writes), the
 * bylines the public reads select with their items (bylineSql), and a profile's public page.
 */
import { and, asc, count, eq, ilike, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { CONTENT_TYPES, type ContentType } from "#domain/content-types/index.ts";
import { AUTHORS_PER_PAGE, authorPath, authorSlugOf, type AuthorInput, type AuthorProfile, type BylineAuthor } from "#domain/authors.ts";
import type { Database, Queryable } from "#server/db/client.server.ts";
import { authors, itemAuthors, profiles, user } from "#server/db/schema.server.ts";
import { ConflictError, NotFoundError, ValidationError } from "#server/http/errors.server.ts";
import { getLibraryFileByUrl } from "#server/media/library.server.ts";
import { invalidate } from "./cache.server.ts";
import { linkedTo, listPublishedCards, outerColumn, type PublishedCard } from "./published-items.server.ts";
import { isPublished } from "./published.server.ts";
import { tableOf } from "./registry.server.ts";

export type { BylineAuthor } from "#domain/authors.ts";

const bylineColumns = {
  id: authors.id,
  slug: authors.slug,
  name: authors.name,
  name_fr: authors.nameFr,
  name_en: authors.nameEn,
  photo_url: authors.photoUrl,
};

/** The authors of each of `ids` (items of one type), in byline order; an item without any maps to []. */
export async function authorsOfItems(db: Queryable, type: ContentType, ids: readonly number[]): Promise<Map<number, BylineAuthor[]>> {
  const byItem = new Map<number, BylineAuthor[]>(ids.map((id) => [id, []]));
  if (!ids.length) return byItem;
  const rows = await db
    .select({ itemId: itemAuthors.itemId, ...bylineColumns })
    .from(itemAuthors)
    .innerJoin(authors, eq(authors.id, itemAuthors.authorId))
    .where(and(eq(itemAuthors.contentType, type), inArray(itemAuthors.itemId, [...ids])))
    .orderBy(asc(itemAuthors.itemId), asc(itemAuthors.position), asc(authors.id));
  for (const { itemId, ...author } of rows) byItem.get(itemId)?.push(author);
  return byItem;
}

/**
 * An item's byline as a column of the public reads (cards, the detail page, the feed): its profiles in byline
 * order as a JSON array of `{id, slug, name, name_fr, name_en}` (`[]` for none), so every listing that selects
 * it carries the byline in the same query.
 */
export function bylineSql(type: ContentType, itemId: PgColumn): SQL<BylineAuthor[]> {
  return sql<
    BylineAuthor[]
  >`(select coalesce(json_agg(json_build_object('id', ${authors.id}, 'slug', ${authors.slug}, 'name', ${authors.name}, 'name_fr', ${authors.nameFr}, 'name_en', ${authors.nameEn}) order by ${itemAuthors.position}, ${authors.id}), '[]'::json) from ${itemAuthors} join ${authors} on ${authors.id} = ${itemAuthors.authorId} where ${itemAuthors.contentType} = ${type} and ${itemAuthors.itemId} = ${outerColumn(itemId)})`;
}

/** A slug for `name` that no other profile has (name, name-2, name-3…). */
async function freeSlug(db: Database, wanted: string, exceptId?: number): Promise<string> {
  const taken = new Set(
    (
      await db
        .select({ slug: authors.slug })
        .from(authors)
        .where(
          and(
            or(eq(authors.slug, wanted), ilike(authors.slug, `${wanted.replace(/[\\%_]/g, (c) => `\\${c}`)}-%`)),
            exceptId ? ne(authors.id, exceptId) : undefined,
          ),
        )
    ).map((r) => r.slug),
  );
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n++) if (!taken.has(`${wanted}-${n}`)) return `${wanted}-${n}`;
}

/** The bylines of items of several types (a page of search results), keyed `${type}:${id}`: one query per type. */
export async function bylinesOfMixed(db: Queryable, items: readonly { type: ContentType; id: number }[]): Promise<Map<string, BylineAuthor[]>> {
  const out = new Map<string, BylineAuthor[]>();
  for (const type of new Set(items.map((i) => i.type))) {
    const byItem = await authorsOfItems(
      db,
      type,
      items.filter((i) => i.type === type).map((i) => i.id),
    );
    for (const [id, list] of byItem) out.set(`${type}:${id}`, list);
  }
  return out;
}

/**
 * The profile an account writes under by default. An account without one gets one now, named after its full
 * name (profiles.full_name, else user.name; never its e-mail), so every new item has a byline (decision 0121).
 * Runs in the save's transaction: the profile is made with the item or not at all. Null for an unknown account.
 */
export async function defaultAuthorOf(db: Queryable, userId: string): Promise<number | null> {
  const [row] = await db.select({ id: authors.id }).from(authors).where(eq(authors.userId, userId)).limit(1);
  if (row) return row.id;
  const [account] = await db
    .select({ name: user.name, fullName: profiles.fullName })
    .from(user)
    .leftJoin(profiles, eq(profiles.id, user.id))
    .where(eq(user.id, userId))
    .limit(1);
  if (!account) return null;
  const name = (account.fullName?.trim() || account.name.trim()).replace(/\s+/g, " ").slice(0, 120) || "—";
  const [made] = await db
    .insert(authors)
    .values({ name, slug: await freeSlug(db, authorSlugOf(name)), userId })
    .onConflictDoNothing()
    .returning({ id: authors.id });
  if (made) {
    invalidate("authors");
    return made.id;
  }
  // Another save of the same account made it meanwhile.
  const [again] = await db.select({ id: authors.id }).from(authors).where(eq(authors.userId, userId)).limit(1);
  return again?.id ?? null;
}

/** Those of `authorIds` that are no profile (a form or API naming an author deleted meanwhile). */
export async function unknownAuthorIds(db: Queryable, authorIds: readonly number[]): Promise<number[]> {
  if (!authorIds.length) return [];
  const found = new Set(
    (
      await db
        .select({ id: authors.id })
        .from(authors)
        .where(inArray(authors.id, [...authorIds]))
    ).map((r) => r.id),
  );
  return authorIds.filter((id) => !found.has(id));
}

/** Names `authorIds` (profiles that exist: see unknownAuthorIds) as the item's authors, in that order. */
export async function setItemAuthors(tx: Queryable, type: ContentType, itemId: number, authorIds: readonly number[]): Promise<void> {
  await tx.delete(itemAuthors).where(and(eq(itemAuthors.contentType, type), eq(itemAuthors.itemId, itemId)));
  if (authorIds.length) {
    await tx.insert(itemAuthors).values(authorIds.map((authorId, position) => ({ contentType: type, itemId, authorId, position })));
  }
}

/** Forgets the authors of deleted items. */
export async function forgetItemAuthors(tx: Queryable, type: ContentType, itemIds: readonly number[]): Promise<void> {
  if (itemIds.length) await tx.delete(itemAuthors).where(and(eq(itemAuthors.contentType, type), inArray(itemAuthors.itemId, [...itemIds])));
}

// ---- The profiles: back-office and JSON API ----

const itemCount = sql<number>`(select count(*)::int from ${itemAuthors} where ${itemAuthors.authorId} = ${authors.id})`;

const profileColumns = {
  ...bylineColumns,
  bio: authors.bio,
  bio_fr: authors.bioFr,
  bio_en: authors.bioEn,
  links: authors.links,
  user_id: authors.userId,
  user_email: user.email,
  item_count: itemCount,
  created_at: authors.createdAt,
  updated_at: authors.updatedAt,
};

type ProfileRow = Omit<AuthorProfile, "url" | "created_at" | "updated_at"> & { created_at: Date; updated_at: Date };

const toProfile = (r: ProfileRow): AuthorProfile => ({
  ...r,
  item_count: Number(r.item_count),
  links: r.links ?? [],
  url: authorPath(r.slug),
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

export { AUTHORS_PER_PAGE } from "#domain/authors.ts";

/** One page of the profiles, by name; `q` finds a name in any language, or the slug; `ids` keeps those profiles only. */
export async function listAuthors(
  db: Database,
  { q, ids, page = 1, perPage = AUTHORS_PER_PAGE }: { q?: string; ids?: readonly number[]; page?: number; perPage?: number } = {},
) {
  const words = (q ?? "").trim().slice(0, 100);
  const pattern = `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = and(
    words ? or(ilike(authors.name, pattern), ilike(authors.nameFr, pattern), ilike(authors.nameEn, pattern), ilike(authors.slug, pattern)) : undefined,
    ids ? inArray(authors.id, ids.length ? [...ids] : [0]) : undefined,
  );
  const [rows, [{ n }]] = await Promise.all([
    db
      .select(profileColumns)
      .from(authors)
      .leftJoin(user, eq(user.id, authors.userId))
      .where(where)
      .orderBy(asc(authors.name), asc(authors.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db.select({ n: count() }).from(authors).where(where),
  ]);
  return { authors: (rows as ProfileRow[]).map(toProfile), total: Number(n), page, perPage };
}

export async function getAuthor(db: Database, id: number): Promise<AuthorProfile | null> {
  const [row] = await db.select(profileColumns).from(authors).leftJoin(user, eq(user.id, authors.userId)).where(eq(authors.id, id)).limit(1);
  return row ? toProfile(row as ProfileRow) : null;
}

export const authorNotFound = () => new NotFoundError("Not found");
const invalidAuthor = (fields: Record<string, string>) => new ValidationError("authors.v.invalid", fields);

/** The staff accounts a profile may be linked to (admins and editors, not disabled), with the profile each has. */
export async function linkableAccounts(db: Database): Promise<{ id: string; email: string; name: string; author_id: number | null }[]> {
  return db
    .select({ id: user.id, email: user.email, name: sql<string>`coalesce(nullif(${profiles.fullName}, ''), ${user.name})`, author_id: authors.id })
    .from(user)
    .innerJoin(profiles, eq(profiles.id, user.id))
    .leftJoin(authors, eq(authors.userId, user.id))
    .where(and(eq(profiles.disabled, false), or(inArray(profiles.role, ["writer", "editor", "admin"]), eq(profiles.isAdmin, true))))
    .orderBy(asc(user.email));
}

/** The checks a profile's fields need the database for: a free slug, a staff account not linked elsewhere, a library photo. */
async function checkAgainstDb(db: Database, values: Partial<AuthorInput>, current: AuthorProfile | null) {
  const fields: Record<string, string> = {};
  if (values.slug !== undefined && values.slug !== current?.slug) {
    const [clash] = await db
      .select({ id: authors.id })
      .from(authors)
      .where(and(eq(authors.slug, values.slug), current ? ne(authors.id, current.id) : undefined))
      .limit(1);
    if (clash) fields.slug = "authors.v.slugTaken";
  }
  if (values.user_id && values.user_id !== current?.user_id) {
    const account = (await linkableAccounts(db)).find((a) => a.id === values.user_id);
    if (!account) fields.user_id = "authors.v.account";
    else if (account.author_id !== null && account.author_id !== current?.id) fields.user_id = "authors.v.accountTaken";
  }
  // A photo is a file of the media library (or the one the profile already has, kept from the old site).
  if (values.photo_url && values.photo_url !== current?.photo_url && !(await getLibraryFileByUrl(db, values.photo_url))) {
    fields.photo_url = "authors.v.photoNotInLibrary";
  }
  if (Object.keys(fields).length) throw invalidAuthor(fields);
}

const columnsOf = (v: Partial<AuthorInput>) => {
  const row: Partial<typeof authors.$inferInsert> = {};
  if (v.name !== undefined) row.name = v.name;
  if (v.name_fr !== undefined) row.nameFr = v.name_fr;
  if (v.name_en !== undefined) row.nameEn = v.name_en;
  if (v.slug !== undefined) row.slug = v.slug;
  if (v.photo_url !== undefined) row.photoUrl = v.photo_url;
  if (v.bio !== undefined) row.bio = v.bio;
  if (v.bio_fr !== undefined) row.bioFr = v.bio_fr;
  if (v.bio_en !== undefined) row.bioEn = v.bio_en;
  if (v.links !== undefined) row.links = v.links;
  if (v.user_id !== undefined) row.userId = v.user_id;
  return row;
};

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === "23505" || e?.cause?.code === "23505";
};

/** Every public read that shows a byline (cards, detail pages, feeds, author pages) reads profiles again. */
function afterProfileWrite() {
  invalidate("authors", ...CONTENT_TYPES);
}

/**
 * A new profile from checked fields (domain/authors.ts checkAuthorInput). A slug made from the name (none
 * typed) is numbered when taken; a typed one that is taken is refused.
 */
export async function createAuthor(db: Database, values: Partial<AuthorInput>): Promise<AuthorProfile> {
  if (!values.name) throw invalidAuthor({ name: "authors.v.name" });
  const typedSlug = values.slug && values.slug !== authorSlugOf(values.name);
  const slug = typedSlug ? values.slug! : await freeSlug(db, values.slug ?? authorSlugOf(values.name));
  await checkAgainstDb(db, { ...values, slug }, null);
  try {
    const [row] = await db
      .insert(authors)
      .values({ ...columnsOf(values), name: values.name, slug })
      .returning({ id: authors.id });
    afterProfileWrite();
    return (await getAuthor(db, row.id))!;
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidAuthor({ slug: "authors.v.slugTaken" });
    throw error;
  }
}

export async function updateAuthor(db: Database, id: number, values: Partial<AuthorInput>): Promise<AuthorProfile> {
  const current = await getAuthor(db, id);
  if (!current) throw authorNotFound();
  await checkAgainstDb(db, values, current);
  try {
    await db
      .update(authors)
      .set({ ...columnsOf(values), updatedAt: new Date() })
      .where(eq(authors.id, id));
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidAuthor({ slug: "authors.v.slugTaken" });
    throw error;
  }
  afterProfileWrite();
  return (await getAuthor(db, id))!;
}

/** A profile that items still name is not deleted (409 AUTHOR_IN_USE with their count): take it off them first. */
export class AuthorInUseError extends ConflictError {
  constructor(readonly itemCount: number) {
    super("authors.inUse", "AUTHOR_IN_USE");
  }
}

export async function deleteAuthor(db: Database, id: number): Promise<void> {
  const current = await getAuthor(db, id);
  if (!current) throw authorNotFound();
  if (current.item_count > 0) throw new AuthorInUseError(current.item_count);
  await db.delete(authors).where(eq(authors.id, id));
  afterProfileWrite();
}

// ---- The public author page ----

export type PublicAuthor = Omit<AuthorProfile, "user_id" | "user_email" | "item_count" | "created_at" | "updated_at"> & { updated_at: Date };

export async function findAuthorBySlug(db: Database, slug: string): Promise<PublicAuthor | null> {
  const [row] = await db
    .select({ ...bylineColumns, bio: authors.bio, bio_fr: authors.bioFr, bio_en: authors.bioEn, links: authors.links, updated_at: authors.updatedAt })
    .from(authors)
    .where(eq(authors.slug, slug))
    .limit(1);
  return row ? { ...row, links: row.links ?? [], url: authorPath(row.slug) } : null;
}

/** An author's published items of every type, newest first, one page of them, and how many there are. */
export async function authorItems(db: Database, authorId: number, { page = 1, pageSize = 12 } = {}): Promise<{ items: PublishedCard[]; total: number }> {
  const where = linkedTo(itemAuthors, itemAuthors.authorId, authorId);
  return listPublishedCards(db, { types: CONTENT_TYPES, where }, { offset: (page - 1) * pageSize, limit: pageSize });
}

/** The profiles the sitemap lists: those with at least one published item. */
export function hasPublishedItems(): SQL {
  const published = CONTENT_TYPES.map((type) => {
    const t = tableOf(type);
    return sql`exists (select 1 from ${itemAuthors} join ${t} on ${t.id} = ${itemAuthors.itemId} where ${itemAuthors.contentType} = ${type} and ${itemAuthors.authorId} = ${authors.id} and ${isPublished(t)})`;
  });
  return or(...published)!;
}
