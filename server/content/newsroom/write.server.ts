/**
 * The newsroom's one writer, for every content type of the registry (domain/content-types/). Every save
 *  - parses the input once with the type's one form schema (the editor runs the same one in the browser),
 *    sanitises rich text, and checks that the category, the authors and the items its reference fields name exist;
 *  - keeps slugs unique per type, and records a changed slug so its old URL answers with a 301;
 *  - refuses to overwrite a save it has not seen (the caller's `updated_at` must still be current);
 *  - stores a revision of what was saved, in the same transaction as the save, with its search row, its alert,
 *    its audit row and its workflow notices;
 *  - invalidates the cached public reads of the type at once, and re-arms the timer that makes the next
 *    scheduled item appear at its time (./scheduling.server.ts).
 * What one type does on a save is in its hooks (../types/).
 */
import { and, eq, inArray, or, sql } from "drizzle-orm";
import {
  CONTENT_TYPE_DEFINITIONS,
  offersCategory,
  parsePublishDate,
  publicUrl,
  slugify,
  type ContentType,
  type EditorStatus,
} from "#domain/content-types/index.ts";
import { formSchemaOf } from "#domain/content-types/schema.ts";
import { fieldErrorsOf, type FieldErrors } from "#domain/schemas/shared.ts";
import type { Database, Queryable } from "#server/db/client.server.ts";
import { categories, contentRevisions, itemCorrections, slugRedirects } from "#server/db/schema.server.ts";
import { arabic, ConflictError, NotFoundError, ValidationError } from "#server/http/errors.server.ts";
import { syncSearchIndex } from "#server/search/search-index.server.ts";
import { alertWorthy, anyBreaking, queuePushAlert } from "#server/push/alerts.server.ts";
import { invalidate } from "../cache.server.ts";
import { auditSave, recordAudit } from "../audit.server.ts";
import { sanitizeRichText } from "../rich-text.server.ts";
import { referencedType, referenceFields, tableOf } from "../registry.server.ts";
import { defaultAuthorOf, unknownAuthorIds } from "../authors.server.ts";
import { forgetRelations, writeRelations } from "../item-relations.server.ts";
import { checkStatusChange, forgetWorkflow, recordTransition, type Actor } from "../workflow.server.ts";
import { forgetLocks, refuseIfLockedByOther } from "../item-locks.server.ts";
import { forgetNotes } from "../item-notes.server.ts";
import { claimAddress, recordMove } from "../moved-addresses.server.ts";
import { hooksOf } from "../types/index.server.ts";
import { getForStaff, NUMERIC_KINDS, tableFields, type StaffItem } from "./read.server.ts";
import { armScheduledPublishing } from "./scheduling.server.ts";

/** A content form with its image: the image limit (10 MB) and room for a long body and the other fields. */
export const MAX_CONTENT_FORM_BYTES = 11 * 1024 * 1024;
/** A JSON item: a long body and its fields, no files. */
export const MAX_CONTENT_JSON_BYTES = 1024 * 1024;

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

// ---- The input, parsed once ----

/**
 * Input that passed its type's form schema (parseInput), with the editor's note sent with a status (a send-back's
 * `review_note`, which the schema does not hold): a save takes it as it is rather than parsing it again.
 */
export class ParsedInput {
  constructor(
    readonly values: Record<string, unknown>,
    readonly note: unknown = undefined,
  ) {}
}

/** An item's input through its type's one form schema: its checked values, or each field's first problem. */
export function parseInput(type: ContentType, input: Record<string, unknown>): ParsedInput | { errors: FieldErrors } {
  const parsed = formSchemaOf(type).safeParse(input);
  return parsed.success ? new ParsedInput(parsed.data) : { errors: fieldErrorsOf(parsed.error) };
}

/** The input parsed, its note taken out; refused fields are a 422. */
function parsedOf(type: ContentType, input: Record<string, unknown> | ParsedInput): ParsedInput {
  if (input instanceof ParsedInput) return input;
  const { review_note: note, ...rest } = input;
  const parsed = parseInput(type, rest);
  if (!(parsed instanceof ParsedInput)) throw invalidItem(parsed.errors as Record<string, string>);
  return new ParsedInput(parsed.values, note);
}

/** Whether a row of `table` has this id. */
async function exists(db: Queryable, type: ContentType, id: number): Promise<boolean> {
  const t = tableOf(type);
  return (await db.select({ id: t.id }).from(t).where(eq(t.id, id)).limit(1)).length > 0;
}

/** Parsed values checked against the database (the rows they name exist), rich text sanitised. */
async function checked(db: Queryable, type: ContentType, parsed: ParsedInput): Promise<Record<string, unknown>> {
  const values = { ...parsed.values };
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
  for (const field of referenceFields(type)) {
    if (values[field.name] != null && !(await exists(db, referencedType(field), Number(values[field.name])))) {
      throw invalidItem({ [field.name]: field.message ?? "newsroom.v.invalid" });
    }
  }
  const byline = def.fields.find((f) => f.kind === "authors");
  if (byline && (await unknownAuthorIds(db, (values[byline.name] as number[] | undefined) ?? [])).length) {
    throw invalidItem({ [byline.name]: "newsroom.v.authorNotFound" });
  }
  return values;
}

// ---- Rows ----

/** Column values for a validated item, as its hooks complete them. A blank optional field with a table default keeps the default. */
function columnValues(type: ContentType, validated: Record<string, unknown>, now: Date): Record<string, unknown> {
  const values = hooksOf(type).beforeSave?.(validated, now) ?? validated;
  const row: Record<string, unknown> = {};
  for (const field of tableFields(type)) {
    let value = values[field.name];
    if (value === null && field.defaultValue !== undefined) value = field.defaultValue;
    if (NUMERIC_KINDS.includes(field.kind) && value != null) value = Number(value);
    row[field.column] = value ?? null;
  }
  const status = values.status as EditorStatus;
  // Scheduled is stored as published with its time to come; the other states as they are.
  row.status = status === "scheduled" ? "published" : status;
  row.publishDate = parsePublishDate(values.publish_date as string | null, now);
  return row;
}

/** A new item naming no author is the signed-in account's, under its profile when it has one. */
async function withDefaultByline(db: Queryable, type: ContentType, values: Record<string, unknown>, author: Author) {
  const byline = CONTENT_TYPE_DEFINITIONS[type].fields.find((f) => f.kind === "authors");
  if (!byline || (values[byline.name] as number[] | undefined)?.length) return values;
  const profile = await defaultAuthorOf(db, author.id);
  return profile === null ? values : { ...values, [byline.name]: [profile] };
}

/** The part of an email address before the at-sign (back-office.md §3 author_name). */
export const authorNameOf = (email: string) => email.split("@")[0] || email;

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

/** Two editors took the same slug at once: the later one takes the next free one (five tries). */
async function withFreeSlug<T>(write: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write(attempt);
    } catch (error) {
      if (isUniqueViolation(error) && attempt < 5) continue;
      throw error;
    }
  }
}

// ---- What every save does ----

export async function keepRevision(db: Queryable, type: ContentType, item: StaffItem, author: Author) {
  const data: Record<string, unknown> = { status: item.status, publish_date: item.publish_date, page_slug: item.page_slug };
  for (const field of CONTENT_TYPE_DEFINITIONS[type].fields) data[field.name] = item[field.name];
  await db.insert(contentRevisions).values({ contentType: type, itemId: item.id, data, authorId: author.id, authorName: authorNameOf(author.email) });
}

/** The saved item's search row written in the save's own transaction: found (or forgotten) at once. */
export async function indexForSearch(tx: Queryable, type: ContentType, id: number) {
  // A type without search columns (media) is not searched.
  if (CONTENT_TYPE_DEFINITIONS[type].search) await syncSearchIndex(tx, { type, id });
}

/** After a committed write: the type's cached reads dropped (once) and the scheduled-publishing timer re-armed. */
export function afterWrite(db: Database, type: ContentType) {
  invalidate(type);
  void armScheduledPublishing(db);
}

type Saved = { id: number; values: Record<string, unknown>; before: StaffItem | null; note: string | null; restoredRevision?: number };

/**
 * In the save's transaction, once the row is written: its relations, revision, search row, alert, audit row and
 * notices. Says whether the item is, or was before the save, breaking (urgent or in the breaking category) or a live
 * coverage: the ticker of every page shows those, and its "live" tag is invalidated after the commit (issue 44).
 */
async function recordSave(tx: Queryable, type: ContentType, { id, values, before, note, restoredRevision }: Saved, author: Author): Promise<boolean> {
  await writeRelations(tx, type, id, values);
  const item = (await getForStaff(tx, type, id))!;
  await keepRevision(tx, type, item, author);
  await indexForSearch(tx, type, id);
  // An urgent or breaking item published (or scheduled): its alert queued with it (decision 0127).
  await queuePushAlert(tx, type, before, item);
  // Published or scheduled by this save: one audit row in the same transaction (decision 0140).
  await auditSave(tx, type, before, item, author, restoredRevision);
  // Submitted or published by this save: its notices and their e-mails (decision 0138).
  await recordTransition(tx, type, item, before?.status ?? null, item.status, author, note);
  const worthy = (i: StaffItem) => alertWorthy(tx, { urgent: i.urgent, categoryId: i.category_id });
  // A live coverage is in the ticker too: a new title or a move to draft changes it.
  const live = (i: StaffItem | null) => i !== null && i.live_started_at != null && i.live_ended_at == null;
  return live(item) || live(before) || (await worthy(item)) || (before !== null && (await worthy(before)));
}

// ---- Create, update, delete ----

export async function createItem(db: Database, type: ContentType, input: Record<string, unknown> | ParsedInput, author: Author): Promise<StaffItem> {
  const parsed = parsedOf(type, input);
  const values = await checked(db, type, parsed);
  const note = checkStatusChange(author, null, values.status as EditorStatus, parsed.note);
  const now = new Date();
  const t = tableOf(type);
  const wanted = (values.page_slug as string | null) ?? slugify(values.title as string);
  let breaking = false;
  const id = await withFreeSlug(async () => {
    const slug = await freeSlug(db, type, wanted);
    return db.transaction(async (tx) => {
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
      await claimAddress(tx, publicUrl(type, slug));
      breaking = await recordSave(tx, type, { id: row.id, values: await withDefaultByline(tx, type, values, author), before: null, note }, author);
      return row.id;
    });
  });
  afterWrite(db, type);
  if (breaking) invalidate("live");
  return (await getForStaff(db, type, id))!;
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

export async function updateItem(
  db: Database,
  type: ContentType,
  id: number,
  input: Record<string, unknown> | ParsedInput,
  author: Author,
  options: UpdateOptions = {},
) {
  const current = await getForStaff(db, type, id);
  if (!current) throw contentNotFound();
  if (options.respectLock) await refuseIfLockedByOther(db, type, id, author.id);
  if (options.expectedUpdatedAt && Date.parse(options.expectedUpdatedAt) !== Date.parse(current.updated_at)) throw new ContentConflictError(current);
  // A partial update that leaves the status alone keeps a scheduled item's time.
  const parsed = parsedOf(type, options.partial && !(input instanceof ParsedInput) ? { ...current, ...input } : input);
  const values = await checked(db, type, parsed);
  const note = checkStatusChange(author, current.status, values.status as EditorStatus, parsed.note);
  const now = new Date();
  const t = tableOf(type);
  const wanted = (values.page_slug as string | null) ?? current.page_slug;
  let breaking = false;
  await withFreeSlug(async () => {
    const slug = wanted === current.page_slug ? wanted : await freeSlug(db, type, wanted, id);
    await db.transaction(async (tx) => {
      const updated = await tx
        .update(t)
        .set({ ...columnValues(type, values, now), pageSlug: slug, updatedAt: now } as never)
        // The check and the write are one statement: two saves of the same version cannot both pass.
        .where(and(eq(t.id, id), sql`date_trunc('milliseconds', ${t.updatedAt}) = ${new Date(current.updated_at).toISOString()}::timestamptz`))
        .returning({ id: t.id });
      if (!updated.length) throw new ContentConflictError((await getForStaff(tx, type, id)) ?? current);
      if (slug !== current.page_slug) {
        await tx.delete(slugRedirects).where(and(eq(slugRedirects.contentType, type), eq(slugRedirects.oldSlug, slug)));
        await tx
          .insert(slugRedirects)
          .values({ contentType: type, oldSlug: current.page_slug, itemId: id })
          .onConflictDoUpdate({ target: [slugRedirects.contentType, slugRedirects.oldSlug], set: { itemId: id, createdAt: now } });
        // A published item's old address was read and linked: it is a moved address of the site (decision 0144).
        if (current.status === "published") await recordMove(tx, publicUrl(type, current.page_slug), publicUrl(type, slug));
      }
      breaking = await recordSave(tx, type, { id, values, before: current, note, restoredRevision: options.restoredRevision }, author);
    });
  });
  afterWrite(db, type);
  if (breaking) invalidate("live");
  return (await getForStaff(db, type, id))!;
}

/**
 * Removes items in the caller's transaction with everything that hangs on them: revisions, slug redirects and
 * search rows. Returns the ids that existed. The one delete of deleteItem and the bulk actions (../bulk.server.ts).
 */
export async function removeItems(tx: Queryable, type: ContentType, ids: readonly number[]): Promise<number[]> {
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
  // A breaking item leaves the ticker of every page with it (issue 44).
  const breaking = await anyBreaking(db, type, [id]);
  const deleted = await db.transaction(async (tx) => {
    const gone = await removeItems(tx, type, [id]);
    if (gone.length) await recordAudit(tx, { actor: author, action: "delete", type, ids: gone });
    return gone.length > 0;
  });
  if (!deleted) throw contentNotFound();
  afterWrite(db, type);
  if (breaking) invalidate("live");
}
