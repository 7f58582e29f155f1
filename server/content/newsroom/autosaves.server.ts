/**
 * Autosaves of drafts (drizzle/0009_revision_kind.sql; docs/how-it-works.md, "No lost work"): what an editor is
 * typing in a draft, kept as their one revision of kind 'autosave' of the item without changing the item,
 * offered back while newer than the last save, discarded when they save, pruned after a month.
 */
import { and, eq, sql } from "drizzle-orm";
import { CONTENT_TYPE_DEFINITIONS, type ContentType } from "#domain/content-types/index.ts";
import type { Database } from "#server/db/client.server.ts";
import { contentRevisions } from "#server/db/schema.server.ts";
import { ConflictError, ValidationError } from "#server/http/errors.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { sanitizeRichText } from "../rich-text.server.ts";
import { getForStaff, iso } from "./read.server.ts";
import { authorNameOf, contentNotFound, type Author } from "./write.server.ts";

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
