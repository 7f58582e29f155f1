/**
 * What a three-machine deployment does (docs/deploy.md), on one machine: a clean copy of the project installed,
 * built and pruned to its production dependencies (what a container image's last stage holds), `npm run
 * db:migrate`d, then two web processes (`npm run serve`) and one worker (`npm run worker`), each with a DATA_DIR
 * of its own, sharing only PostgreSQL, Redis and an S3-protocol store, all started at once.
 *
 * A video and an image go up by tus through web process A, the connection cut half-way and the upload resumed
 * through web process B; the worker encodes the video from the store; B serves the page and the player's files;
 * an edit through A shows at once on B.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL), Redis (TEST_REDIS_URL or 127.0.0.1:6379) and ffmpeg; skipped, saying
 * so, without them. THREE_MACHINES_VIDEO_MB sets the video's size (default 12; the closing note of issue 27
 * used 200); THREE_MACHINES_COPY reuses an installed, built and pruned copy (to iterate on the test alone).
 */
import { execFile, spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, projectRoot } from "#tests/e2e/support/server.ts";
import { startS3Server, type S3Server } from "#tests/helpers/s3.ts";
import { tusClient } from "#tests/helpers/tus.ts";
import { hasFfmpeg } from "#tests/helpers/video.ts";
import { createScratchDatabase } from "#tests/helpers/db.ts";
import { tcpAnswers } from "#tests/helpers/services.ts";

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const VIDEO_MB = Number(process.env.THREE_MACHINES_VIDEO_MB ?? 12);
const SECRET = "three-machines-e2e-secret-8d2f6b1a9c4e7f3a5b0d2c8e6f1a4b7c";
const PUBLIC_URL = "http://balancer.invalid";
/** What the balancer passes on (both web processes trust a proxy on loopback, the default TRUST_PROXY). */
const FORWARDED = { "x-forwarded-host": `${new URL(PUBLIC_URL).hostname}:80`, "x-forwarded-proto": "http" };
/** Development tools: nothing a production process runs may need them. */
const DEV_TOOLS = ["tsx", "vite", "vitest", "typescript", "esbuild", "drizzle-kit", "rolldown", "@react-router/dev"];
const ADMIN = { email: "desk.chief@three-machines.test", password: "Passw0rdDesk" };

const [postgresUp, redisUp] = await Promise.all([tcpAnswers(DATABASE_URL, 5432), tcpAnswers(REDIS_URL, 6379)]);
const missing = [!postgresUp && "PostgreSQL (set TEST_DATABASE_URL)", !redisUp && `Redis at ${REDIS_URL}`, !hasFfmpeg && "ffmpeg"].filter(Boolean);
if (missing.length) console.warn(`three-machine test skipped: no ${missing.join(", no ")}`);

/** Runs a command of the copy to its end; its output is kept for the failure message. */
function run(cwd: string, command: string, args: string[], env: Record<string, string> = {}) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd, env: { ...process.env, ...env }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return { ms: Date.now() - started, output: `${result.stdout}${result.stderr}` };
}

/**
 * The project as a clean clone would hold it (tracked files and new ones not ignored), installed from the lock
 * file, built, then pruned to production dependencies.
 */
function productionCopy(): { dir: string; timings: Record<string, number> } {
  const reuse = process.env.THREE_MACHINES_COPY;
  if (reuse && fs.existsSync(path.join(reuse, "build", "server", "index.js"))) return { dir: reuse, timings: {} };
  const dir = reuse ?? fs.mkdtempSync(path.join(os.tmpdir(), "sahara-production-"));
  const listed = spawnSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], { cwd: projectRoot, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split("\0").filter(Boolean)) {
    const from = path.join(projectRoot, file);
    if (!fs.existsSync(from)) continue; // deleted in the work tree, not yet committed
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.copyFileSync(from, path.join(dir, file));
  }
  const timings = {
    install: run(dir, "npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund"]).ms,
    build: run(dir, "npm", ["run", "build"], { NODE_ENV: "production", BUILD_DIR: "" }).ms,
    prune: run(dir, "npm", ["prune", "--omit=dev", "--no-audit", "--no-fund"]).ms,
  };
  // npm keeps these after the prune: better-auth names vitest and drizzle-kit as optional peers, and they bring
  // the rest (docs/decisions/0118-production-runtime.md). An image that drops them must still work: drop them.
  for (const tool of DEV_TOOLS) fs.rmSync(path.join(dir, "node_modules", tool), { recursive: true, force: true });
  return { dir, timings };
}

type Machine = { name: string; url: string; child: ChildProcess; output: () => string; stop: () => Promise<void> };

/** Starts `npm run <script>` of the copy in a process group of its own, as a machine would run it. */
function startMachine(dir: string, name: string, script: string, env: Record<string, string>): Machine {
  let output = "";
  const child = spawn("npm", ["run", "--silent", script], { cwd: dir, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  child.stdout?.on("data", (d) => (output = (output + d).slice(-200_000)));
  child.stderr?.on("data", (d) => (output = (output + d).slice(-200_000)));
  return {
    name,
    url: env.PORT ? `http://127.0.0.1:${env.PORT}` : "",
    child,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        process.kill(-child.pid!, "SIGTERM");
        setTimeout(() => {
          try {
            process.kill(-child.pid!, "SIGKILL");
          } catch {
            // already gone
          }
        }, 10_000).unref();
      }),
  };
}

/** The node process under `npm run …` (npm → sh → node): the one whose memory is the machine's. */
function nodeProcessUnder(pid: number): number | null {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const queue = [...(children.get(pid) ?? [])];
  let found: number | null = null;
  while (queue.length) {
    const next = queue.shift()!;
    const command = fs.readFileSync(`/proc/${next}/cmdline`, "utf8").split("\0");
    // The deepest node process: npm itself is a node process too.
    if (path.basename(command[0] ?? "") === "node" || command[0] === process.execPath) found = next;
    queue.push(...(children.get(next) ?? []));
  }
  return found;
}

/** Peak resident memory (VmHWM) of the machine's node process, in MB. */
function peakMemoryMb(machine: Machine): number {
  const pid = nodeProcessUnder(machine.child.pid!);
  if (!pid) return NaN;
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024);
}

async function waitReady(machine: Machine, timeoutMs = 180_000) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (machine.child.exitCode !== null) throw new Error(`${machine.name} exited with ${machine.child.exitCode}:\n${machine.output()}`);
    const ok = await fetch(`${machine.url}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${machine.name} did not become ready:\n${machine.output()}`);
}

/** A video of about `mb` megabytes with sound, made by ffmpeg (noise keeps the encoder from shrinking it). */
function makeVideo(dir: string, mb: number): string {
  const file = path.join(dir, `clip-${mb}mb.mp4`);
  const bitrateMbps = 8;
  const seconds = Math.max(4, Math.ceil((mb * 8) / bitrateMbps));
  const made = spawnSync(
    "ffmpeg",
    [
      ...["-nostdin", "-loglevel", "error", "-y"],
      ...["-f", "lavfi", "-i", `testsrc2=size=1280x720:rate=25:duration=${seconds}`],
      ...["-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`],
      ...["-vf", "noise=alls=12:allf=t", "-c:v", "libx264", "-preset", "ultrafast", "-b:v", `${bitrateMbps}M`, "-maxrate", `${bitrateMbps}M`, "-bufsize", "4M"],
      ...["-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", file],
    ],
    { stdio: "inherit" },
  );
  if (made.status !== 0) throw new Error("ffmpeg could not make the test video");
  return file;
}

function makePicture(dir: string): string {
  const file = path.join(dir, "oasis.jpg");
  const made = spawnSync(
    "ffmpeg",
    ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1600x900", "-frames:v", "1", "-q:v", "2", file],
    {
      stdio: "inherit",
    },
  );
  if (made.status !== 0) throw new Error("ffmpeg could not make the test picture");
  return file;
}

/**
 * Resumes a cut upload through another process, as tus-js-client does: the bytes that arrived before the cut are
 * stored once the first process notices it, so the offset may read low (or 0) for a moment; a PATCH at an offset
 * that moved meanwhile gets 409, and the client asks again.
 */
async function resume(client: ReturnType<typeof tusClient>, url: string, bytes: Uint8Array, sent: number): Promise<Response> {
  let offset = 0;
  await expect.poll(async () => (offset = await client.offsetOf(url)), { timeout: 30_000 }).toBeGreaterThan(0);
  expect(offset).toBeLessThanOrEqual(sent);
  for (let attempt = 0; ; attempt++) {
    const res = await client.patch(url, offset, bytes.subarray(offset));
    if (res.status !== 409 || attempt === 5) return res;
    offset = await client.offsetOf(url);
  }
}

describe.skipIf(missing.length > 0)("three machines sharing only PostgreSQL, Redis and an S3 store", () => {
  let s3: S3Server;
  let copy: { dir: string; timings: Record<string, number> };
  let a: Machine;
  let b: Machine;
  let worker: Machine;
  let cookie = "";
  let dropDatabase = async () => {};
  const media = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-three-media-"));
  const dataDirs: string[] = [];
  const figures: Record<string, unknown> = {};

  const headers = (extra: Record<string, string> = {}) => ({ ...FORWARDED, origin: PUBLIC_URL, cookie, ...extra });
  const api = async (machine: Machine, method: string, pathname: string, body?: unknown) => {
    const res = await fetch(machine.url + pathname, {
      method,
      headers: headers(body === undefined ? {} : { "content-type": "application/json" }),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    expect(res.status, `${method} ${pathname} on ${machine.name}: ${text}`).toBeLessThan(300);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const page = async (machine: Machine, pathname: string) => {
    const res = await fetch(machine.url + pathname, { headers: FORWARDED });
    return { status: res.status, cache: res.headers.get("x-page-cache"), body: await res.text() };
  };

  beforeAll(async () => {
    s3 = await startS3Server();
    copy = productionCopy();
    figures.copy = copy.timings;
    // What production holds: no development tool is left to lean on.
    for (const devOnly of DEV_TOOLS) expect(fs.existsSync(path.join(copy.dir, "node_modules", devOnly)), `${devOnly} after npm prune --omit=dev`).toBe(false);

    const database = await createScratchDatabase("three");
    dropDatabase = database.drop;
    const url = new URL(database.url);

    const dataDir = () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-machine-"));
      dataDirs.push(dir);
      return dir;
    };
    const shared = {
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      DATABASE_URL: url.toString(),
      REDIS_URL,
      BETTER_AUTH_SECRET: SECRET,
      PUBLIC_URL,
      SEED_DEMO: "false",
      JOB_WORKER: "off",
      VIDEO_DRIVER: "local",
      BUILD_DIR: "",
      ...s3.env,
    };
    run(copy.dir, "npm", ["run", "--silent", "db:migrate"], { ...shared, DATA_DIR: dataDir() });
    run(copy.dir, "npm", ["run", "--silent", "admin:create", "--", "--email", ADMIN.email, "--password", ADMIN.password], { ...shared, DATA_DIR: dataDir() });
    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    await db.query(`insert into categories (name, name_fr, slug, type) values ('ثقافة', 'Culture', 'culture', 'culture')`);
    await db.end();

    const [portA, portB] = [await freePort(), await freePort()];
    // All three at once, as an orchestrator starts them.
    a = startMachine(copy.dir, "web A", "serve", { ...shared, DATA_DIR: dataDir(), PORT: String(portA), HOST: "127.0.0.1" });
    b = startMachine(copy.dir, "web B", "serve", { ...shared, DATA_DIR: dataDir(), PORT: String(portB), HOST: "127.0.0.1" });
    worker = startMachine(copy.dir, "worker", "worker", { ...shared, DATA_DIR: dataDir() });
    await Promise.all([waitReady(a), waitReady(b)]);
    expect(worker.child.exitCode, worker.output()).toBeNull();

    const signIn = await fetch(`${a.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { ...FORWARDED, origin: PUBLIC_URL, "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    expect(signIn.status, await signIn.clone().text()).toBe(200);
    cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  }, 900_000);

  afterAll(async () => {
    if (a && b && worker) {
      figures.peakMemoryMb = { webA: peakMemoryMb(a), webB: peakMemoryMb(b), worker: peakMemoryMb(worker) };
      console.info(`three machines: ${JSON.stringify(figures)}`);
    }
    await Promise.all([a?.stop(), b?.stop(), worker?.stop()]);
    await dropDatabase();
    await s3?.close();
    for (const dir of [...dataDirs, media]) fs.rmSync(dir, { recursive: true, force: true });
    if (copy && !process.env.THREE_MACHINES_COPY) fs.rmSync(copy.dir, { recursive: true, force: true });
  });

  it("uploads a video through A, resumes it through B, encodes it on the worker and plays it through B", async () => {
    const bytes = new Uint8Array(fs.readFileSync(makeVideo(media, VIDEO_MB)));
    const started = Date.now();
    const created = await api(a, "POST", "/api/admin/videos", { title: "قافلة الملح إلى تيشيت" });
    const guid = String(created.guid);
    const endpoint = String(created.tus_endpoint);
    const tusA = tusClient(a.url, endpoint, headers());
    const tusB = tusClient(b.url, endpoint, headers());
    const creation = await tusA.create(bytes.length, { ...(created.tus_metadata as Record<string, string>), filetype: "video/mp4", filename: "caravan.mp4" });
    expect(creation.status, await creation.clone().text()).toBe(201);
    const location = new URL(creation.headers.get("location")!, `${a.url}${endpoint}/`).pathname;

    // The link drops after 60 % through A; the editor's browser resumes through whichever process answers: B.
    await tusA.patchAndDrop(a.url + location, 0, bytes, Math.floor(bytes.length * 0.6));
    const rest = await resume(tusB, b.url + location, bytes, Math.floor(bytes.length * 0.6));
    expect(rest.status, await rest.clone().text()).toBe(204);
    figures.uploadedMs = Date.now() - started;

    // The worker, on its own disk, takes the job from PostgreSQL and the source from the store.
    await expect.poll(async () => Number((await api(b, "GET", `/api/admin/videos/${guid}`)).status), { timeout: 600_000, interval: 500 }).toBe(4);
    figures.videoMb = Math.round(bytes.length / 1024 / 1024);
    figures.uploadToPlayableMs = Date.now() - started;
    // The worker logs "video processed" once the row is marked ready, so its line may follow the status by a moment.
    await expect.poll(() => worker.output(), { timeout: 30_000 }).toContain(guid);

    // B hands out the player's files, and they come from the store, not from any process's disk.
    const { playback } = (await (await fetch(`${b.url}/api/videos/${guid}/playback`, { headers: FORWARDED })).json()) as {
      playback: { hls?: string; mp4?: string; thumbnail?: string };
    };
    for (const url of [playback.hls, playback.mp4, playback.thumbnail]) expect(url?.startsWith(s3.publicUrl), String(url)).toBe(true);
    const master = await fetch(playback.hls!);
    expect(master.status).toBe(200);
    const masterText = await master.text();
    const rendition = /^(\d+p\/video\.m3u8)$/m.exec(masterText)?.[1];
    expect(rendition, masterText).toBeTruthy();
    const renditionUrl = new URL(rendition!, playback.hls!).toString();
    const segment = /^(segment_\d+\.ts)$/m.exec(await (await fetch(renditionUrl)).text())?.[1];
    expect((await fetch(new URL(segment!, renditionUrl))).status).toBe(200);
    const partial = await fetch(playback.mp4!, { headers: { range: "bytes=0-1023" } });
    expect(partial.status).toBe(206);
    const thumbnail = await fetch(playback.thumbnail!);
    expect(thumbnail.headers.get("content-type")).toBe("image/jpeg");
    // A real player can decode it: ffprobe reads the MP4 over HTTP, as a phone would.
    // Not spawnSync: the S3 server answering ffprobe runs in this very process.
    const probe = await promisify(execFile)("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", playback.mp4!], {
      timeout: 60_000,
    });
    expect(Number(probe.stdout.trim())).toBeGreaterThan(1);

    // The public video page, rendered by B, shows it.
    await expect.poll(async () => (await page(b, "/videos")).body, { timeout: 10_000 }).toContain(guid);
  }, 900_000);

  it("uploads a picture through A, resumes it through B, and shows it on an article served by B; an edit through A shows at once on B", async () => {
    const picture = new Uint8Array(fs.readFileSync(makePicture(media)));
    const tusA = tusClient(a.url, "/api/admin/files/tus", headers());
    const tusB = tusClient(b.url, "/api/admin/files/tus", headers());
    const creation = await tusA.create(picture.length, { folder: "articles", filetype: "image/jpeg", filename: "واحة.jpg" });
    expect(creation.status, await creation.clone().text()).toBe(201);
    const location = new URL(creation.headers.get("location")!, `${a.url}/api/admin/files/tus/`).pathname;
    await tusA.patchAndDrop(a.url + location, 0, picture, Math.floor(picture.length / 2));
    const rest = await resume(tusB, b.url + location, picture, Math.floor(picture.length / 2));
    expect(rest.status, await rest.clone().text()).toBe(204);
    const imageUrl = rest.headers.get("upload-file-url")!;
    expect(imageUrl.startsWith(s3.publicUrl), imageUrl).toBe(true);
    const stored = await fetch(imageUrl);
    expect(stored.status).toBe(200);
    // Stored upright and without its metadata (decision 0104): a picture, not the same bytes.
    expect(stored.headers.get("content-type")).toBe("image/jpeg");

    const { categories } = (await (await fetch(`${a.url}/api/categories`, { headers: FORWARDED })).json()) as { categories: { id: number }[] };
    const categoryId = categories[0].id;
    const article = await api(a, "POST", "/api/admin/articles", {
      title: "واحات أدرار في الصيف",
      status: "published",
      excerpt: "رحلة إلى واحات أدرار",
      content: "<p>نص المقال عن واحات أدرار ونخيلها.</p>",
      category_id: categoryId,
      image_url: imageUrl,
    });
    const articlePath = new URL(String(article.url), PUBLIC_URL).pathname;
    // B renders the article with the picture from the store, then keeps it in its page cache.
    await expect.poll(async () => (await page(b, articlePath)).cache, { timeout: 10_000 }).toBe("HIT");
    const before = await page(b, articlePath);
    expect(before.body).toContain("واحات أدرار في الصيف");
    expect(before.body).toContain(s3.publicUrl);

    await api(a, "PATCH", `/api/admin/articles/${String(article.id)}`, { title: "واحات أدرار في الخريف" });
    const after = await page(b, articlePath);
    expect(after.body).toContain("واحات أدرار في الخريف");
    expect(after.body).not.toContain("واحات أدرار في الصيف");
  }, 300_000);
});
