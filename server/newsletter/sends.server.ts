/**
 * Newsletter sends as the newsroom sees them (decision 0126): queuing one to its audience (a row of
 * newsletter_sends holding what goes out, and one newsletter_deliveries row per recipient, written in the same
 * transaction), listing them with their counts, cancelling, resuming, and pruning the per-recipient rows of old
 * sends. Running a send is server/newsletter/run-send.server.ts.
 */
import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { newsletterDeliveries, newsletterSends, newsletterSubscribers } from "#server/db/schema.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { BadRequestError, NotFoundError } from "#server/http/errors.server.ts";
import { recordAudit } from "#server/content/audit.server.ts";
import type { Language } from "#domain/language.ts";
import type { DigestPeriod, NewsletterItemRef, NewsletterSendKind } from "#domain/newsletter-sends.ts";
import { resolveItems } from "./items.server.ts";

export type SendInput = {
  kind: NewsletterSendKind;
  period: DigestPeriod | null;
  language: Language;
  subject: string;
  intro: string | null;
  items: NewsletterItemRef[];
};

/** Who a send goes to: confirmed subscribers of its language; a digest those of its frequency, an item anyone not at `none`. */
function audience(kind: NewsletterSendKind, period: DigestPeriod | null, language: Language): SQL {
  const s = newsletterSubscribers;
  const frequency = kind === "digest" ? eq(s.frequency, period ?? "daily") : inArray(s.frequency, ["daily", "weekly"]);
  return and(eq(s.status, "confirmed"), eq(s.language, language), frequency) as SQL;
}

export async function audienceSize(db: Database, { kind, period, language }: Pick<SendInput, "kind" | "period" | "language">): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(newsletterSubscribers)
    .where(audience(kind, period, language));
  return Number(row?.n ?? 0);
}

/**
 * Queues a send: its row, one delivery per recipient (one INSERT … SELECT, in the same transaction, so a send
 * is never half-addressed) and the job. Returns the send's id and how many it goes to.
 */
export async function createSend(
  db: Database,
  input: SendInput,
  { user, enqueueJob }: { user?: { id: string; name: string | null; email?: string }; enqueueJob: (db: Database, sendId: number) => Promise<unknown> },
): Promise<{ id: number; total: number }> {
  if (!input.items.length)
    throw new BadRequestError("NO_ITEMS", "A newsletter needs at least one item.", { fields: { items: "newsletterAdmin.errors.noItems" } });
  const items = await resolveItems(db, input.items, input.language);
  const created = await db.transaction(async (tx) => {
    const [send] = await tx
      .insert(newsletterSends)
      .values({
        kind: input.kind,
        period: input.kind === "digest" ? input.period : null,
        language: input.language,
        subject: input.subject,
        intro: input.intro,
        items,
        createdBy: user?.id ?? null,
        createdByName: user?.name ?? null,
      })
      .returning({ id: newsletterSends.id });
    const inserted = await tx.execute(sql`
      insert into ${newsletterDeliveries} (send_id, subscriber_id, email)
      select ${send.id}, id, email from ${newsletterSubscribers} where ${audience(input.kind, input.period, input.language)}
      on conflict do nothing`);
    const total = Number(
      (inserted as unknown as { affectedRows?: number; rowCount?: number }).affectedRows ?? (inserted as { rowCount?: number }).rowCount ?? 0,
    );
    await tx.update(newsletterSends).set({ total }).where(eq(newsletterSends.id, send.id));
    // Who sent what to how many: one audit row in the same transaction (issue 40, decision 0140).
    await recordAudit(tx as unknown as Database, {
      actor: user ? { id: user.id, email: user.email ?? "" } : null,
      action: "newsletter_send",
      details: { send_id: send.id, kind: input.kind, language: input.language, subject: input.subject, total },
    });
    return { id: send.id, total };
  });
  await enqueueJob(db, created.id);
  logger.info({ send: created.id, total: created.total, kind: input.kind, language: input.language }, "newsletter: send queued");
  return created;
}

export type SendSummary = {
  id: number;
  kind: NewsletterSendKind;
  period: DigestPeriod | null;
  language: Language;
  subject: string;
  state: "queued" | "sending" | "sent" | "failed" | "cancelled";
  total: number;
  sent: number;
  failed: number;
  pending: number;
  skipped: number;
  unsubscribed: number;
  createdAt: string;
  finishedAt: string | null;
  createdByName: string | null;
  lastError: string | null;
};

/** How long a send's per-recipient rows are kept; then only its counts remain (pruneDeliveries, a daily job). */
export const NEWSLETTER_DELIVERIES_KEPT_DAYS = 90;

type StoredCounts = { sent: number; failed: number; pending: number; skipped: number; unsubscribed: number };

/**
 * Deletes the delivery rows of sends finished more than `days` ago, keeping their counts on the send (one send at
 * a time, each in a transaction). An unsubscribe from such an old mail still works; it is no longer counted.
 */
export async function pruneDeliveries(db: Database, { days = NEWSLETTER_DELIVERIES_KEPT_DAYS, now = new Date() }: { days?: number; now?: Date } = {}) {
  const before = new Date(now.getTime() - days * 86_400_000);
  const old = await db
    .select({ id: newsletterSends.id })
    .from(newsletterSends)
    .where(
      and(
        sql`${newsletterSends.counts} is null`,
        sql`${newsletterSends.finishedAt} < ${before.toISOString()}`,
        inArray(newsletterSends.state, ["sent", "failed", "cancelled"]),
      ),
    )
    .limit(100);
  let pruned = 0;
  for (const { id } of old) {
    await db.transaction(async (tx) => {
      const counts = await countsOf(tx as unknown as Database, [id]);
      await tx
        .update(newsletterSends)
        .set({ counts: counts.get(id) ?? { sent: 0, failed: 0, pending: 0, skipped: 0, unsubscribed: 0 } })
        .where(eq(newsletterSends.id, id));
      const removed = await tx.delete(newsletterDeliveries).where(eq(newsletterDeliveries.sendId, id)).returning({ id: newsletterDeliveries.id });
      pruned += removed.length;
    });
  }
  return pruned;
}

/** Each send's delivery counts, from one grouped scan. */
async function countsOf(db: Database, ids: number[]): Promise<Map<number, StoredCounts>> {
  if (!ids.length) return new Map();
  const rows = rowsOf<{ send_id: number; state: string; n: number; unsubscribed: number }>(
    await db.execute(sql`select send_id, state, count(*)::int as n, count(unsubscribed_at)::int as unsubscribed
      from ${newsletterDeliveries} where send_id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}) group by send_id, state`),
  );
  const counts = new Map<number, StoredCounts>();
  for (const id of ids) {
    const mine = rows.filter((c) => Number(c.send_id) === id);
    const of = (state: string) => Number(mine.find((c) => c.state === state)?.n ?? 0);
    counts.set(id, {
      sent: of("sent"),
      failed: of("failed"),
      pending: of("pending") + of("sending"),
      skipped: of("skipped"),
      unsubscribed: mine.reduce((sum, c) => sum + Number(c.unsubscribed), 0),
    });
  }
  return counts;
}

/** The latest sends with their counts (one grouped scan of their deliveries; a pruned send's stored counts). */
export async function listSends(db: Database, { limit = 50 }: { limit?: number } = {}): Promise<SendSummary[]> {
  const sends = await db.select().from(newsletterSends).orderBy(desc(newsletterSends.createdAt), desc(newsletterSends.id)).limit(limit);
  if (!sends.length) return [];
  const live = await countsOf(
    db,
    sends.filter((s) => !s.counts).map((s) => s.id),
  );
  return sends.map((s) => {
    const counts = (s.counts as StoredCounts | null) ?? live.get(s.id)!;
    return {
      id: s.id,
      kind: s.kind,
      period: s.period,
      language: s.language as Language,
      subject: s.subject,
      state: s.state,
      total: s.total,
      ...counts,
      createdAt: s.createdAt.toISOString(),
      finishedAt: s.finishedAt?.toISOString() ?? null,
      createdByName: s.createdByName,
      lastError: s.lastError,
    };
  });
}

/** Stops a queued or running send: what is not sent yet stays unsent (skipped). */
export async function cancelSend(db: Database, id: number): Promise<void> {
  const [row] = await db
    .update(newsletterSends)
    .set({ state: "cancelled", finishedAt: new Date() })
    .where(and(eq(newsletterSends.id, id), inArray(newsletterSends.state, ["queued", "sending"])))
    .returning({ id: newsletterSends.id });
  if (!row) throw new NotFoundError("No send in progress with this id.");
  await db
    .update(newsletterDeliveries)
    .set({ state: "skipped" })
    .where(and(eq(newsletterDeliveries.sendId, id), eq(newsletterDeliveries.state, "pending")));
}

/** The job's last attempt failed: the send says so (what was sent stays sent; a new attempt can be queued). */
export async function markSendFailed(db: Database, sendId: number, error: unknown) {
  await db
    .update(newsletterSends)
    .set({ state: "failed", lastError: String((error as Error)?.message ?? error).slice(0, 1000), finishedAt: new Date() })
    .where(and(eq(newsletterSends.id, sendId), inArray(newsletterSends.state, ["queued", "sending"])));
}

/** A failed send with recipients left is queued again (the screen's "resume"). */
export async function resumeSend(db: Database, id: number, enqueueJob: (db: Database, sendId: number) => Promise<unknown>) {
  const [row] = await db
    .update(newsletterSends)
    .set({ state: "queued", lastError: null, finishedAt: null })
    .where(
      and(
        eq(newsletterSends.id, id),
        eq(newsletterSends.state, "failed"),
        sql`exists (select 1 from ${newsletterDeliveries} where send_id = ${id} and state in ('pending', 'sending'))`,
      ),
    )
    .returning({ id: newsletterSends.id });
  if (!row) throw new NotFoundError("No failed send with recipients left with this id.");
  await enqueueJob(db, id);
}

/** The sends' delivery state counts of one send (tests, scripts). */
export async function deliveryCounts(db: Database, sendId: number): Promise<Record<string, number>> {
  const rows = await db
    .select({ state: newsletterDeliveries.state, n: sql<number>`count(*)::int` })
    .from(newsletterDeliveries)
    .where(eq(newsletterDeliveries.sendId, sendId))
    .groupBy(newsletterDeliveries.state)
    .orderBy(asc(newsletterDeliveries.state));
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
}
