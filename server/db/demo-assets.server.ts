/**
 * Demo assets made on this machine at seed time: SVG pictures, a plucked-string WAV, one-page PDFs and,
 * when ffmpeg is installed, one small MP4 and the demo video library's clips (HLS + MP4 + thumbnails). Nothing is downloaded, so a fresh install works offline and the
 * repository carries no binary blobs. Everything lands under `${uploadsDir}/demo` and is addressed as
 * `/uploads/demo/...`, which is where the server serves DATA_DIR/uploads.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";

export const DEMO_URL_PREFIX = "/uploads/demo";
export const SAMPLE_VIDEO_URL = `${DEMO_URL_PREFIX}/video/sample.mp4`;
export const SAMPLE_POSTER_URL = `${DEMO_URL_PREFIX}/video/poster.svg`;

/** Same shape as the spec's slug pattern; anything else must never become part of a file path. */
const SAFE_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

// ---------------------------------------------------------------------------------------------------------
// Deterministic randomness: the same slug always gives the same picture, so re-seeding and tests are stable.

export function hash32(text: string): number {
  return crypto.createHash("sha256").update(text).digest().readUInt32BE(0);
}

function rng(seed: string): () => number {
  let a = hash32(seed);
  // mulberry32: tiny, fast and good enough for picking shapes and colours.
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A UUID with the version-4 shape (the spec's video-id pattern), derived from a name so it never changes. */
export function deterministicUuid(name: string): string {
  const b = crypto.createHash("sha256").update(`sahara-demo-video:${name}`).digest().subarray(0, 16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// ---------------------------------------------------------------------------------------------------------
// SVG pictures

type Palette = { sky: [string, string]; sun: string; dunes: [string, string, string]; accent: string };

/** Warm desert palettes: dawn over the erg, midday ochre, Adrar basalt, dusk, and a night one. */
const PALETTES: Palette[] = [
  { sky: ["#f6d7a7", "#f2a65a"], sun: "#fff1d0", dunes: ["#e9a25f", "#d4793a", "#a9542a"], accent: "#7a2e1d" },
  { sky: ["#fbe7c6", "#f4c27a"], sun: "#fffaf0", dunes: ["#e8b76b", "#cf9247", "#9c6331"], accent: "#5c3b1e" },
  { sky: ["#f3c9a0", "#d9774b"], sun: "#ffe3b3", dunes: ["#c2673b", "#9b4a2a", "#6e3220"], accent: "#3d1c12" },
  { sky: ["#f7b267", "#f25c54"], sun: "#ffe8a3", dunes: ["#d9824a", "#b35a35", "#7f3b26"], accent: "#4a2317" },
  { sky: ["#e9d8a6", "#ee9b00"], sun: "#fff6d5", dunes: ["#ca6702", "#bb3e03", "#8a2e05"], accent: "#005f73" },
  { sky: ["#ffd6a5", "#e07a5f"], sun: "#fff3e0", dunes: ["#d08c60", "#a9603b", "#7b4428"], accent: "#3d405b" },
  { sky: ["#1d2440", "#5b3a5e"], sun: "#fdf0c2", dunes: ["#8c5a3c", "#6b3f2a", "#46281b"], accent: "#f2c46d" },
  { sky: ["#2b2d42", "#8d5a4a"], sun: "#fbe3a1", dunes: ["#a0633c", "#7a4529", "#4f2c1b"], accent: "#e9c46a" },
];

export type SvgOverlay = "none" | "play" | "wave" | "doc";

const r0 = (n: number) => Math.round(n);

function dunePath(rand: () => number, baseY: number, amp: number, w: number, h: number): string {
  // Two or three soft crests across the frame, built from cubic curves so they read as sand, not hills.
  const crests = 2 + Math.floor(rand() * 2);
  const step = w / crests;
  let d = `M0 ${r0(baseY + (rand() - 0.5) * amp)}`;
  for (let i = 0; i < crests; i++) {
    const x0 = i * step;
    const peak = baseY - amp * (0.4 + rand() * 0.6);
    const end = baseY + (rand() - 0.5) * amp * 0.6;
    d += ` C${r0(x0 + step * 0.3)} ${r0(peak)} ${r0(x0 + step * 0.6)} ${r0(peak)} ${r0(x0 + step)} ${r0(end)}`;
  }
  return `${d} L${w} ${h} L0 ${h}Z`;
}

const MOTIFS = ["dunes", "ksar", "palms", "sea", "pattern", "night"] as const;
type Motif = (typeof MOTIFS)[number];

/** What each motif shows, for a reader who cannot see it: the library's alt text of the demo pictures (issue 39). */
const MOTIF_ALT: Record<Motif, { ar: string; fr: string }> = {
  dunes: { ar: "رسم لكثبان رملية متموجة تحت شمس الصحراء", fr: "Illustration : des dunes de sable ondulées sous le soleil du désert" },
  ksar: {
    ar: "رسم لأسوار قصر حجري ومئذنته المربعة بين الكثبان، على طراز شنقيط ووادان",
    fr: "Illustration : les murailles et le minaret carré d’un ksar de pierre entre les dunes, comme à Chinguetti ou Ouadane",
  },
  palms: { ar: "رسم لنخيل واحة يرتفع بين الكثبان الرملية", fr: "Illustration : les palmiers d’une oasis entre les dunes" },
  sea: {
    ar: "رسم لمياه حوض آرغين الضحلة تلتقي بالرمال وطيور تحلّق فوقها",
    fr: "Illustration : les eaux peu profondes du Banc d’Arguin rejoignent le sable, des oiseaux en vol",
  },
  pattern: {
    ar: "رسم لكثبان رملية يمر أمامها شريط من زخارف المعينات في الجلد الصحراوي",
    fr: "Illustration : des dunes et une frise de losanges du cuir saharien",
  },
  night: { ar: "رسم لهلال ونجوم فوق الكثبان في الليل", fr: "Illustration : un croissant de lune et des étoiles au-dessus des dunes, la nuit" },
};

/** What the overlay adds: the picture stands for a video, a sound or a document. */
const OVERLAY_ALT: Record<SvgOverlay, { ar: string; fr: string } | null> = {
  none: null,
  play: { ar: "مع زر تشغيل الفيديو", fr: "avec le bouton de lecture de la vidéo" },
  wave: { ar: "مع موجة صوتية", fr: "avec une onde sonore" },
  doc: { ar: "مع صفحة وثيقة", fr: "avec la page d’un document" },
};

/**
 * The alt text of svgImage(seed, overlay) in Arabic and French: the same first draw picks the same motif, so the
 * words describe the picture that was drawn.
 */
export function svgImageAlt(seed: string, overlay: SvgOverlay = "none"): { ar: string; fr: string } {
  const motif = MOTIFS[Math.floor(rng(seed)() * MOTIFS.length)];
  const base = MOTIF_ALT[motif];
  const extra = OVERLAY_ALT[overlay];
  return extra ? { ar: `${base.ar}، ${extra.ar}`, fr: `${base.fr}, ${extra.fr}` } : base;
}

/**
 * A 1200×675 (16:9, the card and Open Graph ratio) picture picked deterministically from `seed`: a sky
 * gradient, sun or moon and stars, three dune layers, and one motif (ksar walls, palms, the sea with birds
 * of the Banc d'Arguin, or a band of the diamond pattern of Saharan leatherwork). Kept under ~3 KB.
 */
export function svgImage(seed: string, overlay: SvgOverlay = "none", w = 1200, h = 675): string {
  const rand = rng(seed);
  const motif = MOTIFS[Math.floor(rand() * MOTIFS.length)];
  const night = motif === "night";
  const pal = night ? PALETTES[6 + Math.floor(rand() * 2)] : PALETTES[Math.floor(rand() * 6)];
  const angle = Math.floor(rand() * 3);
  const [gx2, gy2] = [
    ["0", "1"],
    ["0.3", "1"],
    ["1", "1"],
  ][angle];
  const parts: string[] = [];
  parts.push(
    `<defs><linearGradient id="s" x1="0" y1="0" x2="${gx2}" y2="${gy2}"><stop offset="0" stop-color="${pal.sky[0]}"/><stop offset="1" stop-color="${pal.sky[1]}"/></linearGradient>` +
      `<radialGradient id="g"><stop offset="0" stop-color="${pal.sun}"/><stop offset="1" stop-color="${pal.sun}" stop-opacity="0"/></radialGradient></defs>`,
  );
  parts.push(`<rect width="${w}" height="${h}" fill="url(#s)"/>`);

  const sx = r0(w * (0.15 + rand() * 0.7));
  const sy = r0(h * (0.18 + rand() * 0.2));
  const sr = r0(40 + rand() * 50);
  parts.push(`<circle cx="${sx}" cy="${sy}" r="${sr * 3}" fill="url(#g)" opacity=".5"/>`);
  if (night) {
    // A crescent: the moon disc with a sky-coloured disc bitten out of it.
    parts.push(
      `<circle cx="${sx}" cy="${sy}" r="${sr}" fill="${pal.sun}"/><circle cx="${sx + r0(sr * 0.45)}" cy="${sy - r0(sr * 0.2)}" r="${sr}" fill="${pal.sky[0]}"/>`,
    );
    let stars = "";
    for (let i = 0; i < 22; i++) stars += `<circle cx="${r0(rand() * w)}" cy="${r0(rand() * h * 0.55)}" r="${(1 + rand() * 2.2).toFixed(1)}"/>`;
    parts.push(`<g fill="#fff8e1" opacity=".85">${stars}</g>`);
  } else {
    parts.push(`<circle cx="${sx}" cy="${sy}" r="${sr}" fill="${pal.sun}"/>`);
  }

  const horizon = h * (0.55 + rand() * 0.1);
  if (motif === "ksar") {
    // Stone walls and a square minaret, the silhouette of Chinguetti, Ouadane or Tichitt.
    const x = r0(w * (0.1 + rand() * 0.5));
    const top = r0(horizon - 120 - rand() * 60);
    let crenel = "";
    for (let i = 0; i < 8; i++) crenel += `<rect x="${x + i * 40}" y="${top - 14}" width="22" height="16"/>`;
    parts.push(
      `<g fill="${pal.accent}" opacity=".8"><rect x="${x}" y="${top}" width="320" height="${r0(horizon - top + 60)}"/>${crenel}` +
        `<rect x="${x + 220}" y="${top - 110}" width="56" height="120"/><path d="M${x + 214} ${top - 110}h68l-34-26z"/></g>`,
    );
  } else if (motif === "palms") {
    let palms = "";
    const n = 3 + Math.floor(rand() * 3);
    for (let i = 0; i < n; i++) {
      const px = r0(w * (0.1 + rand() * 0.8));
      const ph = r0(120 + rand() * 90);
      const py = r0(horizon + 30);
      const [tx, ty] = [px + 4, py - ph];
      palms += `<path d="M${px} ${py}q-6-${r0(ph / 2)} 4-${ph}"/>`;
      for (const [dx, dy] of [
        [-80, 28],
        [-52, -8],
        [0, -30],
        [52, -8],
        [80, 28],
      ])
        palms += `<path d="M${tx} ${ty}q${dx / 2} -22 ${dx} ${dy}"/>`;
    }
    parts.push(`<g fill="none" stroke="${pal.accent}" stroke-width="9" stroke-linecap="round" opacity=".85">${palms}</g>`);
  } else if (motif === "sea") {
    // The Banc d'Arguin: shallow water meeting the sand, and a few flying birds.
    parts.push(`<rect y="${r0(horizon - 30)}" width="${w}" height="${r0(h - horizon + 30)}" fill="#3f8f9b" opacity=".6"/>`);
    let birds = "";
    for (let i = 0; i < 6; i++) {
      const bx = r0(rand() * w * 0.9 + 40);
      const by = r0(h * 0.15 + rand() * h * 0.3);
      birds += `<path d="M${bx - 16} ${by}q8-10 16 0q8-10 16 0"/>`;
    }
    parts.push(`<g fill="none" stroke="${pal.accent}" stroke-width="4" stroke-linecap="round">${birds}</g>`);
  }

  // Over the sea the sand starts lower, so the water stays visible above the beach.
  const base = motif === "sea" ? horizon + h * 0.14 : horizon;
  parts.push(`<path d="${dunePath(rand, base, 90, w, h)}" fill="${pal.dunes[0]}"/>`);
  parts.push(`<path d="${dunePath(rand, base + h * 0.12, 70, w, h)}" fill="${pal.dunes[1]}"/>`);
  parts.push(`<path d="${dunePath(rand, base + h * 0.24, 50, w, h)}" fill="${pal.dunes[2]}"/>`);

  if (motif === "pattern") {
    // A band of diamonds and triangles, as on Saharan leather cushions and tent poles.
    const y = r0(h * 0.82);
    let band = "";
    for (let x = 0; x < w; x += 60) band += `<path d="M${x} ${y}l30-24l30 24l-30 24z"/>`;
    parts.push(
      `<g fill="${pal.accent}" opacity=".75">${band}</g><g fill="${pal.sun}" opacity=".6"><rect y="${y - 34}" width="${w}" height="5"/><rect y="${y + 29}" width="${w}" height="5"/></g>`,
    );
  }

  const cx = w / 2;
  const cy = h / 2;
  if (overlay === "play") {
    parts.push(`<circle cx="${cx}" cy="${cy}" r="74" fill="#000" opacity=".45"/><path d="M${cx - 24} ${cy - 40}v80l66-40z" fill="#fff"/>`);
  } else if (overlay === "wave") {
    let bars = "";
    for (let i = 0; i < 20; i++) {
      const bh = r0(20 + rand() * 120);
      bars += `<path d="M${r0(cx - 250 + i * 26)} ${r0(cy - bh / 2)}v${bh}"/>`;
    }
    parts.push(`<g stroke="#fff" stroke-width="12" stroke-linecap="round" opacity=".8">${bars}</g>`);
  } else if (overlay === "doc") {
    let lines = "";
    for (let i = 0; i < 6; i++) lines += `<rect x="${cx - 90}" y="${cy - 80 + i * 34}" width="${i === 5 ? 110 : 180}" height="10" rx="5"/>`;
    parts.push(
      `<rect x="${cx - 130}" y="${cy - 160}" width="260" height="320" rx="14" fill="#fffaf0" opacity=".92"/><g fill="${pal.accent}" opacity=".7">${lines}</g>`,
    );
  }

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${parts.join("")}</svg>\n`;
}

// ---------------------------------------------------------------------------------------------------------
// Audio: a short motif of plucked notes, PCM 16-bit mono 8 kHz WAV (a few dozen KB, plays everywhere).

/**
 * Karplus–Strong plucked string, because a bare sine sounds like a test tone and this sounds like a lute —
 * close enough to the tidinit for a demo. Deterministic: the excitation noise comes from the seeded RNG.
 */
export function wavTone(seed: string, notesHz: number[], seconds = 2.5, sampleRate = 8000): Buffer {
  const rand = rng(seed);
  const total = Math.round(seconds * sampleRate);
  const mix = new Float32Array(total);
  const spacing = Math.floor(total / (notesHz.length + 1));
  notesHz.forEach((f, n) => {
    const period = Math.max(2, Math.round(sampleRate / f));
    const buf = new Float32Array(period);
    for (let i = 0; i < period; i++) buf[i] = rand() * 2 - 1;
    const start = n * spacing;
    for (let i = start, k = 0; i < total; i++, k++) {
      const j = k % period;
      const next = buf[(j + 1) % period];
      mix[i] += buf[j] * 0.5;
      buf[j] = 0.498 * (buf[j] + next);
    }
  });
  // Fade the last 150 ms so playback does not end on a click.
  const fade = Math.round(0.15 * sampleRate);
  let peak = 0;
  for (let i = 0; i < total; i++) peak = Math.max(peak, Math.abs(mix[i]));
  const gain = peak > 0 ? 0.8 / peak : 0;
  const data = Buffer.alloc(total * 2);
  for (let i = 0; i < total; i++) {
    const env = i > total - fade ? (total - i) / fade : 1;
    const v = Math.max(-1, Math.min(1, mix[i] * gain * env));
    data.writeInt16LE(Math.round(v * 32767), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16); // PCM fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28); // byte rate
  header.writeUInt16LE(2, 32); // block align
  header.writeUInt16LE(16, 34); // bits per sample
  header.write("data", 36, "ascii");
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

// ---------------------------------------------------------------------------------------------------------
// Documents: a one-page PDF written by hand. Only the 14 standard fonts need no embedding, and they cannot
// shape Arabic, hence Latin text only; accents are folded to ASCII so every byte count is a character count.

function pdfText(s: string): string {
  return s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[’‘]/g, "'")
    .replace(/[«»“”]/g, '"')
    .replace(/[–—]/g, "-")
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/([\\()])/g, "\\$1");
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}

export function pdfDocument(title: string, paragraphs: string[]): Buffer {
  const ops: string[] = ["BT", "/F2 18 Tf", "72 770 Td", "22 TL"];
  for (const l of wrap(title, 50)) ops.push(`(${pdfText(l)}) Tj T*`);
  ops.push("/F1 11 Tf", "15 TL", "T*");
  for (const p of paragraphs) {
    for (const l of wrap(p, 88)) ops.push(`(${pdfText(l)}) Tj T*`);
    ops.push("T*");
  }
  ops.push("ET");
  const stream = ops.join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> /Contents 4 0 R >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xrefAt = body.length;
  // Each xref entry is exactly 20 bytes: 10-digit offset, 5-digit generation, type, then space + LF.
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

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
