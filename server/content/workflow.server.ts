/**
 * Workflow states and review (issue 40, decision 0138): who may set which status (domain/workflow.ts), what a
 * change of status records (who submitted, the note a story was sent back with), the notices it leaves — in the
 * app for each account concerned and by e-mail through the job queue — and the dashboard's review queue.
 *
 * The newsroom's save (newsroom/write.server.ts) calls `checkStatusChange` before it writes and `recordTransition` in
 * its transaction, so a save and its notices and mail jobs are one commit. Only published items are public
 * (published.server.ts): nothing here changes that.
 */
import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { CONTENT_TYPE_DEFINITIONS, CONTENT_TYPES, type ContentType, type EditorStatus } from "#domain/content-types/index.ts";
import { isPublicStatus, maySetStatus, REVIEW_NOTE_MAX, type StaffNoticeView } from "#domain/workflow.ts";
import type { Database, Queryable } from "#server/db/client.server.ts";
import { itemWorkflow, profiles, staffNotices, user, type StaffNoticeKind } from "#server/db/schema.server.ts";
import { can, type AccessProfile } from "#server/auth/permissions.server.ts";
import { arabic, ForbiddenError, ValidationError } from "#server/http/errors.server.ts";
import { getConfig, type Config } from "#server/config.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import escapeHtml from "escape-html";
import { sendMail } from "#server/ops/mail.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { enqueue, PermanentJobError, type JobHandler } from "#server/jobs/queue.server.ts";
import { columnOf, tableOf } from "./registry.server.ts";

/** The account saving: its id and address, and its profile when the save comes from a request (rights checked). */
export type Actor = { id: string; email: string; profile?: AccessProfile | null };

/** The job that e-mails one notice to its account. */
export const WORKFLOW_MAIL_JOB = "workflow.mail";
const WORKFLOW_MAIL_ATTEMPTS = 3;

/** Whether the saving account may publish. An actor without a profile is a trusted caller (a script, a seed, a test). */
export const actorMayPublish = (actor: Actor) => actor.profile === undefined || can(actor.profile, "content.publish");

/**
 * Refuses a status the actor may not set (403 PUBLISH_PERMISSION), and a send-back without a note (422 on
 * `review_note`). Returns the note, trimmed (null when none).
 */
export function checkStatusChange(actor: Actor, from: EditorStatus | null, to: EditorStatus, note: unknown): string | null {
  if (!maySetStatus(actorMayPublish(actor), from, to)) throw new ForbiddenError(arabic("workflow.refused"), "PUBLISH_PERMISSION");
  const text = typeof note === "string" ? note.trim() : "";
  if (note !== undefined && note !== null && typeof note !== "string")
    throw new ValidationError(arabic("newsroom.v.invalid"), { review_note: "workflow.noteInvalid" });
  if (text.length > REVIEW_NOTE_MAX) throw new ValidationError(arabic("newsroom.v.invalid"), { review_note: "workflow.noteTooLong" });
  if (to === "changes_requested" && from !== "changes_requested" && !text) {
    throw new ValidationError(arabic("newsroom.v.invalid"), { review_note: "workflow.noteRequired" });
  }
  return text || null;
}

/** Accounts that may publish (the review queue's readers), signed-in staff not disabled. */
async function publishers(db: Database): Promise<string[]> {
  const rows = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.disabled, false), sql`(${profiles.role} = 'admin' or ${profiles.isAdmin} or 'content.publish' = any(${profiles.permissions}))`));
  return rows.map((r) => r.id);
}

/** The item's writers: the account that created it and the one that last submitted it. */
async function writersOf(db: Database, type: ContentType, id: number): Promise<string[]> {
  const t = tableOf(type);
  const authorId = columnOf(type, "authorId");
  const [[row], [flow]] = await Promise.all([
    authorId ? db.select({ authorId }).from(t).where(eq(t.id, id)).limit(1) : Promise.resolve([] as { authorId: unknown }[]),
    db
      .select({ submittedBy: itemWorkflow.submittedBy })
      .from(itemWorkflow)
      .where(and(eq(itemWorkflow.contentType, type), eq(itemWorkflow.itemId, id)))
      .limit(1),
  ]);
  const ids = [row?.authorId, flow?.submittedBy].filter((v): v is string => typeof v === "string" && v.length > 0);
  if (!ids.length) return [];
  // Only accounts that exist and are not disabled (an item imported or written by a removed account has nobody to tell).
  const found = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(inArray(profiles.id, ids), eq(profiles.disabled, false)));
  return found.map((r) => r.id);
}

/** The name an account goes by: its profile's full name, else its address's local part. */
async function nameOf(db: Database, actor: Actor): Promise<string> {
  const [row] = await db.select({ name: profiles.fullName }).from(profiles).where(eq(profiles.id, actor.id)).limit(1);
  return row?.name?.trim() || actor.email.split("@")[0] || actor.email;
}

/** The notice a change of status leaves, and for whom (nobody, for a change nobody waits on). */
function noticeKind(from: EditorStatus | null, to: EditorStatus): StaffNoticeKind | null {
  if (to === "review" && from !== "review") return "submitted";
  if (to === "changes_requested" && from !== "changes_requested") return "changes_requested";
  if (isPublicStatus(to) && (from === null || !isPublicStatus(from))) return "published";
  return null;
}

/**
 * In the save's transaction: the item's review record (who submitted, the note it was sent back with), and the
 * notices of the change — to each account that may publish when it is submitted, to its writers when it is sent
 * back or published (never to the one who made the change) — each with its e-mail queued.
 */
export async function recordTransition(
  tx: Queryable,
  type: ContentType,
  item: { id: number; title: string },
  from: EditorStatus | null,
  to: EditorStatus,
  actor: Actor,
  note: string | null,
) {
  if (from === to) return;
  const now = new Date();
  const key = { contentType: type, itemId: item.id };
  if (to === "review") {
    await tx
      .insert(itemWorkflow)
      .values({ ...key, submittedBy: actor.id, submittedAt: now })
      .onConflictDoUpdate({ target: [itemWorkflow.contentType, itemWorkflow.itemId], set: { submittedBy: actor.id, submittedAt: now } });
  } else if (to === "changes_requested" || to === "approved" || (isPublicStatus(to) && from !== null)) {
    const set = { reviewedBy: actor.id, reviewedAt: now, ...(to === "changes_requested" ? { reviewNote: note } : {}) };
    await tx
      .insert(itemWorkflow)
      .values({ ...key, ...set })
      .onConflictDoUpdate({ target: [itemWorkflow.contentType, itemWorkflow.itemId], set });
  }
  const kind = noticeKind(from, to);
  if (!kind) return;
  const recipients = new Set(kind === "submitted" ? await publishers(tx) : await writersOf(tx, type, item.id));
  recipients.delete(actor.id);
  if (!recipients.size) return;
  const actorName = await nameOf(tx, actor);
  const rows = await tx
    .insert(staffNotices)
    .values([...recipients].map((accountId) => ({ accountId, kind, ...key, title: item.title, actorName, note: kind === "changes_requested" ? note : null })))
    .returning({ id: staffNotices.id });
  for (const row of rows) await enqueue(tx, WORKFLOW_MAIL_JOB, { noticeId: row.id }, { maxAttempts: WORKFLOW_MAIL_ATTEMPTS });
}

/** The review record shown in the editor: the note the item was last sent back with, by whom and when. */
export async function reviewOf(db: Database, type: ContentType, id: number) {
  const [row] = await db
    .select({ note: itemWorkflow.reviewNote, at: itemWorkflow.reviewedAt, by: sql<string | null>`coalesce(nullif(${profiles.fullName}, ''), ${user.name})` })
    .from(itemWorkflow)
    .leftJoin(profiles, eq(profiles.id, itemWorkflow.reviewedBy))
    .leftJoin(user, eq(user.id, itemWorkflow.reviewedBy))
    .where(and(eq(itemWorkflow.contentType, type), eq(itemWorkflow.itemId, id)))
    .limit(1);
  return row?.note ? { note: row.note, by: row.by, at: row.at ? row.at.toISOString() : null } : null;
}

/** Forgets the review records and notices of removed items (the newsroom's delete, in its transaction). */
export async function forgetWorkflow(tx: Queryable, type: ContentType, ids: readonly number[]) {
  if (!ids.length) return;
  await tx.delete(itemWorkflow).where(and(eq(itemWorkflow.contentType, type), inArray(itemWorkflow.itemId, [...ids])));
  await tx.delete(staffNotices).where(and(eq(staffNotices.contentType, type), inArray(staffNotices.itemId, [...ids])));
}

// ---- The review queue (dashboard) ----

export type QueuedItem = { type: ContentType; segment: string; id: number; title: string; writer: string | null; submitted_at: string };

/** Items waiting in review, oldest submission first, across every type: type, title, writer and time. */
export async function reviewQueue(db: Database, limit = 50): Promise<QueuedItem[]> {
  const lists = await Promise.all(
    CONTENT_TYPES.map(async (type) => {
      const t = tableOf(type);
      const rows = await db
        .select({
          id: t.id,
          title: t.title,
          at: sql<Date | string>`coalesce(${itemWorkflow.submittedAt}, ${t.updatedAt})`,
          writer: sql<string | null>`coalesce(nullif(${profiles.fullName}, ''), ${user.name}, ${columnOf(type, "authorName") ?? sql`null`})`,
        })
        .from(t)
        .leftJoin(itemWorkflow, and(eq(itemWorkflow.contentType, type), eq(itemWorkflow.itemId, t.id)))
        .leftJoin(profiles, eq(profiles.id, itemWorkflow.submittedBy))
        .leftJoin(user, eq(user.id, itemWorkflow.submittedBy))
        .where(eq(t.status, "review"))
        .orderBy(asc(sql`coalesce(${itemWorkflow.submittedAt}, ${t.updatedAt})`), asc(t.id))
        .limit(limit);
      return rows.map((r) => ({
        type,
        segment: CONTENT_TYPE_DEFINITIONS[type].segment,
        id: r.id,
        title: r.title,
        writer: r.writer,
        submitted_at: new Date(r.at).toISOString(),
      }));
    }),
  );
  return lists
    .flat()
    .sort((a, b) => Date.parse(a.submitted_at) - Date.parse(b.submitted_at) || a.id - b.id)
    .slice(0, limit);
}

// ---- Notices ----

export type StaffNotice = StaffNoticeView & { kind: StaffNoticeKind; type: ContentType };

/** An account's latest notices, newest first, with how many are unread. */
export async function noticesOf(db: Database, accountId: string, limit = 20): Promise<{ notices: StaffNotice[]; unread: number }> {
  const [rows, [tally]] = await Promise.all([
    db.select().from(staffNotices).where(eq(staffNotices.accountId, accountId)).orderBy(desc(staffNotices.createdAt), desc(staffNotices.id)).limit(limit),
    db
      .select({ unread: sql<number>`count(*)` })
      .from(staffNotices)
      .where(and(eq(staffNotices.accountId, accountId), isNull(staffNotices.readAt))),
  ]);
  const notices = rows
    .filter((r) => (CONTENT_TYPES as readonly string[]).includes(r.contentType))
    .map((r) => ({
      id: r.id,
      kind: r.kind,
      type: r.contentType as ContentType,
      segment: CONTENT_TYPE_DEFINITIONS[r.contentType as ContentType].segment,
      item_id: r.itemId,
      title: r.title,
      actor_name: r.actorName,
      note: r.note,
      created_at: r.createdAt.toISOString(),
      read: r.readAt !== null,
    }));
  return { notices, unread: Number(tally?.unread ?? 0) };
}

/** How many notices an account has not seen (the back-office menu's badge). */
export async function unreadNotices(db: Database, accountId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(staffNotices)
    .where(and(eq(staffNotices.accountId, accountId), isNull(staffNotices.readAt)));
  return Number(row?.n ?? 0);
}

/** Marks an account's notices read (those listed: `ids`; all when none given). */
export async function markNoticesRead(db: Database, accountId: string, ids?: readonly number[]) {
  if (ids && !ids.length) return;
  await db
    .update(staffNotices)
    .set({ readAt: new Date() })
    .where(and(eq(staffNotices.accountId, accountId), isNull(staffNotices.readAt), ids ? inArray(staffNotices.id, [...ids]) : undefined));
}

// ---- E-mail (through the job queue) ----

const MAIL_LANGUAGES = ["ar", "fr", "en"] as const;

/** A notice's e-mail: its text in Arabic, French and English (an account has no language of its own), with the item's editor link. */
export function noticeMail(
  notice: { kind: StaffNoticeKind; title: string; actor_name: string | null; note: string | null },
  link: string,
  config: Config = getConfig(),
) {
  const fill = (text: string) => text.replaceAll("{{title}}", notice.title).replaceAll("{{name}}", notice.actor_name ?? "");
  const part = (lang: (typeof MAIL_LANGUAGES)[number]) => {
    const lines = [fill(translate(lang, `workflow.mail.${notice.kind}`))];
    if (notice.note) lines.push(`${translate(lang, "workflow.mail.note")} ${notice.note}`);
    lines.push(translate(lang, "workflow.mail.open"));
    return { lang, lines };
  };
  const parts = MAIL_LANGUAGES.map(part);
  const subject = `${fill(translate("ar", `workflow.mail.subject.${notice.kind}`))} · ${fill(translate("fr", `workflow.mail.subject.${notice.kind}`))} — ${config.SITE_NAME}`;
  const text = parts.map((p) => [...p.lines, link].join("\n")).join("\n\n— — —\n\n");
  const html = `<!doctype html><html lang="ar" dir="rtl"><body style="font-family:sans-serif;line-height:1.7">${parts
    .map(
      (p) =>
        `<div lang="${p.lang}" dir="${p.lang === "ar" ? "rtl" : "ltr"}">${p.lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("")}<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p></div>`,
    )
    .join("<hr>")}</body></html>`;
  return { subject, text, html };
}

/** Runs a notice's mail job: the notice and its account's address read afresh (a deleted account or item: nothing to send). */
export function workflowMailHandler(config?: Config): JobHandler {
  return async (job, { db, isLastAttempt }) => {
    const noticeId = Number(job.payload.noticeId);
    if (!Number.isSafeInteger(noticeId) || noticeId <= 0) throw new PermanentJobError("workflow.mail: no notice id");
    const [row] = await db
      .select({ notice: staffNotices, email: user.email })
      .from(staffNotices)
      .innerJoin(user, eq(user.id, staffNotices.accountId))
      .where(eq(staffNotices.id, noticeId))
      .limit(1);
    if (!row || !(CONTENT_TYPES as readonly string[]).includes(row.notice.contentType)) return;
    const settings = config ?? getConfig();
    const segment = CONTENT_TYPE_DEFINITIONS[row.notice.contentType as ContentType].segment;
    const link = `${settings.publicUrl}/admin/${segment}/${row.notice.itemId}`;
    const mail = noticeMail({ kind: row.notice.kind, title: row.notice.title, actor_name: row.notice.actorName, note: row.notice.note }, link, settings);
    try {
      await sendMail({ to: row.email, ...mail, links: [link] }, settings);
    } catch (error) {
      if (isLastAttempt) logger.error({ err: error, job: job.id, notice: noticeId }, "workflow: notice e-mail not sent");
      throw error;
    }
  };
}
