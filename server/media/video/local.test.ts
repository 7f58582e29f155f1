/**
 * The local video library on a seeded database, its file handler (Range, cache, refusals), the /videos
 * page's fallbacks, and the driver choice.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import express from "express";
import { eq } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { seedDemoContent } from "#server/db/seed.server.ts";
import { videos } from "#server/db/schema.server.ts";
import { SAMPLE_POSTER_URL, SAMPLE_VIDEO_URL } from "#server/db/demo-assets.server.ts";
import { deterministicUuid } from "#server/db/demo-drawing.server.ts";
import { checkConfig } from "#server/config.server.ts";
import { canonicalCollection, createLocalVideoLibrary, LOCAL_VIDEO_URL_PREFIX, localVideoFiles } from "./local.server.ts";
import { createVideoLibrary } from "./index.server.ts";
import { loadVideoLibraryPage, SAMPLE_VIDEOS } from "./page.server.ts";
import { VIDEO_STATUS, VideoLibraryError, type VideoLibrary } from "./types.server.ts";
import { isVideoId } from "#domain/video-source.ts";

const UUID_A = "11111111-2222-4333-8444-555555555555";
const UUID_B = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";

describe.each(testDatabaseKinds)("local video library on %s", (kind) => {
  let t: TestDatabase;
  let dataDir: string;
  let library: VideoLibrary;
  const sampleExists = () => fs.existsSync(path.join(dataDir, "uploads/demo/video/sample.mp4"));

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "videos-"));
    await seedDemoContent(t.db, { uploadsDir: path.join(dataDir, "uploads") });
    library = createLocalVideoLibrary({ db: t.db, dataDir });
    // One uploaded (non-demo) video with its encoded files, one still encoding, one in a collection.
    await t.db.insert(videos).values([
      {
        guid: UUID_A,
        title: "مقابلة مسجلة",
        description: "ملف حقيقي",
        status: 4,
        lengthSeconds: 75,
        views: 3,
        thumbnailFileName: "thumbnail.jpg",
        collection: "aayan",
        dateUploaded: new Date("2020-01-01T00:00:00Z"),
      },
      { guid: UUID_B, title: "قيد الترميز", status: 2, lengthSeconds: 0, dateUploaded: new Date("2020-01-02T00:00:00Z") },
    ]);
    const dir = path.join(dataDir, "videos", UUID_A);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "playlist.m3u8"), "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-ENDLIST\n");
    fs.writeFileSync(path.join(dir, "play_720p.mp4"), Buffer.alloc(4096, 7));
    fs.writeFileSync(path.join(dir, "thumbnail.jpg"), Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
  });
  afterAll(async () => {
    await t?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("lists every item of the library, newest first, in the spec's item shape", async () => {
    const items = await library.list();
    expect(items).toHaveLength(14); // 12 demo videos + 2 above
    expect(items.every((v, i) => i === 0 || Date.parse(items[i - 1].dateUploaded) >= Date.parse(v.dateUploaded))).toBe(true);
    for (const v of items) {
      expect(isVideoId(v.guid)).toBe(true);
      expect(Object.keys(v).sort()).toEqual([
        "collection",
        "dateUploaded",
        "description",
        "failureReason",
        "guid",
        "isDemo",
        "length",
        "status",
        "thumbnailFileName",
        "title",
        "views",
      ]);
      expect(typeof v.dateUploaded).toBe("string");
    }
    const demo = items.filter((v) => v.isDemo);
    expect(demo).toHaveLength(12);
    expect(demo.every((v) => v.status === (sampleExists() ? VIDEO_STATUS.ready : VIDEO_STATUS.failed))).toBe(true);
  });

  it("lists one collection, also under its old name", async () => {
    expect((await library.list({ collection: "aayan" })).map((v) => v.guid)).toEqual([UUID_A]);
    expect((await library.list({ collection: "a3yan" })).map((v) => v.guid)).toEqual([UUID_A]);
    expect(await library.list({ collection: "news" })).toEqual([]);
    expect(canonicalCollection(" AKWABIR ")).toBe("podcast_akwabir");
  });

  it("gets one video by id; a malformed or unknown id gives null", async () => {
    expect(await library.get(UUID_A)).toMatchObject({
      guid: UUID_A,
      title: "مقابلة مسجلة",
      length: 75,
      views: 3,
      status: 4,
      thumbnailFileName: "thumbnail.jpg",
      isDemo: false,
    });
    expect(await library.get(UUID_A.toUpperCase())).toMatchObject({ guid: UUID_A });
    expect(await library.get("99999999-2222-4333-8444-555555555555")).toBeNull();
    expect(await library.get("../../etc/passwd")).toBeNull();
    expect(await library.playback("not-an-id")).toBeNull();
  });

  it("plays an uploaded video from its own files: HLS first, the 720p file, its thumbnail", async () => {
    expect(await library.playback(UUID_A)).toEqual({
      hls: `${LOCAL_VIDEO_URL_PREFIX}/${UUID_A}/playlist.m3u8`,
      mp4: `${LOCAL_VIDEO_URL_PREFIX}/${UUID_A}/play_720p.mp4`,
      thumbnail: `${LOCAL_VIDEO_URL_PREFIX}/${UUID_A}/thumbnail.jpg`,
    });
  });

  it("gives a video without files nothing to play, and the default thumbnail path built from its id", async () => {
    expect(await library.playback(UUID_B)).toEqual({ thumbnail: `${LOCAL_VIDEO_URL_PREFIX}/${UUID_B}/thumbnail.jpg` });
  });

  it("plays demo videos from the seeded sample, each with its own picture", async (ctx) => {
    if (!sampleExists()) ctx.skip("ffmpeg could not make the sample video on this machine");
    const guid = deterministicUuid("video-atar-old-market");
    const playback = await library.playback(guid);
    expect(playback).toEqual({ mp4: SAMPLE_VIDEO_URL, thumbnail: "/uploads/demo/images/media/video-atar-old-market.svg" });
    // Without its picture the demo poster stands in.
    fs.rmSync(path.join(dataDir, "uploads/demo/images/media/video-atar-old-market.svg"));
    expect((await library.playback(guid))?.thumbnail).toBe(SAMPLE_POSTER_URL);
  });

  it("the /videos page lists ready videos only, each with its playback URLs", async () => {
    const page = await loadVideoLibraryPage(library);
    expect(page.error).toBeNull();
    expect(page.videos.every((v) => v.status === VIDEO_STATUS.ready)).toBe(true);
    expect(page.videos.some((v) => v.guid === UUID_B)).toBe(false);
    expect(page.videos.find((v) => v.guid === UUID_A)?.playback.mp4).toBe(`${LOCAL_VIDEO_URL_PREFIX}/${UUID_A}/play_720p.mp4`);
  });

  it("an empty library is an empty page, not an error", async () => {
    const blank = await createTestDatabase("pglite");
    try {
      expect(await loadVideoLibraryPage(createLocalVideoLibrary({ db: blank.db, dataDir }))).toEqual({ videos: [], error: null });
    } finally {
      await blank.drop();
    }
  });

  it("a status change is seen on the next read", async () => {
    await t.db.update(videos).set({ status: 4 }).where(eq(videos.guid, UUID_B));
    expect((await loadVideoLibraryPage(library)).videos.some((v) => v.guid === UUID_B)).toBe(true);
    await t.db.update(videos).set({ status: 2 }).where(eq(videos.guid, UUID_B));
  });
});

describe("the /videos page when the library fails", () => {
  const failing = (error: unknown): Pick<VideoLibrary, "list" | "playbackFor"> => ({
    list: () => Promise.reject(error as Error),
    playbackFor: () => ({}),
  });

  it("shows the two sample videos and the host's message", async () => {
    const page = await loadVideoLibraryPage(failing(new VideoLibraryError("VIDEO_LIBRARY_UNAVAILABLE", "Video host timed out")));
    expect(page.error).toBe("Video host timed out");
    expect(page.videos).toBe(SAMPLE_VIDEOS);
    expect(page.videos).toHaveLength(2);
    for (const v of page.videos) {
      expect(isVideoId(v.guid)).toBe(true);
      expect(v.playback.mp4).toBe(SAMPLE_VIDEO_URL);
    }
  });

  it("never shows a database error's text (it carries the SQL)", async () => {
    const page = await loadVideoLibraryPage(failing(new Error('Failed query: select "guid" from "videos"')));
    expect(page.error).toBe("Video library unavailable");
  });
});

describe("local video files", () => {
  let dataDir: string;
  let base: string;
  let close: () => void;
  const guid = UUID_A;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "video-files-"));
    const dir = path.join(dataDir, "videos", guid);
    fs.mkdirSync(path.join(dir, "720p"), { recursive: true });
    fs.writeFileSync(path.join(dir, "play_720p.mp4"), Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256)));
    fs.writeFileSync(path.join(dir, "playlist.m3u8"), "#EXTM3U\n");
    fs.writeFileSync(path.join(dir, "720p", "video0.ts"), Buffer.alloc(188, 0x47));
    fs.writeFileSync(path.join(dataDir, "videos", "secret.txt"), "not a video");
    const app = express();
    app.use(LOCAL_VIDEO_URL_PREFIX, localVideoFiles({ dataDir }));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${LOCAL_VIDEO_URL_PREFIX}`;
    close = () => server.close();
  });
  afterAll(() => {
    close?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("serves a byte range with 206, for seeking, and caches for a long time", async () => {
    const res = await fetch(`${base}/${guid}/play_720p.mp4`, { headers: { Range: "bytes=100-199" } });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe("bytes 100-199/1000");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("content-type")).toBe("video/mp4");
    expect(res.headers.get("cache-control")).toBe("public, max-age=2592000");
    const body = new Uint8Array(await res.arrayBuffer());
    expect(body).toHaveLength(100);
    expect(body[0]).toBe(100);
  });

  it("serves the HLS playlist and its segments with their media types", async () => {
    const playlist = await fetch(`${base}/${guid}/playlist.m3u8`);
    expect(playlist.status).toBe(200);
    expect(playlist.headers.get("content-type")).toBe("application/vnd.apple.mpegurl");
    const segment = await fetch(`${base}/${guid}/720p/video0.ts`);
    expect(segment.status).toBe(200);
    expect(segment.headers.get("content-type")).toBe("video/mp2t");
  });

  it("refuses anything that is not a file of a video: other paths, traversal, missing files, writes", async () => {
    for (const p of [
      "/secret.txt",
      `/${guid}`,
      `/${guid}/`,
      "/not-a-guid/play_720p.mp4",
      `/${guid}/../secret.txt`,
      `/${guid}/%2e%2e/secret.txt`,
      `/${guid}/.hidden`,
      `/${guid}/missing.mp4`,
    ]) {
      const res = await fetch(base + p);
      expect(res.status, p).toBe(404);
    }
    const post = await fetch(`${base}/${guid}/play_720p.mp4`, { method: "POST" });
    expect(post.status).toBe(405);
  });
});

describe("driver choice", () => {
  it("uses the local library unless the configuration says otherwise", () => {
    const { config } = checkConfig({ DATA_DIR: os.tmpdir() });
    expect(config.drivers.video).toBe("local");
    expect(createVideoLibrary(config).driver).toBe("local");
  });
});
