/**
 * The jobs this platform runs and the one worker that runs them: inside the server by default
 * (JOB_WORKER=embedded), or as `npm run worker` processes beside web processes that set JOB_WORKER=off.
 */
import path from "node:path";
import type { Config } from "#server/config.server.ts";
import type { Database } from "#server/db/client.server.ts";
import { pruneViews } from "#server/content/views.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { sharedStorage, type Storage } from "#server/media/storage/index.server.ts";
import { pruneUnfinishedUploads } from "#server/media/storage/tus.server.ts";
import { processVideo } from "#server/media/video/processing.server.ts";
import { enqueue, pruneJobs, startWorker, type JobHandler, type Worker, type WorkerOptions } from "./queue.server.ts";

export const JOB = { processVideo: "video.process", pruneViews: "views.prune", pruneJobs: "jobs.prune", pruneUploads: "uploads.prune" } as const;

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
    // The privacy page promises that per-reader view rows do not outlive their day.
    [JOB.pruneViews]: async (_job, { db }) => {
      const removed = await pruneViews(db);
      if (removed) logger.info({ removed }, "old view rows pruned");
    },
    [JOB.pruneJobs]: async (_job, { db }) => {
      await pruneJobs(db);
    },
  };
}

export function startJobWorker(db: Database, config: Config, options: WorkerOptions = {}): Worker {
  const worker = startWorker(db, jobHandlers(config), {
    recurring: [
      { name: JOB.pruneViews, everyMs: DAY },
      { name: JOB.pruneJobs, everyMs: DAY },
      { name: JOB.pruneUploads, everyMs: DAY },
    ],
    ...options,
  });
  logger.info({ worker: worker.id }, "job worker started");
  return worker;
}

/** Queues the processing of an uploaded video (one pending run per video). */
export function queueVideoProcessing(db: Database, guid: string) {
  return enqueue(db, JOB.processVideo, { guid }, { singletonKey: `${JOB.processVideo}:${guid}`, maxAttempts: 3 });
}
