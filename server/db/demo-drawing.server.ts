/**
 * The demo assets' drawing (server/db/demo-assets.server.ts writes them to disk): SVG desert pictures with
 * their alt text, a plucked-string WAV and a one-page PDF, all made here from a seed, so the same name always
 * gives the same bytes. Nothing here touches the disk.
 */
import crypto from "node:crypto";

// ---------------------------------------------------------------------------------------------------------
// Deterministic randomness: the same slug always gives the same picture, so re-seeding and tests are stable.

export function hash32(text: string): number {
  return crypto.createHash("sha256").update(text).digest().readUInt32BE(0);
}

export function rng(seed: string): () => number {
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
