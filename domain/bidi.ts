/**
 * Posts are written in Arabic, French or both, often in the same post. Each line gets its own direction and
 * language, so a French line inside an Arabic page keeps its punctuation at the end, an Arabic line inside a
 * French page reads right to left, and a screen reader switches voice. Links are isolated left to right.
 */

export type Dir = "rtl" | "ltr";
export type TextLang = "ar" | "fr" | "en";

const RTL_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const LETTER = /\p{L}/u;
const ARABIC_LETTER = /\p{Script=Arabic}/u;
const LATIN_LETTER = /\p{Script=Latin}/u;

/** The direction of the first strong letter, as dir="auto" would choose; null when there is none. */
export function firstStrongDirection(text: string): Dir | null {
  for (const ch of text) {
    if (!LETTER.test(ch)) continue;
    return RTL_SCRIPT.test(ch) ? "rtl" : "ltr";
  }
  return null;
}

const FRENCH = /\b(le|la|les|des|du|de|et|est|une|un|pour|dans|sur|avec|au|aux|ce|cette|qui|que|nous|vous)\b|[àâçéèêëîïôûùüÿœæ«»]/giu;
const ENGLISH = /\b(the|and|of|to|is|with|for|on|in|at|this|that|we|you|our|from)\b/giu;

/** The language a piece of text is written in: its dominant script, and for Latin text French unless it reads as English. */
export function textLanguage(text: string): TextLang | null {
  let arabic = 0;
  let latin = 0;
  for (const ch of text) {
    if (ARABIC_LETTER.test(ch) && LETTER.test(ch)) arabic++;
    else if (LATIN_LETTER.test(ch)) latin++;
  }
  if (!arabic && !latin) return null;
  if (arabic >= latin) return "ar";
  const french = text.match(FRENCH)?.length ?? 0;
  const english = text.match(ENGLISH)?.length ?? 0;
  return english > french ? "en" : "fr";
}

export type Line = { text: string; dir: Dir | "auto"; lang: TextLang | undefined };

/** One entry per non-empty line of a post, with its direction and language. */
export function linesOf(message: string): Line[] {
  return message
    .split(/\n+/)
    .map((l) => l.trim())
    .filter(Boolean)
    .map((text) => ({ text, dir: firstStrongDirection(text) ?? "auto", lang: textLanguage(text) ?? undefined }));
}

export type Segment = { kind: "text"; text: string } | { kind: "link"; text: string; href: string };

const URL_IN_TEXT = /https?:\/\/[^\s<>"'«»]+/gu;
const TRAILING = /[.,;:!?)\]}»،؛؟…]+$/u;

/** Text and the http(s) links in it. */
export function segmentsOf(text: string): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const raw = match[0];
    const href = raw.replace(TRAILING, "");
    const start = match.index;
    if (start > last) out.push({ kind: "text", text: text.slice(last, start) });
    out.push({ kind: "link", text: href, href });
    last = start + href.length;
  }
  if (last < text.length) out.push({ kind: "text", text: text.slice(last) });
  return out;
}
