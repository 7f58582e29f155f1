/**
 * The demo video library as the embedded default serves it: seeded with the local library's folder, each
 * demo video plays from files of its own (HLS first, then the MP4, with its thumbnail) through the playback
 * URLs, and its MP4 answers byte ranges with 206 (seeking, Safari). Needs ffmpeg (skipped without it).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import express from "express";
import { createTestDatabase, type TestDatabase } from "#tests/helpers/db.ts";
import { DEMO_VIDEO_GUIDS, seedDemoContent } from "#server/db/seed.server.ts";
import { DEMO_RENDITION } from "#server/db/demo-assets.server.ts";
import { createLocalVideoLibrary, LOCAL_VIDEO_URL_PREFIX, localVideoFiles } from "./local.server.ts";
import { loadVideoLibraryPage } from "./page.server.ts";
import { VIDEO_STATUS, type VideoLibrary } from "./types.server.ts";
import { playbackPlan } from "#domain/video-source.ts";

const hasFfmpeg = !spawnSync("ffmpeg", ["-version"], { stdio: "ignore" }).error;

describe.skipIf(!hasFfmpeg)("demo videos of the embedded library", () => {
  let t: TestDatabase;
  let dataDir: string;
  let library: VideoLibrary;
  let base: string;
  let close: () => void;

  beforeAll(async () => {
    t = await createTestDatabase("pglite");
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "demo-playback-"));
    await seedDemoContent(t.db, { uploadsDir: path.join(dataDir, "uploads"), videosDir: path.join(dataDir, "videos") });
    library = createLocalVideoLibrary({ db: t.db, dataDir });
    const app = express();
    app.use(LOCAL_VIDEO_URL_PREFIX, localVideoFiles({ dataDir }));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(async () => {
    close?.();
    await t?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("gives every demo video its own HLS stream, MP4 and thumbnail, HLS tried first", async () => {
    for (const guid of DEMO_VIDEO_GUIDS) {
      const playback = await library.playback(guid);
      expect(playback, guid).toEqual({
        hls: `${LOCAL_VIDEO_URL_PREFIX}/${guid}/playlist.m3u8`,
        mp4: `${LOCAL_VIDEO_URL_PREFIX}/${guid}/play_720p.mp4`,
        thumbnail: `${LOCAL_VIDEO_URL_PREFIX}/${guid}/thumbnail.jpg`,
      });
      expect(playbackPlan(playback)?.attempts.map((a) => a.format)).toEqual(["hls", "file"]);
    }
    const page = await loadVideoLibraryPage(library);
    expect(page.videos).toHaveLength(DEMO_VIDEO_GUIDS.length);
    expect(page.videos.every((v) => v.status === VIDEO_STATUS.ready && v.playback.hls)).toBe(true);
    // Three clip lengths, so the page's durations and its sort by duration mean something.
    expect(new Set(page.videos.map((v) => v.length))).toEqual(new Set([6, 12, 25]));
  });

  it("serves the MP4 in byte ranges (206) and whole (200), as video/mp4", async () => {
    const { mp4 } = (await library.playback(DEMO_VIDEO_GUIDS[0]))!;
    const whole = await fetch(base + mp4!);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    const bytes = new Uint8Array(await whole.arrayBuffer());
    expect(Buffer.from(bytes.subarray(4, 8)).toString("latin1")).toBe("ftyp");

    const part = await fetch(base + mp4!, { headers: { Range: "bytes=0-1023" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-1023/${bytes.length}`);
    expect(part.headers.get("content-type")).toBe("video/mp4");
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.subarray(0, 1024));

    // An open range from the middle, as a seek asks for it.
    const tail = await fetch(base + mp4!, { headers: { Range: `bytes=${bytes.length - 100}-` } });
    expect(tail.status).toBe(206);
    expect(new Uint8Array(await tail.arrayBuffer())).toHaveLength(100);
    expect((await fetch(base + mp4!, { headers: { Range: `bytes=${bytes.length + 10}-` } })).status).toBe(416);
  });

  it("serves the master playlist, its rendition and every segment it names", async () => {
    const { hls } = (await library.playback(DEMO_VIDEO_GUIDS[2]))!;
    const master = await fetch(base + hls!);
    expect(master.headers.get("content-type")).toBe("application/vnd.apple.mpegurl");
    const rendition = /^(?!#)(\S+\.m3u8)$/m.exec(await master.text())![1];
    expect(rendition).toBe(`${DEMO_RENDITION}/video.m3u8`);
    const renditionUrl = new URL(rendition, base + hls!);
    const list = await (await fetch(renditionUrl)).text();
    expect(list).toContain("#EXT-X-ENDLIST");
    const segments = list.split("\n").filter((l) => l.endsWith(".ts"));
    expect(segments.length).toBeGreaterThan(1);
    for (const s of segments) {
      const res = await fetch(new URL(s, renditionUrl));
      expect(res.status, s).toBe(200);
      expect(res.headers.get("content-type")).toBe("video/mp2t");
      // MPEG-TS packets start with the sync byte 0x47.
      expect(new Uint8Array(await res.arrayBuffer())[0]).toBe(0x47);
    }
  });
});
