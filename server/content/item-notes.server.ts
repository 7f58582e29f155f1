/**
 * Notes on an item (issue 40, decision 0139): the newsroom's internal thread on a story ("the second paragraph
 * needs a source"), each with its author and time. Staff only: no public page, feed or public API reads this
 * table. A note belongs to the item, not to one of its versions: restoring a revision keeps the thread, and the
 * revisions page shows the notes in its timeline; removing the item removes its notes (removeItems).
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { ContentType } from "#domain/content-types/index.ts";
import type { Database, Queryable } from "#server/db/client.server.ts";
import { itemNotes, profiles } from "#server/db/schema.server.ts";
import { NotFoundError, ValidationError } from "#server/http/errors.server.ts";
import { tableOf } from "./registry.server.ts";

/** The longest note, in characters (a note is a remark, not a second article). */
export const MAX_NOTE_LENGTH = 2000;
/** Notes listed at most, oldest first (a thread longer than this shows its latest ones). */
export const NOTES_LISTED = 500;

/** A note as the API and the editor show it; `author.id` is null once the account is removed. */
export type ItemNote = { id: number; author: { id: string | null; name: string }; text: string; at: string };

const noteRefused = (key: string) => new ValidationError("itemNotes.v.invalid", { text: key }, { status: 400, code: "INVALID_NOTE" });

/** A posted note's text, trimmed: 400 INVALID_NOTE when it is not text, is empty or is over MAX_NOTE_LENGTH. */
export function noteTextOf(value: unknown): string {
  if (typeof value !== "string") throw noteRefused("itemNotes.v.required");
  const text = value.replace(/\r\n?/g, "\n").trim();
  if (!text) throw noteRefused("itemNotes.v.required");
  if ([...text].length > MAX_NOTE_LENGTH) throw noteRefused("itemNotes.v.tooLong");
  return text;
}

async function itemExists(db: Database, type: ContentType, id: number): Promise<boolean> {
  const t = tableOf(type);
  const [row] = await db.select({ id: t.id }).from(t).where(eq(t.id, id)).limit(1);
  return Boolean(row);
}

const AUTHOR_NAME = sql<string>`coalesce(nullif(${profiles.fullName}, ''), ${itemNotes.authorName}, '')`;

function toNote(row: { id: number; authorId: string | null; authorName: string; text: string; createdAt: Date | string }): ItemNote {
  return { id: row.id, author: { id: row.authorId, name: row.authorName }, text: row.text, at: new Date(row.createdAt).toISOString() };
}

/** The item's notes, oldest first (a thread); 404 when there is no such item. */
export async function listNotes(db: Database, type: ContentType, id: number): Promise<ItemNote[]> {
  if (!(await itemExists(db, type, id))) throw new NotFoundError("Not found");
  const rows = await db
    .select({ id: itemNotes.id, authorId: itemNotes.authorId, authorName: AUTHOR_NAME, text: itemNotes.text, createdAt: itemNotes.createdAt })
    .from(itemNotes)
    .leftJoin(profiles, eq(profiles.id, itemNotes.authorId))
    .where(and(eq(itemNotes.contentType, type), eq(itemNotes.itemId, id)))
    .orderBy(asc(itemNotes.createdAt), asc(itemNotes.id))
    .limit(NOTES_LISTED);
  return rows.map(toNote);
}

/** Adds a note by `author` to the item (its text checked by noteTextOf); 404 when there is no such item. */
export async function addNote(db: Database, type: ContentType, id: number, author: { id: string; email: string }, value: unknown): Promise<ItemNote> {
  const text = noteTextOf(value);
  if (!(await itemExists(db, type, id))) throw new NotFoundError("Not found");
  const [profile] = await db.select({ fullName: profiles.fullName }).from(profiles).where(eq(profiles.id, author.id)).limit(1);
  const authorName = profile?.fullName?.trim() || author.email.split("@")[0] || author.email;
  const [row] = await db
    .insert(itemNotes)
    .values({ contentType: type, itemId: id, authorId: author.id, authorName, text })
    .returning({ id: itemNotes.id, authorId: itemNotes.authorId, text: itemNotes.text, createdAt: itemNotes.createdAt });
  return toNote({ ...row, authorName });
}

/** Forgets the notes of removed items, in the caller's transaction (removeItems). */
export async function forgetNotes(tx: Queryable, type: ContentType, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  await tx.delete(itemNotes).where(and(eq(itemNotes.contentType, type), inArray(itemNotes.itemId, [...ids])));
}
