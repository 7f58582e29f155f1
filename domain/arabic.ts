/**
 * The search analysis, the only copy of its rules: server/search/search-index.server.ts runs it on every stored text (the
 * lexemes of `search_items`), the search runs it on the query, and the search page on the displayed text to
 * mark the matched words, so the three cannot disagree. Changing a rule means calling `reindexSearch()`
 * after the release (or a migration that queues every item again), so that stored texts are read anew.
 *
 * Three levels (docs/decisions/0070-search-analysis.md):
 * 1. the surface form ("exact"): Unicode NFKC (Arabic presentation forms pasted from PDFs become letters),
 *    Persian/Urdu letter forms (ی ک ہ ھ ە …) → Arabic, harakat, tatweel, Quranic marks and invisible characters
 *    removed, digits → 0-9, Latin lower-cased with accents folded, punctuation → space (and in a query, a
 *    letter typed three times or more → once);
 * 2. the folded form (`normalizeArabic`): أ إ آ → ا, ى → ي, ة → ه, ؤ → و, ئ → ي, گ ڭ ݣ ڨ ڧ → ق, ڤ ڢ ڥ → ف, پ → ب,
 *    چ → ج, ژ → ز, ں → ن; a word with گ, ڭ or ݣ is read with ك as well (decisions 0142, 0152);
 * 3. the keys of a word: every way of reading attached particles off its front (و ف, then ب ك ل, then the
 *    article ال; ل + ال is written لل) and a light stemmer on what remains (sound plurals, dual, feminine,
 *    nisba and common pronoun suffixes, the alef of tanwin, a final hamza), a second reading without the other
 *    pronouns and with a taa marbuta written ت before them or the dual, a sound plural in construct (مسؤولو), and
 *    a compound name's parts, glued with its head's other writings (أبو/أبي/أبا, ابن/بن, بنت/منت, ولد/ول), which a
 *    query reads too (issue 47, decisions 0142 and 0152);
 *    French words lose plural and feminine endings.
 *    A query word uses only its most likely reading (the article stripped, never a lone letter), which is one
 *    of the readings stored for the same word, so a word always finds itself.
 * Upper/lower case and accents are folded by table, never by locale, so JavaScript and any database agree.
 */

import { BROKEN_PLURALS } from "./search-plurals.ts";
import {
  gluedNameParts,
  headForms,
  NO_STRIP_WORDS,
  NOT_PRONOUN_WORDS,
  OWN_TA_WORDS,
  OWN_WAW_WORDS,
  PRONOUN_SUFFIXES,
  spacedNamePairs,
  spacedNames,
  STOP_WORDS,
} from "./search-words.ts";

// ---- Level 1 and 2: character tables ----

/** Surface replacements of Arabic-script characters: FROM[i] becomes TO[i]. Applied after NFKC. */
const SURFACE_ARABIC_PAIRS: [from: string, to: string][] = [
  ["ٱٲٳ", "اأإ"],
  // Persian, Urdu and Kurdish letter forms a phone keyboard or a pasted text brings.
  ["یېےۓ", "يييئ"],
  ["کڪ", "كك"],
  ["ہھەۀۂۃ", "هههههة"],
  ["٠١٢٣٤٥٦٧٨٩", "0123456789"],
  ["۰۱۲۳۴۵۶۷۸۹", "0123456789"],
];

/** Surface replacements of Latin characters: upper case and accents, by table so that no locale decides. */
const SURFACE_LATIN_PAIRS: [from: string, to: string][] = [
  ["ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz"],
  ["ÀÁÂÃÄÅàáâãäå", "aaaaaaaaaaaa"],
  ["Çç", "cc"],
  ["ÈÉÊËèéêë", "eeeeeeee"],
  ["ÌÍÎÏìíîï", "iiiiiiii"],
  ["Ññ", "nn"],
  ["ÒÓÔÕÖòóôõö", "oooooooooo"],
  ["ÙÚÛÜùúûü", "uuuuuuuu"],
  ["ÝýÿŸ", "yyyy"],
  ["ŒÆ", "œæ"],
];
const SURFACE_PAIRS = [...SURFACE_ARABIC_PAIRS, ...SURFACE_LATIN_PAIRS];

/** Spelling folds, applied to the surface form: what readers type for what is written. */
const FOLD_PAIRS: [from: string, to: string][] = [
  ["أإآ", "ااا"],
  ["ىئ", "يي"],
  ["ؤ", "و"],
  ["ة", "ه"],
  // The Hassaniya and Maghrebi g (الگيطنة, أزوگي; ݣ is Morocco's official letter for it) is written ق just as often;
  // foreign v, p, ch, zh.
  ["گڭݣڨ", "قققق"],
  ["ڤپچژ", "فبجز"],
  // Maghrebi script writes fa with a dot below (ڢ) and qaf with one dot above (ڧ); Algeria writes v ڥ; African
  // Arabic-script copy has its own fa, qaf and noon (U+08BB–08BD), and Urdu's dotless noon ں ends a word.
  ["ڢڥࢻ", "ففف"],
  ["ڧࢼ", "قق"],
  ["ںࢽ", "نن"],
];

const joined = (pairs: [string, string][], i: 0 | 1) => pairs.map((p) => p[i]).join("");
/** Every character the surface and folded levels replace (the tests run each through the analysis). */
export const SURFACE_FROM = joined(SURFACE_PAIRS, 0);
export const FOLD_FROM = joined(FOLD_PAIRS, 0);

/** Removed characters: harakat, Quranic marks, tatweel, Latin combining accents, soft hyphen, invisible formatting. */
const REMOVED_RANGES: readonly [from: number, to: number][] = [
  [0x0300, 0x036f],
  [0x00ad, 0x00ad],
  [0x0610, 0x061a],
  [0x061c, 0x061c],
  [0x0640, 0x0640],
  [0x064b, 0x065f],
  [0x0670, 0x0670],
  [0x0674, 0x0674],
  [0x06d6, 0x06ed],
  [0x08d3, 0x08ff],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2066, 0x2069],
  [0xfeff, 0xfeff],
];
const u = (cp: number) => `\\u${cp.toString(16).toUpperCase().padStart(4, "0")}`;
/** The same, as a bracket expression. */
export const REMOVED_CLASS = `[${REMOVED_RANGES.map(([a, b]) => (a === b ? u(a) : `${u(a)}-${u(b)}`)).join("")}]`;

/** Characters that separate words: spaces of every kind and punctuation; a run of them becomes one space. */
export const SEPARATOR_CLASS =
  "[\\t\\n\\v\\f\\r \\u0021-\\u002F\\u02B9-\\u02BC\\u003A-\\u0040\\u005B-\\u0060\\u007B-\\u007E\\u00A0-\\u00AC\\u00AE-\\u00BF\\u00D7\\u00F7\\u060C\\u061B\\u061F\\u066A-\\u066C\\u06D4\\u1680\\u2000-\\u200A\\u2010-\\u205F\\u3000\\uFD3E\\uFD3F]";

/**
 * In a query, an Arabic letter typed three times or more in a row ("شكراااا", "جووول") counts once. Queries only:
 * edited copy does not stretch words. Arabic letters only: a Latin run of three is written as it is meant
 * ("www", "XIII", a code such as "tmwwweqk4"), and stored words keep it.
 */
export const ELONGATION = "([\\u0621-\\u064A])\\1\\1+";

function table(pairs: [string, string][]): Map<string, string> {
  const map = new Map<string, string>();
  for (const [from, to] of pairs) {
    const f = [...from];
    const t = [...to];
    if (f.length !== t.length) throw new Error(`arabic.ts: translate pair ${from} differs in length`);
    f.forEach((ch, i) => map.set(ch, t[i]));
  }
  return map;
}
const SURFACE = table(SURFACE_PAIRS);
const FOLD = table(FOLD_PAIRS);
const ELONGATED = new RegExp(ELONGATION, "gu");

const escapeClass = (chars: string) => [...new Set(chars)].map((c) => `\\u{${c.codePointAt(0)!.toString(16)}}`).join("");
const SURFACE_RE = new RegExp(`[${escapeClass(SURFACE_FROM)}]`, "gu");
const FOLD_RE = new RegExp(`[${escapeClass(FOLD_FROM)}]`, "gu");
const REMOVED_RE = new RegExp(REMOVED_CLASS, "gu");
const SEPARATORS_RE = new RegExp(`${SEPARATOR_CLASS}+`, "gu");
const LIGATURES_RE = /[œæ]/g;

/** The surface form of a text (level 1): what an exact match compares. */
export function surfaceArabic(text: string): string {
  return surfaceLetters(text).replace(SEPARATORS_RE, " ").replace(/^ | $/g, "");
}

/**
 * The surface form but for its separators, left as they are: the same words in the same places, enough to tell
 * whether a word is in a text (the separator pass is half of surfaceArabic's time on a body).
 */
function surfaceLetters(text: string): string {
  return (
    text
      .normalize("NFKC")
      .replace(SURFACE_RE, (ch) => SURFACE.get(ch)!)
      // The French ligatures as two letters: readers type "coeur" for «cœur», "ex aequo" for «ex æquo».
      .replace(LIGATURES_RE, (ch) => (ch === "œ" ? "oe" : "ae"))
      .replace(REMOVED_RE, "")
  );
}

/** Level 2 on a surface form: the spelling folds only. */
export function foldArabic(surface: string): string {
  return surface.replace(FOLD_RE, (ch) => FOLD.get(ch)!);
}

/** Normalised text for matching (levels 1 and 2). */
export function normalizeArabic(text: string): string {
  return foldArabic(surfaceArabic(text));
}

/** A query word with its stretched letters read once (ELONGATION). */
export const collapseElongation = (word: string) => word.replace(ELONGATED, "$1");

/**
 * Letters readers confuse when they type as they speak (ظ/ض, ذ/ز, ث/س, ص/س, ط/ت): not folded for matching,
 * which would merge real words, but tried first when "did you mean" looks for a word.
 */
export const CONFUSABLE_FROM = "ظذثصط";
export const CONFUSABLE_TO = "ضزسست";

// ---- Words ----

/** Longest word kept; longer runs of letters are not words anybody searches for. */
export const MAX_WORD_LENGTH = 60;

/**
 * The surface words of a text, in order, repeats included: markup and entities removed, digits parted from
 * letters ("2024م" → "2024", "م"), words of one letter dropped (a lone digit stays).
 */
export function searchWords(text: string): string[] {
  return wordsOfSurface(surfaceArabic(text.replace(/<[^>]*>/g, " ").replace(/&#?[a-zA-Z0-9]+;/g, " ")));
}

function wordsOfSurface(surface: string): string[] {
  if (!surface) return [];
  const parted = /[0-9]/.test(surface) ? surface.replace(/([0-9])([^0-9 ])/gu, "$1 $2").replace(/([^0-9 ])([0-9])/gu, "$1 $2") : surface;
  return parted.split(" ").filter((w) => {
    const n = len(w);
    return n <= MAX_WORD_LENGTH && (n >= 2 || /^[0-9]$/.test(w));
  });
}

/** Particles and the article that may be read off a word's front: conjunction, then preposition, then article. */
export const PREFIXES: readonly string[] = [
  "و",
  "ف",
  "ب",
  "ك",
  "ل",
  "ال",
  "وب",
  "وك",
  "ول",
  "فب",
  "فك",
  "فل",
  "وال",
  "فال",
  "بال",
  "كال",
  "لل",
  "وبال",
  "وكال",
  "ولل",
  "فبال",
  "فكال",
  "فلل",
];

/** Suffixes removed to a fixed point, in this order, each while at least `min` letters remain. */
export const SUFFIXES: readonly [suffix: string, min: number][] = [
  ["ها", 3],
  ["ان", 3],
  ["ات", 2],
  ["ون", 3],
  ["ين", 3],
  ["يه", 3],
  ["ه", 2],
  ["ي", 3],
  // The alef of tanwin: جميلاً, شكراً, أيضاً.
  ["ا", 3],
];

const STOP_SURFACE = new Set(STOP_WORDS);
const STOP_FOLDED = new Set(STOP_WORDS.map(foldArabic));
const NO_STRIP = new Set(NO_STRIP_WORDS);
const PREFIX_SET = new Set(PREFIXES);
const ARTICLE_PREFIXES = PREFIXES.filter((p) => p.endsWith("ال") || p.endsWith("لل")).sort((a, b) => b.length - a.length);
const ARABIC_LETTER = /[\u0621-\u064A]/;
const LATIN_WORD = /^[a-zœæ]+$/;
/** Length in code points (MAX_WORD_LENGTH counts letters, not UTF-16 units). */
function len(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) n++;
  }
  return n;
}

export const isStopWord = (surface: string) => STOP_SURFACE.has(surface);

/** Whether a folded word is written in Latin letters (French, a name typed on a French keyboard). */
export const isLatinWord = (folded: string) => LATIN_WORD.test(folded);

/** Light stemmer on a folded core: the final hamza, then the suffixes, to a fixed point. */
const SUFFIX_ENDS = new Set(["ء", ...SUFFIXES.map(([suffix]) => suffix.at(-1)!)]);

export function stemArabic(core: string): string {
  let w = core;
  if (!SUFFIX_ENDS.has(w.at(-1) ?? "")) return w;
  for (;;) {
    const before = w;
    if (w.endsWith("ء") && len(w) >= 3) w = w.slice(0, -1);
    for (const [suffix, min] of SUFFIXES) if (w.endsWith(suffix) && len(w) - suffix.length >= min) w = w.slice(0, -suffix.length);
    if (w === before) return w;
  }
}

/** Light French stemmer on a folded word: plural (s, x, aux → al), then feminine (e, nne → n). */
export function stemFrench(word: string): string {
  let w = word;
  if (w.length <= 4) return w;
  if (w.endsWith("eaux")) w = w.slice(0, -1);
  else if (w.endsWith("aux")) w = `${w.slice(0, -3)}al`;
  else if (w.endsWith("x") || (w.endsWith("s") && !w.endsWith("ss"))) w = w.slice(0, -1);
  if (w.endsWith("nne")) w = w.slice(0, -2);
  else if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  return w;
}

/** Whether `prefix` may be read off `word` (folded): what remains is long enough and no step meets NO_STRIP. */
function canStrip(word: string, prefix: string): boolean {
  const rest = len(word) - prefix.length;
  const article = prefix.endsWith("ال") || prefix.endsWith("لل");
  if (rest < (article ? 2 : 3)) return false;
  // Every shorter reading on the way (و then وب then وبال) must not be a word of its own.
  for (let k = 0; k < prefix.length; k++) if (NO_STRIP.has(word.slice(k))) return false;
  return true;
}

/**
 * The folded forms a surface word is read in: as folded (a seat flattened: مسايل = مسائل), with its hamza seats as
 * a bare hamza (مسؤول = مسئول), and with an inner seat dropped as readers type it (مسائل → مسال, رئيس → ريس) when
 * at least four letters remain or the seat stood before ي.
 */
function variants(surface: string): string[] {
  const folded = foldArabic(surface);
  // The Hassaniya g (گ ڭ) stands for a ق said g (الگيطنة: القيطنة) or for the g of a name that standard copy
  // writes ك (تگانت: تكانت, ألاگ: ألاك): both readings (decision 0142).
  if (G_LETTERS.test(surface)) return sortUnique([...variants(surface.replace(G_ALL, "ق")), ...variants(surface.replace(G_ALL, "ك"))]);
  if (!/[ؤئ]/.test(surface)) return [folded];
  const [first, ...rest] = [...surface];
  const bare = foldArabic(first + rest.join("").replace(/[ؤئأإ]/g, "ء"));
  const out = bare === folded ? [folded] : [folded, bare];
  const inner = rest.slice(0, -1).join("");
  if (/[ؤئ]/.test(inner)) {
    const dropped = foldArabic(first + inner.replace(/[ؤئ]/g, "") + rest.at(-1));
    // Counted without the article: السائق is not read as الساق.
    if (len(dropped.replace(/^[وفبك]?(ال|لل)/, "")) >= 4 || /ئي/.test(surface)) out.push(dropped);
  }
  return out;
}

const G_LETTERS = /[گڭݣ]/;
const G_ALL = /[گڭݣ]/g;

/** Folded broken plural → the keys of its singular (domain/search-lexicon.ts), made on first use. */
let pluralKeys: Map<string, string[]> | undefined;
/** Every key a plural adds: a query with one of them cannot pass over a text by its letters (mayMatch). */
let singularKeys: Set<string> | undefined;

function pluralTable(): Map<string, string[]> {
  if (!pluralKeys) {
    pluralKeys = new Map();
    for (const [plural, singular] of BROKEN_PLURALS) {
      pluralKeys.set(foldArabic(plural), sortUnique(variants(singular).map(stemArabic)));
    }
    singularKeys = new Set([...pluralKeys.values()].flat());
  }
  return pluralKeys;
}

/** The keys of the singular when a reading's core (or its stem) is a kept broken plural: قصائد → قصيد. */
function singularKeysOf(core: string): string[] {
  const table = pluralTable();
  return table.get(core) ?? table.get(stemArabic(core)) ?? [];
}

const sortUnique = (keys: string[]) => [...new Set(keys)].sort();

/**
 * The keys of one reading of a folded word: the longest article form read off (وبال، لل، ال…), then stemmed;
 * and a broken plural's singular (القصائد → قصيد).
 */
function readingKeys(folded: string, marbuta = false): string[] {
  const article = /^[وفبكل]?[وفبكل]?[ال]/.test(folded) ? ARTICLE_PREFIXES.find((a) => folded.startsWith(a) && canStrip(folded, a)) : undefined;
  const core = article ? folded.slice(article.length) : folded;
  return [stemArabic(core), ...singularKeysOf(core), ...suffixReadings(core, marbuta)];
}

const NOT_PRONOUN = new Set(NOT_PRONOUN_WORDS);
const OWN_TA = new Set(OWN_TA_WORDS);
const OWN_WAW = new Set(OWN_WAW_WORDS);
/**
 * What may follow a taa marbuta written ت: a pronoun (ه ها ي, and ك: حكومتك, سياراتك, read only here, where a
 * ت before it says it is one; alone it ends too many words: ملك، مبارك، مشترك) or the dual (ان ين, and ا in
 * construct: مدينتا نواكشوط).
 */
const AFTER_TA = /ت(ه|ها|ي|ان|ين|ا|ك)$/;

/** A word ending in ت read as ending in a taa marbuta (مدرست → مدرسة), unless the ت is its own. */
function taMarbutaKeys(word: string): string[] {
  return word.endsWith("ت") && len(word) >= 4 && !OWN_TA.has(word) ? [stemArabic(`${word.slice(0, -1)}ه`)] : [];
}

/**
 * The second readings of a core (issue 47, decision 0142): an attached pronoun the stemmer keeps read off
 * (كتابنا → كتاب, حكومتهم → حكومة), and a taa marbuta written ت before a pronoun or the dual read as ة
 * (مدرستي, مدينتان → مدينة); the words whose endings only look like these are left out (search-words.ts).
 */
function suffixReadings(core: string, marbuta: boolean): string[] {
  const keys: string[] = [];
  const pronoun = NOT_PRONOUN.has(core) ? undefined : PRONOUN_SUFFIXES.find((p) => core.endsWith(p) && len(core) - p.length >= 3);
  if (pronoun) {
    const base = core.slice(0, -pronoun.length);
    // A broken plural keeps its singular under a pronoun (مدارسنا: مدرسة).
    keys.push(stemArabic(base), ...singularKeysOf(base), ...taMarbutaKeys(base));
  }
  const ending = AFTER_TA.exec(core);
  // A final ه may be a pronoun; a final ة as written never is (تقليدتة is no تقليدة + ه).
  if (ending && !(marbuta && ending[1] === "ه")) {
    const base = core.slice(0, -ending[1].length);
    // ك after the ت of a sound feminine plural (سياراتك): the plural, which the stemmer reads.
    keys.push(...taMarbutaKeys(base), ...(ending[1] === "ك" && base.endsWith("ات") ? [stemArabic(base)] : []));
  }
  // A sound plural in construct has lost its ن (مسؤولو الوزارة, موظفو البلدية): read as the plural, when four letters remain.
  if (core.endsWith("و") && len(core) >= 5 && !OWN_WAW.has(core)) keys.push(stemArabic(core.slice(0, -1)));
  return keys;
}

/** A text's words and the glued forms of its spaced compound names: what its lexemes are made of (with `nameKeys`). */
export const indexedWords = (words: readonly string[]) => [...words, ...spacedNames(words, foldArabic)];

/**
 * The keys of a compound name (folded head and what follows it) beyond its words' own: the name glued with each
 * other writing of its head (أبي بكر: ابوبكر، ابابكر; منت أحمد: بنتاحمد), and the parts of a name glued inside it
 * (ولدعبدالعزيز: عبد، عزيز). Keys only, never an exact form: the text did not write them. A head's other writing
 * alone is not stored: short, it meets other words (ابي: أبيات; ول: ولاتة); a query reads it (`analyzeQuery`).
 */
function compoundKeys(head: string, second: string, inner = true): string[] {
  const keys = [...readingKeys(head), ...readingKeys(second)];
  for (const other of headForms(head).slice(1)) keys.push(...readingKeys(other + second));
  const parts = inner ? gluedNameParts(second) : null;
  if (parts) keys.push(...compoundKeys(parts[0], parts[1], false));
  return keys;
}

/** The keys the spaced compound names of a text's words add to its lexemes (`compoundKeys` of each). */
export function nameKeys(words: readonly string[]): string[] {
  return sortUnique(spacedNamePairs(words, foldArabic).flatMap(({ head, second }) => compoundKeys(head, second)));
}

/** The keys a query word looks for: the key of the word as typed (both hamza readings). */
export function queryWordKeys(typed: string): string[] {
  const surface = collapseElongation(typed);
  const folded = foldArabic(surface);
  if (LATIN_WORD.test(folded)) return [stemFrench(folded)];
  if (!ARABIC_LETTER.test(folded)) return [folded];
  const marbuta = surface.endsWith("ة");
  return sortUnique(variants(surface).flatMap((v) => readingKeys(v, marbuta)));
}

/**
 * The keys a stored word is indexed under (without its exact form): the query key of every way of reading its
 * particles off ("وبالمعلمين" is read as itself, بالمعلمين, المعلمين and معلمين: all four give معلم), so a
 * query for any of those readings finds it. A stop-word has none.
 */
export function wordKeys(surface: string): string[] {
  if (STOP_SURFACE.has(surface)) return [];
  const folded = foldArabic(surface);
  if (LATIN_WORD.test(folded)) return [stemFrench(folded)];
  if (!ARABIC_LETTER.test(folded)) return [folded];
  const keys: string[] = [];
  const marbuta = surface.endsWith("ة");
  const reading = (core: string) => {
    keys.push(...readingKeys(core, marbuta));
    // A glued compound name is also stored by its parts: «عبد الله» typed spaced finds «عبدالله».
    const parts = gluedNameParts(core);
    if (parts) keys.push(...compoundKeys(parts[0], parts[1]));
  };
  for (const v of variants(surface)) {
    reading(v);
    // Every prefix starts with one of these letters and has at most four.
    if (!/^[وفبكلا]/.test(v)) continue;
    for (let i = 1; i <= 4; i++) {
      const p = v.slice(0, i);
      if (PREFIX_SET.has(p) && canStrip(v, p)) reading(v.slice(i));
    }
  }
  return sortUnique(keys);
}

/** The exact-form lexeme of a surface word: marked so that it never meets a folded key. */
export const exactLexeme = (surface: string) => `=${surface}`;

/** The lexemes one stored word contributes: its exact form, and its keys unless it is a stop-word. */
export function wordLexemes(surface: string): string[] {
  return [exactLexeme(surface), ...wordKeys(surface)];
}

/** The lexemes of a stored text, sorted and unique: what a tsvector of `search_items` holds. */
export function textLexemes(text: string): string[] {
  const words = searchWords(text);
  return sortUnique([...[...new Set(indexedWords(words))].flatMap(wordLexemes), ...nameKeys(words)]);
}

// ---- Queries ----

export type QueryWord = {
  /** The surface form. */
  surface: string;
  /** Folds to a stop-word: ignored when the query has other words. */
  stop: boolean;
  /** Is a stop-word as written: has no exact form in bodies. */
  stopAsWritten: boolean;
  /** What it matches, any of them (empty for a stop-word). */
  keys: string[];
};

export type QueryAnalysis = {
  words: QueryWord[];
  /** The words that must match (by their keys), or none when the query is only stop-words. */
  content: QueryWord[];
  /** The words whose exact forms make an exact match (every word, when the query is only stop-words). */
  exact: QueryWord[];
};

/** The query as the search runs it: its words, which must match, and which make an exact match. */
export function analyzeQuery(query: string): QueryAnalysis {
  const seen = new Set<string>();
  const words: QueryWord[] = [];
  for (const surface of searchWords(query).map(collapseElongation)) {
    if (seen.has(surface)) continue;
    seen.add(surface);
    const stop = STOP_FOLDED.has(foldArabic(surface));
    words.push({ surface, stop, stopAsWritten: STOP_SURFACE.has(surface), keys: stop ? [] : queryWordKeys(surface) });
  }
  // A name part typed before a name also looks for its other writings: «أبو بكر» finds «جامعة أبي بكر», «بنت أحمد»
  // finds «منت أحمد» (decision 0152). Only there: alone, «أبي» is «my father» and «ول» no word.
  for (const { at, head } of spacedNamePairs(
    words.map((w) => w.surface),
    foldArabic,
  )) {
    const others = headForms(head).slice(1);
    if (others.length && !words[at].stop) words[at].keys = sortUnique([...words[at].keys, ...others.flatMap((f) => readingKeys(f))]);
  }
  const content = words.filter((w) => !w.stop);
  return { words, content, exact: content.length ? words.filter((w) => !w.stopAsWritten) : words };
}

type Matcher = {
  exact: Set<string>;
  keys: Set<string>;
  keysOnly: boolean;
  hamzaKeys: boolean;
  pluralKeys: boolean;
  /** Whether each run of letters seen so far holds a word found (copy repeats its words; bounded). */
  runs: Map<string, boolean>;
};
const MAX_RUNS_KEPT = 20_000;
const matchers = new WeakMap<QueryAnalysis, Matcher>();

function matcherOf(analysis: QueryAnalysis): Matcher {
  let m = matchers.get(analysis);
  if (!m) {
    const keys = new Set(analysis.content.flatMap((w) => w.keys));
    m = {
      exact: new Set(analysis.exact.map((w) => w.surface)),
      keys,
      keysOnly: analysis.content.length > 0,
      hamzaKeys: [...keys].some((k) => k.includes("ء")),
      // A singular's key is met in its plural, which does not hold it as letters (قصيد in قصائد).
      pluralKeys: (pluralTable(), [...keys].some((k) => singularKeys!.has(k))),
      runs: new Map(),
    };
    matchers.set(analysis, m);
  }
  return m;
}

/** Whether a displayed word (surface form) is one the query found: the search's own rule, word by word. */
export function wordMatches(surface: string, analysis: QueryAnalysis): boolean {
  const m = matcherOf(analysis);
  if (m.exact.has(surface)) return true;
  if (!m.keysOnly || STOP_SURFACE.has(surface)) return false;
  const folded = foldArabic(surface);
  if (LATIN_WORD.test(folded)) return m.keys.has(stemFrench(folded));
  // Every key of a word is a piece of its folded form (or of its bare-hamza form): look before computing.
  let candidate = m.pluralKeys;
  for (const k of m.keys) {
    if (candidate) break;
    if (folded.includes(k) || (m.hamzaKeys && /[ؤئ]/.test(surface)) || G_LETTERS.test(surface)) {
      candidate = true;
      break;
    }
  }
  return candidate && shownWordKeys(surface).some((k) => m.keys.has(k));
}

/**
 * What highlighting reads of a text whatever the query: the words of each run of letters and the keys of each
 * word. Every query's first page reads its results' titles, excerpts and bodies run by run, and computing these
 * afresh was most of a cold search page's own work (issue 47); a site's texts share most of their words, so they
 * are kept across queries, up to SHOWN_WORDS_KEPT of each (then the memory starts again).
 */
const runWords = new Map<string, string[]>();
const wordKeysShown = new Map<string, string[]>();
const SHOWN_WORDS_KEPT = 50_000;

function kept<T>(memory: Map<string, T>, key: string, make: (key: string) => T): T {
  // A run longer than any word (a pasted address, a text without spaces) is read but not kept: bounded memory.
  if (key.length > MAX_WORD_LENGTH * 2) return make(key);
  let value = memory.get(key);
  if (value === undefined) {
    if (memory.size >= SHOWN_WORDS_KEPT) memory.clear();
    memory.set(key, (value = make(key)));
  }
  return value;
}

const shownWordKeys = (surface: string) => kept(wordKeysShown, surface, wordKeys);
const wordsOfRun = (run: string) => kept(runWords, run, (r) => wordsOfSurface(surfaceArabic(r)));

/**
 * Whether `text` may hold a word the query finds: every key is a piece of the folded text it comes from (a
 * French key but for its last two letters: journaux gives journal), so a text without any is passed over
 * without reading it word by word.
 */
function mayMatch(text: string, analysis: QueryAnalysis): boolean {
  const m = matcherOf(analysis);
  // Words and keys hold no separator: whether one is a piece of the text does not depend on them.
  const surface = surfaceLetters(text);
  for (const e of m.exact) if (surface.includes(e)) return true;
  if (!m.keysOnly) return false;
  if (m.pluralKeys) return true;
  if (G_LETTERS.test(surface)) return true;
  const folded = foldArabic(surface);
  const bareHamza = /[ؤئ]/.test(surface);
  for (const k of m.keys) {
    const piece = LATIN_WORD.test(k) && k.length > 4 ? k.slice(0, -2) : k;
    if (folded.includes(piece) || (bareHamza && k.includes("ء"))) return true;
  }
  return false;
}

// ---- Highlighting ----

const WORD_RUN = new RegExp(`[^${SEPARATOR_CLASS.slice(1, -1)}]+`, "gu");

/**
 * The words of `text` (as displayed, with its hamzas and diacritics) that the query found, as sorted,
 * non-overlapping [start, end) UTF-16 ranges: a query for "ثقافة" marks "والثقافة" and "الثقافات".
 * Whole words: a <mark> inside an Arabic word would break the joining of its letters. `limit` stops after
 * that many ranges (the first match places a snippet).
 */
export function matchRanges(text: string, query: string | QueryAnalysis, limit = Infinity): [number, number][] {
  const analysis = typeof query === "string" ? analyzeQuery(query) : query;
  const ranges: [number, number][] = [];
  if (analysis.words.length === 0 || !text || !mayMatch(text, analysis)) return ranges;
  const { runs } = matcherOf(analysis);
  for (const run of text.matchAll(WORD_RUN)) {
    // A run holds no markup (<, >, & and ; part words), so its words are those of its surface form. Each run is
    // read once per analysis: the snippets and highlights of a page of results share what they read.
    let found = runs.get(run[0]);
    if (found === undefined) {
      found = wordsOfRun(run[0]).some((w) => wordMatches(w, analysis));
      if (runs.size < MAX_RUNS_KEPT) runs.set(run[0], found);
    }
    if (!found) continue;
    ranges.push([run.index, run.index + run[0].length]);
    if (ranges.length >= limit) break;
  }
  return ranges;
}

/** The text cut into plain and matched pieces, ready to render with <mark>. */
export function highlightParts(text: string, query: string | QueryAnalysis): { text: string; match: boolean }[] {
  const parts: { text: string; match: boolean }[] = [];
  let at = 0;
  for (const [start, end] of matchRanges(text, query)) {
    if (start > at) parts.push({ text: text.slice(at, start), match: false });
    parts.push({ text: text.slice(start, end), match: true });
    at = end;
  }
  if (at < text.length || parts.length === 0) parts.push({ text: text.slice(at), match: false });
  return parts;
}

/** The words of a query worth highlighting: their surface forms. */
export function queryTerms(query: string): string[] {
  return analyzeQuery(query).words.map((w) => w.surface);
}
