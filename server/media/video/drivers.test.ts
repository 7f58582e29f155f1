/**
 * The video library interface, one suite for every driver: the embedded library on a fresh PGlite (its tus
 * endpoint over real HTTP), and the Bunny Stream driver against a local stand-in of the host
 * (tests/helpers/fake-bunny-stream.ts). Then what only the hosted driver has: the host's URLs and their
 * token signing (checked by the stand-in's own implementation of Bunny's algorithm), paging, collections,
 * the host's failures as VideoLibraryError, and the API key kept out of everything. Encoding by ffmpeg is
 * pipeline.test.ts's.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import express from "express";
import { Upload } from "tus-js-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "#tests/helpers/db.ts";
import { checkCdnToken, startFakeBunnyStream, type FakeBunnyStream } from "#tests/helpers/fake-bunny-stream.ts";
import { isVideoId } from "#domain/video-source.ts";
import { checkConfig, ConfigError, PRODUCTION_REFUSAL, startupCheck } from "#server/config.server.ts";
import { BUNNY_MESSAGES, bunnyEmbedToken, bunnyTusSignature, createBunnyVideoLibrary, signBunnyCdnUrl, type BunnyVideoLibraryOptions } from "./bunny.server.ts";
import { createVideoLibrary } from "./index.server.ts";
import { createLocalVideoLibrary, LOCAL_TUS_PATH, LOCAL_VIDEO_URL_PREFIX } from "./local.server.ts";
import { createLocalTusServer } from "./tus.server.ts";
import { VIDEO_STATUS, VideoLibraryError, type VideoLibrary } from "./types.server.ts";

/** The start of an MP4 (what the embedded library's signature check looks for), then filler. */
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypmp42"), Buffer.alloc(4000, 7)]);
const UNKNOWN = "99999999-2222-4333-8444-555555555555";

/** Sends a file as the browser does (app/lib/resumable-upload.ts): tus-js-client, the target's headers and metadata. */
function sendByTus(endpoint: string, target: { headers: Record<string, string>; metadata: Record<string, string> }, file: Buffer) {
  return new Promise<void>((resolve, reject) => {
    const upload = new Upload(file, {
      endpoint,
      headers: target.headers,
      metadata: { ...target.metadata, filename: "clip.mp4", filetype: "video/mp4" },
      chunkSize: 1500,
      retryDelays: [],
      onSuccess: () => resolve(),
      onError: reject,
    });
    upload.start();
  });
}

type Harness = {
  library: VideoLibrary;
  /** Where a browser on the site would send the file (the local endpoint is a path on the site). */
  absolute: (endpoint: string) => string;
  /** The status a video reaches once its file is in, within this suite (local encoding is pipeline.test's). */
  afterUpload: number;
  close: () => Promise<void>;
};

async function localHarness(): Promise<Harness> {
  const t: TestDatabase = await createTestDatabase("pglite");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "drivers-"));
  const tus = createLocalTusServer({ dataDir, db: () => Promise.resolve(t.db), authorize: () => Promise.resolve(), onVideoUploaded: () => Promise.resolve() });
  const app = express();
  app.use((req, res, next) => (tus.matches(req.path) ? void tus.handle(req, res) : next()));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    library: createLocalVideoLibrary({ db: t.db, dataDir }),
    absolute: (endpoint) => new URL(endpoint, base).toString(),
    afterUpload: VIDEO_STATUS.processing,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await t.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const bunnyOptions = (fake: FakeBunnyStream, more: Partial<BunnyVideoLibraryOptions> = {}): BunnyVideoLibraryOptions => ({
  libraryId: fake.libraryId,
  apiKey: fake.apiKey,
  cdnHostname: fake.cdnUrl,
  apiUrl: fake.apiUrl,
  tokenKey: fake.tokenKey,
  ...more,
});

async function bunnyHarness(): Promise<Harness> {
  const fake = await startFakeBunnyStream();
  return { library: createBunnyVideoLibrary(bunnyOptions(fake)), absolute: (e) => e, afterUpload: VIDEO_STATUS.ready, close: () => fake.close() };
}

describe.each([
  ["local", localHarness],
  ["bunny", bunnyHarness],
] as const)("the %s video library", (driver, start) => {
  let h: Harness;
  let library: VideoLibrary;
  beforeAll(async () => {
    h = await start();
    library = h.library;
  });
  afterAll(() => h?.close());

  it("names its driver", () => {
    expect(library.driver).toBe(driver);
  });

  it("creates an empty video (status 0) that get and list then show", async () => {
    const made = await library.create({ title: "حلقة جديدة", description: "وصف قصير" });
    expect(isVideoId(made.guid)).toBe(true);
    expect(made).toMatchObject({
      title: "حلقة جديدة",
      description: "وصف قصير",
      status: VIDEO_STATUS.waiting,
      length: 0,
      views: 0,
      collection: null,
      isDemo: false,
    });
    expect(Number.isNaN(Date.parse(made.dateUploaded))).toBe(false);
    expect(await library.get(made.guid)).toMatchObject({ guid: made.guid, title: "حلقة جديدة", description: "وصف قصير", status: 0 });
    expect(await library.get(made.guid.toUpperCase())).toMatchObject({ guid: made.guid });
    const listed = await library.list();
    expect(listed.map((v) => v.guid)).toContain(made.guid);
    expect(listed.every((v, i) => i === 0 || Date.parse(listed[i - 1].dateUploaded) >= Date.parse(v.dateUploaded))).toBe(true);
  });

  it("files a video in a collection, found under the collection's old name too", async () => {
    const made = await library.create({ title: "أعيان", collection: "a3yan" });
    expect(made.collection).toBe("aayan");
    expect((await library.get(made.guid))?.collection).toBe("aayan");
    expect((await library.list({ collection: "aayan" })).map((v) => v.guid)).toEqual([made.guid]);
    expect((await library.list({ collection: "A3YAN" })).map((v) => v.guid)).toEqual([made.guid]);
    expect((await library.list({ collection: "khutwa" })).map((v) => v.guid)).not.toContain(made.guid);
  });

  it("updates the title, the description and the collection", async () => {
    const made = await library.create({ title: "قبل" });
    await library.update(made.guid, { title: "بعد", description: "نص جديد", collection: "news" });
    expect(await library.get(made.guid)).toMatchObject({ title: "بعد", description: "نص جديد", collection: "news" });
    await library.update(made.guid, { collection: null });
    expect(await library.get(made.guid)).toMatchObject({ title: "بعد", description: "نص جديد", collection: null });
    await expect(library.update(UNKNOWN, { title: "x" })).resolves.toBeUndefined();
  });

  it("deletes a video; deleting it again, or an unknown id, is no error", async () => {
    const made = await library.create({ title: "للحذف" });
    await library.delete(made.guid);
    expect(await library.get(made.guid)).toBeNull();
    expect((await library.list()).map((v) => v.guid)).not.toContain(made.guid);
    await expect(library.delete(made.guid)).resolves.toBeUndefined();
    await expect(library.delete(UNKNOWN)).resolves.toBeUndefined();
    await expect(library.delete("not-an-id")).resolves.toBeUndefined();
  });

  it("answers null for an unknown or malformed id", async () => {
    expect(await library.get(UNKNOWN)).toBeNull();
    expect(await library.get("../../etc/passwd")).toBeNull();
    expect(await library.playback(UNKNOWN)).toBeNull();
    expect(await library.playback("not-an-id")).toBeNull();
  });

  it("says where the file goes: a tus endpoint, the headers of each request, the metadata", async () => {
    const made = await library.create({ title: "رفع" });
    const target = await library.uploadTarget(made.guid);
    expect(typeof target.endpoint).toBe("string");
    for (const record of [target.headers, target.metadata]) {
      expect(Object.values(record).every((v) => typeof v === "string")).toBe(true);
    }
    if (driver === "local") expect(target).toEqual({ endpoint: LOCAL_TUS_PATH, headers: {}, metadata: { guid: made.guid } });
  });

  it("takes the file by tus at that target, and the video leaves 'waiting'", async () => {
    const made = await library.create({ title: "ملف حقيقي" });
    const target = await library.uploadTarget(made.guid);
    await sendByTus(h.absolute(target.endpoint), target, MP4);
    await expect.poll(async () => (await library.get(made.guid))?.status, { timeout: 10_000 }).toBe(h.afterUpload);
  });

  it("gives every video a thumbnail URL built from its id, and nothing to stream before it is ready", async () => {
    const made = await library.create({ title: "بلا ملف" });
    const playback = library.playbackFor(made);
    expect(playback.thumbnail).toContain(`/${made.guid}/thumbnail.jpg`);
    expect(playback.hls).toBeUndefined();
    expect(playback.mp4).toBeUndefined();
    expect(await library.playback(made.guid)).toMatchObject({ thumbnail: expect.stringContaining(made.guid) as string });
    if (driver === "local") expect(playback).toEqual({ thumbnail: `${LOCAL_VIDEO_URL_PREFIX}/${made.guid}/thumbnail.jpg` });
  });
});

describe("the Bunny Stream driver", () => {
  let fake: FakeBunnyStream;
  let library: VideoLibrary;
  beforeAll(async () => {
    fake = await startFakeBunnyStream();
    library = createBunnyVideoLibrary(bunnyOptions(fake));
  });
  afterAll(() => fake?.close());

  it("talks to /library/{id}/videos with the AccessKey header, and maps the host's fields", async () => {
    const [v] = fake.seed(1, { title: "مقابلة", views: 12, length: 75.4, dateUploaded: "2024-05-20T12:01:00.123", thumbnailFileName: "thumbnail_2.jpg" });
    v.metaTags = [{ property: "description", value: "حوار طويل" }];
    expect(await library.get(v.guid)).toEqual({
      guid: v.guid,
      title: "مقابلة",
      description: "حوار طويل",
      dateUploaded: "2024-05-20T12:01:00.123Z",
      views: 12,
      length: 75,
      thumbnailFileName: "thumbnail_2.jpg",
      status: 4,
      failureReason: null,
      collection: null,
      isDemo: false,
    });
    expect(fake.requests.at(-1)).toEqual({ method: "GET", path: `/library/${fake.libraryId}/videos/${v.guid}`, keyOk: true });
  });

  it("reports the host's 'upload failed' (6) as failed (5) with a reason", async () => {
    const [broken] = fake.seed(1, { status: 6 });
    const [failed] = fake.seed(1, { status: 5, transcodingMessages: [{ level: 2, message: "Invalid file" }] });
    expect(await library.get(broken.guid)).toMatchObject({ status: 5, failureReason: BUNNY_MESSAGES.upload });
    expect(await library.get(failed.guid)).toMatchObject({ status: 5, failureReason: "Invalid file" });
  });

  it("pages through the whole library, 100 a request", async () => {
    const before = fake.videos.size;
    fake.seed(230);
    const requestsBefore = fake.requests.length;
    const all = await library.list();
    expect(all).toHaveLength(before + 230);
    expect(new Set(all.map((v) => v.guid)).size).toBe(all.length);
    const pages = fake.requests.slice(requestsBefore).filter((r) => r.path.startsWith(`/library/${fake.libraryId}/videos?`));
    expect(pages.map((r) => new URL(r.path, "http://x").searchParams.get("page"))).toEqual(["1", "2", "3"]);
    expect(pages.every((r) => r.path.includes("itemsPerPage=100"))).toBe(true);
  });

  it("finds collections by name once, then from its cache; an unknown collection lists nothing", async () => {
    const fresh = createBunnyVideoLibrary(bunnyOptions(fake));
    const made = await fresh.create({ title: "خطوة", collection: "khutwa" });
    const id = [...fake.collections.values()].find((c) => c.name === "khutwa")!.guid;
    expect(fake.videos.get(made.guid)?.collectionId).toBe(id);
    const before = fake.requests.filter((r) => r.path.includes("/collections")).length;
    expect((await fresh.list({ collection: "khutwa" })).map((v) => v.guid)).toEqual([made.guid]);
    expect((await fresh.list({ collection: "khutwa" })).map((v) => v.guid)).toEqual([made.guid]);
    expect(await fresh.list({ collection: "adverts" })).toEqual([]);
    expect(fake.requests.filter((r) => r.path.includes("/collections")).length).toBe(before);
    expect(fake.requests.at(-2)?.path).toContain(`collection=${id}`);
  });

  it("signs the tus upload as Bunny documents it, for two hours", async () => {
    const made = await library.create({ title: "عنوان الرفع" });
    const before = Math.floor(Date.now() / 1000);
    const target = await library.uploadTarget(made.guid);
    const expires = Number(target.headers.AuthorizationExpire);
    expect(expires - before).toBeGreaterThanOrEqual(7200 - 1);
    expect(expires - before).toBeLessThanOrEqual(7200 + 1);
    expect(target).toEqual({
      endpoint: `${fake.apiUrl}/tusupload`,
      headers: {
        AuthorizationSignature: crypto.createHash("sha256").update(`${fake.libraryId}${fake.apiKey}${expires}${made.guid}`).digest("hex"),
        AuthorizationExpire: String(expires),
        VideoId: made.guid,
        LibraryId: fake.libraryId,
      },
      metadata: { filetype: "video/mp4", title: "عنوان الرفع" },
      expiresAt: expires,
    });
    // Another process (a reload) signs it too, reading the title from the host.
    expect((await createBunnyVideoLibrary(bunnyOptions(fake)).uploadTarget(made.guid)).metadata.title).toBe("عنوان الرفع");
    await expect(library.uploadTarget(UNKNOWN)).rejects.toMatchObject({ code: "VIDEO_LIBRARY_NOT_FOUND", message: BUNNY_MESSAGES.upload });
    expect(bunnyTusSignature("1", "k", 2, "v")).toBe(crypto.createHash("sha256").update("1k2v").digest("hex"));
  });

  it("derives the tus endpoint from the API URL unless given one", async () => {
    const made = await library.create({ title: "x" });
    const other = createBunnyVideoLibrary(bunnyOptions(fake, { tusEndpoint: "https://upload.example/tus" }));
    expect((await other.uploadTarget(made.guid)).endpoint).toBe("https://upload.example/tus");
  });

  it("an upload with a forged or expired signature is refused by the host", async () => {
    const made = await library.create({ title: "مرفوض" });
    const target = await library.uploadTarget(made.guid);
    const forged = { ...target, headers: { ...target.headers, AuthorizationSignature: "0".repeat(64) } };
    await expect(sendByTus(target.endpoint, forged, MP4)).rejects.toThrow(/401/);
    const past = createBunnyVideoLibrary(bunnyOptions(fake, { now: () => Date.now() - 3 * 3600_000 }));
    const stale = await past.uploadTarget(made.guid);
    await expect(sendByTus(stale.endpoint, stale, MP4)).rejects.toThrow(/401/);
    expect(fake.videos.get(made.guid)?.status).toBe(0);
  });

  it("plays a ready video from the CDN: HLS, the 720p file, its thumbnail, and the player page", async () => {
    const made = await library.create({ title: "للمشاهدة" });
    await sendByTus(fake.tusEndpoint, await library.uploadTarget(made.guid), MP4);
    const ready = (await library.get(made.guid))!;
    expect(ready).toMatchObject({ status: 4, length: 42 });
    const playback = library.playbackFor(ready);
    expect(playback).toEqual({
      hls: `${fake.cdnUrl}/${made.guid}/playlist.m3u8`,
      mp4: `${fake.cdnUrl}/${made.guid}/play_720p.mp4`,
      thumbnail: `${fake.cdnUrl}/${made.guid}/thumbnail.jpg`,
      embed: `https://iframe.mediadelivery.net/embed/${fake.libraryId}/${made.guid}`,
    });
    expect(Buffer.from(await (await fetch(playback.mp4!)).arrayBuffer()).equals(MP4)).toBe(true);
    expect((await fetch(playback.thumbnail!)).status).toBe(200);
    expect((await fetch(playback.hls!)).status).toBe(200);
    // The default CDN host is the configured name, over https.
    const real = createBunnyVideoLibrary({ libraryId: "7", apiKey: "k", cdnHostname: "vz-abc.b-cdn.net" });
    expect(real.playbackFor(ready).mp4).toBe(`https://vz-abc.b-cdn.net/${made.guid}/play_720p.mp4`);
  });

  it("turns the host's failures into VideoLibraryError with a stable code, and a time limit on every call", async () => {
    try {
      fake.setMode({ kind: "status", status: 503 });
      await expect(library.list()).rejects.toMatchObject({ code: "VIDEO_LIBRARY_UNAVAILABLE", message: BUNNY_MESSAGES.list });
      fake.setMode({ kind: "status", status: 200, body: "<html>not json</html>" });
      await expect(library.get(UNKNOWN)).rejects.toMatchObject({ code: "VIDEO_LIBRARY_BAD_RESPONSE" });
      fake.setMode({ kind: "status", status: 400 });
      await expect(library.delete(UNKNOWN)).rejects.toMatchObject({ code: "VIDEO_LIBRARY_BAD_RESPONSE", message: BUNNY_MESSAGES.delete });
      fake.setMode({ kind: "hang" });
      const quick = createBunnyVideoLibrary(bunnyOptions(fake, { timeoutMs: 300 }));
      const started = Date.now();
      const error = await quick.create({ title: "بطيء" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(VideoLibraryError);
      expect(error).toMatchObject({ code: "VIDEO_LIBRARY_UNAVAILABLE", message: BUNNY_MESSAGES.create });
      expect(Date.now() - started).toBeLessThan(3000);
      const closed = createBunnyVideoLibrary(bunnyOptions(fake, { apiUrl: "http://127.0.0.1:1" }));
      await expect(closed.list()).rejects.toMatchObject({ code: "VIDEO_LIBRARY_UNAVAILABLE" });
    } finally {
      fake.setMode({ kind: "ok" });
    }
  });

  it("with a wrong API key: VideoLibraryError, nothing created, and the key appears nowhere", async () => {
    const count = fake.videos.size;
    const wrongKey = "wrong-stream-key-123456789";
    const wrong = createBunnyVideoLibrary(bunnyOptions(fake, { apiKey: wrongKey }));
    const error = await wrong.create({ title: "لن يُنشأ", description: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VideoLibraryError);
    expect(error).toMatchObject({ code: "VIDEO_LIBRARY_UNAUTHORIZED", message: "فشل في إنشاء الفيديو في مكتبة Bunny" });
    await expect(wrong.list()).rejects.toMatchObject({ code: "VIDEO_LIBRARY_UNAUTHORIZED", message: BUNNY_MESSAGES.list });
    expect(fake.videos.size).toBe(count);
    const err = error as VideoLibraryError;
    const told = [err.message, err.stack ?? "", String((err.cause as Error)?.message), JSON.stringify(err)].join("\n");
    expect(told).not.toContain(wrongKey);
    expect(told).toContain("HTTP 401");
  });

  it("never hands the API key to the browser: not in items, playback URLs or the upload target", async () => {
    const made = await library.create({ title: "سر" });
    const handedOut = JSON.stringify([await library.list(), library.playbackFor(made), await library.uploadTarget(made.guid)]);
    expect(handedOut).not.toContain(fake.apiKey);
  });
});

describe("the Bunny Stream driver with token authentication", () => {
  const tokenKey = "cdn-token-key-5e6f7a8b9c";
  let fake: FakeBunnyStream;
  let library: VideoLibrary;
  let guid: string;
  beforeAll(async () => {
    fake = await startFakeBunnyStream({ tokenKey });
    library = createBunnyVideoLibrary(bunnyOptions(fake));
    guid = (await library.create({ title: "محمي" })).guid;
    await sendByTus(fake.tusEndpoint, await library.uploadTarget(guid), MP4);
  });
  afterAll(() => fake?.close());

  it("signs each file URL with Bunny's algorithm, and the whole folder for HLS", () => {
    const now = Date.UTC(2024, 4, 20, 10, 17);
    const fixed = createBunnyVideoLibrary(bunnyOptions(fake, { now: () => now, playbackTtlSeconds: 3600 }));
    const playback = fixed.playbackFor({ ...fake.videos.get(guid)!, guid, description: null, collection: null, isDemo: false, status: 4 });
    // One hour ahead, rounded up to the hour: 12:00 UTC.
    const expires = Date.UTC(2024, 4, 20, 12) / 1000;
    const b64url = (s: string) => crypto.createHash("sha256").update(s).digest("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    expect(playback.mp4).toBe(`${fake.cdnUrl}/${guid}/play_720p.mp4?token=${b64url(`${tokenKey}/${guid}/play_720p.mp4${expires}`)}&expires=${expires}`);
    expect(playback.thumbnail).toBe(`${fake.cdnUrl}/${guid}/thumbnail.jpg?token=${b64url(`${tokenKey}/${guid}/thumbnail.jpg${expires}`)}&expires=${expires}`);
    const dirToken = b64url(`${tokenKey}/${guid}/${expires}token_path=/${guid}/`);
    expect(playback.hls).toBe(`${fake.cdnUrl}/bcdn_token=${dirToken}&expires=${expires}&token_path=%2F${guid}%2F/${guid}/playlist.m3u8`);
    const embedToken = crypto.createHash("sha256").update(`${tokenKey}${guid}${expires}`).digest("hex");
    expect(playback.embed).toBe(`https://iframe.mediadelivery.net/embed/${fake.libraryId}/${guid}?token=${embedToken}&expires=${expires}`);
    expect(bunnyEmbedToken(tokenKey, guid, expires)).toBe(embedToken);
    expect(JSON.stringify(playback)).not.toContain(tokenKey);
  });

  it("the CDN serves the signed URLs, HLS renditions and segments under the folder token, and refuses the rest", async () => {
    const playback = (await library.playback(guid))!;
    expect((await fetch(playback.mp4!)).status).toBe(200);
    expect((await fetch(playback.thumbnail!)).status).toBe(200);
    const master = await fetch(playback.hls!);
    expect(master.status).toBe(200);
    const variant = new URL(
      (await master.text()).split("\n").find((l) => l && !l.startsWith("#"))!,
      playback.hls,
    ).toString();
    const rendition = await fetch(variant);
    expect(rendition.status).toBe(200);
    const segment = new URL(
      (await rendition.text()).split("\n").find((l) => l && !l.startsWith("#"))!,
      variant,
    ).toString();
    expect((await fetch(segment)).status).toBe(200);

    expect((await fetch(`${fake.cdnUrl}/${guid}/play_720p.mp4`)).status).toBe(403);
    expect((await fetch(playback.mp4!.replace(/token=[^&]+/, "token=forged"))).status).toBe(403);
    // A file token does not open the folder's other files.
    expect((await fetch(playback.mp4!.replace("play_720p.mp4", "thumbnail.jpg"))).status).toBe(403);
    const expired = createBunnyVideoLibrary(bunnyOptions(fake, { now: () => Date.now() - 3 * 86_400_000, playbackTtlSeconds: 60 }));
    expect((await fetch(expired.playbackFor((await library.get(guid))!).mp4!)).status).toBe(403);
  });

  it("the stand-in's check agrees with the signer on any path", () => {
    const expires = Math.floor(Date.now() / 1000) + 600;
    const signed = new URL(signBunnyCdnUrl(`https://cdn.example/${guid}/a/b.ts`, tokenKey, expires, { directory: `/${guid}/` }));
    expect(checkCdnToken(tokenKey, signed.pathname, signed.searchParams)).toEqual({ ok: true, path: `/${guid}/a/b.ts` });
    const file = new URL(signBunnyCdnUrl(`https://cdn.example/${guid}/x.jpg`, tokenKey, expires));
    expect(checkCdnToken(tokenKey, file.pathname, file.searchParams).ok).toBe(true);
    expect(checkCdnToken("another-key", file.pathname, file.searchParams).ok).toBe(false);
  });
});

describe("choosing the Bunny Stream driver", () => {
  const settings = {
    VIDEO_DRIVER: "bunny",
    BUNNY_STREAM_LIBRARY_ID: "4242",
    BUNNY_STREAM_API_KEY: "0f1e2d3c-stream",
    BUNNY_STREAM_CDN_HOSTNAME: "vz-1.b-cdn.net",
  };
  const quiet = { info: () => {}, warn: () => {}, error: () => {} };

  it("VIDEO_DRIVER=bunny with its settings gives the hosted library", () => {
    const { config, errors } = checkConfig({ ...settings, DATA_DIR: os.tmpdir() });
    expect(errors).toEqual([]);
    const library = createVideoLibrary(config);
    expect(library.driver).toBe("bunny");
    const item = {
      guid: UNKNOWN,
      title: "",
      description: null,
      dateUploaded: "",
      views: 0,
      length: 0,
      thumbnailFileName: null,
      status: 4,
      collection: null,
      isDemo: false,
    };
    expect(library.playbackFor(item).mp4).toBe(`https://vz-1.b-cdn.net/${UNKNOWN}/play_720p.mp4`);
  });

  it("without its settings it refuses to start in production with the spec's message, and falls back to local elsewhere", () => {
    const bare = { NODE_ENV: "production", BETTER_AUTH_SECRET: "s".repeat(40), VIDEO_DRIVER: "bunny", BUNNY_STREAM_LIBRARY_ID: "4242" };
    let thrown: unknown;
    try {
      startupCheck(bare, quiet);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).message).toBe(PRODUCTION_REFUSAL);
    expect((thrown as ConfigError).problems).toEqual([
      "Missing required environment variable: BUNNY_STREAM_CDN_HOSTNAME",
      "Missing required environment variable: BUNNY_STREAM_API_KEY",
    ]);
    const dev = checkConfig({ ...bare, NODE_ENV: "development", DATA_DIR: os.tmpdir() }).config;
    expect(dev.drivers.video).toBe("local");
    expect(createVideoLibrary(dev).driver).toBe("local");
  });
});
