/**
 * The newsroom's data layer: what staff read and write, for every content type of the registry
 * (domain/content-types/). The public reader lives in detail.ts and the section modules, behind the one
 * published-and-due rule of published.ts; this module is the staff reader and the only writer.
 *
 * Every write
 *  - validates with the type's one form schema (the editor runs the same one in the browser), sanitises
 *    rich text, and checks the category exists;
 *  - keeps slugs unique per type, and records a changed slug so its old URL answers with a 301;
 *  - refuses to overwrite a save it has not seen (the caller's `updated_at` must still be current);
 *  - stores a revision of what was saved, in the same transaction as the save;
 *  - invalidates the cached public reads of the type at once, and re-arms the timer that makes the next
 *    scheduled item appear at its time.
 */
import { and, asc, count, desc, eq, gt, ilike, inArray, lte, min, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import {
  categoriesOf,
  CONTENT_TYPES,
  CONTENT_TYPE_DEFINITIONS,
  editorStatusOf,
  isRelationField,
  offersCategory,
  parsePublishDate,
  publicUrl,
  slugify,
  type ContentType,
  type EditorStatus,
} from "#domain/content-types/index.ts";
import { formSchemaOf } from "#domain/content-types/schema.ts";
import { fieldErrorsOf } from "#domain/schemas/shared.ts";
import { invalidate } from "./cache.server.ts";
import type { Database } from "#server/db/client.server.ts";
import { categories, contentRevisions, itemCorrections, profiles, programs, slugRedirects } from "#server/db/schema.server.ts";
import { auditSave, recordAudit } from "./audit.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { arabic, ConflictError, NotFoundError, ValidationError } from "#server/http/errors.server.ts";
import { sanitizeRichText } from "./rich-text.server.ts";
import { columnOf, tableOf } from "./registry.server.ts";
import { syncSearchIndex } from "#server/search/search-index.server.ts";
import { defaultAuthorOf, unknownAuthorIds } from "./authors.server.ts";
import { forgetRelations, relationsOfItems, writeRelations } from "./item-relations.server.ts";
import { queuePushAlert } from "#server/push/alerts.server.ts";
import { parseId } from "#domain/ids.ts";
import { checkStatusChange, forgetWorkflow, recordTransition, type Actor } from "./workflow.server.ts";
import { forgetLocks, refuseIfLockedByOther } from "./item-locks.server.ts";
import { forgetNotes } from "./item-notes.server.ts";

/** A content form with its image: the image limit (10 MB) and room for a long body and the other fields. */
export const MAX_CONTENT_FORM_BYTES = 11 * 1024 * 1024;
/** A JSON item: a long body and its fields, no files. */
export const MAX_CONTENT_JSON_BYTES = 1024 * 1024;

export const STAFF_PAGE_SIZE = 20;
const STAFF_PAGE_MAX = 100;

export type StaffItem = {
  id: number;
  title: string;
  page_slug: string;
  status: EditorStatus;
  publish_date: string;
  created_at: string;
  updated_at: string;
  author_name: string | null;
  url: string;
  category_name?: string | null;
  /** The category's French name, for the French and English back-offices. */
  category_name_fr?: string | null;
  [field: string]: unknown;
};

/**
 * The account saving. From a request it carries the account's profile, and a status it may not set is refused
 * (workflow.server.ts, 403 PUBLISH_PERMISSION); without one it is a trusted caller (a script, a seed, a test).
 */
export type Author = Actor;

// ---- Errors (server/http/errors.server.ts): 422 VALIDATION, 409 CONFLICT, 404 NOT_FOUND ----

/** Fields refused, one translation key each (newsroom.v.*): the editor shows them, the API answers them in Arabic. */
const invalidItem = (fields: Record<string, string>) => new ValidationError(arabic("newsroom.v.invalid"), fields);

/** No item of that type with that id (or no such revision of it). */
export const contentNotFound = () => new NotFoundError("Not found");

/** Someone saved the item since the caller read it: `current` is what they saved. */
export class ContentConflictError extends ConflictError {
  constructor(readonly current: StaffItem) {
    super(arabic("newsroom.v.conflict"));
  }
}

// ---- Reading (staff) ----

const COMMON = ["id", "title", "pageSlug", "status", "publishDate", "createdAt", "updatedAt", "authorName"] as const;

/** The columns a staff read selects for a type: the common ones and every field of its definition. */
/** A type's fields stored in its table (not its relations: authors, tags). */
const tableFields = (type: ContentType) => CONTENT_TYPE_DEFINITIONS[type].fields.filter((f) => !isRelationField(f));

function staffColumns(type: ContentType): Record<string, PgColumn | SQL> {
  const selection: Record<string, PgColumn | SQL> = {};
  for (const key of COMMON) selection[key] = columnOf(type, key)!;
  for (const field of tableFields(type)) selection[field.column] = columnOf(type, field.column)!;
  if (columnOf(type, "categoryId")) Object.assign(selection, { categoryName: categories.name, categoryNameFr: categories.nameFr });
  return selection;
}

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString());

/** A row under the spec's field names, as the editor, the lists and the JSON API show it. */
function toStaffItem(type: ContentType, row: Record<string, unknown>, now = new Date()): StaffItem {
  const item: StaffItem = {
    id: row.id as number,
    title: row.title as string,
    page_slug: row.pageSlug as string,
    status: editorStatusOf(row.status as string, row.publishDate as Date, now),
    publish_date: iso(row.publishDate),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    author_name: (row.authorName as string | null) ?? null,
    url: publicUrl(type, row.pageSlug as string, row.id as number),
  };
  for (const field of tableFields(type)) {
    const value = row[field.column];
    item[field.name] =
      field.kind === "category" || field.kind === "integer" || field.kind === "program" ? (value == null ? null : String(value as number)) : (value ?? null);
  }
  if ("categoryName" in row) {
    item.category_name = (row.categoryName as string | null) ?? null;
    item.category_name_fr = (row.categoryNameFr as string | null) ?? null;
  }
  return item;
}

export function statusFilter(type: ContentType, status: EditorStatus | "all" | undefined): SQL | undefined {
  const t = tableOf(type);
  if (status === "draft" || status === "review" || status === "changes_requested" || status === "approved") return eq(t.status, status);
  if (status === "published") return and(eq(t.status, "published"), lte(t.publishDate, sql`now()`));
  if (status === "scheduled") return and(eq(t.status, "published"), gt(t.publishDate, sql`now()`));
  return undefined;
}

export function textFilter(type: ContentType, q: string | undefined): SQL | undefined {
  const words = (q ?? "").trim().slice(0, 200);
  if (!words) return undefined;
  const pattern = `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const columns = CONTENT_TYPE_DEFINITIONS[type].searchFields
    .filter((name) => name !== "content") // bodies are long: the list filters on what it shows
    .map((name) => columnOf(type, CONTENT_TYPE_DEFINITIONS[type].fields.find((f) => f.name === name)?.column ?? name))
    .filter((c): c is PgColumn => Boolean(c));
  return or(...columns.map((c) => ilike(c, pattern)));
}

export type StaffListQuery = { page?: number; perPage?: number; q?: string; status?: EditorStatus | "all" };
export type StatusCounts = Record<EditorStatus | "all", number>;

/** One page of a type's items for the back-office, newest first, with the count of each status. */
export async function listForStaff(db: Database, type: ContentType, query: StaffListQuery = {}) {
  const def = CONTENT_TYPE_DEFINITIONS[type];
  const t = tableOf(type);
  const perPage = Math.min(Math.max(1, Math.trunc(query.perPage ?? STAFF_PAGE_SIZE)), STAFF_PAGE_MAX);
  const page = Math.max(1, Math.trunc(query.page ?? 1));
  const text = textFilter(type, query.q);
  const where = and(text, statusFilter(type, query.status));
  const order = def.listOrder === "publish_date" ? t.publishDate : t.createdAt;

  let rowsQuery = db.select(staffColumns(type)).from(t).$dynamic();
  if (columnOf(type, "categoryId")) rowsQuery = rowsQuery.leftJoin(categories, eq(t.categoryId, categories.id));
  const [rows, [tally]] = await Promise.all([
    rowsQuery
      .where(where)
      .orderBy(desc(order), desc(t.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db
      .select({
        all: count(),
        draft: sql<number>`count(*) filter (where ${t.status} = 'draft')`,
        review: sql<number>`count(*) filter (where ${t.status} = 'review')`,
        changes_requested: sql<number>`count(*) filter (where ${t.status} = 'changes_requested')`,
        approved: sql<number>`count(*) filter (where ${t.status} = 'approved')`,
        published: sql<number>`count(*) filter (where ${t.status} = 'published' and ${t.publishDate} <= now())`,
        scheduled: sql<number>`count(*) filter (where ${t.status} = 'published' and ${t.publishDate} > now())`,
      })
      .from(t)
      .where(text),
  ]);
  const counts: StatusCounts = {
    all: Number(tally?.all ?? 0),
    draft: Number(tally?.draft ?? 0),
    review: Number(tally?.review ?? 0),
    changes_requested: Number(tally?.changes_requested ?? 0),
    approved: Number(tally?.approved ?? 0),
    published: Number(tally?.published ?? 0),
    scheduled: Number(tally?.scheduled ?? 0),
  };
  const total = query.status && query.status !== "all" ? counts[query.status] : counts.all;
  const now = new Date();
  const items = rows.map((r) => toStaffItem(type, r, now));
  const relations = await relationsOfItems(
    db,
    type,
    items.map((i) => i.id),
  );
  for (const item of items) Object.assign(item, relations.get(item.id));
  return { items, total, page, perPage, counts };
}

export async function getForStaff(db: Database, type: ContentType, id: number): Promise<StaffItem | null> {
  if (parseId(id) === null) return null;
  const t = tableOf(type);
  let q = db.select(staffColumns(type)).from(t).$dynamic();
  if (columnOf(type, "categoryId")) q = q.leftJoin(categories, eq(t.categoryId, categories.id));
  const [row] = await q.where(eq(t.id, id)).limit(1);
  if (!row) return null;
  const item = toStaffItem(type, row);
  return Object.assign(item, (await relationsOfItems(db, type, [id])).get(id));
}

/** Every category, or those a type's form offers (its definition's `categories`, in their order). */
export async function listCategoryOptions(db: Database, type?: ContentType) {
  const all = await db
    .select({ id: categories.id, name: categories.name, nameFr: categories.nameFr, slug: categories.slug })
    .from(categories)
    .orderBy(asc(categories.sortOrder), asc(categories.name));
  return type ? categoriesOf(CONTENT_TYPE_DEFINITIONS[type], all) : all;
}

/** The programs a podcast episode may belong to, by title: every program, published or not (a show is set up first). */
export async function listProgramOptions(db: Database) {
  return db.select({ id: programs.id, name: programs.title, nameFr: programs.titleFr }).from(programs).orderBy(asc(programs.title));
}

// ---- Writing ----

/** The item as the editor sends it, validated: the spec's field names to checked values. */
async function validate(db: Database, type: ContentType, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const parsed = formSchemaOf(type).safeParse(input);
  if (!parsed.success) throw invalidItem(fieldErrorsOf(parsed.error) as Record<string, string>);
  const values = parsed.data;
  const def = CONTENT_TYPE_DEFINITIONS[type];
  for (const field of def.fields) {
    if (field.kind === "richtext" && typeof values[field.name] === "string") {
      values[field.name] = sanitizeRichText(values[field.name] as string);
    }
  }
  const category = def.fields.find((f) => f.kind === "category");
  if (category && values[category.name] != null) {
    const [found] = await db
      .select({ id: categories.id, slug: categories.slug })
      .from(categories)
      .where(eq(categories.id, Number(values[category.name])))
      .limit(1);
    if (!found) throw invalidItem({ [category.name]: "newsroom.v.categoryNotFound" });
    // A category the type's form does not offer (an article's section for a news item) is not a choice.
    if (!offersCategory(def, found.slug)) throw invalidItem({ [category.name]: category.message ?? "newsroom.v.category" });
  }
  const show = def.fields.find((f) => f.kind === "program");
  if (show && values[show.name] != null) {
    const [found] = await db
      .select({ id: programs.id })
      .from(programs)
      .where(eq(programs.id, Number(values[show.name])))
      .limit(1);
    if (!found) throw invalidItem({ [show.name]: "newsroom.v.programNotFound" });
  }
  const byline = def.fields.find((f) => f.kind === "authors");
  if (byline && (await unknownAuthorIds(db, (values[byline.name] as number[] | undefined) ?? [])).length) {
    throw invalidItem({ [byline.name]: "newsroom.v.authorNotFound" });
  }
  return values;
}

/** Column values for a validated item. A blank optional field with a table default keeps the default. */
function columnValues(type: ContentType, values: Record<string, unknown>, now: Date): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const field of tableFields(type)) {
    let value = values[field.name];
    if (value === null && field.defaultValue !== undefined) value = field.defaultValue;
    if (value === null && field.kind === "date" && field.column === "airDate") value = now.toISOString().slice(0, 10);
    if ((field.kind === "category" || field.kind === "integer" || field.kind === "program") && value != null) value = Number(value);
    row[field.column] = value ?? null;
  }
  const status = values.status as EditorStatus;
  // Scheduled is stored as published with its time to come; the other states as they are.
  row.status = status === "scheduled" ? "published" : status;
  row.publishDate = parsePublishDate(values.publish_date as string | null, now);
  return row;
}

/** A new item naming no author is the signed-in account's, under its profile when it has one. */
async function withDefaultByline(db: Database, type: ContentType, values: Record<string, unknown>, author: Author) {
  const byline = CONTENT_TYPE_DEFINITIONS[type].fields.find((f) => f.kind === "authors");
  if (!byline || (values[byline.name] as number[] | undefined)?.length) return values;
  const profile = await defaultAuthorOf(db, author.id);
  return profile === null ? values : { ...values, [byline.name]: [profile] };
}

/** The part of an email address before the at-sign (back-office.md §3 author_name). */
const authorNameOf = (email: string) => email.split("@")[0] || email;

/** The first free slug of `wanted`, `wanted-2`, `wanted-3`… among the type's items (other than `exceptId`). */
async function freeSlug(db: Database, type: ContentType, wanted: string, exceptId?: number): Promise<string> {
  const t = tableOf(type);
  // A slug of digits alone would read as an item id in /{type}/{id} URLs.
  const base = !wanted ? `${type}-${Date.now().toString(36)}` : /^\d+$/.test(wanted) ? `${type}-${wanted}` : wanted;
  const taken = new Set(
    (
      await db
        .select({ slug: t.pageSlug, id: t.id })
        .from(t)
        .where(or(eq(t.pageSlug, base), sql`${t.pageSlug} like ${`${base.replace(/[\\%_]/g, (c) => `\\${c}`)}-%`}`))
    )
      .filter((r) => r.id !== exceptId)
      .map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === "23505" || e?.cause?.code === "23505";
};

export async function keepRevision(db: Database, type: ContentType, item: StaffItem, author: Author) {
  const data: Record<string, unknown> = { status: item.status, publish_date: item.publish_date, page_slug: item.page_slug };
  for (const field of CONTENT_TYPE_DEFINITIONS[type].fields) data[field.name] = item[field.name];
  await db.insert(contentRevisions).values({ contentType: type, itemId: item.id, data, authorId: author.id, authorName: authorNameOf(author.email) });
}

/** The saved item's search row written in the save's own transaction: found (or forgotten) at once. */
export async function indexForSearch(tx: Database, type: ContentType, id: number) {
  // A type without search columns (media) is not searched.
  if (CONTENT_TYPE_DEFINITIONS[type].search) await syncSearchIndex(tx, { type, id });
}

/** After a committed write: the type's cached reads dropped (once) and the scheduled-publishing timer re-armed. */
export function afterWrite(db: Database, type: ContentType) {
  invalidate(type);
  void armScheduledPublishing(db);
}

/** The editor's note sent with a status (a send-back's `review_note`), taken out of the item's input. */
function takeNote(input: Record<string, unknown>): { note: unknown; rest: Record<string, unknown> } {
  const { review_note: note, ...rest } = input;
  return { note, rest };
}

export async function createItem(db: Database, type: ContentType, input: Record<string, unknown>, author: Author): Promise<StaffItem> {
  const { note: noteInput, rest } = takeNote(input);
  const values = await validate(db, type, rest);
  const note = checkStatusChange(author, null, values.status as EditorStatus, noteInput);
  const now = new Date();
  const t = tableOf(type);
  const wanted = (values.page_slug as string | null) ?? slugify(values.title as string);
  for (let attempt = 0; ; attempt++) {
    const slug = await freeSlug(db, type, wanted);
    try {
      const id = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(t)
          .values({
            ...columnValues(type, values, now),
            pageSlug: slug,
            authorId: author.id,
            authorName: authorNameOf(author.email),
            createdAt: now,
            updatedAt: now,
          } as never)
          .returning({ id: t.id });
        // A slug that used to lead elsewhere now belongs to this item.
        await tx.delete(slugRedirects).where(and(eq(slugRedirects.contentType, type), eq(slugRedirects.oldSlug, slug)));
        await writeRelations(tx as unknown as Database, type, row.id, await withDefaultByline(tx as unknown as Database, type, values, author));
        const item = (await getForStaff(tx as unknown as Database, type, row.id))!;
        await keepRevision(tx as unknown as Database, type, item, author);
        await indexForSearch(tx as unknown as Database, type, row.id);
        // An urgent or breaking item published (or scheduled): its alert queued with it (decision 0127).
        await queuePushAlert(tx as unknown as Database, type, null, item);
        // Published or scheduled by this save: one audit row in the same transaction (decision 0140).
        await auditSave(tx as unknown as Database, type, null, item, author);
        // Submitted or published by this save: its notices and their e-mails (decision 0138).
        await recordTransition(tx as unknown as Database, type, item, null, item.status, author, note);
        return row.id;
      });
      afterWrite(db, type);
      return (await getForStaff(db, type, id))!;
    } catch (error) {
      // Two editors took the same slug at once: the later one takes the next free one.
      if (isUniqueViolation(error) && attempt < 5) continue;
      throw error;
    }
  }
}

export type UpdateOptions = {
  /** The `updated_at` the editor opened; a save by anybody since then is refused. */
  expectedUpdatedAt?: string | null;
  /** Only the fields present in the input change (the JSON API's PATCH); otherwise the input is the whole item. */
  partial?: boolean;
  /** An edit (the editor's save, the API's PATCH): refused with 409 LOCKED while another account holds the item's lock (decision 0139). */
  respectLock?: boolean;
  /** The save restores this revision (restoreRevision): audited as a restore (decision 0140). */
  restoredRevision?: number;
};

export async function updateItem(db: Database, type: ContentType, id: number, input: Record<string, unknown>, author: Author, options: UpdateOptions = {}) {
  const current = await getForStaff(db, type, id);
  if (!current) throw contentNotFound();
  if (options.respectLock) await refuseIfLockedByOther(db, type, id, author.id);
  if (options.expectedUpdatedAt && Date.parse(options.expectedUpdatedAt) !== Date.parse(current.updated_at)) throw new ContentConflictError(current);
  const { note: noteInput, rest } = takeNote(input);
  const merged: Record<string, unknown> = options.partial ? { ...current, ...rest } : { ...rest };
  // A partial update that leaves the status alone keeps a scheduled item's time.
  const values = await validate(db, type, merged);
  const note = checkStatusChange(author, current.status, values.status as EditorStatus, noteInput);
  const now = new Date();
  const t = tableOf(type);
  const wanted = (values.page_slug as string | null) ?? current.page_slug;
  for (let attempt = 0; ; attempt++) {
    const slug = wanted === current.page_slug ? wanted : await freeSlug(db, type, wanted, id);
    try {
      await db.transaction(async (tx) => {
        const updated = await tx
          .update(t)
          .set({ ...columnValues(type, values, now), pageSlug: slug, updatedAt: now } as never)
          // The check and the write are one statement: two saves of the same version cannot both pass.
          .where(and(eq(t.id, id), sql`date_trunc('milliseconds', ${t.updatedAt}) = ${new Date(current.updated_at).toISOString()}::timestamptz`))
          .returning({ id: t.id });
        if (!updated.length) throw new ContentConflictError((await getForStaff(tx as unknown as Database, type, id)) ?? current);
        if (slug !== current.page_slug) {
          await tx.delete(slugRedirects).where(and(eq(slugRedirects.contentType, type), eq(slugRedirects.oldSlug, slug)));
          await tx
            .insert(slugRedirects)
            .values({ contentType: type, oldSlug: current.page_slug, itemId: id })
            .onConflictDoUpdate({ target: [slugRedirects.contentType, slugRedirects.oldSlug], set: { itemId: id, createdAt: now } });
        }
        await writeRelations(tx as unknown as Database, type, id, values);
        const item = (await getForStaff(tx as unknown as Database, type, id))!;
        await keepRevision(tx as unknown as Database, type, item, author);
        await indexForSearch(tx as unknown as Database, type, id);
        await queuePushAlert(tx as unknown as Database, type, current, item);
        await auditSave(tx as unknown as Database, type, current, item, author, options.restoredRevision);
        await recordTransition(tx as unknown as Database, type, item, current.status, item.status, author, note);
      });
      afterWrite(db, type);
      return (await getForStaff(db, type, id))!;
    } catch (error) {
      if (isUniqueViolation(error) && attempt < 5) continue;
      throw error;
    }
  }
}

/**
 * Removes items in the caller's transaction with everything that hangs on them: revisions, slug redirects and
 * search rows. Returns the ids that existed. The one delete of deleteItem and the bulk actions (bulk.server.ts).
 */
export async function removeItems(tx: Database, type: ContentType, ids: readonly number[]): Promise<number[]> {
  if (!ids.length) return [];
  const t = tableOf(type);
  const gone = (
    await tx
      .delete(t)
      .where(inArray(t.id, [...ids]))
      .returning({ id: t.id })
  ).map((r) => r.id);
  if (!gone.length) return gone;
  await tx.delete(contentRevisions).where(and(eq(contentRevisions.contentType, type), inArray(contentRevisions.itemId, gone)));
  await tx.delete(slugRedirects).where(and(eq(slugRedirects.contentType, type), inArray(slugRedirects.itemId, gone)));
  await forgetRelations(tx, type, gone);
  await forgetWorkflow(tx, type, gone);
  await forgetNotes(tx, type, gone);
  await forgetLocks(tx, type, gone);
  await tx.delete(itemCorrections).where(and(eq(itemCorrections.contentType, type), inArray(itemCorrections.itemId, gone)));
  for (const id of gone) await indexForSearch(tx, type, id);
  return gone;
}

export async function deleteItem(db: Database, type: ContentType, id: number, author: Author | null = null): Promise<void> {
  const deleted = await db.transaction(async (tx) => {
    const gone = await removeItems(tx as unknown as Database, type, [id]);
    if (gone.length) await recordAudit(tx as unknown as Database, { actor: author, action: "delete", type, ids: gone });
    return gone.length > 0;
  });
  if (!deleted) throw contentNotFound();
  afterWrite(db, type);
}

// ---- Revisions ----

/** Revisions listed at most (newest first); older ones stay stored and restorable by id. */
export const REVISIONS_LISTED = 200;

/**
 * An item's revisions, newest first: saves and autosaves (`kind`), each with its author's name as their
 * profile gives it (full name), else the name kept with the revision (the e-mail's local part).
 */
export async function listRevisions(db: Database, type: ContentType, id: number) {
  const rows = await db
    .select({
      id: contentRevisions.id,
      createdAt: contentRevisions.createdAt,
      authorName: sql<string | null>`coalesce(nullif(${profiles.fullName}, ''), ${contentRevisions.authorName})`,
      kind: contentRevisions.kind,
      title: sql<string>`${contentRevisions.data}->>'title'`,
    })
    .from(contentRevisions)
    .leftJoin(profiles, eq(profiles.id, contentRevisions.authorId))
    .where(and(eq(contentRevisions.contentType, type), eq(contentRevisions.itemId, id)))
    .orderBy(desc(contentRevisions.createdAt), desc(contentRevisions.id))
    .limit(REVISIONS_LISTED);
  return rows.map((r) => ({ id: r.id, created_at: iso(r.createdAt), author_name: r.authorName, kind: r.kind, title: r.title }));
}

/** One revision of the item, or null when there is none with that id for that item (another item's revision included). */
export async function getRevision(db: Database, type: ContentType, id: number, revisionId: number) {
  const [row] = await db
    .select({
      id: contentRevisions.id,
      createdAt: contentRevisions.createdAt,
      authorName: sql<string | null>`coalesce(nullif(${profiles.fullName}, ''), ${contentRevisions.authorName})`,
      kind: contentRevisions.kind,
      data: contentRevisions.data,
    })
    .from(contentRevisions)
    .leftJoin(profiles, eq(profiles.id, contentRevisions.authorId))
    .where(and(eq(contentRevisions.id, revisionId), eq(contentRevisions.contentType, type), eq(contentRevisions.itemId, id)))
    .limit(1);
  return row ? { id: row.id, created_at: iso(row.createdAt), author_name: row.authorName, kind: row.kind, data: row.data } : null;
}

/** Saves an earlier revision as the item's current version (itself a new revision). */
export async function restoreRevision(db: Database, type: ContentType, id: number, revisionId: number, author: Author) {
  const revision = await getRevision(db, type, id, revisionId);
  if (!revision) throw contentNotFound();
  const data = { ...revision.data };
  // A scheduled time that has passed since is simply a publication.
  if (data.status === "scheduled" && parsePublishDate(data.publish_date as string) <= new Date()) data.status = "published";
  // A save holds every field; an autosave only those its form sent: the others keep their current values.
  return updateItem(db, type, id, data, author, { partial: revision.kind === "autosave", restoredRevision: revision.id });
}

// ---- Autosaves (drizzle/0009_revision_kind.sql; docs/how-it-works.md, "No lost work") ----

/** Autosaves older than this are removed (pruneAutosaves): a draft left alone for a month is not a crash. */
export const AUTOSAVE_KEEP_DAYS = 30;

export type Autosave = { id: number; saved_at: string; data: Record<string, unknown> };

/** Why an autosave body was refused: one message per field (the API answers them as they are). */
const autosaveRefused = (message: string, fields: Record<string, string> = {}) =>
  new ValidationError(message, fields, { status: 400, code: "INVALID_AUTOSAVE" });

/**
 * An editor's form as posted for an autosave, `{ values: { field: text }, updated_at? }`, as a revision's data (the shape
 * keepRevision writes: the type's fields, status, publish_date, page_slug; blanks as null, booleans as
 * booleans, rich text sanitised). Any other key, or a value that is not text, is refused. Nothing is
 * validated against the type's schema: an autosave keeps a half-typed draft as it is.
 */
function autosaveData(type: ContentType, body: Record<string, unknown>): Record<string, unknown> {
  const values = body.values;
  if (!values || typeof values !== "object" || Array.isArray(values)) {
    throw autosaveRefused('The body must be {"values": {"<field>": "<text>", …}} with the editor\'s fields.');
  }
  const extra = Object.keys(body).filter((key) => key !== "values" && key !== "updated_at");
  if (extra.length) throw autosaveRefused(`Unknown key "${extra[0].slice(0, 40).replace(/[^\w-]/g, "?")}": the body has "values" and "updated_at" only.`);
  const def = CONTENT_TYPE_DEFINITIONS[type];
  const kinds = new Map<string, string>(def.fields.map((f) => [f.name, f.kind]));
  for (const name of ["status", "publish_date", "page_slug"]) kinds.set(name, "publishing");
  const fields: Record<string, string> = {};
  const data: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
    const shown = name.slice(0, 40).replace(/[^\w-]/g, "?");
    const kind = kinds.get(name);
    if (!kind) fields[shown] = `Not a field of ${type}.`;
    else if (typeof value !== "string") fields[shown] = "Must be text.";
    else if (kind === "boolean") data[name] = value === "on" || value === "true";
    else if (kind === "richtext") data[name] = value ? sanitizeRichText(value) : null;
    else if (name === "publish_date") {
      // The form's datetime-local is in the site's time (UTC), as the editor shows it back.
      const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value) ? new Date(`${value}Z`) : null;
      data[name] = at && !Number.isNaN(at.getTime()) ? at.toISOString() : value || null;
    } else data[name] = value === "" ? null : value;
  }
  if (Object.keys(fields).length) throw autosaveRefused("Some fields of the autosave were refused.", fields);
  return data;
}

let lastPruneAt = 0;

/**
 * Keeps what `author` is typing in a draft as their one autosave of the item (a newer one replaces it). The
 * item itself is not changed; an item that is not a draft (published or scheduled) is refused with 409
 * NOT_A_DRAFT: its changes wait for a save. At most once an hour it also prunes old autosaves.
 */
export async function autosaveDraft(db: Database, type: ContentType, id: number, body: Record<string, unknown>, author: Author): Promise<Autosave> {
  const item = await getForStaff(db, type, id);
  if (!item) throw contentNotFound();
  if (item.status === "published" || item.status === "scheduled") {
    throw new ConflictError("Only an item readers do not see is autosaved: this item is published or scheduled, save it instead.", "NOT_A_DRAFT");
  }
  const data = autosaveData(type, body);
  // The version the editor opened: once anybody has saved since, this typing belongs to an older version.
  const base = body.updated_at;
  if (base !== undefined && base !== null && (typeof base !== "string" || Number.isNaN(Date.parse(base)))) {
    throw autosaveRefused('"updated_at" must be the item\'s updated_at as read (an ISO date-time).');
  }
  if (typeof base === "string" && Date.parse(base) !== Date.parse(item.updated_at)) {
    throw new ConflictError("The item was saved since this editor opened it: its autosave is not kept.", "STALE");
  }
  const [row] = await db
    .insert(contentRevisions)
    .values({ contentType: type, itemId: id, data, authorId: author.id, authorName: authorNameOf(author.email), kind: "autosave" })
    .onConflictDoUpdate({
      target: [contentRevisions.contentType, contentRevisions.itemId, contentRevisions.authorId],
      targetWhere: sql`${contentRevisions.kind} = 'autosave'`,
      set: { data, authorName: authorNameOf(author.email), createdAt: sql`now()` },
    })
    .returning({ id: contentRevisions.id, createdAt: contentRevisions.createdAt });
  if (Date.now() - lastPruneAt > 60 * 60 * 1000) {
    lastPruneAt = Date.now();
    await pruneAutosaves(db).catch((error: unknown) => logger.warn({ err: error }, "old autosaves not pruned"));
  }
  return { id: row.id, saved_at: iso(row.createdAt), data };
}

/** `authorId`'s autosave of the item when it is newer than the item's last saved revision (by anyone), else null. */
export async function newerAutosave(db: Database, type: ContentType, id: number, authorId: string): Promise<Autosave | null> {
  const of = (kind: "save" | "autosave") => and(eq(contentRevisions.contentType, type), eq(contentRevisions.itemId, id), eq(contentRevisions.kind, kind));
  const [[auto], [saved]] = await Promise.all([
    db
      .select({ id: contentRevisions.id, createdAt: contentRevisions.createdAt, data: contentRevisions.data })
      .from(contentRevisions)
      .where(and(of("autosave"), eq(contentRevisions.authorId, authorId)))
      .limit(1),
    db
      .select({ at: sql<Date | string | null>`max(${contentRevisions.createdAt})` })
      .from(contentRevisions)
      .where(of("save")),
  ]);
  if (!auto) return null;
  if (saved?.at && new Date(saved.at).getTime() >= new Date(auto.createdAt).getTime()) return null;
  return { id: auto.id, saved_at: iso(auto.createdAt), data: auto.data };
}

/** Removes `authorId`'s autosave of the item (discarded, or superseded by their save). */
export async function discardAutosave(db: Database, type: ContentType, id: number, authorId: string): Promise<void> {
  await db
    .delete(contentRevisions)
    .where(
      and(
        eq(contentRevisions.contentType, type),
        eq(contentRevisions.itemId, id),
        eq(contentRevisions.authorId, authorId),
        eq(contentRevisions.kind, "autosave"),
      ),
    );
}

/** Removes the autosaves older than `days`; returns how many. */
export async function pruneAutosaves(db: Database, days = AUTOSAVE_KEEP_DAYS): Promise<number> {
  const removed = await db
    .delete(contentRevisions)
    .where(and(eq(contentRevisions.kind, "autosave"), sql`${contentRevisions.createdAt} < now() - make_interval(days => ${Math.max(0, Math.trunc(days))})`))
    .returning({ id: contentRevisions.id });
  return removed.length;
}

// ---- Scheduled publishing ----

let timer: ReturnType<typeof setTimeout> | undefined;
/** setTimeout holds at most ~24.8 days; a later time is re-armed when this one fires. */
const LONGEST_WAIT_MS = 2 ** 31 - 1;

/**
 * The public reads filter on publish_date <= now(), so a scheduled item is public at its time; what hides it
 * is the read cache. This timer invalidates the type's cached reads when the next scheduled item comes due.
 * One process; with several, each runs its own (they see the same database).
 */
export async function armScheduledPublishing(db: Database): Promise<void> {
  try {
    const nexts = await Promise.all(
      CONTENT_TYPES.map(async (type) => {
        const t = tableOf(type);
        const [row] = await db
          .select({ at: min(t.publishDate) })
          .from(t)
          .where(and(eq(t.status, "published"), gt(t.publishDate, sql`now()`)));
        return { type, at: row?.at ? new Date(row.at) : null };
      }),
    );
    const due = nexts.filter((n): n is { type: ContentType; at: Date } => n.at !== null).sort((a, b) => a.at.getTime() - b.at.getTime());
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!due.length) return;
    const first = due[0].at.getTime();
    const types = due.filter((d) => d.at.getTime() === first).map((d) => d.type);
    timer = setTimeout(
      () => {
        invalidate(...types);
        void armScheduledPublishing(db);
      },
      Math.min(Math.max(first - Date.now() + 50, 0), LONGEST_WAIT_MS),
    );
    timer.unref();
  } catch (error) {
    logger.error({ err: error }, "could not arm scheduled publishing");
  }
}
