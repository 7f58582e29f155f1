/**
 * Running a send (decision 0126), the work of its job (server/newsletter/jobs.server.ts): batches of pending
 * deliveries are claimed (state `sending`), mailed, and marked `sent` or `failed` (or `pending` again for a
 * passing failure), at a set rate. A worker killed mid-batch leaves that one batch `sending`; the next attempt
 * hands it back to `pending`, so a crash repeats at most the messages of one batch, and never skips one.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { newsletterDeliveries, newsletterSends, newsletterSubscribers } from "#server/db/schema.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { getConfig, type Config } from "#server/config.server.ts";
import { CodedError } from "#server/errors.server.ts";
import { sendMail, type MailMessage } from "#server/ops/mail.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { LANGUAGES, type Language } from "#domain/language.ts";
import { renderNewsletter, TOKEN_SLOT, type NewsletterContent } from "./compose.server.ts";
import type { NewsletterItem } from "./items.server.ts";
import { manageToken, storeTokenHashes } from "./tokens.server.ts";

export type SendRunOptions = {
  config?: Config;
  batchSize?: number;
  ratePerMinute?: number;
  /** Waits between batches (tests replace it to count the pauses). */
  sleep?: (ms: number) => Promise<void>;
  /** The clock the rate is kept by (tests stop it). */
  now?: () => number;
  /** True when the worker is shutting down: the send stops between batches (or during the wait) and resumes later. */
  shouldStop?: () => boolean;
  /** Attempts per recipient before a passing failure counts as failed. */
  maxAttempts?: number;
};

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A failure the server said is final (5xx reply: no such mailbox, refused): retrying would not help. */
const isPermanent = (error: unknown) => {
  const cause = (error as { cause?: { responseCode?: number } } | null)?.cause;
  const code = Number((error as { responseCode?: number } | null)?.responseCode ?? cause?.responseCode);
  return code >= 500 && code < 600;
};

/** Nothing of a batch went through and every failure may pass (the mail server is likely down): the job retries later. */
export class SendBatchFailed extends CodedError {
  constructor(sendId: number, firstError: unknown) {
    super("NEWSLETTER_BATCH_FAILED", `newsletter send ${sendId}: no message of the batch could be sent (${String((firstError as Error)?.message ?? "")})`, {
      level: "warn",
      context: { send: sendId },
    });
  }
}

/** A delivery claimed for this batch, with what its subscriber is now. */
type ClaimedDelivery = {
  id: number;
  subscriber_id: number;
  email: string;
  attempts: number;
  status: string;
  language: string;
  manage_token_hash: string | null;
};

type MailTemplate = ReturnType<typeof renderNewsletter>;
type Outcome = { r: ClaimedDelivery; error: unknown };

/**
 * Sends what is left of a send, batch after batch, at most `ratePerMinute` messages a minute. Safe to run
 * again at any point: deliveries left `sending` by a worker that died go back to `pending` first.
 */
export async function runSend(db: Database, sendId: number, options: SendRunOptions = {}): Promise<{ sent: number; failed: number; stopped: boolean }> {
  const config = options.config ?? getConfig();
  const batchSize = options.batchSize ?? config.NEWSLETTER_BATCH_SIZE;
  const rate = options.ratePerMinute ?? config.NEWSLETTER_RATE_PER_MINUTE;
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;
  const maxAttempts = options.maxAttempts ?? 3;
  const [send] = await db.select().from(newsletterSends).where(eq(newsletterSends.id, sendId)).limit(1);
  if (!send || send.state === "sent" || send.state === "cancelled") return { sent: 0, failed: 0, stopped: false };
  const shouldStop = options.shouldStop ?? (() => false);
  /** The wait between batches, a second at a time, so that a worker shutting down is not held for minutes. */
  const pause = async (ms: number) => {
    for (let left = ms; left > 0 && !shouldStop(); left -= 1000) await sleep(Math.min(1000, left));
  };
  const content: NewsletterContent = {
    kind: send.kind,
    language: (LANGUAGES as readonly string[]).includes(send.language) ? (send.language as Language) : "ar",
    subject: send.subject,
    intro: send.intro,
    items: send.items as NewsletterItem[],
  };
  const template = renderNewsletter(content, { token: TOKEN_SLOT, sendId, config });
  await startSending(db, sendId, send.startedAt);

  let sent = 0;
  let failed = 0;
  let stopped = false;
  for (;;) {
    if (shouldStop()) {
      stopped = true;
      break;
    }
    const [current] = await db.select({ state: newsletterSends.state }).from(newsletterSends).where(eq(newsletterSends.id, sendId));
    if (!current || current.state === "cancelled") break;
    const batchStarted = now();
    const claimed = await claimBatch(db, sendId, batchSize);
    if (!claimed.length) break;
    const recipients = await skipGone(db, claimed, content.language);
    await storeTokenHashes(
      db,
      recipients.map((r) => ({ id: Number(r.subscriber_id), manageTokenHash: r.manage_token_hash })),
      config,
    );
    const outcomes = await mailBatch(recipients, template, config);
    const batch = await recordOutcomes(db, outcomes, maxAttempts);
    sent += batch.sent;
    failed += batch.failed;
    if (batch.failures.length && !batch.sent && batch.failures.every((f) => !isPermanent(f.error))) {
      throw new SendBatchFailed(sendId, batch.failures[0].error);
    }

    // The rate: a batch of n messages takes at least n / rate minutes.
    const wait = (claimed.length * 60_000) / rate - (now() - batchStarted);
    if (wait > 0) await (options.sleep ? sleep(wait) : pause(wait));
  }

  await finishIfDone(db, sendId, { sent, failed });
  return { sent, failed, stopped };
}

/** The batch a dead worker had in flight goes back to pending (unknown whether it went out, so it goes out again); the send is `sending`. */
async function startSending(db: Database, sendId: number, startedAt: Date | null) {
  const requeued = await db
    .update(newsletterDeliveries)
    .set({ state: "pending" })
    .where(and(eq(newsletterDeliveries.sendId, sendId), eq(newsletterDeliveries.state, "sending")))
    .returning({ id: newsletterDeliveries.id });
  if (requeued.length) logger.warn({ send: sendId, deliveries: requeued.length }, "newsletter: resuming a send; the batch in flight is sent again");
  await db
    .update(newsletterSends)
    .set({ state: "sending", startedAt: startedAt ?? new Date() })
    .where(eq(newsletterSends.id, sendId));
}

/** Claims the next batch: it is now "in flight"; a crash from here until it is marked repeats it, and only it. */
async function claimBatch(db: Database, sendId: number, batchSize: number): Promise<ClaimedDelivery[]> {
  return rowsOf<ClaimedDelivery>(
    await db.execute(sql`
      with batch as (
        select id from ${newsletterDeliveries} where send_id = ${sendId} and state = 'pending'
        order by id limit ${batchSize} for update skip locked
      )
      update ${newsletterDeliveries} d set state = 'sending', claimed_at = now(), attempts = d.attempts + 1
      from batch, ${newsletterSubscribers} s
      where d.id = batch.id and s.id = d.subscriber_id
      returning d.id, d.subscriber_id, d.email, d.attempts, s.status, s.language, s.manage_token_hash`),
  );
}

/** Whoever unsubscribed or changed language since the send was queued is not mailed (skipped); the rest are returned. */
async function skipGone(db: Database, claimed: ClaimedDelivery[], language: Language): Promise<ClaimedDelivery[]> {
  const gone = claimed.filter((c) => c.status !== "confirmed" || c.language !== language);
  if (gone.length) {
    await db
      .update(newsletterDeliveries)
      .set({ state: "skipped" })
      .where(
        inArray(
          newsletterDeliveries.id,
          gone.map((g) => Number(g.id)),
        ),
      );
  }
  return claimed.filter((c) => !gone.includes(c));
}

/** Mails the batch at once, each recipient's token filled into the send's template; a failure is kept, not thrown. */
function mailBatch(recipients: ClaimedDelivery[], template: MailTemplate, config: Config): Promise<Outcome[]> {
  const fill = (text: string, token: string) => text.replaceAll(TOKEN_SLOT, token);
  return Promise.all(
    recipients.map(async (r) => {
      const token = manageToken(Number(r.subscriber_id), config);
      const message: MailMessage = {
        to: r.email,
        subject: template.subject,
        text: fill(template.text, token),
        html: fill(template.html, token),
        headers: Object.fromEntries(Object.entries(template.headers).map(([k, v]) => [k, fill(v, token)])),
      };
      try {
        await sendMail(message, config, { bulk: true });
        return { r, error: null as unknown };
      } catch (error) {
        return { r, error };
      }
    }),
  );
}

/** Marks each delivery `sent`, `failed` (a final failure, or the last attempt) or `pending` again (a passing one). */
async function recordOutcomes(db: Database, outcomes: Outcome[], maxAttempts: number) {
  const ok = outcomes.filter((o) => o.error === null).map((o) => Number(o.r.id));
  if (ok.length) await db.update(newsletterDeliveries).set({ state: "sent", sentAt: new Date(), error: null }).where(inArray(newsletterDeliveries.id, ok));
  const failures = outcomes.filter((o) => o.error !== null);
  let failed = 0;
  for (const { r, error } of failures) {
    const final = isPermanent(error) || Number(r.attempts) >= maxAttempts;
    if (final) failed++;
    await db
      .update(newsletterDeliveries)
      .set({ state: final ? "failed" : "pending", error: String((error as Error)?.message ?? error).slice(0, 500) })
      .where(eq(newsletterDeliveries.id, Number(r.id)));
  }
  return { sent: ok.length, failed, failures };
}

/** No delivery left pending or in flight: the send is `sent`, or `failed` when not one message went out. */
async function finishIfDone(db: Database, sendId: number, { sent, failed }: { sent: number; failed: number }) {
  const [left] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(newsletterDeliveries)
    .where(and(eq(newsletterDeliveries.sendId, sendId), inArray(newsletterDeliveries.state, ["pending", "sending"])));
  if (Number(left?.n ?? 0) !== 0) return;
  const [counts] = await db
    .select({ sent: sql<number>`count(*) filter (where state = 'sent')::int`, all: sql<number>`count(*)::int` })
    .from(newsletterDeliveries)
    .where(eq(newsletterDeliveries.sendId, sendId));
  const failedAll = Number(counts?.all ?? 0) > 0 && Number(counts?.sent ?? 0) === 0;
  await db
    .update(newsletterSends)
    .set({ state: failedAll ? "failed" : "sent", finishedAt: new Date() })
    .where(and(eq(newsletterSends.id, sendId), eq(newsletterSends.state, "sending")));
  logger.info({ send: sendId, sent, failed }, "newsletter: send finished");
}
