/**
 * Corrections (issue 40, decision 0140): a dated note an editor adds to a published item, in Arabic and, when
 * there is one, French. Newsrooms correct in the open: the public page shows each correction under the story with
 * its date, the JSON-LD carries it (schema.org `correction`, a CorrectionComment), the RSS item shows the latest,
 * and the item's `updated_at` (its dateModified and article:modified_time) moves to the correction's time.
 *
 * Adding one is a write like a save: one transaction locks the item, checks it is published, stores the
 * correction, moves `updated_at` and writes the audit row; then the type's cached reads (the page, the feed) are
 * dropped. Who may add one (content.publish) is the caller's check.
 */
import { and, asc, eq } from "drizzle-orm";
import type { ContentType } from "#domain/content-types/index.ts";
import type { Database } from "#server/db/client.server.ts";
import { itemCorrections } from "#server/db/schema.server.ts";
import { ConflictError, ValidationError } from "#server/http/errors.server.ts";
import { recordAudit } from "./audit.server.ts";
import { tableOf } from "./registry.server.ts";
import { afterWrite, contentNotFound, type Author } from "./newsroom/write.server.ts";

export const CORRECTION_TEXT_MAX = 2000;

export type Correction = { id: number; text: string; text_fr: string | null; created_at: string; author_id: string | null };

export type CorrectionInput = { text: string; textFr: string | null };

const BODY_KEYS = new Set(["text", "text_fr"]);

/** `{text, text_fr?}` checked: a text of 1–2000 characters, an optional French one as long; nothing else. */
export function parseCorrectionBody(body: Record<string, unknown>): CorrectionInput {
  const fields: Record<string, string> = {};
  for (const key of Object.keys(body)) if (!BODY_KEYS.has(key)) fields[key.slice(0, 40).replace(/[^\w-]/g, "?")] = "corrections.v.unknownKey";
  const text = typeof body.text === "string" ? body.text.trim() : "";
  if (!text) fields.text = "corrections.v.text";
  else if (text.length > CORRECTION_TEXT_MAX) fields.text = "corrections.v.tooLong";
  let textFr: string | null = null;
  if (body.text_fr !== undefined && body.text_fr !== null) {
    if (typeof body.text_fr !== "string") fields.text_fr = "corrections.v.textFr";
    else if (body.text_fr.trim().length > CORRECTION_TEXT_MAX) fields.text_fr = "corrections.v.tooLong";
    else textFr = body.text_fr.trim() || null;
  }
  if (Object.keys(fields).length) throw new ValidationError("corrections.v.invalid", fields);
  return { text, textFr };
}

/** The item is not published (a draft, scheduled, in review…): a correction has nothing to correct. 409 NOT_PUBLISHED. */
export class NotPublishedError extends ConflictError {
  constructor() {
    super("corrections.v.notPublished", "NOT_PUBLISHED");
  }
}

const shape = (r: typeof itemCorrections.$inferSelect): Correction => ({
  id: r.id,
  text: r.text,
  text_fr: r.textFr,
  created_at: r.createdAt.toISOString(),
  author_id: r.authorId,
});

/** Adds a correction to a published item (see the top of this file); the correction as stored. */
export async function addCorrection(db: Database, type: ContentType, id: number, input: CorrectionInput, author: Author): Promise<Correction> {
  const t = tableOf(type);
  const now = new Date();
  const stored = await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Database;
    const [item] = await tx.select({ status: t.status, publishDate: t.publishDate }).from(t).where(eq(t.id, id)).for("update");
    if (!item) throw contentNotFound();
    if (item.status !== "published" || item.publishDate.getTime() > now.getTime()) throw new NotPublishedError();
    const [row] = await tx
      .insert(itemCorrections)
      .values({ contentType: type, itemId: id, text: input.text, textFr: input.textFr, authorId: author.id, createdAt: now })
      .returning();
    // The item was modified: its dateModified (JSON-LD, article:modified_time) and the editor's version move.
    await tx
      .update(t)
      .set({ updatedAt: now } as never)
      .where(eq(t.id, id));
    await recordAudit(tx, { actor: author, action: "correction", type, ids: [id], details: { correction_id: row.id } });
    return row;
  });
  afterWrite(db, type);
  return shape(stored);
}

/** An item's corrections, oldest first. */
export async function correctionsOf(db: Database, type: ContentType, id: number): Promise<Correction[]> {
  const rows = await db
    .select()
    .from(itemCorrections)
    .where(and(eq(itemCorrections.contentType, type), eq(itemCorrections.itemId, id)))
    .orderBy(asc(itemCorrections.createdAt), asc(itemCorrections.id));
  return rows.map(shape);
}
