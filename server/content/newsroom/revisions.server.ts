/**
 * An item's revisions: every save is kept (./write.server.ts keepRevision, in the save's transaction), and the
 * autosaves of drafts beside them (./autosaves.server.ts). Listed newest first, read one by one, and restored
 * by saving an earlier one again as the current version (itself a new revision).
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { parsePublishDate, type ContentType } from "#domain/content-types/index.ts";
import type { Database } from "#server/db/client.server.ts";
import { contentRevisions, profiles } from "#server/db/schema.server.ts";
import { iso } from "./read.server.ts";
import { contentNotFound, updateItem, type Author } from "./write.server.ts";

/** Revisions listed at most (newest first); older ones stay stored and restorable by id. */
export const REVISIONS_LISTED = 200;

/** The name shown for a revision's author: their profile's full name, else the name kept with the revision (the e-mail's local part). */
const authorName = sql<string | null>`coalesce(nullif(${profiles.fullName}, ''), ${contentRevisions.authorName})`;

/** An item's revisions, newest first: saves and autosaves (`kind`), each with its author's name. */
export async function listRevisions(db: Database, type: ContentType, id: number) {
  const rows = await db
    .select({
      id: contentRevisions.id,
      createdAt: contentRevisions.createdAt,
      authorName,
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
    .select({ id: contentRevisions.id, createdAt: contentRevisions.createdAt, authorName, kind: contentRevisions.kind, data: contentRevisions.data })
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
