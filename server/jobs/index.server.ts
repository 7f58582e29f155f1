/**
 * The jobs this platform runs and the one worker that runs them: inside the server by default
 * (JOB_WORKER=embedded), or as `npm run worker` processes beside web processes that set JOB_WORKER=off.
 */
import path from "node:path";
import type { Config } from "#server/config.server.ts";
import type { Database } from "#server/db/client.server.ts";
import { pruneAudience } from "#server/analytics/collect.server.ts";
import { AUDIT_RETENTION_DEFAULT_DAYS, pruneAudit } from "#server/content/audit.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { sharedStorage, type Storage } from "#server/media/storage/index.server.ts";
import { pruneUnfinishedUploads } from "#server/media/storage/tus.server.ts";
import { processVideo } from "#server/media/video/processing.server.ts";
import { enqueue, pruneJobs, startWorker, type JobHandler, type Worker, type WorkerOptions } from "./queue.server.ts";
import { searchDrainJob, SEARCH_DRAIN_EVERY_MS, SEARCH_DRAIN_JOB } from "#server/search/search-drain.server.ts";
import {
  NEWSLETTER_PRUNE_JOB,
  NEWSLETTER_SEND_JOB,
  newsletterConfirmHandler,
  newsletterPruneHandler,
  newsletterSendHandler,
} from "#server/newsletter/jobs.server.ts";
import { NEWSLETTER_CONFIRM_JOB } from "#server/newsletter/subscriptions.server.ts";
import { closeBulkMail } from "#server/ops/mail.server.ts";
import { PUSH_ALERT_JOB, pushAlertHandler } from "#server/push/alerts.server.ts";
import { WORKFLOW_MAIL_JOB, workflowMailHandler } from "#server/content/workflow.server.ts";
import { CDN_PURGE_JOB, cdnPurgeHandler } from "#server/cdn/purge.server.ts";

export const JOB = {
  processVideo: "video.process",
  pruneViews: "views.prune",
  pruneJobs: "jobs.prune",
  pruneUploads: "uploads.prune",
  searchDrain: SEARCH_DRAIN_JOB,
  newsletterSend: NEWSLETTER_SEND_JOB,
  newsletterPrune: NEWSLETTER_PRUNE_JOB,
  newsletterConfirm: NEWSLETTER_CONFIRM_JOB,
  pushAlert: PUSH_ALERT_JOB,
  workflowMail: WORKFLOW_MAIL_JOB,
  pruneAudit: "audit.prune",
  cdnPurge: CDN_PURGE_JOB,
} as const;

const DAY = 86_400_000;

type HandlerConfig = Pick<Config, "dataDir" | "FFMPEG_PATH" | "FFPROBE_PATH"> | Config;

/**
 * `storage`: where uploaded videos and unfinished uploads live when every machine reaches it (S3, Bunny);
 * by default the configuration's (sharedStorage), none without one.
 */
export function jobHandlers(config: HandlerConfig, { storage }: { storage?: Storage | null } = {}): Record<string, JobHandler> {
  const shared = storage !== undefined ? storage : "drivers" in config ? sharedStorage(config) : null;
  return {
    [JOB.processVideo]: async (job, { db, isLastAttempt }) => {
      const guid = typeof job.payload.guid === "string" ? job.payload.guid : "";
      await processVideo(db, {
        guid,
        videosDir: path.join(config.dataDir, "videos"),
        tools: { ffmpeg: config.FFMPEG_PATH, ffprobe: config.FFPROBE_PATH },
        isLastAttempt,
        storage: shared,
      });
      logger.info({ guid }, "video processed");
    },
    // Resumable uploads nobody finished within a day (server/media/storage/tus.server.ts).
    [JOB.pruneUploads]: async () => {
      const removed = await pruneUnfinishedUploads(config.dataDir, shared);
      if (removed) logger.info({ removed }, "abandoned uploads removed");
    },
    // Audience figures keep what the privacy page says (decision 0147): raw beacons ANALYTICS_RAW_DAYS, the dedupe
    // of views two days, hourly figures and searches ANALYTICS_HOURLY_DAYS.
    [JOB.pruneViews]: async (_job, { db }) => {
      const removed = await pruneAudience(db, new Date(), "ANALYTICS_RAW_DAYS" in config ? { config } : {});
      if (removed.raw + removed.seen + removed.hourly + removed.searches) logger.info(removed, "old audience rows pruned");
    },
    [JOB.pruneJobs]: async (_job, { db }) => {
      await pruneJobs(db);
    },
    // The audit log keeps AUDIT_RETENTION_DAYS days (decision 0140).
    [JOB.pruneAudit]: async (_job, { db }) => {
      const removed = await pruneAudit(db, "AUDIT_RETENTION_DAYS" in config ? config.AUDIT_RETENTION_DAYS : AUDIT_RETENTION_DEFAULT_DAYS);
      if (removed) logger.info({ removed }, "old audit rows pruned");
    },
    // What an import or another tool queued for search (server/search/search-drain.server.ts); a long queue is
    // taken over by a follow-up run at once.
    // Newsletter sends (decision 0126), resumable: server/newsletter/jobs.server.ts.
    [JOB.newsletterSend]: newsletterSendHandler("drivers" in config ? config : undefined),
    [JOB.newsletterPrune]: newsletterPruneHandler,
    // A sign-up's confirmation e-mail, queued by the request so that it answers every address alike.
    [JOB.newsletterConfirm]: newsletterConfirmHandler("drivers" in config ? config : undefined),
    // Breaking-news alerts by Web Push (decision 0127), resumable: server/push/alerts.server.ts.
    [JOB.pushAlert]: pushAlertHandler("drivers" in config ? config : undefined),
    // A story submitted, sent back or published: the e-mail of each notice (server/content/workflow.server.ts).
    [JOB.workflowMail]: workflowMailHandler("drivers" in config ? config : undefined),
    // The shared cache (CDN_PURGE) told what a write changed (server/cdn/purge.server.ts).
    [JOB.cdnPurge]: cdnPurgeHandler("drivers" in config ? config : undefined),
    [JOB.searchDrain]: async (job, { db }) => {
      const { indexed, more } = await searchDrainJob(db, { runId: job.id });
      if (indexed) logger.info({ indexed, more }, "search queue drained");
    },
  };
}

export function startJobWorker(db: Database, config: Config, options: WorkerOptions = {}): Worker {
  // A newsletter send takes minutes at its rate (decision 0126): it runs on a lane of its own, so videos, the
  // search queue and the pruning never wait behind it.
  const handlers = jobHandlers(config);
  delete handlers[JOB.newsletterSend];
  // A reader waits for the confirmation e-mail: on a lane of its own too, never behind a video or a send.
  delete handlers[JOB.newsletterConfirm];
  // Readers wait for a purge to see a correction: on a lane of its own, never behind a video encode (with
  // CDN_PURGE=none no lane polls; a purge queued before is finished on the main one, with nothing to do).
  const purging = config.drivers.cdnPurge !== "none";
  if (purging) delete handlers[JOB.cdnPurge];
  let stopping = false;
  const worker = startWorker(db, handlers, {
    recurring: [
      { name: JOB.pruneViews, everyMs: DAY },
      { name: JOB.pruneJobs, everyMs: DAY },
      { name: JOB.pruneAudit, everyMs: DAY },
      { name: JOB.pruneUploads, everyMs: DAY },
      { name: JOB.newsletterPrune, everyMs: DAY },
      { name: JOB.searchDrain, everyMs: SEARCH_DRAIN_EVERY_MS },
    ],
    ...options,
  });
  const newsletter = { [JOB.newsletterSend]: newsletterSendHandler(config, { stopping: () => stopping }) };
  const mail = startWorker(db, newsletter, { ...options, recurring: [], workerId: `${worker.id}:newsletter` });
  const confirmations = startWorker(
    db,
    { [JOB.newsletterConfirm]: newsletterConfirmHandler(config) },
    { ...options, recurring: [], workerId: `${worker.id}:confirm` },
  );
  // A purge another process queued (a web process beside `npm run worker`) wakes nobody here: a shorter poll than 2 s.
  const purgeLane = { pollMs: 1000, ...options, recurring: [], workerId: `${worker.id}:cdn` };
  const purges = purging ? startWorker(db, { [JOB.cdnPurge]: cdnPurgeHandler(config) }, purgeLane) : null;
  logger.info({ worker: worker.id }, "job worker started");
  return {
    id: worker.id,
    drain: async () => {
      await Promise.all([worker.drain(), mail.drain(), confirmations.drain(), purges?.drain()]);
    },
    stop: async () => {
      // A send in progress pauses after its batch in hand and goes back to the queue.
      stopping = true;
      await Promise.all([worker.stop(), mail.stop(), confirmations.stop(), purges?.stop()]);
      closeBulkMail();
    },
  };
}

/** Queues the processing of an uploaded video (one pending run per video). */
export function queueVideoProcessing(db: Database, guid: string) {
  return enqueue(db, JOB.processVideo, { guid }, { singletonKey: `${JOB.processVideo}:${guid}`, maxAttempts: 3 });
}
