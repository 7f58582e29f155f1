/**
 * Demo assets made on this machine at seed time: SVG pictures, a plucked-string WAV, one-page PDFs and,
 * when ffmpeg is installed, one small MP4 and the demo video library's clips (HLS + MP4 + thumbnails). Nothing is downloaded, so a fresh install works offline and the
 * repository carries no binary blobs. Everything lands under `${uploadsDir}/demo` and is addressed as
 * `/uploads/demo/...`, which is where the server serves DATA_DIR/uploads.
 */
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { pdfDocument, svgImage, svgImageAlt, wavTone, type SvgOverlay } from "./demo-drawing.server.ts";

export const DEMO_URL_PREFIX = "/uploads/demo";
export const SAMPLE_VIDEO_URL = `${DEMO_URL_PREFIX}/video/sample.mp4`;
export const SAMPLE_POSTER_URL = `${DEMO_URL_PREFIX}/video/poster.svg`;

/** Same shape as the spec's slug pattern; anything else must never become part of a file path. */
const SAFE_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

// ---------------------------------------------------------------------------------------------------------
// Writing files: never overwrite (an operator may have replaced a demo file on purpose), and write through a
// temporary name so an interrupted seed cannot leave a truncated file that later runs would then skip.

function writeOnce(file: string, content: string | Buffer | (() => string | Buffer)): boolean {
  if (fs.existsSync(file)) return false;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, typeof content === "function" ? content() : content);
  fs.renameSync(tmp, file);
  return true;
}

function checkName(name: string) {
  if (!SAFE_NAME.test(name)) throw new Error(`Unsafe demo asset name: ${name}`);
}

// ---------------------------------------------------------------------------------------------------------
// Demo video library: a few short clips of different lengths, each laid out per video id as the local
// library's encoder lays out an upload (server/media/video/processing.server.ts), so demo videos play through the same
// playback API (HLS, then the MP4) as real ones, with a true length and a thumbnail of their own.

/** Rendition folder of the demo clips: one small HLS rendition, named like the encoder's (`360p`, `720p`). */
export const DEMO_RENDITION = "240p";

/**
 * The clips, small on purpose (426×240, 15 fps, ~200 kbit/s, a quiet mono tone): three lengths so the
 * library's durations and its sort by duration mean something. Sources are ffmpeg's built-in generators
 * (no font is needed, so no text: drawtext needs one). A moving element in each, so a test can see playback
 * advance. Encoding all three takes about 3 s.
 */
export const DEMO_CLIPS = [
  {
    name: "dunes",
    seconds: 6,
    source: "gradients=s=426x240:r=15:c0=0xf6d7a7:c1=0xd4793a:c2=0x7a2e1d:nb_colors=3:speed=0.03",
    toneHz: 196,
  },
  { name: "pattern", seconds: 12, source: "testsrc2=s=426x240:r=15", toneHz: 330 },
  {
    name: "bars",
    seconds: 25,
    // A white square crossing the bars (overlay, not drawbox: drawbox's position is not re-evaluated per frame).
    source: "smptebars=s=426x240:r=15[bars];color=c=white:s=48x48:r=15[box];[bars][box]overlay=x='mod(t*40,378)':y=170:shortest=1[out0]",
    toneHz: 262,
  },
] as const;

export type DemoClip = { name: string; seconds: number; dir: string };

const FFMPEG_QUIET = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"];

function ffmpeg(args: string[], timeout = 30_000): boolean {
  const run = spawnSync("ffmpeg", [...FFMPEG_QUIET, ...args], { stdio: ["ignore", "ignore", "pipe"], timeout });
  return !run.error && run.status === 0;
}

function hasFfmpeg(): boolean {
  const probe = spawnSync("ffmpeg", ["-version"], { stdio: "ignore", timeout: 10_000 });
  return !probe.error && probe.status === 0;
}

/** The master playlist of a one-rendition clip, as the encoder writes it (relative URI to the rendition). */
export function demoMasterPlaylist(rendition = DEMO_RENDITION): string {
  return ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-STREAM-INF:BANDWIDTH=280000,RESOLUTION=426x240", `${rendition}/video.m3u8`, ""].join("\n");
}

/** Thumbnails made per clip: the demo videos sharing a clip each show a different moment of it. */
export const DEMO_THUMBNAILS_PER_CLIP = 4;

/**
 * Makes (once) one clip under `${root}/video/clips/{name}/`: play_720p.mp4 (H.264/AAC, moov first; the name
 * is the hosted library's, whatever the size) with, from the same run, DEMO_THUMBNAILS_PER_CLIP frames spread
 * over the clip as thumbnails/{1..n}.jpg; then the MP4 cut into 2-second HLS segments without a second encode,
 * and the master playlist.m3u8. Two ffmpeg runs per clip, so seeding stays quick. Built in a temporary folder
 * and renamed into place, so a seed killed half-way never leaves a clip that later runs would take as
 * complete. H.264 only: without libx264 there is no clip (MPEG-4 part 2 plays in no browser's HLS), and the
 * library keeps the sample instead.
 */
function ensureDemoClip(root: string, clip: (typeof DEMO_CLIPS)[number]): DemoClip | null {
  const dir = path.join(root, "video", "clips", clip.name);
  if (fs.existsSync(path.join(dir, "playlist.m3u8"))) return { name: clip.name, seconds: clip.seconds, dir };
  const tmp = `${dir}.${process.pid}.tmp`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(path.join(tmp, DEMO_RENDITION), { recursive: true });
  fs.mkdirSync(path.join(tmp, "thumbnails"));
  const mp4 = path.join(tmp, "play_720p.mp4");
  const gop = ["-g", "30", "-keyint_min", "30", "-sc_threshold", "0"]; // a key frame every 2 s at 15 fps: even HLS segments
  const frames = thumbnailFrames(clip.seconds, 15)
    .map((n) => `eq(n,${n})`)
    .join("+");
  const ok =
    ffmpeg([
      // -t on each input: the generators are endless, and the thumbnail output must end with them.
      ...["-t", String(clip.seconds), "-f", "lavfi", "-i", clip.source],
      ...["-t", String(clip.seconds), "-f", "lavfi", "-i", `sine=frequency=${clip.toneHz}:sample_rate=22050`],
      ...["-filter_complex", `[0:v]split[v][s];[s]select='${frames}'[t]`],
      ...["-map", "[v]", "-map", "1:a", "-c:v", "libx264", "-preset", "veryfast", "-crf", "32", "-maxrate", "200k", "-bufsize", "400k"],
      ...["-pix_fmt", "yuv420p", ...gop, "-af", "volume=0.3", "-c:a", "aac", "-b:a", "32k", "-ac", "1", "-movflags", "+faststart", "-shortest", mp4],
      ...["-map", "[t]", "-fps_mode", "vfr", "-q:v", "5", path.join(tmp, "thumbnails", "%d.jpg")],
    ]) &&
    ffmpeg([
      ...["-i", mp4, "-c", "copy", "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod"],
      ...["-hls_segment_filename", path.join(tmp, DEMO_RENDITION, "segment_%03d.ts"), path.join(tmp, DEMO_RENDITION, "video.m3u8")],
    ]);
  if (!ok) {
    fs.rmSync(tmp, { recursive: true, force: true });
    return null;
  }
  fs.writeFileSync(path.join(tmp, "playlist.m3u8"), demoMasterPlaylist());
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(tmp, dir);
  return { name: clip.name, seconds: clip.seconds, dir };
}

/** Frame numbers of a clip's thumbnails: the middles of n equal parts of it. */
export function thumbnailFrames(seconds: number, fps: number, n = DEMO_THUMBNAILS_PER_CLIP): number[] {
  return Array.from({ length: n }, (_, k) => Math.floor(((k + 0.5) * seconds * fps) / n));
}

/** Hard links (the same bytes on disk for every video of a clip), or a copy where links are not possible. */
function linkFile(src: string, dst: string) {
  try {
    fs.linkSync(src, dst);
  } catch {
    fs.copyFileSync(src, dst);
  }
}

function linkTree(from: string, to: string, skip: (name: string) => boolean = () => false) {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (skip(entry.name)) continue;
    const [src, dst] = [path.join(from, entry.name), path.join(to, entry.name)];
    if (entry.isDirectory()) linkTree(src, dst);
    else linkFile(src, dst);
  }
}

/**
 * Lays out one demo video for the local library: DATA_DIR/videos/{guid}/ with the clip's playlist.m3u8,
 * rendition folder and play_720p.mp4, and as thumbnail.jpg the clip's thumbnail number `thumbnail` (1-based,
 * wrapping), so videos sharing a clip show different moments. No ffmpeg run: links only. A folder that already
 * exists is left alone (a re-run, or an editor's upload for that id); true when it holds something to play.
 */
export function layOutDemoVideo(videosDir: string, guid: string, clip: DemoClip, thumbnail = 1): boolean {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(guid)) throw new Error(`Unsafe demo video id: ${guid}`);
  const dir = path.join(videosDir, guid);
  if (fs.existsSync(dir)) return fs.existsSync(path.join(dir, "playlist.m3u8")) || fs.existsSync(path.join(dir, "play_720p.mp4"));
  const tmp = path.join(videosDir, `.demo-${guid}.${process.pid}.tmp`);
  fs.rmSync(tmp, { recursive: true, force: true });
  linkTree(clip.dir, tmp, (name) => name === "thumbnails");
  const picture = path.join(clip.dir, "thumbnails", `${((thumbnail - 1) % DEMO_THUMBNAILS_PER_CLIP) + 1}.jpg`);
  // Without it the row shows its own picture instead (the local library's demo fallback).
  if (fs.existsSync(picture)) linkFile(picture, path.join(tmp, "thumbnail.jpg"));
  fs.renameSync(tmp, dir);
  return true;
}

export type DemoAssets = {
  /** Writes (once) and returns the URL of the picture for one row. */
  image: (folder: string, slug: string, overlay?: SvgOverlay) => string;
  audio: (name: string, notesHz: number[]) => string;
  document: (slug: string, title: string, paragraphs: string[]) => string;
  /** Writes (once) a WebVTT file with one cue of `cueSeconds` a line, from 0 s, and returns its URL. */
  captions: (name: string, lines: string[], cueSeconds?: number) => string;
  /** The sample MP4 URL, or null when ffmpeg is unavailable or failed. */
  videoUrl: string | null;
  posterUrl: string;
  /** How many files this run wrote (0 on a re-run). */
  written: () => number;
  /** The alt text of every picture `image` (and the poster) handed out, by URL, in Arabic and French. */
  imageAlts: () => Map<string, { ar: string; fr: string }>;
  /** The demo library's clips, made on first call (none without ffmpeg and libx264). */
  clips: () => DemoClip[];
};

export function prepareDemoAssets(uploadsDir: string, log: (msg: string) => void = () => {}): DemoAssets {
  const root = path.join(uploadsDir, "demo");
  let written = 0;
  const put = (rel: string, content: string | Buffer | (() => string | Buffer)) => {
    if (writeOnce(path.join(root, rel), content)) written++;
    return `${DEMO_URL_PREFIX}/${rel}`;
  };

  const alts = new Map<string, { ar: string; fr: string }>();
  const posterUrl = put("video/poster.svg", () => svgImage("sample-video-poster", "play"));
  alts.set(posterUrl, svgImageAlt("sample-video-poster", "play"));
  const videoFile = path.join(root, "video", "sample.mp4");
  const videoOk = ensureSampleVideo(videoFile, log);
  if (videoOk === "made") written++;
  let clips: DemoClip[] | undefined;

  return {
    image(folder, slug, overlay = "none") {
      checkName(folder);
      checkName(slug);
      const url = put(`images/${folder}/${slug}.svg`, () => svgImage(`${folder}/${slug}`, overlay));
      alts.set(url, svgImageAlt(`${folder}/${slug}`, overlay));
      return url;
    },
    audio(name, notesHz) {
      checkName(name);
      return put(`audio/${name}.wav`, () => wavTone(name, notesHz));
    },
    document(slug, title, paragraphs) {
      checkName(slug);
      return put(`documents/${slug}.pdf`, () => pdfDocument(title, paragraphs));
    },
    captions(name, lines, cueSeconds = 2) {
      checkName(name);
      return put(`captions/${name}.vtt`, () => webVtt(lines, cueSeconds));
    },
    videoUrl: videoOk ? SAMPLE_VIDEO_URL : null,
    posterUrl,
    written: () => written,
    imageAlts: () => alts,
    clips() {
      if (clips) return clips;
      if (!hasFfmpeg()) return (clips = []);
      clips = [];
      for (const spec of DEMO_CLIPS) {
        const made = !fs.existsSync(path.join(root, "video", "clips", spec.name, "playlist.m3u8"));
        const clip = ensureDemoClip(root, spec);
        if (clip) clips.push(clip);
        if (clip && made) written++;
      }
      log(clips.length ? `demo video clips ready: ${clips.map((c) => `${c.name} ${c.seconds} s`).join(", ")}` : "ffmpeg could not make the demo video clips");
      return clips;
    },
  };
}

/** A WebVTT file of consecutive cues, one line each. */
export function webVtt(lines: string[], cueSeconds = 2): string {
  const stamp = (s: number) => `${String(Math.floor(s / 60)).padStart(2, "0")}:${(s % 60).toFixed(3).padStart(6, "0")}`;
  const cues = lines.map((line, i) => `${i + 1}\n${stamp(i * cueSeconds)} --> ${stamp((i + 1) * cueSeconds)}\n${line.replace(/-->/g, "→")}`);
  return `WEBVTT\n\n${cues.join("\n\n")}\n`;
}

/** "made", "exists", or false when no video could be produced (the seed then goes on without one). */
function ensureSampleVideo(file: string, log: (msg: string) => void): "made" | "exists" | false {
  if (fs.existsSync(file)) return "exists";
  const probe = spawnSync("ffmpeg", ["-version"], { stdio: "ignore", timeout: 10_000 });
  if (probe.error || probe.status !== 0) {
    log("ffmpeg not found: video rows are seeded without a file");
    return false;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp.mp4`;
  const input = ["-f", "lavfi", "-i", "testsrc=size=640x360:rate=25", "-f", "lavfi", "-i", "sine=frequency=440", "-t", "4"];
  // libx264 plays in every browser; builds without it still ship the native MPEG-4 part 2 encoder.
  for (const codec of [
    ["-c:v", "libx264", "-pix_fmt", "yuv420p"],
    ["-c:v", "mpeg4", "-q:v", "5", "-pix_fmt", "yuv420p"],
  ]) {
    const run = spawnSync(
      "ffmpeg",
      ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", ...input, ...codec, "-movflags", "+faststart", "-c:a", "aac", "-shortest", tmp],
      { stdio: ["ignore", "ignore", "pipe"], timeout: 120_000 },
    );
    if (!run.error && run.status === 0 && fs.existsSync(tmp) && fs.statSync(tmp).size > 0) {
      fs.renameSync(tmp, file);
      log(`sample video made with ${codec[1]}`);
      return "made";
    }
    fs.rmSync(tmp, { force: true });
  }
  log("ffmpeg could not make the sample video: video rows are seeded without a file");
  return false;
}
