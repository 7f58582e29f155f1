/**
 * Processing of an uploaded video for the embedded library (issue "media pipeline"), run as the `video.process`
 * job: ffprobe for the duration, then ffmpeg for a 720p MP4 (the spec's play_720p.mp4), HLS renditions
 * (360p and 720p under one master playlist.m3u8, the layout of the hosted library's CDN) and a thumbnail.
 * The status moves 1 processing → 2 encoding → 3 finished → 4 ready, or 5 failed with the reason.
 *
 * Where the files are: DATA_DIR/videos/{guid}/ on this machine, or `videos/{guid}/` in a storage every machine
 * reaches (S3, Bunny; decision 0119), in which case the source is first downloaded to a work folder of this
 * machine and the outputs uploaded from there.
 *
 * Everything is written in a work folder and moved (or uploaded) into place at the end, and only then is the
 * video marked ready: a worker killed mid-encode leaves the previous state, and the re-run starts from the
 * source again.
 */
import { spawn } from "node:child_process";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { eq } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { CodedError } from "#server/errors.server.ts";
import { videos } from "#server/db/schema.server.ts";
import { PermanentJobError } from "#server/jobs/queue.server.ts";
import { invalidate } from "#server/content/cache.server.ts";
import { StorageError, type Storage } from "#server/media/storage/driver.server.ts";
import { VIDEO_STATUS } from "./types.server.ts";

/** The uploaded original inside the video's folder; the renditions sit beside it. */
export const SOURCE_FILE = "source";

/** A video's folder in a shared storage: `videos/{guid}`, laid out as DATA_DIR/videos/{guid} is. */
export const videoFolderKey = (guid: string) => `videos/${guid}`;
export const videoFileKey = (guid: string, name: string) => `${videoFolderKey(guid)}/${name}`;

/** The type each output is served with (a store serves what it was told at upload). */
export function videoContentType(name: string): string {
  if (name.endsWith(".m3u8")) return "application/vnd.apple.mpegurl";
  if (name.endsWith(".ts")) return "video/mp2t";
  if (name.endsWith(".m4s")) return "video/iso.segment";
  if (name.endsWith(".mp4")) return "video/mp4";
  if (name.endsWith(".jpg")) return "image/jpeg";
  return "application/octet-stream";
}

export type FfmpegTools = { ffmpeg: string; ffprobe: string };

/** ffmpeg or ffprobe is not installed: every video fails until it is, so the job retries rather than failing the file. */
class ToolMissingError extends CodedError {
  declare readonly code: "VIDEO_TOOL_MISSING";
  constructor(tool: string) {
    super("VIDEO_TOOL_MISSING", `${tool} is not installed on the server`, { level: "error", context: { tool } });
  }
}

/** Encoders still running when the process exits are stopped with it: the job's lease lapses and it is re-run. */
const children = new Set<ReturnType<typeof spawn>>();
process.once("exit", () => children.forEach((child) => child.kill("SIGKILL")));

/** Runs a tool, keeping only the tail of its diagnostics (an encode can print megabytes). */
function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    children.add(child);
    child.on("close", () => children.delete(child));
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out = (out + d.toString()).slice(-64_000)));
    child.stderr.on("data", (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    child.on("error", (error: NodeJS.ErrnoException) => reject(error.code === "ENOENT" ? new ToolMissingError(path.basename(command)) : error));
    child.on("close", (code) => {
      if (code === 0) resolve(out);
      else reject(new Error(`${path.basename(command)} failed (exit ${code}): ${err.trim().split("\n").slice(-3).join(" ")}`));
    });
  });
}

type Probe = { duration: number; width: number; height: number; hasAudio: boolean };

export async function probeVideo(file: string, tools: FfmpegTools): Promise<Probe> {
  // A file ffprobe cannot read stays unreadable: no retry.
  const json = await run(tools.ffprobe, ["-v", "error", "-show_entries", "format=duration:stream=codec_type,width,height", "-of", "json", file]).catch(
    (error: unknown) => {
      throw error instanceof ToolMissingError ? error : new PermanentJobError(`The file is not a readable video: ${(error as Error).message}`);
    },
  );
  const parsed = JSON.parse(json) as { format?: { duration?: string }; streams?: { codec_type?: string; width?: number; height?: number }[] };
  const video = parsed.streams?.find((s) => s.codec_type === "video");
  if (!video?.width || !video.height) throw new PermanentJobError("The file has no video stream");
  return {
    duration: Number(parsed.format?.duration ?? 0) || 0,
    width: video.width,
    height: video.height,
    hasAudio: parsed.streams?.some((s) => s.codec_type === "audio") ?? false,
  };
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** HLS renditions made for a source of this height: never upscaled, the smallest always present. */
export function renditionsFor(height: number): number[] {
  return [360, 720].filter((h, i) => i === 0 || height >= h);
}

async function encode(source: string, work: string, probe: Probe, tools: FfmpegTools) {
  const common = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"];
  const audio = probe.hasAudio ? ["-c:a", "aac", "-b:a", "128k", "-ac", "2"] : ["-an"];
  const h720 = even(Math.min(720, probe.height));
  // The spec's play_720p.mp4: H.264/AAC, moov first so a phone starts playing before the whole file arrives.
  await run(tools.ffmpeg, [
    ...common,
    "-i",
    source,
    "-vf",
    `scale=-2:${h720}`,
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-crf",
    "23",
    "-pix_fmt",
    "yuv420p",
    ...audio,
    "-movflags",
    "+faststart",
    path.join(work, "play_720p.mp4"),
  ]);
  const master = ["#EXTM3U", "#EXT-X-VERSION:3"];
  for (const target of renditionsFor(probe.height)) {
    const height = even(Math.min(target, probe.height));
    const width = even((probe.width * height) / probe.height);
    const dir = path.join(work, `${target}p`);
    await fs.mkdir(dir);
    // 720p is the MP4 cut into segments (no second encode); smaller ones are encoded for slow links.
    const input = target === 720 ? path.join(work, "play_720p.mp4") : source;
    const codec =
      target === 720
        ? ["-c", "copy"]
        : ["-vf", `scale=${width}:${height}`, "-c:v", "libx264", "-preset", "veryfast", "-crf", "27", "-pix_fmt", "yuv420p", ...audio];
    await run(tools.ffmpeg, [
      ...common,
      "-i",
      input,
      ...codec,
      "-f",
      "hls",
      "-hls_time",
      "6",
      "-hls_playlist_type",
      "vod",
      "-hls_segment_filename",
      path.join(dir, "segment_%03d.ts"),
      path.join(dir, "video.m3u8"),
    ]);
    const bandwidth = target === 720 ? 2_000_000 : 700_000;
    master.push(`#EXT-X-STREAM-INF:BANDWIDTH=${bandwidth},RESOLUTION=${width}x${height}`, `${target}p/video.m3u8`);
  }
  await fs.writeFile(path.join(work, "playlist.m3u8"), master.join("\n") + "\n");
  const at = Math.min(1, probe.duration / 3).toFixed(2);
  await run(tools.ffmpeg, [
    ...common,
    "-ss",
    at,
    "-i",
    path.join(work, "play_720p.mp4"),
    "-frames:v",
    "1",
    "-vf",
    "scale=-2:360",
    path.join(work, "thumbnail.jpg"),
  ]);
}

const OUTPUTS = ["play_720p.mp4", "playlist.m3u8", "thumbnail.jpg", "360p", "720p"];

/** Files of a folder, recursively, as paths relative to it with `/` between segments. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"));
}

/**
 * Upload order: segments, then the rendition playlists naming them, the MP4 and the thumbnail, and the master
 * playlist last, so a player that finds a playlist finds what it names.
 */
function uploadRank(name: string): number {
  if (name === "playlist.m3u8") return 3;
  if (name.endsWith(".m3u8")) return 1;
  if (name.includes("/")) return 0;
  return 2;
}

export type ProcessVideoInput = {
  guid: string;
  /** DATA_DIR/videos: the video's files when there is no shared storage. */
  videosDir: string;
  tools: FfmpegTools;
  isLastAttempt: boolean;
  /** The storage every machine reaches (S3, Bunny), when the files live there; null or absent: videosDir. */
  storage?: Storage | null;
  /** This machine's folder for the work of a run (the source downloaded, the outputs before upload). */
  workDir?: string;
};

/**
 * Processes one uploaded video. Throws to let the queue retry; on the last attempt (or a failure no retry can
 * fix) the video is marked failed with the reason first.
 */
export async function processVideo(db: Database, input: ProcessVideoInput): Promise<void> {
  const { guid, tools } = input;
  const storage = input.storage ?? null;
  const dir = path.join(input.videosDir, guid);
  const setStatus = async (status: number, extra: Partial<typeof videos.$inferInsert> = {}) => {
    await db
      .update(videos)
      .set({ status, updatedAt: new Date(), ...extra })
      .where(eq(videos.guid, guid));
    // Ready or failed changes what the public pages show (a ready video plays on /videos).
    if (status === VIDEO_STATUS.ready || status === VIDEO_STATUS.failed) invalidate("videos");
  };
  const [row] = await db.select({ guid: videos.guid }).from(videos).where(eq(videos.guid, guid)).limit(1);
  if (!row) return; // deleted while queued: nothing to do
  const workRoot = storage ? (input.workDir ?? path.join(input.videosDir, ".work")) : dir;
  // One run per video at a time (the queue's lease): a folder of an earlier run of this video was left by a
  // worker that died, and goes.
  if (storage) await removeEarlierRuns(workRoot, guid);
  const work = path.join(workRoot, storage ? `${guid}.${process.pid}.${Date.now()}` : `.work-${process.pid}-${Date.now()}`);
  try {
    const source = storage ? path.join(work, SOURCE_FILE) : path.join(dir, SOURCE_FILE);
    if (storage) await download(storage, videoFileKey(guid, SOURCE_FILE), source);
    else
      await fs.access(source).catch(() => {
        throw new PermanentJobError("The uploaded file is missing");
      });
    await setStatus(VIDEO_STATUS.processing, { failureReason: null });
    const probe = await probeVideo(source, tools);
    await setStatus(VIDEO_STATUS.encoding);
    const out = storage ? path.join(work, "out") : work;
    await fs.mkdir(out, { recursive: true });
    await encode(source, out, probe, tools);
    await setStatus(VIDEO_STATUS.finished);
    if (storage) {
      const names = (await filesUnder(out)).sort((a, b) => uploadRank(a) - uploadRank(b) || a.localeCompare(b));
      for (const name of names) {
        const file = path.join(out, ...name.split("/"));
        const { size } = await fs.stat(file);
        const body = createReadStream(file);
        try {
          await storage.putAt(videoFileKey(guid, name), body, videoContentType(name), size);
        } finally {
          body.destroy();
        }
      }
    } else {
      for (const name of OUTPUTS) {
        const from = path.join(work, name);
        if (!(await fs.stat(from).catch(() => null))) continue;
        await fs.rm(path.join(dir, name), { recursive: true, force: true });
        await fs.rename(from, path.join(dir, name));
      }
    }
    await setStatus(VIDEO_STATUS.ready, { lengthSeconds: Math.round(probe.duration), thumbnailFileName: "thumbnail.jpg" });
  } catch (error) {
    const permanent = error instanceof PermanentJobError || error instanceof ToolMissingError;
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    if (permanent || input.isLastAttempt) await setStatus(VIDEO_STATUS.failed, { failureReason: reason });
    throw permanent && !(error instanceof PermanentJobError) ? new PermanentJobError(reason) : error;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** The source from the shared storage to this machine's work folder; a source that is not there is final. */
async function download(storage: Storage, key: string, file: string) {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const body = await storage.read(key).catch((error: unknown) => {
    throw error instanceof StorageError && error.status === 404 ? new PermanentJobError("The uploaded file is missing") : error;
  });
  await pipeline(body, createWriteStream(file));
}

async function removeEarlierRuns(workRoot: string, guid: string) {
  const names = await fs.readdir(workRoot).catch(() => [] as string[]);
  for (const name of names) if (name.startsWith(`${guid}.`)) await fs.rm(path.join(workRoot, name), { recursive: true, force: true });
}
