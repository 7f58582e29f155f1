/**
 * The one Arabic search normaliser, in JavaScript. Its twin is the SQL function `ar_normalize(text)` in
 * drizzle/0002_search.sql: the database applies it to the stored text (indexes) and to the query, this copy
 * finds the matched words in the displayed text to highlight them. Both must give identical output; a test
 * compares them on every character the tables below name (app/lib/arabic.test.ts, server/search.test.ts).
 * Changing a rule means a new migration that replaces the SQL function and rebuilds the search indexes.
 *
 * The rules (docs/decisions/0014-arabic-search.md):
 * - alef forms أ إ آ ٱ ٲ ٳ → ا; ى → ي; ة → ه; hamza seats ؤ → و and ئ → ي (a lone ء stays);
 *   Persian/Urdu letters a phone keyboard may produce: ی → ي, ک → ك, ۀ → ه;
 * - tatweel, harakat (U+064B–U+065F, U+0670), Quranic marks (U+0610–U+061A, U+06D6–U+06ED), Latin combining
 *   accents, soft hyphen and invisible formatting characters (zero-width, bidi marks) are removed;
 * - Arabic-Indic ٠-٩ and Persian ۰-۹ digits → 0-9;
 * - Latin: upper case → lower case and French accents folded (É → e), so "Ecole" finds "école";
 * - punctuation (Arabic and Latin) and every kind of space become one plain space; the ends are trimmed.
 * Upper/lower case is folded by table, never by locale, so JavaScript and any database locale agree.
 */

/** Character-for-character replacements, in the order of SQL translate(): FROM[i] becomes TO[i]. */
const PAIRS: [from: string, to: string][] = [
  ["أإآٱٲٳ", "اااااا"],
  ["ىیئ", "ييي"],
  ["ؤ", "و"],
  ["ةۀ", "هه"],
  ["ک", "ك"],
  ["٠١٢٣٤٥٦٧٨٩", "0123456789"],
  ["۰۱۲۳۴۵۶۷۸۹", "0123456789"],
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

/** The two strings handed to SQL translate() in the migration. */
export const TRANSLATE_FROM = PAIRS.map((p) => p[0]).join("");
export const TRANSLATE_TO = PAIRS.map((p) => p[1]).join("");

/** Removed characters: the same bracket expression as in the SQL function (PostgreSQL regex syntax). */
export const REMOVED_CLASS =
  "[\\u0300-\\u036F\\u00AD\\u0610-\\u061A\\u061C\\u0640\\u064B-\\u065F\\u0670\\u06D6-\\u06ED\\u200B-\\u200F\\u202A-\\u202E\\u2066-\\u2069\\uFEFF]";

/** Characters that separate words: spaces of every kind and punctuation; a run of them becomes one space. */
export const SEPARATOR_CLASS =
  "[\\t\\n\\v\\f\\r \\u0021-\\u002F\\u003A-\\u0040\\u005B-\\u0060\\u007B-\\u007E\\u00A0-\\u00AC\\u00AE-\\u00BF\\u00D7\\u00F7\\u060C\\u061B\\u061F\\u066A-\\u066C\\u06D4\\u1680\\u2000-\\u200A\\u2010-\\u205F\\u3000\\uFD3E\\uFD3F]";

const TRANSLATE = new Map<string, string>();
{
  const from = [...TRANSLATE_FROM];
  const to = [...TRANSLATE_TO];
  if (from.length !== to.length) throw new Error("arabic.ts: translate tables differ in length");
  from.forEach((ch, i) => TRANSLATE.set(ch, to[i]));
}
// eslint-disable-next-line no-misleading-character-class -- the class lists combining marks one by one on purpose: each is removed on its own
const REMOVED = new RegExp(`^${REMOVED_CLASS}$`, "u");
const SEPARATOR = new RegExp(`^${SEPARATOR_CLASS}$`, "u");

/** One character (code point) after folding: "" when removed, " " for a separator, else the folded letter. */
function foldChar(ch: string): string {
  const mapped = TRANSLATE.get(ch);
  if (mapped !== undefined) return mapped;
  if (REMOVED.test(ch)) return "";
  if (SEPARATOR.test(ch)) return " ";
  return ch;
}

/** Normalised text for matching: see the rules above. Same output as SQL `ar_normalize(text)`. */
export function normalizeArabic(text: string): string {
  let out = "";
  for (const ch of text) {
    const f = foldChar(ch);
    if (f === " " && (out === "" || out.endsWith(" "))) continue;
    out += f;
  }
  return out.endsWith(" ") ? out.slice(0, -1) : out;
}

/** The words of a query worth highlighting: normalised, at least two letters, longest first, no repeats. */
export function queryTerms(query: string): string[] {
  const words = normalizeArabic(query)
    .split(" ")
    .filter((w) => [...w].length >= 2);
  return [...new Set(words)].sort((a, b) => b.length - a.length);
}

/**
 * The words of `text` (as displayed, with its hamzas and diacritics) that contain a word of `query`, as
 * sorted, non-overlapping [start, end) UTF-16 ranges: "مدرسه" marks all of "المدرسة".
 */
export function matchRanges(text: string, query: string): [number, number][] {
  const terms = queryTerms(query);
  if (terms.length === 0 || !text) return [];
  // The normalised text, and for each of its UTF-16 units the offset of the original character it came from.
  let normal = "";
  const origin: number[] = [];
  const chars: { ch: string; at: number }[] = [];
  let offset = 0;
  for (const ch of text) {
    chars.push({ ch, at: offset });
    const f = foldChar(ch);
    if (f !== "" && !(f === " " && (normal === "" || normal.endsWith(" ")))) {
      for (let i = 0; i < f.length; i++) origin.push(chars.length - 1);
      normal += f;
    }
    offset += ch.length;
  }
  const covered = new Array<boolean>(chars.length).fill(false);
  for (const term of terms) {
    for (let from = normal.indexOf(term); from !== -1; from = normal.indexOf(term, from + term.length)) {
      let first = origin[from];
      let last = origin[from + term.length - 1];
      // Whole words: Arabic glues prefixes (ال، و، ب) to the word, and a <mark> inside a word would break
      // the joining of its letters; the harakat after the last letter come along.
      while (first > 0 && foldChar(chars[first - 1].ch) !== " ") first--;
      while (last + 1 < chars.length && foldChar(chars[last + 1].ch) !== " ") last++;
      for (let i = first; i <= last; i++) covered[i] = true;
    }
  }
  const ranges: [number, number][] = [];
  for (let i = 0; i < chars.length; i++) {
    if (!covered[i]) continue;
    const start = chars[i].at;
    while (i + 1 < chars.length && covered[i + 1]) i++;
    ranges.push([start, chars[i].at + chars[i].ch.length]);
  }
  return ranges;
}

/** The text cut into plain and matched pieces, ready to render with <mark>. */
export function highlightParts(text: string, query: string): { text: string; match: boolean }[] {
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
