// Subsets the site's web fonts and writes app/fonts/ (decision 0114): `npm run fonts`.
//
// Reads the @fontsource woff2 files (Noto Sans Arabic "arabic" and Inter "latin", weights 400 and 700), keeps
// the characters the site needs (fixed ranges below plus every character of domain/locales/*/*.json the font has),
// and writes app/fonts/<family>-<weight>.woff2 and app/fonts/fonts.css: the four @font-face rules
// (font-display: swap, unicode-range = what was kept) and metric-adjusted fallback faces on local system fonts
// (size-adjust, ascent-, descent-, line-gap-override, computed as Next.js's font fallback does), so that the swap
// from the fallback to the web font moves nothing. The output is committed: nothing runs at install or start.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import * as prettier from "prettier";

const ROOT = path.resolve(import.meta.dirname, "..");
const OUT_DIR = path.join(ROOT, "app/fonts");
const LOCALES_DIR = path.join(ROOT, "domain/locales");

/** The part of fontkit 2's API used here (neither fontkit nor subset-font ships types). */
interface FontkitFont {
  postscriptName: string;
  unitsPerEm: number;
  ascent: number;
  descent: number;
  lineGap: number;
  characterSet: number[];
  availableFeatures: string[];
  directory: { tables: Record<string, unknown> };
  hasGlyphForCodePoint(codePoint: number): boolean;
  layout(text: string): { advanceWidth: number; glyphs: { id: number }[] };
}
const require = createRequire(import.meta.url);
const fontkit = require("fontkit") as { create(buffer: Buffer): FontkitFont };
const subsetFont = require("subset-font") as (font: Buffer, text: string, options: { targetFormat: "woff2" }) => Promise<Buffer>;
const openFont = (file: string): FontkitFont => fontkit.create(readFileSync(file));

type Range = [first: number, last: number];
const r = (first: number, last = first): Range => [first, last];

/** Shared by both fonts: spaces and the invisible joining and direction marks (kept where the font has them). */
const COMMON: Range[] = [r(0x20), r(0xa0), r(0x200c, 0x200f)];

const ARABIC: Range[] = [
  ...COMMON,
  r(0x060c), // ، comma
  r(0x061b), // ؛ semicolon
  r(0x061f), // ؟ question mark
  r(0x0621, 0x063a), // letters (hamza … ghain)
  r(0x0640), // ـ tatweel
  r(0x0641, 0x064a), // letters (feh … yeh)
  r(0x064b, 0x065f), // harakat and other marks (tashkeel)
  r(0x0660, 0x0669), // Arabic-Indic digits
  r(0x066a, 0x066d), // ٪ ٫ ٬ ٭
  r(0x0670), // superscript alef
  // Letters of Hassaniya and Maghrebi writing: ڢ (Maghrebi feh), ڤ (veh), ڧ (Maghrebi qaf), ڨ (qaf with three
  // dots), ڭ (ng, the /g/ of some Hassaniya spellings), گ (gaf). No presentation forms (U+FB50–U+FEFF): shaping
  // uses GSUB (init, medi, fina, rlig for lam-alef…), whose glyphs the subsetter keeps by layout closure.
  r(0x06a2),
  r(0x06a4),
  r(0x06a7),
  r(0x06a8),
  r(0x06ad),
  r(0x06af),
];

const LATIN: Range[] = [
  ...COMMON,
  r(0x20, 0x7e), // Basic Latin
  r(0xa0, 0xff), // Latin-1 Supplement (French accents, « », NBSP…)
  r(0x0152, 0x0153), // Œ œ
  r(0x0178), // Ÿ (not in @fontsource's "latin" file: lost, see the run's report)
  r(0x2013, 0x2014), // – —
  r(0x2018, 0x201d), // ‘ ’ ‚ ‛ “ ”
  r(0x2022), // •
  r(0x2026), // …
  r(0x20ac), // €
];

interface Source {
  family: "Noto Sans Arabic" | "Inter";
  weight: 400 | 700;
  file: string;
  ranges: Range[];
  out: string;
}

const fontsource = (pkg: string, file: string) => path.join(ROOT, "node_modules/@fontsource", pkg, "files", file);
const SOURCES: Source[] = [
  ...([400, 700] as const).map((weight) => ({
    family: "Noto Sans Arabic" as const,
    weight,
    file: fontsource("noto-sans-arabic", `noto-sans-arabic-arabic-${weight}-normal.woff2`),
    ranges: ARABIC,
    out: `noto-sans-arabic-${weight}.woff2`,
  })),
  ...([400, 700] as const).map((weight) => ({
    family: "Inter" as const,
    weight,
    file: fontsource("inter", `inter-latin-${weight}-normal.woff2`),
    ranges: LATIN,
    out: `inter-${weight}.woff2`,
  })),
];

/** Every string of every domain/locales/<lang>/*.json. */
function localeStrings(): string[] {
  const out: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === "string") out.push(value);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  for (const dir of readdirSync(LOCALES_DIR)) {
    const full = path.join(LOCALES_DIR, dir);
    if (!statSync(full).isDirectory()) continue;
    for (const file of readdirSync(full).filter((f) => f.endsWith(".json"))) walk(JSON.parse(readFileSync(path.join(full, file), "utf8")));
  }
  return out;
}

const codePointsOf = (ranges: Range[]) => ranges.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => a + i));

/** `U+0020, U+0621-064A, …` from a set of code points (controls, and the U+FFFF cmap terminator, left out). */
function unicodeRange(codePoints: Iterable<number>): string {
  const sorted = [...new Set(codePoints)].filter((c) => c >= 0x20 && c !== 0xffff).sort((a, b) => a - b);
  const parts: string[] = [];
  const hex = (c: number) => c.toString(16).toUpperCase().padStart(4, "0");
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(i === j ? `U+${hex(sorted[i])}` : `U+${hex(sorted[i])}-${hex(sorted[j])}`);
    i = j + 1;
  }
  return parts.join(", ");
}

// ---------------------------------------------------------------------------------------------------------------
// Fallback metrics. The fallback face is a local system font shown until the web font arrives; its overrides make
// it take the web font's room: size-adjust = average advance of the web font / that of the fallback, measured on
// the same text, and the web font's ascent, descent and line gap divided by size-adjust (which scales them too).
// The text is fixed (typical news copy), so the figures below do not change when the locales do.

const SAMPLE = {
  arabic:
    "أعلنت الحكومة الموريتانية يوم الخميس في نواكشوط عن استراتيجية جديدة للثقافة والتراث في الصحراء، ويفتتح مهرجان مدائن التراث هذا الأسبوع في شنقيط بالشعر والموسيقى والمعارض",
  latin:
    "Le gouvernement mauritanien a annoncé jeudi à Nouakchott une nouvelle stratégie pour la culture et le patrimoine du Sahara. The festival of the ancient cities opens this week in Chinguetti, with poetry, music and exhibitions.",
};

/**
 * A fallback face: the local fonts its `src` lists (the first one found wins), and the font its size-adjust is
 * measured on, with what it measured (average advance per character of SAMPLE, in ems). The file is measured again
 * when it is on the machine (fonts-dejavu-core, fonts-liberation on Debian); elsewhere the recorded width is used,
 * so every machine writes the same fonts.css.
 */
interface FallbackFont {
  local: string[];
  measuredOn: string;
  file: string;
  recordedAvgWidth: number;
}

/**
 * Arabic: DejaVu Sans is the only font with Arabic glyphs we can measure (Linux); Arial and Tahoma (Windows) have
 * Arabic too and are listed after it. Liberation Sans has no Arabic: it is not listed.
 * Latin: Liberation Sans has Arial's advance widths by design, so measuring it is measuring Arial (Helvetica is
 * within a few per cent). DejaVu Sans is some 15 % wider: with Arial's size-adjust it would be made wider still,
 * so it is not listed (a Linux reader without Liberation gets the unadjusted system font, as before).
 * Both fallback faces carry their web font's unicode-range, so neither draws the other script's letters.
 */
const FALLBACKS: Record<Source["family"], Record<Source["weight"], FallbackFont>> = {
  "Noto Sans Arabic": {
    400: {
      local: ["DejaVu Sans", "DejaVuSans", "Arial", "ArialMT", "Tahoma"],
      measuredOn: "DejaVu Sans",
      file: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
      recordedAvgWidth: 0.459626,
    },
    700: {
      local: ["DejaVu Sans Bold", "DejaVuSans-Bold", "Arial Bold", "Arial-BoldMT", "Tahoma Bold", "Tahoma-Bold"],
      measuredOn: "DejaVu Sans Bold",
      file: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
      recordedAvgWidth: 0.548559,
    },
  },
  Inter: {
    400: {
      local: ["Arial", "ArialMT", "Helvetica", "Liberation Sans", "LiberationSans"],
      measuredOn: "Liberation Sans (Arial's widths)",
      file: "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
      recordedAvgWidth: 0.43985,
    },
    700: {
      local: ["Arial Bold", "Arial-BoldMT", "Helvetica Bold", "Helvetica-Bold", "Liberation Sans Bold", "LiberationSans-Bold"],
      measuredOn: "Liberation Sans Bold (Arial Bold's widths)",
      file: "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
      recordedAvgWidth: 0.474577,
    },
  },
};

/** Average advance per character of `text`, in ems, shaped by fontkit (Arabic joining included). */
function averageWidth(font: FontkitFont, text: string): number {
  const run = font.layout(text);
  if (run.glyphs.some((g) => g.id === 0)) throw new Error(`${font.postscriptName} lacks glyphs of the sample text`);
  return run.advanceWidth / font.unitsPerEm / [...text].length;
}

const percent = (value: number) => `${(Math.abs(value) * 100).toFixed(2)}%`;

function fallbackFace(source: Source, webFont: FontkitFont, range: string): string {
  const fallback = FALLBACKS[source.family][source.weight];
  const sample = source.family === "Inter" ? SAMPLE.latin : SAMPLE.arabic;
  let fallbackWidth = fallback.recordedAvgWidth;
  if (existsSync(fallback.file)) {
    fallbackWidth = averageWidth(openFont(fallback.file), sample);
    if (Math.abs(fallbackWidth - fallback.recordedAvgWidth) > 1e-6)
      console.warn(`  ${fallback.measuredOn}: measured ${fallbackWidth.toFixed(6)}, recorded ${fallback.recordedAvgWidth}: update the recorded width`);
  } else {
    console.log(`  ${fallback.measuredOn} is not on this machine: using its recorded width ${fallbackWidth}`);
  }
  const sizeAdjust = averageWidth(webFont, sample) / fallbackWidth;
  console.log(`  ${source.family} ${source.weight}: ${fallback.measuredOn} ${fallbackWidth.toFixed(6)} em per character, size-adjust ${percent(sizeAdjust)}`);
  const em = webFont.unitsPerEm * sizeAdjust;
  return [
    "@font-face {",
    `  font-family: "${source.family} Fallback";`,
    "  font-style: normal;",
    `  font-weight: ${source.weight};`,
    `  src: ${fallback.local.map((name) => `local("${name}")`).join(", ")};`,
    `  size-adjust: ${percent(sizeAdjust)};`,
    `  ascent-override: ${percent(webFont.ascent / em)};`,
    `  descent-override: ${percent(webFont.descent / em)};`,
    `  line-gap-override: ${percent(webFont.lineGap / em)};`,
    `  unicode-range: ${range};`,
    `  /* measured on ${fallback.measuredOn} */`,
    "}",
  ].join("\n");
}

function webFace(source: Source, range: string): string {
  return [
    "@font-face {",
    `  font-family: "${source.family}";`,
    "  font-style: normal;",
    `  font-weight: ${source.weight};`,
    "  font-display: swap;",
    `  src: url("./${source.out}") format("woff2");`,
    `  unicode-range: ${range};`,
    "}",
  ].join("\n");
}

async function main() {
  mkdirSync(OUT_DIR, { recursive: true });
  // Every character of every locale: each font keeps those it has (an Arabic font has no "é", Inter no "ع").
  const localeText = localeStrings().join("");
  const faces: string[] = [];
  const fallbacks: string[] = [];
  const rows: string[] = [];
  for (const source of SOURCES) {
    const original = readFileSync(source.file);
    const wanted = String.fromCodePoint(...codePointsOf(source.ranges)) + localeText;
    const subset = await subsetFont(original, wanted, { targetFormat: "woff2" });
    writeFileSync(path.join(OUT_DIR, source.out), subset);

    const before = fontkit.create(original);
    const after = fontkit.create(subset);
    const lost = codePointsOf(source.ranges).filter(
      (c) => !after.hasGlyphForCodePoint(c) && !/\p{Default_Ignorable_Code_Point}/u.test(String.fromCodePoint(c)),
    );
    // Invisible characters (ZWNJ, LRM, soft hyphen…) need no glyph: they are not reported.
    if (lost.length) console.log(`  ${source.out}: not in the @fontsource file, so not kept: ${unicodeRange(lost)}`);
    const range = unicodeRange(after.characterSet);
    faces.push(webFace(source, range));
    fallbacks.push(fallbackFace(source, after, range));
    rows.push(
      `${source.out.padEnd(26)} ${String(original.length).padStart(7)} B -> ${String(subset.length).padStart(7)} B ` +
        `(${Math.round((100 * subset.length) / original.length)} %), ${before.characterSet.length} -> ${after.characterSet.length} characters`,
    );
  }
  const css = [
    "/* Generated by scripts/fonts.ts (`npm run fonts`, decision 0114): do not edit by hand. */",
    "",
    "/* The web fonts, subset to the characters the site uses. */",
    ...faces.flatMap((face) => [face, ""]),
    "/* Local fonts sized to take the web fonts' room while they load (font-display: swap), so the swap shifts nothing. */",
    ...fallbacks.flatMap((face, i) => (i < fallbacks.length - 1 ? [face, ""] : [face])),
    "",
  ].join("\n");
  // Formatted as `npm run format:check` expects of every file in the repository.
  const cssFile = path.join(OUT_DIR, "fonts.css");
  writeFileSync(cssFile, await prettier.format(css, { ...(await prettier.resolveConfig(cssFile)), filepath: cssFile }));
  console.log(rows.join("\n"));
  console.log(`wrote ${path.relative(ROOT, OUT_DIR)}/fonts.css`);
}

await main();
