/**
 * The content forms' resumable uploads over real HTTP into the local storage driver: an audio file cut
 * half-way and resumed from the offset the server reports, stored whole under its field's folder with its URL
 * in the last answer; and every refusal before and after the bytes, leaving nothing stored.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tusClient } from "#tests/helpers/tus.ts";
import { LocalStorage } from "./index.server.ts";
import { createFileUploadServer, FILE_TUS_PATH, FILE_UPLOAD_FOLDERS, FILE_URL_HEADER } from "./file-uploads.server.ts";

/** A real WAV file: a 44-byte header and `seconds` of 8 kHz mono silence. */
function wav(seconds: number): Uint8Array {
  const samples = 8000 * seconds;
  const out = Buffer.alloc(44 + samples * 2);
  out.write("RIFF", 0, "latin1");
  out.writeUInt32LE(36 + samples * 2, 4);
  out.write("WAVEfmt ", 8, "latin1");
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(8000, 24);
  out.writeUInt32LE(16000, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write("data", 36, "latin1");
  out.writeUInt32LE(samples * 2, 40);
  return out;
}

describe("resumable uploads of the content forms' files", () => {
  let dataDir: string;
  let server: http.Server;
  let base: string;
  let allowed = true;
  const uploads = () => path.join(dataDir, "uploads");
  const storedFiles = () => (fs.existsSync(uploads()) ? fs.readdirSync(uploads(), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()) : []);

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "file-uploads-"));
    const storage = new LocalStorage(uploads());
    const tus = createFileUploadServer({
      dataDir,
      storage: () => storage,
      // The server's guard is requirePermission(content.write) (the browser tests cover it); here allowed or 403.
      authorize: () => {
        if (!allowed) throw new Response(null, { status: 403 });
        return Promise.resolve();
      },
    });
    const app = express();
    app.use((req, res, next) => (tus.matches(req.path) ? void tus.handle(req, res) : next()));
    server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("takes uploads for the audio, file and captions fields' folders only", () => {
    expect([...FILE_UPLOAD_FOLDERS].sort()).toEqual(["coverage/captions", "media/files", "podcasts/audio", "podcasts/captions", "programs/captions"]);
  });

  it("resumes a cut upload from the reported offset and answers the stored file's address", async () => {
    const tus = tusClient(base, FILE_TUS_PATH);
    const audio = wav(3);
    const created = await tus.create(audio.length, { folder: "podcasts/audio", filename: "حلقة الخيمة.wav", filetype: "audio/wav" });
    expect(created.status).toBe(201);
    const url = tus.uploadUrl(created);
    await tus.patchAndDrop(url, 0, audio, Math.floor(audio.length / 2));
    const offset = await tus.offsetOf(url);
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(audio.length);
    expect(storedFiles()).toEqual([]);

    const rest = await tus.patch(url, offset, audio.subarray(offset));
    expect(rest.status).toBe(204);
    const stored = rest.headers.get(FILE_URL_HEADER)!;
    expect(stored).toMatch(/^\/uploads\/podcasts\/audio\/\d+-[0-9a-f]+-.+\.wav$/);
    expect(decodeURIComponent(stored)).toContain("حلقة-الخيمة.wav");
    const onDisk = path.join(uploads(), ...decodeURIComponent(stored.slice("/uploads/".length)).split("/"));
    expect(fs.readFileSync(onDisk).equals(Buffer.from(audio))).toBe(true);
    // The chunks it was made of are gone.
    expect(fs.readdirSync(path.join(dataDir, "tus-files"))).toEqual([]);
  });

  it("refuses before any byte what it cannot take, with the spec's words", async () => {
    const tus = tusClient(base, FILE_TUS_PATH);
    const refusal = async (res: Response) => ({ status: res.status, error: ((await res.json()) as { error: { message: string } }).error.message });
    expect(await refusal(await tus.create(1000, { folder: "podcasts/audio", filename: "x.mp3", filetype: "video/mp4" }))).toEqual({
      status: 415,
      error: "نوع الملف غير مدعوم...",
    });
    expect(await refusal(await tus.create(51 * 1024 * 1024, { folder: "podcasts/audio", filename: "long.mp3", filetype: "audio/mpeg" }))).toEqual({
      status: 413,
      error: "حجم الملف كبير جداً. الحد الأقصى 50 ميجابايت",
    });
    expect(await refusal(await tus.create(6 * 1024 * 1024, { folder: "media/files", filename: "big.pdf", filetype: "application/pdf" }))).toEqual({
      status: 413,
      error: "حجم الملف كبير جداً. الحد الأقصى 5 ميجابايت",
    });
    expect(await refusal(await tus.create(1000, { folder: "podcasts/audio", filename: "setup.exe", filetype: "audio/mpeg" }))).toEqual({
      status: 415,
      error: "نوع الملف غير آمن",
    });
    expect((await tus.create(1000, { folder: "../../etc", filename: "a.mp3", filetype: "audio/mpeg" })).status).toBe(400);
    allowed = false;
    try {
      expect((await tus.create(1000, { folder: "podcasts/audio", filename: "a.mp3", filetype: "audio/mpeg" })).status).toBe(403);
    } finally {
      allowed = true;
    }
  });

  it("refuses a file whose bytes are not what it was declared as, and keeps nothing of it", async () => {
    const tus = tusClient(base, FILE_TUS_PATH);
    const before = storedFiles().length;
    const fake = new TextEncoder().encode("MZ this is a program, not a sound ".repeat(20));
    const created = await tus.create(fake.length, { folder: "podcasts/audio", filename: "episode.mp3", filetype: "audio/mpeg" });
    const res = await tus.patch(tus.uploadUrl(created), 0, fake);
    expect(res.status).toBe(415);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe("نوع الملف غير مدعوم...");
    expect(storedFiles().length).toBe(before);
    expect(fs.readdirSync(path.join(dataDir, "tus-files"))).toEqual([]);
  });

  describe("WebVTT captions", () => {
    const vtt = new TextEncoder().encode("\uFEFFWEBVTT\n\n00:00.000 --> 00:02.000\nمرحباً بكم في البرنامج\n");
    const errorOf = async (res: Response) => ((await res.json()) as { error: { message: string } }).error.message;

    it("stores a WebVTT file in a captions folder and answers its .vtt address", async () => {
      const tus = tusClient(base, FILE_TUS_PATH);
      const created = await tus.create(vtt.length, { folder: "programs/captions", filename: "ترجمة.vtt", filetype: "text/vtt" });
      expect(created.status).toBe(201);
      const res = await tus.patch(tus.uploadUrl(created), 0, vtt);
      expect(res.status).toBe(204);
      const stored = res.headers.get(FILE_URL_HEADER)!;
      expect(stored).toMatch(/^\/uploads\/programs\/captions\/.+\.vtt$/);
      const onDisk = path.join(uploads(), ...decodeURIComponent(stored.slice("/uploads/".length)).split("/"));
      expect(fs.readFileSync(onDisk).equals(Buffer.from(vtt))).toBe(true);
    });

    it("refuses a file that does not start with WEBVTT, with a message that says so, and keeps nothing", async () => {
      const tus = tusClient(base, FILE_TUS_PATH);
      const before = storedFiles().length;
      const srt = new TextEncoder().encode("1\n00:00:00,000 --> 00:00:02,000\nمرحباً\n");
      const created = await tus.create(srt.length, { folder: "programs/captions", filename: "captions.vtt", filetype: "text/vtt" });
      const res = await tus.patch(tus.uploadUrl(created), 0, srt);
      expect(res.status).toBe(415);
      expect(await errorOf(res)).toBe("ملف الترجمة ليس بصيغة WebVTT: يجب أن يبدأ بكلمة WEBVTT");
      expect(storedFiles().length).toBe(before);
    });

    it("refuses captions over 1 MB, captions outside a captions folder and other files in one", async () => {
      const tus = tusClient(base, FILE_TUS_PATH);
      const big = await tus.create(1024 * 1024 + 1, { folder: "programs/captions", filename: "long.vtt", filetype: "text/vtt" });
      expect(big.status).toBe(413);
      expect(await errorOf(big)).toBe("حجم الملف كبير جداً. الحد الأقصى 1 ميجابايت");
      expect((await tus.create(vtt.length, { folder: "podcasts/audio", filename: "c.vtt", filetype: "text/vtt" })).status).toBe(415);
      expect((await tus.create(1000, { folder: "podcasts/captions", filename: "a.mp3", filetype: "audio/mpeg" })).status).toBe(415);
    });
  });
});
