/**
 * The embedded video pipeline end to end below the browser: the tus endpoint over real HTTP (a connection
 * cut mid-file and resumed from the offset the server reports, the refusals), then the job queue running
 * real ffmpeg on a real clip: status 4 with its duration, renditions and thumbnail, or 5 with the reason.
 */
import fs from "node:fs";
import type http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import express from "express";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasFfmpeg, makeClip } from "#tests/helpers/video.ts";
import { tusClient } from "#tests/helpers/tus.ts";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { videos } from "#server/db/schema.server.ts";
import { queueVideoProcessing, jobHandlers } from "#server/jobs/index.server.ts";
import { startWorker } from "#server/jobs/queue.server.ts";
import { createLocalVideoLibrary, LOCAL_TUS_PATH } from "./local.server.ts";
import { createLocalTusServer } from "./tus.server.ts";
import { SOURCE_FILE } from "./processing.server.ts";
import type { VideoLibrary } from "./types.server.ts";

describe.each(testDatabaseKinds)("the embedded video pipeline on %s", (kind) => {
  let t: TestDatabase;
  let dataDir: string;
  let library: VideoLibrary;
  let server: http.Server;
  let base: string;
  let allowed = true;
  const queued: string[] = [];

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pipeline-"));
    library = createLocalVideoLibrary({ db: t.db, dataDir });
    const tus = createLocalTusServer({
      dataDir,
      db: () => Promise.resolve(t.db),
      // The server's guard is requirePermission (covered by the browser tests); here: allowed or a 401.
      authorize: () => {
        if (!allowed) throw new Response(null, { status: 401 });
        return Promise.resolve();
      },
      onVideoUploaded: async (db, guid) => {
        queued.push(guid);
        await queueVideoProcessing(db, guid);
      },
    });
    const app = express();
    app.use((req, res, next) => (tus.matches(req.path) ? void tus.handle(req, res) : next()));
    server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.close();
    await t?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const tus = () => tusClient(base, LOCAL_TUS_PATH);
  const create = (length: number, meta: Record<string, string>) => tus().create(length, meta);
  const uploadUrl = (res: Response) => tus().uploadUrl(res);
  const offsetOf = (url: string) => tus().offsetOf(url);
  const patch = (url: string, offset: number, body: Uint8Array) => tus().patch(url, offset, body);
  const patchAndDrop = (url: string, offset: number, whole: Uint8Array, bytes: number) => tus().patchAndDrop(url, offset, whole, bytes);

  it("resumes a cut upload from the offset the server reports, then processes it to ready (status 4)", { timeout: 120_000 }, async () => {
    if (!hasFfmpeg) return expect.soft(hasFfmpeg, "ffmpeg is not installed: .ci/run installs it").toBe(true);
    const clip = fs.readFileSync(makeClip(dataDir));
    const video = await library.create({ title: "حلقة تجريبية", description: "مقطع قصير" });
    expect(video.status).toBe(0);
    const created = await create(clip.length, { guid: video.guid, filename: "clip.mp4", filetype: "video/mp4" });
    expect(created.status).toBe(201);
    const url = uploadUrl(created);

    await patchAndDrop(url, 0, clip, Math.floor(clip.length / 2));
    const offset = await offsetOf(url);
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(clip.length);
    const rest = await patch(url, offset, clip.subarray(offset));
    expect(rest.status).toBe(204);
    expect(rest.headers.get("upload-offset")).toBe(String(clip.length));

    expect(queued).toContain(video.guid);
    expect(fs.readFileSync(path.join(dataDir, "videos", video.guid, SOURCE_FILE)).equals(clip)).toBe(true);
    expect((await library.get(video.guid))?.status).toBe(1);

    const worker = startWorker(t.db, jobHandlers({ dataDir, FFMPEG_PATH: "ffmpeg", FFPROBE_PATH: "ffprobe" }), { pollMs: 100 });
    await expect.poll(async () => (await library.get(video.guid))?.status, { timeout: 100_000, interval: 250 }).toBe(4);
    await worker.stop();
    const ready = (await library.get(video.guid))!;
    expect(ready).toMatchObject({ length: 2, thumbnailFileName: "thumbnail.jpg", failureReason: null });
    const dir = path.join(dataDir, "videos", video.guid);
    expect(fs.readFileSync(path.join(dir, "playlist.m3u8"), "utf8")).toMatch(/RESOLUTION=640x360\n360p\/video\.m3u8/);
    expect(fs.readdirSync(path.join(dir, "360p")).filter((f) => f.endsWith(".ts")).length).toBeGreaterThan(0);
    expect(fs.readFileSync(path.join(dir, "thumbnail.jpg")).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(fs.readdirSync(dir).filter((f) => f.startsWith(".work"))).toEqual([]);
    expect(library.playbackFor(ready)).toMatchObject({
      hls: `/video-files/${video.guid}/playlist.m3u8`,
      mp4: `/video-files/${video.guid}/play_720p.mp4`,
      thumbnail: `/video-files/${video.guid}/thumbnail.jpg`,
    });
  });

  it("refuses what is not a video, before and after the bytes, with the spec's words", async () => {
    const video = await library.create({ title: "ملف مرفوض" });
    const refusal = async (res: Response) => ({ status: res.status, error: ((await res.json()) as { error: { message: string } }).error.message });
    expect(await refusal(await create(100, { guid: video.guid, filename: "setup.exe", filetype: "video/mp4" }))).toEqual({
      status: 415,
      error: "نوع الملف غير آمن",
    });
    expect(await refusal(await create(100, { guid: video.guid, filename: "song.mp3", filetype: "audio/mpeg" }))).toEqual({
      status: 415,
      error: "نوع الملف غير مدعوم. الأنواع المقبولة: MP4, MOV, WebM, AVI, WMV.",
    });
    expect((await create(501 * 1024 * 1024, { guid: video.guid, filename: "big.mp4", filetype: "video/mp4" })).status).toBe(413);
    expect((await create(100, { guid: "11111111-2222-4333-8444-555555555555", filename: "a.mp4", filetype: "video/mp4" })).status).toBe(404);
    expect((await create(100, { filename: "a.mp4", filetype: "video/mp4" })).status).toBe(400);

    // A text file that calls itself a video gets as far as its bytes, then is refused and the video marked failed.
    const text = new TextEncoder().encode("just some text pretending to be a film, nothing more\n".repeat(4));
    const created = await create(text.length, { guid: video.guid, filename: "film.mp4", filetype: "video/mp4" });
    expect(created.status).toBe(201);
    const res = await patch(uploadUrl(created), 0, text);
    expect(res.status).toBe(415);
    expect(await library.get(video.guid)).toMatchObject({ status: 5, failureReason: "نوع الملف غير مدعوم. الأنواع المقبولة: MP4, MOV, WebM, AVI, WMV." });
    expect(fs.existsSync(path.join(dataDir, "videos", video.guid, SOURCE_FILE))).toBe(false);
  });

  it("answers 401 to an upload without a session, and 409 to a second file for the same video", async () => {
    const video = await library.create({ title: "بدون جلسة" });
    allowed = false;
    try {
      expect((await create(10, { guid: video.guid, filename: "a.mp4", filetype: "video/mp4" })).status).toBe(401);
    } finally {
      allowed = true;
    }
    await t.db.update(videos).set({ status: 4 }).where(eq(videos.guid, video.guid));
    expect((await create(10, { guid: video.guid, filename: "a.mp4", filetype: "video/mp4" })).status).toBe(409);
  });

  it("marks a file ffprobe cannot read as failed (status 5) with the reason, without retrying", { timeout: 60_000 }, async () => {
    const video = await library.create({ title: "ملف تالف" });
    const dir = path.join(dataDir, "videos", video.guid);
    fs.mkdirSync(dir, { recursive: true });
    // An MP4 signature and nothing playable after it.
    fs.writeFileSync(path.join(dir, SOURCE_FILE), Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypmp42"), Buffer.alloc(4096, 1)]));
    await t.db.update(videos).set({ status: 1 }).where(eq(videos.guid, video.guid));
    await queueVideoProcessing(t.db, video.guid);
    const worker = startWorker(t.db, jobHandlers({ dataDir, FFMPEG_PATH: "ffmpeg", FFPROBE_PATH: "ffprobe" }), { pollMs: 100 });
    await expect.poll(async () => (await library.get(video.guid))?.status, { timeout: 30_000 }).toBe(5);
    await worker.stop();
    expect((await library.get(video.guid))?.failureReason).toMatch(/not a readable video/);
  });

  it("says ffmpeg is missing when it is", { timeout: 30_000 }, async () => {
    const video = await library.create({ title: "بدون ffmpeg" });
    const dir = path.join(dataDir, "videos", video.guid);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, SOURCE_FILE), Buffer.from("ftyp"));
    await queueVideoProcessing(t.db, video.guid);
    const worker = startWorker(t.db, jobHandlers({ dataDir, FFMPEG_PATH: "/nonexistent/ffmpeg", FFPROBE_PATH: "/nonexistent/ffprobe" }), { pollMs: 100 });
    await expect.poll(async () => (await library.get(video.guid))?.status, { timeout: 20_000 }).toBe(5);
    await worker.stop();
    expect((await library.get(video.guid))?.failureReason).toBe("ffprobe is not installed on the server");
  });

  it("deletes a video with its files", async () => {
    const video = await library.create({ title: "للحذف" });
    const dir = path.join(dataDir, "videos", video.guid);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "play_720p.mp4"), "x");
    await library.delete(video.guid);
    expect(await library.get(video.guid)).toBeNull();
    expect(fs.existsSync(dir)).toBe(false);
  });
});
