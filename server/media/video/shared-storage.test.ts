/**
 * The embedded video library with no shared disk (decision 0119): S3 storage (a real s3rver) is all three
 * "machines" share with the database. Web process A takes the upload by tus and is cut mid-file; web process B
 * reports the offset and takes the rest; a worker with its own DATA_DIR runs real ffmpeg on the source it
 * downloads and uploads the outputs; B's library plays them from the bucket's public URLs, which answer 200.
 * Then a worker that dies while uploading, a source that is missing, and deletion.
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
import { startS3Server, type S3Server } from "#tests/helpers/s3.ts";
import { tusClient } from "#tests/helpers/tus.ts";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { videos } from "#server/db/schema.server.ts";
import { queueVideoProcessing, jobHandlers } from "#server/jobs/index.server.ts";
import { startWorker } from "#server/jobs/queue.server.ts";
import { checkConfig } from "#server/config.server.ts";
import { sharedStorage } from "#server/media/storage/index.server.ts";
import { S3Storage } from "#server/media/storage/s3.server.ts";
import type { Storage } from "#server/media/storage/driver.server.ts";
import { createLocalVideoLibrary, LOCAL_TUS_PATH } from "./local.server.ts";
import { createLocalTusServer } from "./tus.server.ts";
import { processVideo, SOURCE_FILE, videoFileKey } from "./processing.server.ts";
import { VIDEO_STATUS } from "./types.server.ts";

const tools = { ffmpeg: "ffmpeg", ffprobe: "ffprobe" };

async function bytesOf(storage: Storage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Files under a folder, at any depth. */
const filesIn = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()) : []);

describe.each(testDatabaseKinds)("the embedded video library on S3 storage, three machines, on %s", (kind) => {
  let t: TestDatabase;
  let s3: S3Server;
  const dirs: Record<"a" | "b" | "worker", string> = { a: "", b: "", worker: "" };
  const servers: http.Server[] = [];
  const bases: Record<"a" | "b", string> = { a: "", b: "" };
  const configOf = (dataDir: string) => checkConfig({ ...s3.env, DATA_DIR: dataDir, NODE_ENV: "development" }).config;
  /** A new client of the bucket: each machine has its own. */
  const storage = () => new S3Storage({ endpoint: s3.endpoint, region: "us-east-1", bucket: s3.bucket, publicUrl: s3.publicUrl, ...s3.credentials });

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    s3 = await startS3Server();
    for (const name of ["a", "b", "worker"] as const) dirs[name] = fs.mkdtempSync(path.join(os.tmpdir(), `shared-${name}-`));
    for (const name of ["a", "b"] as const) {
      const tus = createLocalTusServer({
        dataDir: dirs[name],
        // What a web process makes of STORAGE_DRIVER=s3 and the S3_* settings (server/app.server.ts).
        sharedStorage: sharedStorage(configOf(dirs[name])),
        db: () => Promise.resolve(t.db),
        authorize: () => Promise.resolve(),
        onVideoUploaded: queueVideoProcessing,
      });
      const app = express();
      app.use((req, res, next) => (tus.matches(req.path) ? void tus.handle(req, res).catch(() => {}) : next()));
      const server = app.listen(0, "127.0.0.1");
      await new Promise((r) => server.once("listening", r));
      servers.push(server);
      bases[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }
  });
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
    await t?.drop();
    await s3?.close();
    for (const dir of Object.values(dirs)) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("takes the upload on A, resumes it on B, encodes it on the worker, and plays it on B from the bucket", { timeout: 180_000 }, async () => {
    if (!hasFfmpeg) return expect.soft(hasFfmpeg, "ffmpeg is not installed: .ci/run installs it").toBe(true);
    const libraryOnB = createLocalVideoLibrary({ db: t.db, dataDir: dirs.b, storage: storage() });
    const clip = fs.readFileSync(makeClip(fs.mkdtempSync(path.join(os.tmpdir(), "clip-")), { seconds: 3 }));
    const video = await createLocalVideoLibrary({ db: t.db, dataDir: dirs.a, storage: storage() }).create({ title: "مقطع من ثلاث آلات" });

    const onA = tusClient(bases.a, LOCAL_TUS_PATH);
    const onB = tusClient(bases.b, LOCAL_TUS_PATH);
    const created = await onA.create(clip.length, { guid: video.guid, filename: "clip.mp4", filetype: "video/mp4" });
    expect(created.status).toBe(201);
    const url = onA.uploadUrl(created);
    const urlOnB = url.replace(bases.a, bases.b);
    await onA.patchAndDrop(url, 0, clip, Math.floor(clip.length / 2));
    await expect.poll(() => onB.offsetOf(urlOnB), { timeout: 20_000 }).toBeGreaterThan(0);
    const offset = await onB.offsetOf(urlOnB);
    expect(offset).toBeLessThan(clip.length);
    const rest = await onB.patch(urlOnB, offset, clip.subarray(offset));
    expect(rest.status).toBe(204);

    // The source is in the bucket, whole; nothing of the upload on either web machine's disk.
    expect((await bytesOf(storage(), videoFileKey(video.guid, SOURCE_FILE))).equals(clip)).toBe(true);
    expect(await storage().list("tus/videos")).toEqual([]);
    expect([...filesIn(dirs.a), ...filesIn(dirs.b)]).toEqual([]);
    expect((await libraryOnB.get(video.guid))?.status).toBe(VIDEO_STATUS.processing);
    // Not ready: nothing to play yet, and B did not look at its disk to say so.
    expect(libraryOnB.playbackFor((await libraryOnB.get(video.guid))!)).toEqual({ thumbnail: `${s3.publicUrl}/videos/${video.guid}/thumbnail.jpg` });

    // The worker's handlers from its own configuration: the bucket comes from STORAGE_DRIVER=s3.
    const worker = startWorker(t.db, jobHandlers(configOf(dirs.worker)), {
      pollMs: 100,
    });
    try {
      await expect.poll(async () => (await libraryOnB.get(video.guid))?.status, { timeout: 150_000, interval: 250 }).toBe(VIDEO_STATUS.ready);
    } finally {
      await worker.stop();
    }
    const ready = (await libraryOnB.get(video.guid))!;
    expect(ready).toMatchObject({ length: 3, thumbnailFileName: "thumbnail.jpg", failureReason: null });
    const playback = libraryOnB.playbackFor(ready);
    expect(playback).toEqual({
      hls: `${s3.publicUrl}/videos/${video.guid}/playlist.m3u8`,
      mp4: `${s3.publicUrl}/videos/${video.guid}/play_720p.mp4`,
      thumbnail: `${s3.publicUrl}/videos/${video.guid}/thumbnail.jpg`,
    });

    // Every URL a player follows answers from the bucket, with its type: master playlist → rendition → segment.
    const get = async (address: string) => {
      const res = await fetch(address);
      return { status: res.status, type: res.headers.get("content-type"), body: Buffer.from(await res.arrayBuffer()) };
    };
    const master = await get(playback.hls!);
    expect(master).toMatchObject({ status: 200, type: "application/vnd.apple.mpegurl" });
    const rendition = master.body
      .toString()
      .split("\n")
      .find((line) => line.endsWith(".m3u8"))!;
    expect(rendition).toBe("360p/video.m3u8");
    const renditionUrl = new URL(rendition, playback.hls).toString();
    const list = await get(renditionUrl);
    expect(list).toMatchObject({ status: 200, type: "application/vnd.apple.mpegurl" });
    const segment = list.body
      .toString()
      .split("\n")
      .find((line) => line.endsWith(".ts"))!;
    const segmentFile = await get(new URL(segment, renditionUrl).toString());
    expect(segmentFile.status).toBe(200);
    expect(segmentFile.type).toBe("video/mp2t");
    expect(segmentFile.body[0]).toBe(0x47); // an MPEG-TS packet's sync byte
    const mp4 = await get(playback.mp4!);
    expect(mp4).toMatchObject({ status: 200, type: "video/mp4" });
    expect(mp4.body.subarray(4, 8).toString("latin1")).toBe("ftyp");
    const thumbnail = await get(playback.thumbnail!);
    expect(thumbnail).toMatchObject({ status: 200, type: "image/jpeg" });
    expect([...thumbnail.body.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    // The worker kept nothing of its work.
    expect(filesIn(dirs.worker)).toEqual([]);

    // Deleting the video removes its files from the bucket.
    await libraryOnB.delete(video.guid);
    expect(await storage().list(`videos/${video.guid}`)).toEqual([]);
    expect((await fetch(playback.mp4!)).status).toBe(404);
  });

  it("leaves a video not ready when its worker dies while uploading, and the next run starts from the source", { timeout: 120_000 }, async () => {
    if (!hasFfmpeg) return expect.soft(hasFfmpeg, "ffmpeg is not installed: .ci/run installs it").toBe(true);
    const library = createLocalVideoLibrary({ db: t.db, dataDir: dirs.b, storage: storage() });
    const video = await library.create({ title: "عامل توقف" });
    const clip = fs.readFileSync(makeClip(fs.mkdtempSync(path.join(os.tmpdir(), "clip-")), { seconds: 2 }));
    await storage().putAt(videoFileKey(video.guid, SOURCE_FILE), clip, "video/mp4", clip.length);
    await t.db.update(videos).set({ status: VIDEO_STATUS.processing }).where(eq(videos.guid, video.guid));

    const real = storage();
    // The store goes away as the master playlist, the last file, is sent: what a worker killed there leaves.
    const dying: Storage = {
      put: (...args) => real.put(...args),
      putAt: (key, body, type, size) => (key.endsWith("/playlist.m3u8") ? Promise.reject(new Error("worker killed")) : real.putAt(key, body, type, size)),
      read: (key) => real.read(key),
      list: (prefix) => real.list(prefix),
      remove: (key) => real.remove(key),
      removePrefix: (prefix) => real.removePrefix(prefix),
      publicUrl: (key) => real.publicUrl(key),
    };
    const run = (target: Storage) =>
      processVideo(t.db, { guid: video.guid, videosDir: path.join(dirs.worker, "videos"), tools, isLastAttempt: false, storage: target });
    await expect(run(dying)).rejects.toThrow("worker killed");
    const after = (await library.get(video.guid))!;
    expect(after.status).not.toBe(VIDEO_STATUS.ready);
    expect(library.playbackFor(after).hls).toBeUndefined();

    await run(storage());
    expect((await library.get(video.guid))?.status).toBe(VIDEO_STATUS.ready);
    expect((await fetch(library.playbackFor((await library.get(video.guid))!).hls!)).status).toBe(200);
    expect(filesIn(dirs.worker)).toEqual([]);
  });

  it("marks a video whose source is not in the bucket as failed, without retrying", async () => {
    const library = createLocalVideoLibrary({ db: t.db, dataDir: dirs.b, storage: storage() });
    const video = await library.create({ title: "بلا ملف" });
    await expect(
      processVideo(t.db, { guid: video.guid, videosDir: path.join(dirs.worker, "videos"), tools, isLastAttempt: false, storage: storage() }),
    ).rejects.toThrow("The uploaded file is missing");
    expect(await library.get(video.guid)).toMatchObject({ status: VIDEO_STATUS.failed, failureReason: "The uploaded file is missing" });
  });
});
