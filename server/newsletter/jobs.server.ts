/**
 * The newsletter's jobs: sending, pruning old deliveries, and a sign-up's confirmation e-mail.
 *
 * The send job (decision 0126): one job per send, which runs the send to its end
 * (server/newsletter/run-send.server.ts, runSend). A worker that dies mid-send lets the job's lease lapse;
 * the next attempt resumes from the deliveries' states. A send that keeps failing (the mail server down) is
 * retried with the queue's growing delays, then marked failed with its error, for the screen's "resume".
 */
import { getConfig, type Config } from "#server/config.server.ts";
import { CodedError } from "#server/errors.server.ts";
import type { Database } from "#server/db/client.server.ts";
import { runSend } from "./run-send.server.ts";
import { markSendFailed, pruneDeliveries } from "./sends.server.ts";
import { sendConfirmation } from "./subscriptions.server.ts";
import { LANGUAGES, type Language } from "#domain/language.ts";
import { logger } from "#server/ops/logger.server.ts";
import { enqueue, PermanentJobError, type JobHandler } from "#server/jobs/queue.server.ts";

export const NEWSLETTER_SEND_JOB = "newsletter.send";
/** Daily: the per-recipient rows of sends older than NEWSLETTER_DELIVERIES_KEPT_DAYS go; their counts stay. */
export const NEWSLETTER_PRUNE_JOB = "newsletter.prune";

export const newsletterPruneHandler: JobHandler = async (_job, { db }) => {
  const removed = await pruneDeliveries(db);
  if (removed) logger.info({ removed }, "newsletter: old delivery rows pruned");
};

/** Attempts of a send's job: each resumes where the last stopped (a restart of the worker uses one); with the queue's delays over an hour in all. */
export const NEWSLETTER_SEND_ATTEMPTS = 12;

export function queueNewsletterSend(db: Database, sendId: number) {
  return enqueue(db, NEWSLETTER_SEND_JOB, { sendId }, { singletonKey: `${NEWSLETTER_SEND_JOB}:${sendId}`, maxAttempts: NEWSLETTER_SEND_ATTEMPTS });
}

/** The worker is shutting down in the middle of a send: the job goes back to the queue and resumes where it stopped. */
export class SendInterrupted extends CodedError {
  constructor(sendId: number) {
    super("NEWSLETTER_SEND_INTERRUPTED", `newsletter send ${sendId} paused: the worker stopped; it resumes on the next attempt`, {
      level: "info",
      context: { send: sendId },
    });
  }
}

/** `stopping`: true once the worker is asked to stop (startJobWorker's stop): the send pauses between batches. */
export function newsletterSendHandler(config?: Config, { stopping }: { stopping?: () => boolean } = {}): JobHandler {
  return async (job, { db, isLastAttempt }) => {
    const sendId = Number(job.payload.sendId);
    if (!Number.isInteger(sendId) || sendId <= 0) throw new PermanentJobError("newsletter.send: no send id");
    try {
      const { stopped } = await runSend(db, sendId, { config: config ?? getConfig(), shouldStop: stopping });
      if (stopped) throw new SendInterrupted(sendId);
    } catch (error) {
      if (isLastAttempt) await markSendFailed(db, sendId, error);
      throw error;
    }
  };
}

/**
 * A sign-up's confirmation e-mail (server/newsletter/subscriptions.server.ts: the request queues it, sendConfirmation
 * decides and sends). A mail server that fails is tried again with the queue's delays; the last failure is an error.
 */
export function newsletterConfirmHandler(config?: Config): JobHandler {
  return async (job, { db, isLastAttempt }) => {
    const { email, language } = job.payload;
    if (typeof email !== "string" || !email.includes("@")) throw new PermanentJobError("newsletter.confirm: no address");
    const lang: Language = (LANGUAGES as readonly unknown[]).includes(language) ? (language as Language) : "ar";
    try {
      await sendConfirmation(db, { email, language: lang }, { config: config ?? getConfig() });
    } catch (error) {
      if (isLastAttempt) logger.error({ err: error, job: job.id }, "newsletter: confirmation e-mail not sent");
      throw error;
    }
  };
}
