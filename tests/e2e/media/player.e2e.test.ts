/**
 * The video player's fallbacks and messages, on a server of its own whose database holds media the demo
 * does not have: an item without a file, a storage URL, an unknown hosted id, and a hosted id whose files
 * (HLS only) sit in DATA_DIR/videos. Playback URLs are also faked per test (page.route) to walk the chain
 * HLS → file → embed.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { DESKTOP, hasChromium, hydrated, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import { startServer, type RunningServer } from "#tests/e2e/support/server.ts";
import { openDatabase } from "#server/db/client.server.ts";
import { DEMO_VIDEO_GUIDS, seedDemoContent } from "#server/db/seed.server.ts";
import { media, videos } from "#server/db/schema.server.ts";
import { expectVideoPlays, HLS_CHUNK, SAMPLE_MISSING, SAMPLE_VIDEO } from "./helpers.ts";

const HLS_ID = "5a5a5a5a-1111-4222-8333-444444444444";
const FAKED_ID = "6b6b6b6b-1111-4222-8333-444444444444";
const UNKNOWN_ID = "7c7c7c7c-1111-4222-8333-444444444444";
/** A demo video of the seeded library (the 25-second clip): the media item "فيديو المكتبة" plays it by its id. */
const DEMO_ID = DEMO_VIDEO_GUIDS[2];
const HOUR = 3_600_000;

describe.skipIf(!hasChromium)("the video player", () => {
  let server: RunningServer;
  let browser: Browser;
  let dataDir: string;
  let sample = false;
  let hlsMade = false;
  let demoFiles = false;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-player-"));
    const handle = openDatabase({ dataDir });
    await handle.migrate();
    await seedDemoContent(handle.db, { uploadsDir: path.join(dataDir, "uploads"), videosDir: path.join(dataDir, "videos") });
    sample = fs.existsSync(path.join(dataDir, "uploads/demo/video/sample.mp4"));
    demoFiles = fs.existsSync(path.join(dataDir, "videos", DEMO_ID, "playlist.m3u8"));
    const at = new Date(Date.now() - HOUR);
    const row = { status: "published" as const, publishDate: at, createdAt: at, updatedAt: at, isFeatured: false };
    await handle.db.insert(media).values([
      { ...row, title: "مادة بلا ملف", mediaType: "audio", pageSlug: "test-no-file" },
      {
        ...row,
        title: "رابط تخزين",
        mediaType: "video",
        pageSlug: "test-storage-url",
        fileUrl: "https://storage.bunnycdn.com/zone/videos/clip.mp4",
        description: "d",
      },
      { ...row, title: "معرف مجهول", mediaType: "video", pageSlug: "test-unknown-id", fileUrl: UNKNOWN_ID, description: "d" },
      { ...row, title: "بث متكيف", mediaType: "video", pageSlug: "test-hls", fileUrl: HLS_ID, description: "d" },
      { ...row, title: "روابط مزيفة", mediaType: "video", pageSlug: "test-faked", fileUrl: FAKED_ID, description: "d" },
      { ...row, title: "فيديو المكتبة", mediaType: "video", pageSlug: "test-demo-library", fileUrl: DEMO_ID, description: "d" },
    ]);
    await handle.db.insert(videos).values([
      { guid: HLS_ID, title: "بث متكيف", status: 4, lengthSeconds: 4 },
      { guid: FAKED_ID, title: "روابط مزيفة", status: 4, lengthSeconds: 4 },
    ]);
    await handle.close();
    if (sample) {
      // An HLS-only rendition of the sample, as the local driver's encoder lays it out.
      const dir = path.join(dataDir, "videos", HLS_ID);
      fs.mkdirSync(dir, { recursive: true });
      const run = spawnSync(
        "ffmpeg",
        [
          "-hide_banner",
          "-loglevel",
          "error",
          "-nostdin",
          "-y",
          "-i",
          path.join(dataDir, "uploads/demo/video/sample.mp4"),
          "-c",
          "copy",
          "-f",
          "hls",
          "-hls_time",
          "1",
          "-hls_playlist_type",
          "vod",
          "-hls_segment_filename",
          path.join(dir, "seg%03d.ts"),
          path.join(dir, "playlist.m3u8"),
        ],
        { stdio: "ignore", timeout: 60_000 },
      );
      hlsMade = run.status === 0 && fs.existsSync(path.join(dir, "playlist.m3u8"));
      // The encoder also leaves a thumbnail beside the renditions.
      fs.writeFileSync(
        path.join(dir, "thumbnail.svg"),
        '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="9" viewBox="0 0 16 9"><rect width="16" height="9" fill="#a8541e"/></svg>',
      );
      // The same rendition under /uploads, which the server already serves: lets the tests reach the HLS
      // paths through faked playback URLs whatever else is mounted.
      if (hlsMade) fs.cpSync(dir, path.join(dataDir, "uploads", "test-hls"), { recursive: true });
    }
    server = await startServer({ DATA_DIR: dataDir });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Makes the page a browser without native HLS (Firefox, Chrome before it shipped HLS): canPlayType says no. */
  async function withoutNativeHls(page: Page) {
    await page.addInitScript(() => {
      // Reflect.get: the method is taken off the prototype on purpose, and called below with the element as `this`.
      const original = Reflect.get(HTMLMediaElement.prototype, "canPlayType") as (this: HTMLMediaElement, type: string) => CanPlayTypeResult;
      HTMLMediaElement.prototype.canPlayType = function (type: string) {
        return /mpegurl/i.test(type) ? "" : original.call(this, type);
      };
    });
  }

  async function openMedia(page: Page, title: string) {
    await page.goto(server.url + "/media?type=" + (title === "مادة بلا ملف" ? "audio" : "video"));
    await hydrated(page);
    await page.locator('[data-testid="media-open"]', { hasText: title }).click();
  }

  it("shows an item without a file with the spec's defaults, and a warning toast naming it", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    await openMedia(page, "مادة بلا ملف");
    const card = page.locator('[data-testid="media-card"]', { hasText: "مادة بلا ملف" });
    expect(await card.getByTestId("media-description").textContent()).toBe("لا يوجد وصف متاح");
    expect(await card.getByTestId("media-author").textContent()).toBe("كاتب غير معروف");
    expect(await card.getByTestId("media-category").textContent()).toBe("عام");
    expect(await card.getByTestId("media-views").textContent()).toBe("المشاهدات: 0");
    const toast = page.getByTestId("toast");
    await toast.waitFor();
    expect(await toast.getAttribute("data-variant")).toBe("warning");
    expect(await toast.textContent()).toContain("لا يوجد ملف متاح لـ«مادة بلا ملف»");
    expect(await page.getByTestId("video-modal").count()).toBe(0);
    await context.close();
  });

  it("refuses a storage URL with the spec's message", async () => {
    const { page, context } = await newPage(browser, { viewport: PHONE });
    await openMedia(page, "رابط تخزين");
    const error = page.getByTestId("video-error-message");
    await error.waitFor();
    expect(await error.textContent()).toBe("Invalid video source - Storage URLs cannot be used for video playback");
    await context.close();
  });

  it("says it cannot play an unknown hosted video, with its id", async () => {
    const { page, context } = await newPage(browser, { viewport: PHONE });
    await openMedia(page, "معرف مجهول");
    await page.getByTestId("video-error").waitFor();
    expect(await page.getByTestId("video-error-message").textContent()).toBe("No valid video URLs available");
    expect(await page.getByTestId("video-error-id").textContent()).toBe(UNKNOWN_ID);
    await context.close();
  });

  it("plays a hosted video's HLS stream from local files", async (ctx) => {
    if (!sample) ctx.skip(SAMPLE_MISSING);
    if (!hlsMade) ctx.skip("ffmpeg could not cut the sample into HLS segments");
    const mounted = await fetch(`${server.url}/video-files/${HLS_ID}/playlist.m3u8`);
    if (!mounted.ok) ctx.skip("server/app.server.ts does not mount localVideoFiles at /video-files yet (see server/media/video/local.server.ts)");
    expect(mounted.headers.get("content-type")).toBe("application/vnd.apple.mpegurl");
    const { page, context, errors } = await newPage(browser, { viewport: DESKTOP });
    const segments: string[] = [];
    page.on("request", (r) => r.url().includes(`/video-files/${HLS_ID}/`) && segments.push(r.url()));
    await openMedia(page, "بث متكيف");
    const modal = page.getByTestId("video-modal");
    await expectVideoPlays(modal);
    expect(segments.some((u) => u.endsWith("playlist.m3u8"))).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  const DEMO_SKIP = "the seed made no demo clips (ffmpeg with libx264 was not available)";

  it("answers a demo video's playback URLs, and its MP4 answers byte ranges with 206", async (ctx) => {
    if (!demoFiles) ctx.skip(DEMO_SKIP);
    const res = await fetch(`${server.url}/api/videos/${DEMO_ID}/playback`);
    expect(res.status).toBe(200);
    const { playback } = (await res.json()) as { playback: { hls?: string; mp4?: string; thumbnail?: string } };
    expect(playback).toEqual({
      hls: `/video-files/${DEMO_ID}/playlist.m3u8`,
      mp4: `/video-files/${DEMO_ID}/play_720p.mp4`,
      thumbnail: `/video-files/${DEMO_ID}/thumbnail.jpg`,
    });
    const whole = await fetch(server.url + playback.mp4);
    const size = Number(whole.headers.get("content-length"));
    await whole.arrayBuffer();
    const part = await fetch(server.url + playback.mp4, { headers: { Range: "bytes=1000-1999" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 1000-1999/${size}`);
    expect(part.headers.get("content-type")).toBe("video/mp4");
    expect((await part.arrayBuffer()).byteLength).toBe(1000);
    const thumb = await fetch(server.url + playback.thumbnail);
    expect(thumb.headers.get("content-type")).toBe("image/jpeg");
  });

  for (const native of [true, false]) {
    it(`plays a demo video by its id through the playback API (${native ? "native HLS" : "hls.js"}), under the page's CSP`, async (ctx) => {
      if (!demoFiles) ctx.skip(DEMO_SKIP);
      const { page, context, errors } = await newPage(browser, { viewport: PHONE });
      if (!native) await withoutNativeHls(page);
      const requests: string[] = [];
      page.on("request", (r) => requests.push(new URL(r.url()).pathname));
      const blocked: string[] = [];
      page.on("console", (m) => /Content Security Policy/i.test(m.text()) && blocked.push(m.text()));
      await openMedia(page, "فيديو المكتبة");
      const video = await expectVideoPlays(page.getByTestId("video-modal"));
      expect(requests).toContain(`/api/videos/${DEMO_ID}/playback`);
      expect(requests).toContain(`/video-files/${DEMO_ID}/playlist.m3u8`);
      expect(requests.some((u) => u.startsWith(`/video-files/${DEMO_ID}/240p/segment_`))).toBe(true);
      expect(await video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(2);
      // The clip's true length, as the library states it.
      expect(await video.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBe(25);
      expect(await page.getByTestId("video-player").getAttribute("data-phase")).toBe("ready");
      expect(blocked).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("shows each demo video's own thumbnail on /videos, sized, and lazy below the first row", async (ctx) => {
    if (!demoFiles) ctx.skip(DEMO_SKIP);
    const html = await (await fetch(server.url + "/videos")).text();
    const imgs = [...html.matchAll(/<article\b[^>]*data-testid="video-card"[^>]*data-guid="([0-9a-f-]{36})"[\s\S]*?<img\b([^>]*)>/g)].map((m) => ({
      guid: m[1],
      attrs: m[2],
    }));
    expect(imgs.length).toBeGreaterThanOrEqual(DEMO_VIDEO_GUIDS.length);
    const demo = imgs.filter((i) => DEMO_VIDEO_GUIDS.includes(i.guid));
    expect(demo).toHaveLength(DEMO_VIDEO_GUIDS.length);
    for (const { guid, attrs } of demo) {
      expect(attrs).toContain(`src="/video-files/${guid}/thumbnail.jpg"`);
      expect(attrs).toMatch(/width="\d+"/);
      expect(attrs).toMatch(/height="\d+"/);
    }
    expect(imgs.slice(0, 3).every((i) => i.attrs.includes('loading="eager"'))).toBe(true);
    expect(imgs.slice(3).every((i) => i.attrs.includes('loading="lazy"'))).toBe(true);

    // Once interactive every demo picture is still there (none taken for broken), and the ones scrolled to
    // load; the video without files, whose default thumbnail path answers 404, shows the plain tile instead
    // (the page's inline listener hides the picture, whenever it failed).
    const { page, context, errors } = await newPage(browser, { viewport: PHONE });
    await page.goto(server.url + "/videos");
    await hydrated(page);
    for (const guid of DEMO_VIDEO_GUIDS) expect(await page.locator(`[data-guid="${guid}"] img`).count(), guid).toBe(1);
    await expect.poll(() => page.locator(`[data-guid="${FAKED_ID}"] img:visible`).count()).toBe(0);
    const last = page.locator(`[data-guid="${DEMO_VIDEO_GUIDS.at(-1)}"] img`);
    await last.scrollIntoViewIfNeeded();
    await expect.poll(() => last.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    // The browser reports the missing picture's 404 in the console; nothing else may be there.
    expect(errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
    await context.close();
  });

  for (const native of [true, false]) {
    it(`plays an HLS stream ${native ? "natively" : "through hls.js, loaded on demand, where the browser has no native HLS"}`, async (ctx) => {
      if (!hlsMade) ctx.skip(sample ? "ffmpeg could not cut the sample into HLS segments" : SAMPLE_MISSING);
      const { page, context, errors } = await newPage(browser, { viewport: DESKTOP });
      if (!native) await withoutNativeHls(page);
      await page.route(`**/api/videos/${FAKED_ID}/playback`, (r) =>
        r.fulfill({ contentType: "application/json", body: JSON.stringify({ playback: { hls: "/uploads/test-hls/playlist.m3u8" } }) }),
      );
      const requests: string[] = [];
      page.on("request", (r) => requests.push(new URL(r.url()).pathname));
      await openMedia(page, "روابط مزيفة");
      const video = await expectVideoPlays(page.getByTestId("video-modal"));
      expect(requests).toContain("/uploads/test-hls/playlist.m3u8");
      const hlsChunk = requests.some((u) => HLS_CHUNK.test(u));
      expect(hlsChunk).toBe(!native);
      // hls.js plays through Media Source Extensions: the element's source is a blob: URL.
      if (!native) expect(await video.evaluate((v: HTMLVideoElement) => v.currentSrc.startsWith("blob:"))).toBe(true);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  for (const native of [true, false]) {
    it(`moves from a failing HLS stream to the direct file (${native ? "native HLS" : "hls.js"})`, async (ctx) => {
      if (!sample) ctx.skip(SAMPLE_MISSING);
      const { page, context } = await newPage(browser, { viewport: DESKTOP });
      if (!native) await withoutNativeHls(page);
      await page.route(`**/api/videos/${FAKED_ID}/playback`, (r) =>
        r.fulfill({ contentType: "application/json", body: JSON.stringify({ playback: { hls: "/missing/playlist.m3u8", mp4: SAMPLE_VIDEO } }) }),
      );
      const tried: string[] = [];
      page.on("request", (r) => /missing\/playlist|sample\.mp4/.test(r.url()) && tried.push(new URL(r.url()).pathname));
      await openMedia(page, "روابط مزيفة");
      await expectVideoPlays(page.getByTestId("video-modal"));
      expect(tried[0]).toBe("/missing/playlist.m3u8");
      expect(tried).toContain(SAMPLE_VIDEO);
      await context.close();
    });
  }

  it("switches to the embed player when the file is forbidden (media error code 4)", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    await page.route(`**/api/videos/${FAKED_ID}/playback`, (r) =>
      r.fulfill({ contentType: "application/json", body: JSON.stringify({ playback: { mp4: "/forbidden/play_720p.mp4", embed: "/embed-player-test" } }) }),
    );
    await page.route("**/forbidden/play_720p.mp4", (r) => r.fulfill({ status: 403, body: "" }));
    await page.route("**/embed-player-test", (r) => r.fulfill({ contentType: "text/html", body: "<p>embed</p>" }));
    await openMedia(page, "روابط مزيفة");
    const embed = page.getByTestId("video-embed");
    await embed.waitFor({ state: "attached" });
    expect(await embed.getAttribute("src")).toBe("/embed-player-test");
    expect(await page.getByTestId("video-player").getAttribute("data-phase")).toBe("embed");
    expect(await page.getByTestId("video-player").textContent()).toContain("Authentication required - switching to iframe player");
    await context.close();
  });

  it("ends on the embed player when every URL has failed and the playback answer has one", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    await withoutNativeHls(page);
    await page.route(`**/api/videos/${FAKED_ID}/playback`, (r) =>
      r.fulfill({ contentType: "application/json", body: JSON.stringify({ playback: { hls: "/missing/playlist.m3u8", embed: "/embed-player-test" } }) }),
    );
    await page.route("**/embed-player-test", (r) => r.fulfill({ contentType: "text/html", body: "<p>embed</p>" }));
    await openMedia(page, "روابط مزيفة");
    const embed = page.getByTestId("video-embed");
    await embed.waitFor({ state: "attached" });
    expect(await embed.getAttribute("src")).toBe("/embed-player-test");
    expect(await page.getByTestId("video-player").getAttribute("data-phase")).toBe("embed");
    await context.close();
  });

  it("reports the failure when every URL fails and there is no embed player", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    await page.route(`**/api/videos/${FAKED_ID}/playback`, (r) =>
      r.fulfill({ contentType: "application/json", body: JSON.stringify({ playback: { mp4: "/gone/play_720p.mp4" } }) }),
    );
    await page.route("**/gone/play_720p.mp4", (r) => r.fulfill({ status: 404, body: "" }));
    await openMedia(page, "روابط مزيفة");
    await page.getByTestId("video-error").waitFor();
    const message = await page.getByTestId("video-error-message").textContent();
    expect(message).toMatch(/^Failed to load video: .+ \(Code: 4\) — No more video URLs to try$/);
    expect(await page.getByTestId("video-error-id").textContent()).toBe(FAKED_ID);
    await context.close();
  });
});
