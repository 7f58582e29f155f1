/**
 * The embedded video library: items in the `videos` table, files laid out as the hosted library lays them
 * out on its CDN (playlist.m3u8 and its segments, play_720p.mp4, thumbnail.jpg): in DATA_DIR/videos/{guid}/,
 * served at /video-files/{guid}/... by `localVideoFiles`, or, with a storage every machine reaches (S3, Bunny),
 * under `videos/{guid}/` there, served from its public URL (decision 0119).
 */
import fs from "node:fs";
import { randomUUID } from "node:crypto";
import path from "node:path";
import express, { type RequestHandler } from "express";
import { desc, eq } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { videos } from "#server/db/schema.server.ts";
import { invalidate } from "#server/content/cache.server.ts";
import { SAMPLE_POSTER_URL, SAMPLE_VIDEO_URL, DEMO_URL_PREFIX } from "#server/db/demo-assets.server.ts";
import { deterministicUuid } from "#server/db/demo-drawing.server.ts";
import { MEDIA } from "#server/db/seed-data/media.ts";
import { isVideoId } from "#domain/video-source.ts";
import type { Storage } from "#server/media/storage/driver.server.ts";
import { videoFileKey, videoFolderKey } from "./processing.server.ts";
import { VIDEO_STATUS, type ListOptions, type VideoItem, type VideoLibrary, type VideoPlayback } from "./types.server.ts";
import { MEDIA_SURROGATE_HEADERS } from "#server/http/shared-cache.server.ts";

/** Where the local files are served; the hosted driver's equivalent is its CDN host. */
export const LOCAL_VIDEO_URL_PREFIX = "/video-files";

/** The tus endpoint of the embedded library (server/media/video/tus.server.ts mounts it). */
export const LOCAL_TUS_PATH = "/api/admin/videos/tus";

export const videoItemColumns = {
  guid: videos.guid,
  title: videos.title,
  description: videos.description,
  dateUploaded: videos.dateUploaded,
  views: videos.views,
  length: videos.lengthSeconds,
  thumbnailFileName: videos.thumbnailFileName,
  status: videos.status,
  failureReason: videos.failureReason,
  collection: videos.collection,
  isDemo: videos.isDemo,
};

function toItem(row: Omit<VideoItem, "dateUploaded"> & { dateUploaded: Date | string }): VideoItem {
  return { ...row, dateUploaded: new Date(row.dateUploaded).toISOString() };
}

/** Old collection names the library still answers to (public-site.md §3). */
const COLLECTION_ALIASES: Record<string, string> = { a3yan: "aayan", akwabir: "podcast_akwabir" };
export const canonicalCollection = (name: string) => COLLECTION_ALIASES[name.trim().toLowerCase()] ?? name.trim().toLowerCase();

/**
 * Demo videos were seeded from media rows; their guid derives from the row's slug, which also names the
 * row's picture, so each demo video keeps its own thumbnail instead of one shared poster.
 */
const demoPictureByGuid = new Map(
  MEDIA.filter((m) => m.type === "video").map((m) => [deterministicUuid(m.slug), `${DEMO_URL_PREFIX}/images/media/${m.slug}.svg`]),
);

export type LocalVideoLibraryOptions = {
  db: Database | (() => Promise<Database>);
  dataDir: string;
  /** The storage every machine reaches (S3, Bunny; sharedStorage), when uploaded videos' files live there. */
  storage?: Storage | null;
};

export function createLocalVideoLibrary({ db, dataDir, storage = null }: LocalVideoLibraryOptions): VideoLibrary {
  const database = typeof db === "function" ? db : () => Promise.resolve(db);
  const videosDir = path.join(dataDir, "videos");
  const uploadsDir = path.join(dataDir, "uploads");
  const fileUrl = (guid: string, name: string) => `${LOCAL_VIDEO_URL_PREFIX}/${guid}/${name}`;
  const storedUrl = (guid: string, name: string) => storage!.publicUrl(videoFileKey(guid, name));
  const has = (guid: string, name: string) => fs.existsSync(path.join(videosDir, guid, name));
  /** `/uploads/x` → whether DATA_DIR/uploads/x exists. */
  const hasUpload = (url: string) => fs.existsSync(path.join(uploadsDir, url.replace(/^\/uploads\//, "")));

  const library: VideoLibrary = {
    driver: "local",

    async list(opts: ListOptions = {}) {
      const q = (await database()).select(videoItemColumns).from(videos);
      const rows = await (opts.collection ? q.where(eq(videos.collection, canonicalCollection(opts.collection))) : q).orderBy(
        desc(videos.dateUploaded),
        desc(videos.guid),
      );
      return rows.map(toItem);
    },

    async get(guid) {
      if (!isVideoId(guid)) return null;
      const [row] = await (await database()).select(videoItemColumns).from(videos).where(eq(videos.guid, guid.toLowerCase())).limit(1);
      return row ? toItem(row) : null;
    },

    playbackFor(item): VideoPlayback {
      const guid = item.guid;
      const out: VideoPlayback = {};
      const thumbName = item.thumbnailFileName && /^[\w.-]+$/.test(item.thumbnailFileName) ? item.thumbnailFileName : null;
      if (storage && !item.isDemo) {
        // Read from the row, never from this machine's disk: the files are in the storage, written by whichever
        // worker processed the video, and all of them are there once it is ready.
        if (item.status === VIDEO_STATUS.ready) {
          out.hls = storedUrl(guid, "playlist.m3u8");
          out.mp4 = storedUrl(guid, "play_720p.mp4");
        }
        out.thumbnail = storedUrl(guid, thumbName ?? "thumbnail.jpg");
        return out;
      }
      // Demo videos are laid out on this machine by the seed (server/db/demo-assets.server.ts), whatever the storage.
      if (has(guid, "playlist.m3u8")) out.hls = fileUrl(guid, "playlist.m3u8");
      if (has(guid, "play_720p.mp4")) out.mp4 = fileUrl(guid, "play_720p.mp4");
      if (thumbName && has(guid, thumbName)) out.thumbnail = fileUrl(guid, thumbName);
      else if (has(guid, "thumbnail.jpg")) out.thumbnail = fileUrl(guid, "thumbnail.jpg");
      else if (has(guid, "thumbnail.svg")) out.thumbnail = fileUrl(guid, "thumbnail.svg");

      if (item.isDemo && !out.hls && !out.mp4 && hasUpload(SAMPLE_VIDEO_URL)) {
        // Demo rows carry no files of their own: they all play the sample made at seed time.
        out.mp4 = SAMPLE_VIDEO_URL;
      }
      if (!out.thumbnail && item.isDemo) {
        const picture = demoPictureByGuid.get(guid);
        out.thumbnail = picture && hasUpload(picture) ? picture : SAMPLE_POSTER_URL;
      }
      // The spec's fallback: the default thumbnail path built from the id (it exists once encoding is done).
      out.thumbnail ??= fileUrl(guid, thumbName ?? "thumbnail.jpg");
      return out;
    },

    async playback(guid) {
      const item = await library.get(guid);
      return item ? library.playbackFor(item) : null;
    },

    async create(input) {
      const [row] = await (
        await database()
      )
        .insert(videos)
        .values({
          guid: randomUUID(),
          title: input.title,
          description: input.description ?? null,
          collection: input.collection ? canonicalCollection(input.collection) : null,
          status: VIDEO_STATUS.waiting,
        })
        .returning(videoItemColumns);
      return toItem(row);
    },

    uploadTarget(guid) {
      // Same origin and the editor's own session cookie: no signature to hand out.
      return Promise.resolve({ endpoint: LOCAL_TUS_PATH, headers: {}, metadata: { guid } });
    },

    async update(guid, input) {
      if (!isVideoId(guid)) return;
      const set: Partial<typeof videos.$inferInsert> = { updatedAt: new Date() };
      if (input.title !== undefined) set.title = input.title;
      if (input.description !== undefined) set.description = input.description;
      if (input.collection !== undefined) set.collection = input.collection ? canonicalCollection(input.collection) : null;
      await (await database()).update(videos).set(set).where(eq(videos.guid, guid.toLowerCase()));
      invalidate("videos");
    },

    async delete(guid) {
      if (!isVideoId(guid)) return;
      await (await database()).delete(videos).where(eq(videos.guid, guid.toLowerCase()));
      await storage?.removePrefix(videoFolderKey(guid.toLowerCase()));
      await fs.promises.rm(path.join(videosDir, guid.toLowerCase()), { recursive: true, force: true });
      invalidate("videos");
    },
  };
  return library;
}

/** A path below /video-files that may be served: {guid}/ then safe file or folder names (HLS renditions). */
const SERVABLE = /^\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?:\/[A-Za-z0-9_][A-Za-z0-9_.-]*)+$/;

/**
 * Static files of the local video library, with Range requests (seeking, Safari) and a long cache: a guid
 * names one upload, and its files never change once encoded. Mount with
 * `app.use(LOCAL_VIDEO_URL_PREFIX, localVideoFiles(config))`.
 */
export function localVideoFiles(config: { dataDir: string }): RequestHandler {
  const root = path.join(config.dataDir, "videos");
  const serve = express.static(root, {
    maxAge: "30d",
    index: false,
    dotfiles: "deny",
    fallthrough: false,
    acceptRanges: true,
    setHeaders(res, file) {
      if (file.endsWith(".m3u8")) res.setHeader("Content-Type", "application/vnd.apple.mpegurl");
      else if (file.endsWith(".ts")) res.setHeader("Content-Type", "video/mp2t");
      else if (file.endsWith(".m4s")) res.setHeader("Content-Type", "video/iso.segment");
      // Behind a shared cache: purged with the whole site only (decision 0145).
      for (const [name, value] of MEDIA_SURROGATE_HEADERS) res.setHeader(name, value);
    },
  });
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", "GET, HEAD");
      return res.status(405).type("text/plain").send("Method Not Allowed");
    }
    if (!SERVABLE.test(req.path)) return res.status(404).type("text/plain").send("Not Found");
    serve(req, res, next);
  };
}
