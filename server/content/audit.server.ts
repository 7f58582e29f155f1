/**
 * The audit log (issue 40, decision 0140): who published, unpublished, scheduled, deleted, restored or
 * bulk-changed what, who changed whose rights, which address was locked out of signing in, who sent a
 * newsletter; when, and from which request (the X-Request-Id of server/ops/request-context.server.ts).
 *
 * One row per action: a bulk action over a thousand items is one row with a thousand ids. A row is written with
 * `recordAudit` in the caller's transaction, so a change that rolls back leaves no row and a row never names a
 * change that did not happen. Administrators read it (`listAudit`, `/admin/audit`, `GET /api/admin/audit`) and
 * export it as CSV (`auditCsv`); `pruneAudit` removes rows older than AUDIT_RETENTION_DAYS (a daily job).
 */
import { and, desc, eq, gte, ilike, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { Database, Queryable } from "#server/db/client.server.ts";
import { auditLog } from "#server/db/schema.server.ts";
import { currentRequestId } from "#server/ops/request-context.server.ts";

import { AUDIT_ACTIONS, isAuditAction, type AuditAction } from "#domain/audit.ts";

export { AUDIT_ACTIONS, isAuditAction, type AuditAction };

/** Who acted: an account (its id and e-mail, kept as they were), or nobody (a sign-in lock-out of an unknown address). */
export type AuditActor = { id: string; email: string } | null;

export type AuditRecord = {
  actor: AuditActor;
  action: AuditAction;
  type?: string | null;
  ids?: readonly number[];
  details?: Record<string, unknown>;
};

/** Writes one audit row in the caller's transaction (or alone, for what has none), with the current request's id. */
export async function recordAudit(tx: Queryable, record: AuditRecord): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: record.actor?.id ?? null,
    actorEmail: record.actor?.email ?? null,
    action: record.action,
    contentType: record.type ?? null,
    itemIds: [...(record.ids ?? [])],
    details: record.details ?? {},
    requestId: currentRequestId() ?? null,
  });
}

/** The audit action a save is, from an item's editor status before and after it; null when readers see no change of state. */
export function statusChangeAction(before: string | null, after: string): AuditAction | null {
  if (before === after) return null;
  if (after === "published") return "publish";
  if (after === "scheduled") return "schedule";
  if (before === "published" || before === "scheduled") return "unpublish";
  return null;
}

/**
 * The audit row of a save, in its transaction: a restore of a revision is always one ("restore", with the
 * revision's id and the status it left); another save is one when it published, scheduled or unpublished the item.
 */
export async function auditSave(
  tx: Queryable,
  type: string,
  before: { status: string } | null,
  after: { id: number; status: string; publish_date: string },
  actor: AuditActor,
  restoredRevision?: number,
): Promise<void> {
  if (restoredRevision !== undefined) {
    await recordAudit(tx, { actor, action: "restore", type, ids: [after.id], details: { revision_id: restoredRevision, status: after.status } });
    return;
  }
  const action = statusChangeAction(before?.status ?? null, after.status);
  if (!action) return;
  const details: Record<string, unknown> = { from: before?.status ?? null, to: after.status };
  if (action !== "unpublish") details.publish_date = after.publish_date;
  await recordAudit(tx, { actor, action, type, ids: [after.id], details });
}

export type AuditFilter = {
  type?: string;
  id?: number;
  /** An account id, or (part of) the e-mail it had. */
  actor?: string;
  action?: AuditAction;
  /** Inclusive bounds on `at`. */
  from?: Date;
  to?: Date;
};

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A date bound of the filter: a day (YYYY-MM-DD, in UTC: `from` its start, `to` its end, so `to` includes that day)
 * or an ISO time; null when it is neither.
 */
export function parseAuditDate(value: string, bound: "from" | "to"): Date | null {
  const at = DAY_ONLY.test(value) ? new Date(`${value}T${bound === "from" ? "00:00:00.000" : "23:59:59.999"}Z`) : new Date(value);
  return Number.isNaN(at.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(value) ? null : at;
}

/**
 * The filter of the API's and the page's query (`type, id, actor, action, from, to`), each optional; a value that
 * cannot be one (an id that is not a number, an unknown action, a date that is none) is named in `invalid`.
 */
export function auditFilterOf(query: Partial<Record<"type" | "id" | "actor" | "action" | "from" | "to", string>>): { filter: AuditFilter; invalid: string[] } {
  const filter: AuditFilter = {};
  const invalid: string[] = [];
  if (query.type) filter.type = query.type;
  if (query.id) {
    const id = /^\d{1,9}$/.test(query.id) ? Number(query.id) : NaN;
    if (Number.isInteger(id) && id > 0 && id <= 2_147_483_647) filter.id = id;
    else invalid.push("id");
  }
  if (query.actor) filter.actor = query.actor;
  if (query.action) {
    if (isAuditAction(query.action)) filter.action = query.action;
    else invalid.push("action");
  }
  for (const bound of ["from", "to"] as const) {
    const value = query[bound];
    if (!value) continue;
    const at = parseAuditDate(value, bound);
    if (at) filter[bound] = at;
    else invalid.push(bound);
  }
  return { filter, invalid };
}

export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_PAGE_MAX = 500;
/** Rows a CSV export holds at most (the newest). */
export const AUDIT_CSV_MAX = 50_000;

export type AuditEntry = {
  /** The actor's account id (null: nobody signed in, a sign-in lock-out). */
  actor: string | null;
  actor_email: string | null;
  action: string;
  type: string | null;
  /** The item the entry is about: the one filtered on, else the first of `ids` (null when none). */
  id: number | null;
  ids: number[];
  at: string;
  request_id: string | null;
  details: Record<string, unknown>;
  entry_id: number;
};

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

function whereOf(filter: AuditFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (filter.type) conditions.push(eq(auditLog.contentType, filter.type));
  if (filter.id !== undefined) conditions.push(sql`${filter.id}::int = any(${auditLog.itemIds})`);
  if (filter.actor) conditions.push(or(eq(auditLog.actorId, filter.actor), ilike(auditLog.actorEmail, `%${escapeLike(filter.actor)}%`)));
  if (filter.action) conditions.push(eq(auditLog.action, filter.action));
  if (filter.from) conditions.push(gte(auditLog.at, filter.from));
  if (filter.to) conditions.push(lte(auditLog.at, filter.to));
  return and(...conditions);
}

/** Entries matching the filter, newest first; `limit` (at most AUDIT_PAGE_MAX) from `offset`, and whether more follow. */
export async function listAudit(
  db: Database,
  filter: AuditFilter,
  { limit = AUDIT_PAGE_SIZE, offset = 0 }: { limit?: number; offset?: number } = {},
): Promise<{ entries: AuditEntry[]; more: boolean }> {
  const rows = await db
    .select()
    .from(auditLog)
    .where(whereOf(filter))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(Math.min(limit, AUDIT_CSV_MAX) + 1)
    .offset(offset);
  const more = rows.length > limit;
  return {
    more,
    entries: rows.slice(0, limit).map((r) => ({
      actor: r.actorId,
      actor_email: r.actorEmail,
      action: r.action,
      type: r.contentType,
      id: filter.id !== undefined && r.itemIds.includes(filter.id) ? filter.id : (r.itemIds[0] ?? null),
      ids: r.itemIds,
      at: r.at.toISOString(),
      request_id: r.requestId,
      details: r.details,
      entry_id: r.id,
    })),
  };
}

/** The people the log names, for the page's filter: account id and e-mail, by e-mail. */
export async function auditActors(db: Database): Promise<{ id: string; email: string }[]> {
  const rows = await db
    .selectDistinct({ id: auditLog.actorId, email: auditLog.actorEmail })
    .from(auditLog)
    .where(sql`${auditLog.actorId} is not null`)
    .orderBy(auditLog.actorEmail)
    .limit(500);
  return rows.map((r) => ({ id: r.id!, email: r.email ?? r.id! }));
}

/**
 * A cell as RFC 4180 wants it (quoted when it holds a comma, quote or line break; quotes doubled), and safe to open
 * in a spreadsheet: a text starting with = + - @ (or a tab or carriage return) is a formula there, so it gets a
 * leading apostrophe (OWASP, "CSV injection").
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const AUDIT_CSV_COLUMNS = ["at", "actor", "actor_email", "action", "type", "ids", "request_id", "details"] as const;

/** The entries as CSV: UTF-8 with a byte-order mark (Excel then reads Arabic right), CRLF line ends, a header row. */
export function auditCsv(entries: readonly AuditEntry[]): string {
  const lines = [AUDIT_CSV_COLUMNS.join(",")];
  for (const e of entries) {
    lines.push(
      [e.at, e.actor, e.actor_email, e.action, e.type, e.ids.join(" "), e.request_id, Object.keys(e.details).length ? e.details : ""].map(csvCell).join(","),
    );
  }
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

/** AUDIT_RETENTION_DAYS when unset (server/config.server.ts). */
export const AUDIT_RETENTION_DEFAULT_DAYS = 365;

/** Removes rows older than `days` days; how many. */
export async function pruneAudit(db: Database, days: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  const gone = await db.delete(auditLog).where(lt(auditLog.at, cutoff)).returning({ id: auditLog.id });
  return gone.length;
}
