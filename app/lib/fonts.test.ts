// The committed subset fonts (app/fonts/, written by scripts/fonts.ts) against the strings the site shows.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fontPreloads } from "./fonts.ts";

interface Font {
  unitsPerEm: number;
  availableFeatures: string[];
  directory: { tables: Record<string, unknown> };
  hasGlyphForCodePoint(codePoint: number): boolean;
  glyphForCodePoint(codePoint: number): { id: number };
  layout(text: string): { glyphs: { id: number }[]; positions: { xAdvance: number; xOffset: number; yOffset: number }[] };
}
// fontkit ships no types.
const fontkit = createRequire(import.meta.url)("fontkit") as { create(buffer: Buffer): Font };

const ROOT = path.resolve(import.meta.dirname, "../..");
const FONTS = path.join(ROOT, "app/fonts");
const fontsource = (pkg: string, file: string) => path.join(ROOT, "node_modules/@fontsource", pkg, "files", file);
const open = (file: string) => fontkit.create(readFileSync(file));

const FILES = [
  { out: "noto-sans-arabic-400.woff2", source: fontsource("noto-sans-arabic", "noto-sans-arabic-arabic-400-normal.woff2") },
  { out: "noto-sans-arabic-700.woff2", source: fontsource("noto-sans-arabic", "noto-sans-arabic-arabic-700-normal.woff2") },
  { out: "inter-400.woff2", source: fontsource("inter", "inter-latin-400-normal.woff2") },
  { out: "inter-700.woff2", source: fontsource("inter", "inter-latin-700-normal.woff2") },
];
const arabic = [open(path.join(FONTS, "noto-sans-arabic-400.woff2")), open(path.join(FONTS, "noto-sans-arabic-700.woff2"))];
const latin = [open(path.join(FONTS, "inter-400.woff2")), open(path.join(FONTS, "inter-700.woff2"))];
const arabicSource = open(FILES[0].source);
const latinSource = open(FILES[2].source);

/** Every character of every string of domain/locales/<lang>/*.json, with the language it was found in. */
function localeCharacters(): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (value: unknown, lang: string) => {
    if (typeof value === "string") for (const c of value) found.set(c, found.get(c) ?? lang);
    else if (value && typeof value === "object") for (const v of Object.values(value)) walk(v, lang);
  };
  const dir = path.join(ROOT, "domain/locales");
  for (const lang of readdirSync(dir).filter((d) => statSync(path.join(dir, d)).isDirectory()))
    for (const file of readdirSync(path.join(dir, lang)).filter((f) => f.endsWith(".json")))
      walk(JSON.parse(readFileSync(path.join(dir, lang, file), "utf8")), lang);
  return found;
}

/** The Arabic-script runs (with their spaces and marks) of every string of every locale. */
function arabicStrings(): string[] {
  const runs: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === "string") runs.push(...(value.match(/[\p{Script=Arabic}\u200c-\u200f][\p{Script=Arabic}\p{M}\u200c-\u200f ]*/gu) ?? []));
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  const dir = path.join(ROOT, "domain/locales");
  for (const lang of readdirSync(dir).filter((d) => statSync(path.join(dir, d)).isDirectory()))
    for (const file of readdirSync(path.join(dir, lang)).filter((f) => f.endsWith(".json"))) walk(JSON.parse(readFileSync(path.join(dir, lang, file), "utf8")));
  return runs;
}

const hex = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

describe("the subset fonts", () => {
  const characters = localeCharacters();

  it("scans the three languages' strings", () => {
    expect(new Set(characters.values())).toEqual(new Set(["ar", "fr", "en"]));
    expect(characters.size).toBeGreaterThan(100);
  });

  it("draw every Arabic character of the locales with Noto Sans Arabic, in both weights", () => {
    const arabicScript = [...characters.keys()].filter((c) => /\p{Script=Arabic}/u.test(c));
    expect(arabicScript.length).toBeGreaterThan(30);
    for (const font of arabic) expect(arabicScript.filter((c) => !font.hasGlyphForCodePoint(c.codePointAt(0)!)).map(hex)).toEqual([]);
  });

  it("draw every other character of the locales with Inter, or with Noto Sans Arabic where only it has it", () => {
    const missing: string[] = [];
    for (const [c, lang] of characters) {
      if (/\p{Script=Arabic}/u.test(c)) continue;
      const cp = c.codePointAt(0)!;
      const fonts = latinSource.hasGlyphForCodePoint(cp) ? latin : arabicSource.hasGlyphForCodePoint(cp) ? arabic : [];
      // Neither @fontsource file has it: the system draws it, as before (emoji such as ✅, bidi marks).
      if (fonts.length === 0) expect(`${hex(c)} ${c}`).toMatch(/\p{Extended_Pictographic}|\p{Default_Ignorable_Code_Point}/u);
      for (const font of fonts) if (!font.hasGlyphForCodePoint(cp)) missing.push(`${hex(c)} (${lang})`);
    }
    expect(missing).toEqual([]);
    for (const c of "Aaé«»’…—") expect(latin.every((font) => font.hasGlyphForCodePoint(c.codePointAt(0)!))).toBe(true);
  });

  it("keep what articles need beyond the interface: all Arabic letters, tashkeel, digits, punctuation, ڤ ڨ گ, joiners", () => {
    const wanted = [
      [0x0621, 0x063a],
      [0x0640, 0x065f],
      [0x0660, 0x066d],
      [0x0670, 0x0670],
      [0x060c, 0x060c],
      [0x061b, 0x061b],
      [0x061f, 0x061f],
      [0x06a4, 0x06a4],
      [0x06a8, 0x06a8],
      [0x06af, 0x06af],
      [0x200c, 0x200d],
      [0x0020, 0x0020],
      [0x00a0, 0x00a0],
    ].flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => a + i));
    for (const font of arabic) expect(wanted.filter((cp) => !font.hasGlyphForCodePoint(cp)).map((cp) => cp.toString(16))).toEqual([]);
  });

  it("keep Arabic shaping: GSUB and GPOS with the joining, ligature and mark features", () => {
    for (const font of arabic) {
      expect(Object.keys(font.directory.tables)).toEqual(expect.arrayContaining(["GSUB", "GPOS", "GDEF"]));
      expect(font.availableFeatures).toEqual(expect.arrayContaining(["init", "medi", "fina", "rlig", "mark", "mkmk"]));
      // Joined forms: the three behs of "ببب" take three different bodies (Noto draws the dot as a mark), none of
      // them the isolated one.
      const bodies = font
        .layout("ببب")
        .glyphs.filter((_, i) => i % 2 === 1)
        .map((g) => g.id);
      expect(new Set(bodies).size).toBe(3);
      expect(bodies).not.toContain(font.layout("ب").glyphs[1].id);
    }
  });

  it("shape every Arabic string of the locales as the @fontsource files do (same glyph count, advances and offsets)", () => {
    const strings = arabicStrings();
    expect(strings.length).toBeGreaterThan(100);
    for (const [subset, source] of [
      [arabic[0], arabicSource],
      [arabic[1], open(FILES[1].source)],
    ]) {
      const shape = (font: Font, text: string) => font.layout(text).positions.map((p) => [p.xAdvance, p.xOffset, p.yOffset].join(","));
      const differing = strings.filter((text) => shape(subset, text).join(" ") !== shape(source, text).join(" "));
      expect(differing).toEqual([]);
    }
  });

  it.each(FILES)("$out is smaller than its @fontsource file", ({ out, source }) => {
    const subsetSize = statSync(path.join(FONTS, out)).size;
    expect(subsetSize).toBeGreaterThan(1000);
    expect(subsetSize).toBeLessThan(statSync(source).size);
  });
});

describe("fonts.css", () => {
  const css = readFileSync(path.join(FONTS, "fonts.css"), "utf8");
  const faces = css.match(/@font-face\s*{[^}]*}/g) ?? [];
  const family = (face: string) => /font-family:\s*"([^"]+)"/.exec(face)?.[1];

  it("declares the four web fonts with font-display: swap, a relative URL to the subset file and a unicode-range", () => {
    const web = faces.filter((face) => face.includes("url("));
    expect(web.map((face) => `${family(face)} ${/font-weight:\s*(\d+)/.exec(face)?.[1]}`).sort()).toEqual([
      "Inter 400",
      "Inter 700",
      "Noto Sans Arabic 400",
      "Noto Sans Arabic 700",
    ]);
    for (const face of web) {
      expect(face).toMatch(/font-display:\s*swap;/);
      expect(face).toMatch(/src:\s*url\("\.\/[a-z-]+-(400|700)\.woff2"\) format\("woff2"\);/);
      expect(face).toMatch(/unicode-range:\s*U\+/);
    }
    for (const { out } of FILES) expect(css).toContain(`url("./${out}")`);
  });

  it("declares the metric-adjusted fallback faces on local fonts, each limited to its script", () => {
    for (const name of ["Noto Sans Arabic Fallback", "Inter Fallback"]) {
      const fallback = faces.filter((face) => family(face) === name);
      expect(fallback).toHaveLength(2);
      for (const face of fallback) {
        expect(face).toMatch(/src:\s*local\("[^"]+"\)/);
        expect(face).not.toContain("url(");
        for (const descriptor of ["size-adjust", "ascent-override", "descent-override", "line-gap-override"])
          expect(face).toMatch(new RegExp(`${descriptor}:\\s*\\d+(\\.\\d+)?%;`));
        const sizeAdjust = Number(/size-adjust:\s*([\d.]+)%/.exec(face)?.[1]);
        expect(sizeAdjust).toBeGreaterThan(70);
        expect(sizeAdjust).toBeLessThan(130);
      }
    }
    const range = (name: string) => /unicode-range:\s*([^;]+);/.exec(faces.find((face) => family(face) === name)!)?.[1];
    expect(range("Inter Fallback")).toBe(range("Inter"));
    expect(range("Noto Sans Arabic Fallback")).toBe(range("Noto Sans Arabic"));
  });
});

describe("fontPreloads", () => {
  it("preloads the regular Arabic font on Arabic pages, and Inter then Arabic on French and English ones", () => {
    expect(fontPreloads("ar").map((f) => path.basename(f.href))).toEqual([expect.stringMatching(/^noto-sans-arabic-400/)]);
    for (const lang of ["fr", "en"] as const)
      expect(fontPreloads(lang).map((f) => path.basename(f.href))).toEqual([
        expect.stringMatching(/^inter-400/),
        expect.stringMatching(/^noto-sans-arabic-400/),
      ]);
    for (const preload of fontPreloads("fr")) expect(preload.type).toBe("font/woff2");
  });
});
