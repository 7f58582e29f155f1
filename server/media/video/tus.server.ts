/**
 * The embedded library's resumable upload endpoint, at LOCAL_TUS_PATH, built on the one tus endpoint of
 * server/media/storage/tus.ts. Each upload names its video (`guid` in Upload-Metadata, from POST /api/admin/videos);
 * a complete file whose bytes are a video becomes the video's source and its processing job is queued. The
 * source goes where the library keeps the video's files: `videos/{guid}/source` in a shared storage (S3,
 * Bunny: any worker reads it, decision 0119), else DATA_DIR/videos/{guid}/source.
 */
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { eq } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { videos } from "#server/db/schema.server.ts";
import { arabic } from "#server/http/errors.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { UPLOAD_LIMITS_MB, type Storage } from "#server/media/storage/index.server.ts";
import { sniffMedia } from "#server/media/storage/file-types.server.ts";
import { createTusEndpoint, refuse, uploadStoreFor, type UploadRate } from "#server/media/storage/tus.server.ts";
import { unsupportedFile } from "#domain/upload-types.ts";
import { isVideoId } from "#domain/video-source.ts";
import { LOCAL_TUS_PATH } from "./local.server.ts";
import { SOURCE_FILE, videoFileKey } from "./processing.server.ts";
import { VIDEO_STATUS } from "./types.server.ts";

export const MAX_VIDEO_BYTES = UPLOAD_LIMITS_MB.video * 1024 * 1024;

export type LocalTusOptions = {
  dataDir: string;
  db: () => Promise<Database>;
  /** Throws (a Response or react-router data) when the request may not upload; the server's session guard. */
  authorize: (request: Request) => Promise<unknown>;
  /** The slowest an upload may arrive (server/media/storage/tus.server.ts). */
  minRate?: UploadRate;
  /** Called once a complete, checked file is in place as the video's source. */
  onVideoUploaded: (db: Database, guid: string) => Promise<unknown>;
  /**
   * The storage every process reaches, when there is one (S3, Bunny; sharedStorage): unfinished uploads wait
   * there and the source goes there. The video library must be given the same (createLocalVideoLibrary).
   */
  sharedStorage?: Storage | null;
};

/** A file refused for not being a video, naming the video types taken (domain/upload-types.ts). */
const videoUnsupported = () => {
  const { key, values } = unsupportedFile(["video"]);
  return arabic(key, values);
};

export function createLocalTusServer(options: LocalTusOptions) {
  const videosDir = path.join(options.dataDir, "videos");
  const shared = options.sharedStorage ?? null;
  return createTusEndpoint({
    path: LOCAL_TUS_PATH,
    store: uploadStoreFor("videos", options.dataDir, shared),
    maxSize: MAX_VIDEO_BYTES,
    authorize: options.authorize,
    minRate: options.minRate,
    refusals: { unauthenticated: "Sign in to upload", forbidden: "You may not upload videos" },
    async onCreate({ metadata }) {
      const guid = (metadata.guid ?? "").toLowerCase();
      if (!(metadata.filetype ?? "").startsWith("video/")) throw refuse(415, videoUnsupported());
      if (!isVideoId(guid)) throw refuse(400, "Upload-Metadata needs the guid of a video created by POST /api/admin/videos");
      const db = await options.db();
      const [video] = await db.select({ status: videos.status }).from(videos).where(eq(videos.guid, guid)).limit(1);
      if (!video) throw refuse(404, "Video not found");
      if (video.status !== VIDEO_STATUS.waiting) throw refuse(409, "This video already has its file", "ALREADY_UPLOADED");
      return { ...metadata, guid };
    },
    async onComplete({ head, size, metadata, open }) {
      const guid = metadata.guid ?? "";
      const db = await options.db();
      const media = sniffMedia(head);
      if (media?.kind !== "video") {
        const reason = videoUnsupported();
        await db.update(videos).set({ status: VIDEO_STATUS.failed, failureReason: reason, updatedAt: new Date() }).where(eq(videos.guid, guid));
        throw refuse(415, reason);
      }
      if (shared) {
        await shared.putAt(videoFileKey(guid, SOURCE_FILE), await open(), media.mime, size).catch((error: unknown) => {
          logger.error({ err: error, guid }, "video source not stored");
          throw refuse(502, arabic("newsroom.v.fileStoreFailed"));
        });
      } else {
        const target = path.join(videosDir, guid);
        await fs.mkdir(target, { recursive: true });
        // Written aside and renamed: a worker never takes half a file for the source.
        const partial = path.join(target, `.${SOURCE_FILE}.${process.pid}.part`);
        try {
          await pipeline(await open(), createWriteStream(partial));
          await fs.rename(partial, path.join(target, SOURCE_FILE));
        } finally {
          await fs.rm(partial, { force: true });
        }
      }
      await db.update(videos).set({ status: VIDEO_STATUS.processing, updatedAt: new Date() }).where(eq(videos.guid, guid));
      await options.onVideoUploaded(db, guid);
    },
  });
}
