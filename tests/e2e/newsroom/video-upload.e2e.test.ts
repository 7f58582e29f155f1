/**
 * The video library's upload, end to end against the built server with real ffmpeg: the API contract of the
 * media pipeline (create, tus, status, playback with Range, delete), a server killed mid-encode whose job
 * finishes after the restart, and an editor in Chromium uploading, watching it become ready, and deleting it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { hasChromium, launchBrowser } from "#tests/e2e/support/browser.ts";
import { startServer, type RunningServer } from "#tests/e2e/support/server.ts";
import { E2E_SECRET, startAuthServer, type AuthServer } from "#tests/e2e/auth/support.ts";
import { expectToast, keepEvidence, open, saveAndExpectToast, signedInPage } from "./support.ts";
import ar from "#domain/locales/ar/common.json" with { type: "json" };
import { hasFfmpeg, makeAudio, makeClip } from "#tests/helpers/video.ts";
import { tusUpload } from "#tests/helpers/tus.ts";

type AdminVideo = { guid: string; status: number; length: number; thumbnail: string | null; play: string | null; title: string };

describe.skipIf(!hasFfmpeg)("the video library's uploads", () => {
  let server: AuthServer<"admin" | "reader">;
  let restarted: RunningServer | undefined;
  let browser: Browser | undefined;
  let base: string;
  const clips = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-clips-"));
  let shortClip: string;
  let longClip: string;
  let audio: string;

  const call = (method: string, pathname: string, { cookie = server.personas.admin.cookie, body }: { cookie?: string; body?: unknown } = {}) =>
    fetch(base + pathname, {
      method,
      headers: { cookie, origin: base, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const video = async (guid: string) => (await (await call("GET", `/api/admin/videos/${guid}`)).json()) as AdminVideo;

  beforeAll(async () => {
    shortClip = makeClip(clips, { seconds: 2 });
    // Made before any request: a long encode between two requests would leave a kept-alive socket idle past the
    // server's keep-alive time-out, and the next request could be sent on it as the server closes it.
    longClip = makeClip(clips, { seconds: 40, size: "1280x720", name: "long.mp4" });
    audio = makeAudio(clips, { seconds: 2 });
    server = await startAuthServer({
      personas: {
        admin: { email: "video-chief@newsroom.test", password: "Passw0rdA", role: "admin" },
        reader: { email: "video-reader@newsroom.test", password: "Passw0rdR", role: "reader" },
      },
    });
    base = server.url;
    if (hasChromium) browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await restarted?.stop();
    await server?.stop();
    fs.rmSync(clips, { recursive: true, force: true });
  });

  it("keeps the API's contract: create, tus, status 4 with length and thumbnail, playback with Range, delete", async () => {
    expect((await call("POST", "/api/admin/videos", { cookie: "", body: { title: "x" } })).status).toBe(401);
    expect((await call("POST", "/api/admin/videos", { cookie: server.personas.reader.cookie, body: { title: "x" } })).status).toBe(403);
    const missing = await call("POST", "/api/admin/videos", { body: { title: "  " } });
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toBe("يرجى ملء جميع الحقول المطلوبة");

    const res = await call("POST", "/api/admin/videos", { body: { title: "أمسية الشعر الحساني", description: "تسجيل من نواكشوط" } });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { guid: string; tus_endpoint: string; tus_metadata: Record<string, string> };
    expect(created.guid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.tus_endpoint).toBe("/api/admin/videos/tus");

    // Without the editor's session the endpoint takes nothing.
    const bytes = fs.readFileSync(shortClip);
    const meta = { guid: created.guid, filename: "amsiya.mp4", filetype: "video/mp4" };
    expect((await tusUpload(base + created.tus_endpoint, bytes, meta, { origin: base })).status).toBe(401);
    const sent = await tusUpload(base + created.tus_endpoint, bytes, meta, { cookie: server.personas.admin.cookie, origin: base });
    expect(sent.status).toBe(204);

    await expect.poll(async () => (await video(created.guid)).status, { timeout: 90_000, interval: 500 }).toBe(4);
    const ready = await video(created.guid);
    expect(ready).toMatchObject({ length: 2, title: "أمسية الشعر الحساني" });
    expect(ready.thumbnail).toBe(`/video-files/${created.guid}/thumbnail.jpg`);
    expect((await fetch(base + ready.thumbnail!)).headers.get("content-type")).toBe("image/jpeg");
    const listed = (await (await call("GET", "/api/admin/videos")).json()) as { videos: AdminVideo[] };
    expect(listed.videos.map((v) => v.guid)).toContain(created.guid);

    const playback = (await (await fetch(`${base}/api/videos/${created.guid}/playback`)).json()) as { playback: { hls: string; mp4: string } };
    expect(playback.playback.hls).toBe(`/video-files/${created.guid}/playlist.m3u8`);
    const partial = await fetch(base + playback.playback.mp4, { headers: { range: "bytes=0-99" } });
    expect(partial.status).toBe(206);
    expect((await partial.arrayBuffer()).byteLength).toBe(100);
    expect(await (await fetch(base + playback.playback.hls)).text()).toContain("360p/video.m3u8");

    expect((await call("DELETE", `/api/admin/videos/${created.guid}`)).status).toBe(200);
    expect((await call("GET", `/api/admin/videos/${created.guid}`)).status).toBe(404);
    expect((await fetch(base + playback.playback.mp4)).status).toBe(404);
  });

  // Its own limit, above the waits inside it (60 s to start encoding, 180 s to finish after the restart): the
  // suite's 120 s cut it short under load, while a 40 s 720p clip was still encoding on a busy 2-core machine.
  it("finishes the processing of a video after the server is killed in the middle of it", { timeout: 420_000 }, async () => {
    const { guid } = (await (await call("POST", "/api/admin/videos", { body: { title: "تسجيل طويل" } })).json()) as { guid: string };
    const sent = await tusUpload(
      `${base}/api/admin/videos/tus`,
      fs.readFileSync(longClip),
      { guid, filename: "long.mp4", filetype: "video/mp4" },
      {
        cookie: server.personas.admin.cookie,
        origin: base,
      },
    );
    expect(sent.status).toBe(204);
    await expect.poll(async () => (await video(guid)).status, { timeout: 60_000, interval: 100 }).toBe(2);
    server.process.kill("SIGKILL");
    await new Promise((resolve) => server.process.once("exit", resolve));

    restarted = await startServer({ DATA_DIR: server.dataDir, BETTER_AUTH_SECRET: E2E_SECRET, SEED_DEMO: "false" });
    base = restarted.url;
    await expect.poll(async () => (await video(guid)).status, { timeout: 180_000, interval: 1000 }).toBe(4);
    expect((await video(guid)).length).toBe(40);
    expect(restarted.output()).toContain("jobs of the previous run resumed");
  });

  it.skipIf(!hasChromium)("lets an editor attach a podcast's audio and video by resumable upload, then save it", async () => {
    // The files endpoint has the guard of the back-office's actions: a session, content.write, our own origin.
    const declared = { "Tus-Resumable": "1.0.0", "Upload-Length": "1000", "Upload-Metadata": "folder cG9kY2FzdHMvYXVkaW8=,filetype YXVkaW8vd2F2" };
    const tusCreate = (headers: Record<string, string>) => fetch(`${base}/api/admin/files/tus`, { method: "POST", headers: { ...declared, ...headers } });
    expect((await tusCreate({ origin: base })).status).toBe(401);
    expect((await tusCreate({ origin: base, cookie: server.personas.reader.cookie })).status).toBe(403);
    expect((await tusCreate({ origin: "https://evil.example", cookie: server.personas.admin.cookie })).status).toBe(403);

    const { page, context } = await signedInPage(browser!, { url: base }, server.personas.admin);
    await keepEvidence(page, "podcast-uploads", async () => {
      await open(page, `${base}/admin/podcasts/new`);
      await page.fill('[data-testid="input-title"]', "حلقة عن الشعر الحساني");
      await page.fill('[data-testid="input-description"]', "حديث مع شاعر من أطار");
      await page.fill('[data-testid="input-host_name"]', "محمد الأمين");

      await page.setInputFiles('[data-testid="upload-audio_url"]', audio);
      // While the file goes the form is not saved with an empty field.
      await page.locator('[data-testid="upload-progress-audio_url"]').waitFor();
      await expect.poll(() => page.inputValue('[data-testid="input-audio_url"]'), { timeout: 60_000 }).toMatch(/^\/uploads\/podcasts\/audio\/.+\.wav$/);
      await page.setInputFiles('[data-testid="upload-video_url"]', shortClip);
      await expect.poll(() => page.inputValue('[data-testid="input-video_url"]'), { timeout: 60_000 }).toMatch(/^[0-9a-f-]{36}$/);
      const audioUrl = await page.inputValue('[data-testid="input-audio_url"]');
      const guid = await page.inputValue('[data-testid="input-video_url"]');

      await saveAndExpectToast(page, "podcasts", ar.newsroom.ok.podcastCreated);
      const stored = await fetch(base + audioUrl);
      expect(stored.status).toBe(200);
      expect(stored.headers.get("content-type")).toBe("audio/wav");
      expect(Buffer.from(await stored.arrayBuffer()).equals(fs.readFileSync(audio))).toBe(true);
      // The video went to the library under the episode's title, and is processed like any other.
      expect((await video(guid)).title).toBe("حلقة عن الشعر الحساني");
      await expect.poll(async () => (await video(guid)).status, { timeout: 90_000, interval: 500 }).toBe(4);
    });
    await context.close();
  });

  it.skipIf(!hasChromium)("lets an editor upload a video, watch it become ready, play it and delete it", async () => {
    const { page, context } = await signedInPage(browser!, { url: base }, server.personas.admin);
    await keepEvidence(page, "video-upload", async () => {
      await open(page, `${base}/admin/videos`);
      // Nothing chosen: the spec's toast, nothing sent.
      await page.click('[data-testid="video-upload-submit"]');
      await page.fill('[data-testid="video-title"]', "رحلة إلى وادان");
      await page.evaluate(() => (document.querySelector<HTMLFormElement>('[data-testid="video-upload-form"]')!.noValidate = true));
      await page.click('[data-testid="video-upload-submit"]');
      await expectToast(page, "يرجى ملء جميع الحقول المطلوبة");

      await page.fill('[data-testid="video-description"]', "جولة مصورة في المدينة القديمة");
      await page.setInputFiles('[data-testid="video-file"]', shortClip);
      // The file's bytes are held back a moment, so that the bar can be seen on its way.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route("**/api/admin/videos/tus/**", async (route) => {
        if (route.request().method() === "PATCH") await held;
        await route.continue();
      });
      await page.click('[data-testid="video-upload-submit"]');
      const progress = page.locator('[data-testid="video-upload-progress"]');
      await progress.waitFor();
      // Creating the video (0 %), then its file on its way: 25 % and up, never past 75 % before the end.
      await expect.poll(() => progress.locator('[role="status"]').textContent()).toBe("جاري رفع الملف...");
      expect(await page.textContent('[data-testid="video-upload-progress-percent"]')).toMatch(/^(2[5-9]|[3-6]\d|7[0-5])%$/);
      expect(await page.isDisabled('[data-testid="video-upload-submit"]')).toBe(true);
      release();
      await expectToast(page, "تم رفع الفيديو بنجاح!");
      await page.waitForSelector('[data-testid="video-upload-form"][data-state="idle"]');
      const card = page.locator('[data-testid="admin-video"]', { hasText: "رحلة إلى وادان" });
      await card.waitFor();
      // The list refreshes itself while the video is processed.
      await page.locator('[data-testid="admin-video"][data-status="4"]', { hasText: "رحلة إلى وادان" }).waitFor({ timeout: 90_000 });
      expect(await card.locator('[data-testid="video-duration"]').textContent()).toBe("0:02");
      const play = card.locator('a[data-testid="video-play"]');
      expect(await play.getAttribute("href")).toMatch(/^\/video-files\/[0-9a-f-]{36}\/play_720p\.mp4$/);
      expect(await play.getAttribute("target")).toBe("_blank");
      const played = await fetch(base + (await play.getAttribute("href"))!, { headers: { range: "bytes=0-1023" } });
      expect([played.status, played.headers.get("content-type")]).toEqual([206, "video/mp4"]);
      expect(await card.locator("img").getAttribute("src")).toMatch(/\/thumbnail\.jpg$/);

      await card.locator('[data-testid="video-delete"]').click();
      await page.click('[data-testid="delete-confirm"]');
      await expectToast(page, "تم حذف الفيديو بنجاح");
      await card.waitFor({ state: "detached" });
    });
    await context.close();
  });
});
