/**
 * The embedded library's resumable upload endpoint (tus 1.0.0: core, creation, termination), mounted at
 * LOCAL_TUS_PATH before any body limit: a file goes to disk chunk by chunk, so memory does not grow with its
 * size, and an upload cut at 80 % resumes from the offset the server reports (HEAD).
 *
 * Each upload names its video (`guid` in Upload-Metadata, from POST /api/admin/videos). Checks happen before
 * bytes are accepted where they can (permission, origin, declared size and type, blocked extensions) and on
 * the bytes themselves once the file is complete (its signature); then the file becomes the video's source
 * and the processing job is queued.
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Server, EVENTS } from "@tus/server";
import { FileStore } from "@tus/file-store";
import { eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { videos } from "../db/schema.ts";
import { logger } from "../logger.ts";
import { arabic } from "../json-api.ts";
import { BLOCKED_EXTENSIONS, UPLOAD_LIMITS_MB } from "../storage/index.ts";
import { sniffMedia, SNIFF_BYTES } from "../storage/file-types.ts";
import { isVideoId } from "../../app/lib/video-source.ts";
import { LOCAL_TUS_PATH } from "./local.ts";
import { SOURCE_FILE } from "./processing.ts";
import { VIDEO_STATUS } from "./types.ts";

export const MAX_VIDEO_BYTES = UPLOAD_LIMITS_MB.video * 1024 * 1024;

/** An unfinished upload is kept this long for its resume, then removed. */
const UNFINISHED_UPLOAD_TTL_MS = 24 * 3600_000;

type Refusal = { status_code: number; body: string };
const refuse = (status: number, message: string): Refusal => ({ status_code: status, body: JSON.stringify({ error: message }) + "\n" });

export type LocalTusOptions = {
  dataDir: string;
  db: () => Promise<Database>;
  /** Throws (a Response or react-router data) when the request may not upload; the server's session guard. */
  authorize: (request: Request) => Promise<unknown>;
  /** Called once a complete, checked file is in place as the video's source. */
  onVideoUploaded: (db: Database, guid: string) => Promise<unknown>;
};

/** The HTTP status of whatever a guard threw (a Response, or react-router's data() with its init). */
function statusOfThrown(error: unknown): number | null {
  if (error instanceof Response) return error.status;
  const init = (error as { init?: { status?: number } } | null)?.init;
  return typeof init?.status === "number" ? init.status : null;
}

export function createLocalTusServer(options: LocalTusOptions) {
  const directory = path.join(options.dataDir, "tus");
  const videosDir = path.join(options.dataDir, "videos");
  const datastore = new FileStore({ directory, expirationPeriodInMilliseconds: UNFINISHED_UPLOAD_TTL_MS });

  const server = new Server({
    path: LOCAL_TUS_PATH,
    datastore,
    maxSize: MAX_VIDEO_BYTES,
    relativeLocation: true,
    // Termination after the end would only delete the stored source behind the job's back.
    disableTerminationForFinishedUploads: true,
    async onIncomingRequest(req) {
      try {
        await options.authorize(req as unknown as Request);
      } catch (error) {
        const status = statusOfThrown(error);
        if (status) throw refuse(status, status === 401 ? "Sign in to upload" : "You may not upload videos");
        throw error;
      }
    },
    async onUploadCreate(_req, upload) {
      const meta = upload.metadata ?? {};
      const guid = (meta.guid ?? "").toLowerCase();
      const filename = meta.filename ?? "";
      const filetype = meta.filetype ?? "";
      const extension = /\.([^.]+)$/.exec(filename)?.[1]?.toLowerCase();
      if (extension && (BLOCKED_EXTENSIONS as readonly string[]).includes(extension)) throw refuse(415, arabic("newsroom.v.fileUnsafe"));
      if (!filetype.startsWith("video/")) throw refuse(415, arabic("newsroom.v.videoInvalid"));
      if (!upload.size) throw refuse(400, arabic("newsroom.v.fileMissing"));
      if (!isVideoId(guid)) throw refuse(400, "Upload-Metadata needs the guid of a video created by POST /api/admin/videos");
      const db = await options.db();
      const [video] = await db.select({ status: videos.status }).from(videos).where(eq(videos.guid, guid)).limit(1);
      if (!video) throw refuse(404, "Video not found");
      if (video.status !== VIDEO_STATUS.waiting) throw refuse(409, "This video already has its file");
      return { metadata: { ...meta, guid } };
    },
    async onUploadFinish(_req, upload) {
      const guid = upload.metadata?.guid ?? "";
      const file = path.join(directory, upload.id);
      const handle = await fs.open(file, "r");
      const head = new Uint8Array(SNIFF_BYTES);
      try {
        await handle.read(head, 0, SNIFF_BYTES, 0);
      } finally {
        await handle.close();
      }
      const db = await options.db();
      if (sniffMedia(head)?.kind !== "video") {
        await removeUpload(upload.id);
        const reason = arabic("newsroom.v.videoInvalid");
        await db.update(videos).set({ status: VIDEO_STATUS.failed, failureReason: reason, updatedAt: new Date() }).where(eq(videos.guid, guid));
        throw refuse(415, reason);
      }
      const target = path.join(videosDir, guid);
      await fs.mkdir(target, { recursive: true });
      await fs.rename(file, path.join(target, SOURCE_FILE));
      await fs.rm(`${file}.json`, { force: true });
      await db.update(videos).set({ status: VIDEO_STATUS.processing, updatedAt: new Date() }).where(eq(videos.guid, guid));
      await options.onVideoUploaded(db, guid);
      return {};
    },
  });

  async function removeUpload(id: string) {
    await fs.rm(path.join(directory, id), { force: true });
    await fs.rm(path.join(directory, `${id}.json`), { force: true });
  }

  server.on(EVENTS.POST_TERMINATE, (_req, _res, id) => logger.info({ upload: id }, "video upload cancelled"));

  return {
    server,
    /** Express/Node handler for requests under LOCAL_TUS_PATH. */
    handle: (req: IncomingMessage, res: ServerResponse) => server.handle(req, res),
    matches: (pathname: string) => pathname === LOCAL_TUS_PATH || pathname.startsWith(`${LOCAL_TUS_PATH}/`),
    /** Removes uploads abandoned for a day (a periodic job). */
    cleanUp: () => server.cleanUpExpiredUploads(),
  };
}
