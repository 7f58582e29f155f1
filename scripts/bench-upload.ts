/**
 * A large resumable upload, for `npm run bench`: a 200 MB video file sent by tus 1.0.0 in 8 MB chunks (as the
 * back-office sends it) to the built server, against copying the same file on the same disk in the same run,
 * and the server's resident memory before and at its peak (Linux's VmHWM) — it must not grow with the file.
 * The server runs with no encoder, so the job that follows the upload ends at once and measures nothing.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startServer } from "#tests/e2e/support/server.ts";
import { databaseWithAdmin } from "./bench-newsroom.ts";

const MB = 1024 * 1024;
const SIZE_MB = Number(process.env.BENCH_UPLOAD_MB ?? 200);
const CHUNK = 8 * MB;
const SECRET = "bench-upload-secret-8d2f6a1c9e3b5d7f0a2c4e6b8d1f3a5c";

/** An MP4's first bytes (so the server's signature check accepts it), then filler up to `bytes`. */
function writeVideoFile(file: string, bytes: number) {
  const fd = fs.openSync(file, "w");
  const head = Buffer.alloc(32);
  head.writeUInt32BE(32, 0);
  head.write("ftypisom", 4, "latin1");
  head.write("isomiso2avc1mp41", 16, "latin1");
  fs.writeSync(fd, head);
  const block = Buffer.alloc(MB, 0x5a);
  for (let written = head.length; written < bytes; written += block.length) fs.writeSync(fd, block, 0, Math.min(block.length, bytes - written));
  fs.closeSync(fd);
}

/** Resident memory of a process in MB: now (VmRSS) and the highest so far (VmHWM). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

async function tusSend(base: string, cookie: string, file: string, guid: string): Promise<void> {
  const size = fs.statSync(file).size;
  const headers = { cookie, origin: base, "Tus-Resumable": "1.0.0" };
  const meta = Object.entries({ guid, filename: "bench.mp4", filetype: "video/mp4" })
    .map(([k, v]) => `${k} ${Buffer.from(v).toString("base64")}`)
    .join(",");
  const created = await fetch(`${base}/api/admin/videos/tus`, {
    method: "POST",
    headers: { ...headers, "Upload-Length": String(size), "Upload-Metadata": meta },
  });
  if (created.status !== 201) throw new Error(`tus creation: HTTP ${created.status} ${await created.text()}`);
  const url = new URL(created.headers.get("location")!, `${base}/api/admin/videos/tus/`).toString();
  const fd = fs.openSync(file, "r");
  try {
    const chunk = Buffer.alloc(CHUNK);
    for (let offset = 0; offset < size;) {
      const n = fs.readSync(fd, chunk, 0, CHUNK, offset);
      const res = await fetch(url, {
        method: "PATCH",
        headers: { ...headers, "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" },
        body: chunk.subarray(0, n),
      });
      if (res.status !== 204) throw new Error(`tus PATCH at ${offset}: HTTP ${res.status} ${await res.text()}`);
      offset = Number(res.headers.get("upload-offset"));
    }
  } finally {
    fs.closeSync(fd);
  }
}

export async function benchUpload() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-bench-file-"));
  const source = path.join(work, "video.mp4");
  writeVideoFile(source, SIZE_MB * MB);
  const { dataDir, cookie } = await databaseWithAdmin(SECRET, "upload");
  const server = await startServer({
    DATA_DIR: dataDir,
    BETTER_AUTH_SECRET: SECRET,
    SEED_DEMO: "false",
    LOG_LEVEL: "warn",
    FFMPEG_PATH: "/nonexistent/ffmpeg",
    FFPROBE_PATH: "/nonexistent/ffprobe",
  });
  try {
    const copyStarted = performance.now();
    fs.copyFileSync(source, path.join(work, "copy.mp4"));
    const copySeconds = (performance.now() - copyStarted) / 1000;
    fs.rmSync(path.join(work, "copy.mp4"));

    const created = await fetch(`${server.url}/api/admin/videos`, {
      method: "POST",
      headers: { cookie, origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ title: "bench" }),
    });
    const { guid } = (await created.json()) as { guid: string };
    const before = memoryOf(server.process.pid!);
    const started = performance.now();
    await tusSend(server.url, cookie, source, guid);
    const seconds = (performance.now() - started) / 1000;
    const after = memoryOf(server.process.pid!);

    const mbps = (s: number) => SIZE_MB / s;
    console.log(`\nresumable upload of a ${SIZE_MB} MB video (tus, ${CHUNK / MB} MB chunks) against copying it on the same disk`);
    console.log(`copy on disk      ${mbps(copySeconds).toFixed(0).padStart(6)} MB/s`);
    console.log(`tus upload        ${mbps(seconds).toFixed(0).padStart(6)} MB/s   ratio to the copy ${(copySeconds / seconds).toFixed(3)}`);
    console.log(
      `server memory     ${before.rss.toFixed(0)} MB before, peak ${after.peak.toFixed(0)} MB (VmHWM; peak before the upload ${before.peak.toFixed(0)} MB)`,
    );
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchUpload();
