/**
 * Live coverage (issue 44, docs/decisions/0146-live-coverage.md): a coverage item that is live collects short
 * entries. This module owns the coverage's live state (coverages.live_started_at / live_ended_at) and its entries
 * (coverage_entries): every write checks the writer (content.publish, since an entry is public at once, and the
 * ownership of the coverage as for any item), records an audit row in its transaction, then invalidates the read
 * caches ("entries", and "live" for a start or an end) and tells the live bus, which carries the change to every
 * process's open streams.
 *
 * Ids and versions come from one sequence (coverage_entry_seq): each create, edit and delete sets the entry's
 * version to its next value, so `after=N` (an id or a version a reader has seen) returns every change since N. A
 * deleted entry stays as a tombstone (deleted_at, its content blanked) so that pollers learn of the deletion.
 */
import { and, asc, desc, eq, gt, isNull, lt, max, ne, sql } from "drizzle-orm";
import { publicUrl } from "#domain/content-types/index.ts";
import { entryPath, LIVE_ENTRY_LIMITS, LIVE_PAGE_SIZE, type LiveEntry, type LiveState } from "#domain/live.ts";
import type { Database, Queryable } from "#server/db/client.server.ts";
import { coverageEntries, coverages } from "#server/db/schema.server.ts";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError, type ErrorFields } from "#server/http/errors.server.ts";
import { can, type AccessProfile } from "#server/auth/permissions.server.ts";
import { libraryDetailsByUrl } from "#server/media/library.server.ts";
import { getVideoLibrary } from "#server/media/video/index.server.ts";
import { queueEntryPushAlert } from "#server/push/alerts.server.ts";
import { recordAudit } from "../audit.server.ts";
import { invalidate } from "../cache.server.ts";
import { assertMayEdit } from "../ownership.server.ts";
import { richTextToPlainText, sanitizeRichText } from "../rich-text.server.ts";
import { publishLiveChange } from "./bus.server.ts";

/** Who writes: a signed-in account (server/auth/session.server.ts SessionUser has all of these). */
export type LiveActor = { id: string; email: string; name: string; profile: AccessProfile };

/** The most entries one list answers. */
export const LIVE_MAX_LIMIT = 200;
/** The longest alternative text of an entry's picture, and the longest address of a picture or an embed. */
const MAX_ALT = 500;
const MAX_URL = 2048;

/** Social networks whose posts an entry may embed (shown as a link card until the reader asks for it). */
const EMBED_HOSTS = ["facebook.com", "fb.watch", "x.com", "twitter.com", "instagram.com", "youtube.com", "youtu.be", "tiktok.com", "t.me", "telegram.me"];

const SEQUENCE = sql`nextval('coverage_entry_seq')`;

// ---- Errors (Arabic, as the back-office shows them) ----

const coverageNotFound = () => new NotFoundError("لا توجد تغطية بهذا المعرّف.", "COVERAGE_NOT_FOUND");
const entryNotFound = () => new NotFoundError("لا توجد مداخلة بهذا المعرّف في هذه التغطية.", "ENTRY_NOT_FOUND");
const notLive = () => new ConflictError("التغطية ليست مباشرة الآن: ابدأ التغطية المباشرة قبل نشر المداخلات.", "NOT_LIVE");
const invalidEntry = (fields: ErrorFields) =>
  new ValidationError("لم تُقبل المداخلة: راجع الحقول المشار إليها.", fields, { status: 400, code: "INVALID_ENTRY" });

/** Entries are public the moment they are posted: writing them takes the right to publish. */
function assertMayPublish(actor: LiveActor) {
  if (!can(actor.profile, "content.publish")) throw new ForbiddenError("نشر المداخلات المباشرة يتطلب صلاحية النشر.", "PUBLISH_PERMISSION");
}

// ---- Reading ----

type CoverageRow = {
  id: number;
  title: string;
  titleFr: string | null;
  pageSlug: string;
  status: string;
  publishDate: Date;
  liveStartedAt: Date | null;
  liveEndedAt: Date | null;
};

const coverageColumns = {
  id: coverages.id,
  title: coverages.title,
  titleFr: coverages.titleFr,
  pageSlug: coverages.pageSlug,
  status: coverages.status,
  publishDate: coverages.publishDate,
  liveStartedAt: coverages.liveStartedAt,
  liveEndedAt: coverages.liveEndedAt,
};

async function coverageOf(db: Queryable, id: number, forUpdate = false): Promise<CoverageRow | null> {
  const query = db.select(coverageColumns).from(coverages).where(eq(coverages.id, id)).limit(1);
  const [row] = forUpdate ? await query.for("update") : await query;
  return row ?? null;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
const stateOf = (row: { liveStartedAt: Date | null; liveEndedAt: Date | null }): LiveState => ({
  started_at: iso(row.liveStartedAt),
  ended_at: iso(row.liveEndedAt),
});
const isLiveRow = (row: { liveStartedAt: Date | null; liveEndedAt: Date | null }) => row.liveStartedAt !== null && row.liveEndedAt === null;

type EntryRow = typeof coverageEntries.$inferSelect;

function toEntry(row: EntryRow, slug: string): LiveEntry {
  return {
    id: Number(row.id),
    version: Number(row.version),
    at: new Date(row.createdAt).toISOString(),
    edited_at: iso(row.editedAt),
    author: row.authorName,
    body: row.body,
    image: row.imageUrl ? { url: row.imageUrl, alt: row.imageAlt ?? "" } : null,
    video_id: row.videoId,
    embed_url: row.embedUrl,
    key_event: row.keyEvent,
    pinned: row.pinned,
    url: entryPath(publicUrl("coverage", slug), Number(row.id)),
  };
}

/** The coverage's live state, or null when there is no such coverage. */
export async function liveStateOf(db: Queryable, coverageId: number): Promise<LiveState | null> {
  const row = await coverageOf(db, coverageId);
  return row ? stateOf(row) : null;
}

async function slugOf(db: Queryable, coverageId: number): Promise<string | null> {
  const [row] = await db.select({ slug: coverages.pageSlug }).from(coverages).where(eq(coverages.id, coverageId)).limit(1);
  return row?.slug ?? null;
}

const clampLimit = (limit: number | undefined) => Math.max(1, Math.min(LIVE_MAX_LIMIT, Math.trunc(limit ?? LIVE_PAGE_SIZE) || LIVE_PAGE_SIZE));

/**
 * The coverage's entries, newest first (by id), never a tombstone. Without `after`: the latest `limit` (or those
 * older than `before`, an id: the "older entries" page), `deleted` empty. With `after` (a cursor): the changes
 * after it, oldest change first up to `limit` so that none is skipped, shown newest first, with the ids deleted
 * since in `deleted`. `cursor` is the highest version seen (the coverage's latest without `after`), or `after`
 * when nothing changed.
 */
export async function listEntries(
  db: Queryable,
  coverageId: number,
  { after, before, limit }: { after?: number; before?: number; limit?: number } = {},
): Promise<{ entries: LiveEntry[]; deleted: number[]; cursor: number }> {
  const slug = await slugOf(db, coverageId);
  if (slug === null) return { entries: [], deleted: [], cursor: after ?? 0 };
  const n = clampLimit(limit);
  if (after !== undefined) {
    const rows = await db
      .select()
      .from(coverageEntries)
      .where(and(eq(coverageEntries.coverageId, coverageId), gt(coverageEntries.version, after)))
      .orderBy(asc(coverageEntries.version))
      .limit(n);
    const cursor = rows.reduce((highest, row) => Math.max(highest, Number(row.version)), after);
    const live = rows.filter((row) => row.deletedAt === null).sort((a, b) => Number(b.id) - Number(a.id));
    const deleted = rows.filter((row) => row.deletedAt !== null).map((row) => Number(row.id));
    return { entries: live.map((row) => toEntry(row, slug)), deleted, cursor };
  }
  const rows = await db
    .select()
    .from(coverageEntries)
    .where(
      and(eq(coverageEntries.coverageId, coverageId), isNull(coverageEntries.deletedAt), before === undefined ? undefined : lt(coverageEntries.id, before)),
    )
    .orderBy(desc(coverageEntries.id))
    .limit(n);
  const [top] = await db
    .select({ version: max(coverageEntries.version) })
    .from(coverageEntries)
    .where(eq(coverageEntries.coverageId, coverageId));
  return { entries: rows.map((row) => toEntry(row, slug)), deleted: [], cursor: Number(top?.version ?? 0) };
}

/** One entry of the coverage (not a deleted one), or null. */
export async function findEntry(db: Queryable, coverageId: number, entryId: number): Promise<LiveEntry | null> {
  if (!Number.isSafeInteger(entryId)) return null;
  const [row] = await db
    .select({ entry: coverageEntries, slug: coverages.pageSlug })
    .from(coverageEntries)
    .innerJoin(coverages, eq(coverages.id, coverageEntries.coverageId))
    .where(and(eq(coverageEntries.coverageId, coverageId), eq(coverageEntries.id, entryId), isNull(coverageEntries.deletedAt)))
    .limit(1);
  return row ? toEntry(row.entry, row.slug) : null;
}

/** The coverage's key events, newest first (the summary at the top of its page). */
export async function keyEventsOf(db: Queryable, coverageId: number, limit: number): Promise<LiveEntry[]> {
  const rows = await db
    .select({ entry: coverageEntries, slug: coverages.pageSlug })
    .from(coverageEntries)
    .innerJoin(coverages, eq(coverages.id, coverageEntries.coverageId))
    .where(and(eq(coverageEntries.coverageId, coverageId), eq(coverageEntries.keyEvent, true), isNull(coverageEntries.deletedAt)))
    .orderBy(desc(coverageEntries.id))
    .limit(clampLimit(limit));
  return rows.map((row) => toEntry(row.entry, row.slug));
}

// ---- Input ----

type EntryChanges = {
  body?: string;
  keyEvent?: boolean;
  pinned?: boolean;
  imageUrl?: string | null;
  imageAlt?: string | null;
  videoId?: string | null;
  embedUrl?: string | null;
};
type ParsedInput = { changes: EntryChanges; clientKey: string | null; push: boolean };

const FIELDS = new Set(["body", "key_event", "pinned", "image", "image_alt", "video_id", "embed_url", "client_key", "push"]);

/** An https address of a post on one of EMBED_HOSTS (or a subdomain: www., m., mobile.), else null. */
export function embedUrlOf(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "https:" || url.username || url.password || (url.port && url.port !== "443")) return null;
  const host = url.hostname.toLowerCase();
  if (!EMBED_HOSTS.some((allowed) => host === allowed || host.endsWith(`.${allowed}`))) return null;
  if (url.pathname === "/" || url.pathname === "") return null;
  return url.toString();
}

/**
 * Reads an API body: each field checked, every refusal named in one 400 (INVALID_ENTRY) with a message per field.
 * `partial`: an edit, where every field is optional and null removes an attachment.
 */
async function parseInput(db: Queryable, input: unknown, partial: boolean): Promise<ParsedInput> {
  if (!input || typeof input !== "object" || Array.isArray(input)) throw invalidEntry({ body: "أرسل المداخلة كائن JSON." });
  const body = input as Record<string, unknown>;
  const fields: ErrorFields = {};
  const changes: EntryChanges = {};
  for (const name of Object.keys(body)) if (!FIELDS.has(name)) fields[name] = "حقل غير معروف في المداخلة.";

  if (body.body !== undefined || !partial) {
    const html = body.body;
    if (typeof html !== "string") fields.body = "نص المداخلة مطلوب.";
    else if (Buffer.byteLength(html, "utf8") > LIVE_ENTRY_LIMITS.maxHtmlBytes) fields.body = "نص المداخلة أطول من المسموح.";
    else {
      const clean = sanitizeRichText(html);
      const length = [...richTextToPlainText(clean).trim()].length;
      if (length < LIVE_ENTRY_LIMITS.minText) fields.body = "نص المداخلة مطلوب.";
      else if (length > LIVE_ENTRY_LIMITS.maxText) fields.body = `نص المداخلة أطول من ${LIVE_ENTRY_LIMITS.maxText} حرف.`;
      else changes.body = clean;
    }
  }
  for (const [name, key] of [
    ["key_event", "keyEvent"],
    ["pinned", "pinned"],
  ] as const) {
    if (body[name] === undefined) continue;
    if (typeof body[name] === "boolean") changes[key] = body[name];
    else fields[name] = "القيمة يجب أن تكون true أو false.";
  }
  let push = false;
  if (body.push !== undefined) {
    if (typeof body.push !== "boolean") fields.push = "القيمة يجب أن تكون true أو false.";
    else push = body.push;
  }
  if (push && changes.keyEvent !== true && !partial) fields.push = "التنبيه العاجل يُرسل للأحداث الرئيسية فقط: علّم المداخلة حدثًا رئيسيًا.";

  let imageAlt: string | null | undefined;
  if (body.image_alt !== undefined && body.image_alt !== null) {
    if (typeof body.image_alt !== "string" || body.image_alt.length > MAX_ALT) fields.image_alt = "النص البديل للصورة نص لا يتجاوز 500 حرف.";
    else imageAlt = body.image_alt.trim() || null;
  } else if (body.image_alt === null) imageAlt = null;
  if (body.image !== undefined) {
    if (body.image === null || body.image === "") {
      changes.imageUrl = null;
      changes.imageAlt = null;
    } else if (typeof body.image !== "string" || body.image.length > MAX_URL) fields.image = "اختر الصورة من مكتبة الوسائط.";
    else {
      const details = (await libraryDetailsByUrl(db as Database, [body.image])).get(body.image);
      if (!details) fields.image = "هذه الصورة ليست في مكتبة الوسائط: اخترها من المكتبة.";
      else {
        const alt = imageAlt ?? details.alt.ar?.trim() ?? null;
        if (!alt) fields.image_alt = "للصورة نص بديل إلزامي: اكتبه هنا أو في مكتبة الوسائط.";
        else {
          changes.imageUrl = body.image;
          changes.imageAlt = alt;
        }
      }
    }
  } else if (imageAlt !== undefined) {
    // The alternative text alone (an edit): kept with the picture the entry has; checked against it by the caller.
    changes.imageAlt = imageAlt;
  }
  if (body.video_id !== undefined) {
    if (body.video_id === null || body.video_id === "") changes.videoId = null;
    else if (typeof body.video_id !== "string" || body.video_id.length > 100) fields.video_id = "اختر الفيديو من مكتبة الفيديو.";
    else {
      const video = await getVideoLibrary().get(body.video_id.trim());
      if (!video) fields.video_id = "هذا الفيديو ليس في مكتبة الفيديو.";
      else changes.videoId = video.guid;
    }
  }
  if (body.embed_url !== undefined) {
    if (body.embed_url === null || body.embed_url === "") changes.embedUrl = null;
    else if (typeof body.embed_url !== "string" || body.embed_url.length > MAX_URL) fields.embed_url = "رابط المنشور غير صالح.";
    else {
      const url = embedUrlOf(body.embed_url);
      if (!url) fields.embed_url = "يُقبل رابط https لمنشور على فيسبوك أو إكس (تويتر) أو إنستغرام أو يوتيوب أو تيك توك أو تيليغرام فقط.";
      else changes.embedUrl = url;
    }
  }
  let clientKey: string | null = null;
  if (body.client_key !== undefined && body.client_key !== null && !partial) {
    if (typeof body.client_key !== "string" || !body.client_key.trim() || body.client_key.length > LIVE_ENTRY_LIMITS.maxClientKey)
      fields.client_key = `مفتاح الإرسال نص من 1 إلى ${LIVE_ENTRY_LIMITS.maxClientKey} حرفًا.`;
    else clientKey = body.client_key.trim();
  }
  if (Object.keys(fields).length) throw invalidEntry(fields);
  return { changes, clientKey, push };
}

// ---- Writing ----

const nextVersion = async (tx: Queryable): Promise<number> => {
  const [row] = (await tx.execute(sql`select nextval('coverage_entry_seq')::bigint as v`)).rows as { v: string | number }[];
  return Number(row.v);
};

/**
 * Takes the coverage's row for the rest of the transaction before a version is drawn. Versions are a reader's cursor
 * (`after=N`): were two writes to draw N and N+1 and commit in the other order, a poller that saw N+1 first would
 * never ask for N. Under the row's lock a coverage's writes draw their versions in the order they commit.
 */
async function lockForVersion(tx: Queryable, coverageId: number): Promise<void> {
  if (!(await coverageOf(tx, coverageId, true))) throw coverageNotFound();
}

/** Unpins the coverage's pinned entry (other than `keep`), as an edit readers learn of; its id and version, if any. */
async function unpinOthers(tx: Queryable, coverageId: number, keep: number | null): Promise<{ id: number; version: number }[]> {
  const rows = await tx
    .update(coverageEntries)
    .set({ pinned: false, version: SEQUENCE })
    .where(and(eq(coverageEntries.coverageId, coverageId), eq(coverageEntries.pinned, true), keep === null ? undefined : ne(coverageEntries.id, keep)))
    .returning({ id: coverageEntries.id, version: coverageEntries.version });
  return rows.map((r) => ({ id: Number(r.id), version: Number(r.version) }));
}

const inTransaction = <T>(db: Database, work: (tx: Database) => Promise<T>) => db.transaction((tx) => work(tx as unknown as Database));

/** Starts (live: true) or ends (false) the coverage's live period; idempotent. 404 for an unknown coverage. */
export async function setLive(db: Database, coverageId: number, live: boolean, actor: LiveActor): Promise<LiveState> {
  assertMayPublish(actor);
  if (!(await coverageOf(db, coverageId))) throw coverageNotFound();
  await assertMayEdit(db, actor, "coverage", coverageId);
  const outcome = await inTransaction(db, async (tx) => {
    const row = await coverageOf(tx, coverageId, true);
    if (!row) throw coverageNotFound();
    if (isLiveRow(row) === live) return { state: stateOf(row), version: null };
    // Starting again after an end is a new live period: its own start, no end yet.
    const set = live ? { liveStartedAt: new Date(), liveEndedAt: null } : { liveEndedAt: new Date() };
    const [saved] = await tx.update(coverages).set(set).where(eq(coverages.id, coverageId)).returning({
      liveStartedAt: coverages.liveStartedAt,
      liveEndedAt: coverages.liveEndedAt,
    });
    const state = stateOf(saved);
    await recordAudit(tx, { actor, action: live ? "live_start" : "live_end", type: "coverage", ids: [coverageId], details: { ...state } });
    // A status change takes a place in the coverage's one sequence: a reconnecting stream resumes after it.
    return { state, version: await nextVersion(tx) };
  });
  if (outcome.version !== null) {
    invalidate("live", "coverage", "entries");
    publishLiveChange({ coverageId, kind: "status", entryId: null, version: outcome.version });
  }
  return outcome.state;
}

async function assertMayWriteEntries(db: Database, coverageId: number, actor: LiveActor): Promise<CoverageRow> {
  assertMayPublish(actor);
  const coverage = await coverageOf(db, coverageId);
  if (!coverage) throw coverageNotFound();
  await assertMayEdit(db, actor, "coverage", coverageId);
  return coverage;
}

async function entryByClientKey(db: Queryable, coverageId: number, clientKey: string): Promise<EntryRow | null> {
  const [row] = await db
    .select()
    .from(coverageEntries)
    .where(and(eq(coverageEntries.coverageId, coverageId), eq(coverageEntries.clientKey, clientKey)))
    .limit(1);
  return row ?? null;
}

const isPublic = (coverage: CoverageRow) => coverage.status === "published" && coverage.publishDate.getTime() <= Date.now();

/**
 * Posts an entry to a live coverage (409 NOT_LIVE otherwise). A `client_key` seen before answers the entry it
 * posted then, `created: false`: a composer resending after a lost answer makes no duplicate. A key event posted
 * with `push: true` queues a breaking-news alert (once; subject to the hour's cap) when the coverage is public.
 */
export async function postEntry(db: Database, coverageId: number, input: unknown, actor: LiveActor): Promise<{ entry: LiveEntry; created: boolean }> {
  const coverage = await assertMayWriteEntries(db, coverageId, actor);
  const { changes, clientKey, push } = await parseInput(db, input, false);
  if (clientKey !== null) {
    const earlier = await entryByClientKey(db, coverageId, clientKey);
    if (earlier) return { entry: toEntry(earlier, coverage.pageSlug), created: false };
  }
  const outcome = await inTransaction(db, async (tx) => {
    const current = await coverageOf(tx, coverageId, true);
    if (!current) throw coverageNotFound();
    if (!isLiveRow(current)) throw notLive();
    const unpinned = changes.pinned ? await unpinOthers(tx, coverageId, null) : [];
    const id = await nextVersion(tx);
    const [row] = await tx
      .insert(coverageEntries)
      .values({
        id,
        coverageId,
        version: id,
        body: changes.body ?? "",
        imageUrl: changes.imageUrl ?? null,
        imageAlt: changes.imageUrl ? (changes.imageAlt ?? null) : null,
        videoId: changes.videoId ?? null,
        embedUrl: changes.embedUrl ?? null,
        keyEvent: changes.keyEvent ?? false,
        pinned: changes.pinned ?? false,
        authorId: actor.id,
        authorName: actor.name,
        clientKey,
      })
      .onConflictDoNothing()
      .returning();
    // The same key posted at the same moment through another request: that one's entry is the answer.
    if (!row) return { row: null, unpinned: [] };
    await recordAudit(tx, {
      actor,
      action: "entry_create",
      type: "coverage",
      ids: [coverageId],
      details: { entry_id: id, key_event: row.keyEvent, pinned: row.pinned, push },
    });
    if (push && row.keyEvent && isPublic(current)) await queueEntryPushAlert(tx, id);
    return { row, unpinned };
  });
  if (!outcome.row) {
    const earlier = clientKey === null ? null : await entryByClientKey(db, coverageId, clientKey);
    if (!earlier) throw new ConflictError("تعذّر حفظ المداخلة، أعد المحاولة.", "ENTRY_CONFLICT");
    return { entry: toEntry(earlier, coverage.pageSlug), created: false };
  }
  invalidate("entries");
  for (const other of outcome.unpinned) publishLiveChange({ coverageId, kind: "edit", entryId: other.id, version: other.version });
  publishLiveChange({ coverageId, kind: "entry", entryId: Number(outcome.row.id), version: Number(outcome.row.version) });
  return { entry: toEntry(outcome.row, coverage.pageSlug), created: true };
}

/**
 * Changes an entry (any of the fields; null removes an attachment). A change of its text or attachments marks it
 * edited (edited_at); pinning or marking a key event does not. Pinning it unpins the coverage's other pinned entry.
 * Allowed after the coverage ended (a correction); 404 for a deleted entry.
 */
export async function editEntry(db: Database, coverageId: number, entryId: number, input: unknown, actor: LiveActor): Promise<LiveEntry> {
  const coverage = await assertMayWriteEntries(db, coverageId, actor);
  const { changes, push } = await parseInput(db, input, true);
  const outcome = await inTransaction(db, async (tx) => {
    // The coverage's row orders its writers (lockForVersion): two editors pinning at once each unpin the other's.
    await lockForVersion(tx, coverageId);
    const [current] = Number.isSafeInteger(entryId)
      ? await tx
          .select()
          .from(coverageEntries)
          .where(and(eq(coverageEntries.coverageId, coverageId), eq(coverageEntries.id, entryId), isNull(coverageEntries.deletedAt)))
          .for("update")
      : [];
    if (!current) throw entryNotFound();
    const next = { ...changes };
    // An alternative text alone belongs to the picture the entry has; without one there is nothing to describe.
    if (next.imageUrl === undefined && next.imageAlt !== undefined) {
      if (!current.imageUrl) throw invalidEntry({ image_alt: "لا صورة في هذه المداخلة لتصفها." });
      if (!next.imageAlt) throw invalidEntry({ image_alt: "للصورة نص بديل إلزامي." });
    }
    if (push && (next.keyEvent ?? current.keyEvent) !== true)
      throw invalidEntry({ push: "التنبيه العاجل يُرسل للأحداث الرئيسية فقط: علّم المداخلة حدثًا رئيسيًا." });
    const edited = (["body", "imageUrl", "imageAlt", "videoId", "embedUrl"] as const).some((k) => next[k] !== undefined && next[k] !== current[k]);
    const changed = edited || (["keyEvent", "pinned"] as const).some((k) => next[k] !== undefined && next[k] !== current[k]);
    if (!changed) return { row: current, unpinned: [], changed: false };
    const unpinned = next.pinned === true && !current.pinned ? await unpinOthers(tx, coverageId, entryId) : [];
    const [row] = await tx
      .update(coverageEntries)
      .set({ ...next, version: SEQUENCE, ...(edited ? { editedAt: new Date() } : {}) })
      .where(eq(coverageEntries.id, entryId))
      .returning();
    const fields = Object.keys(next).filter((k) => next[k as keyof EntryChanges] !== current[k as keyof EntryChanges]);
    await recordAudit(tx, { actor, action: "entry_edit", type: "coverage", ids: [coverageId], details: { entry_id: entryId, fields } });
    if (push && row.keyEvent) {
      const live = await coverageOf(tx, coverageId);
      if (live && isPublic(live)) await queueEntryPushAlert(tx, entryId);
    }
    return { row, unpinned, changed: true };
  });
  if (outcome.changed) {
    invalidate("entries");
    for (const other of outcome.unpinned) publishLiveChange({ coverageId, kind: "edit", entryId: other.id, version: other.version });
    publishLiveChange({ coverageId, kind: "edit", entryId, version: Number(outcome.row.version) });
  }
  return toEntry(outcome.row, coverage.pageSlug);
}

/** Deletes an entry: it stays as a tombstone, its content blanked, so readers and pollers learn of the deletion. */
export async function deleteEntry(db: Database, coverageId: number, entryId: number, actor: LiveActor): Promise<void> {
  await assertMayWriteEntries(db, coverageId, actor);
  if (!Number.isSafeInteger(entryId)) throw entryNotFound();
  const version = await inTransaction(db, async (tx) => {
    await lockForVersion(tx, coverageId);
    const [row] = await tx
      .update(coverageEntries)
      .set({
        deletedAt: new Date(),
        version: SEQUENCE,
        body: "",
        imageUrl: null,
        imageAlt: null,
        videoId: null,
        embedUrl: null,
        keyEvent: false,
        pinned: false,
      })
      .where(and(eq(coverageEntries.coverageId, coverageId), eq(coverageEntries.id, entryId), isNull(coverageEntries.deletedAt)))
      .returning({ version: coverageEntries.version });
    if (!row) throw entryNotFound();
    await recordAudit(tx, { actor, action: "entry_delete", type: "coverage", ids: [coverageId], details: { entry_id: entryId } });
    return Number(row.version);
  });
  invalidate("entries");
  publishLiveChange({ coverageId, kind: "delete", entryId, version });
}
