import type { Language } from "./language.ts";
import { firstStrongDirection } from "./bidi.ts";

/** The French variant when French is shown and the variant exists; the Arabic text otherwise. */
export function localized<T extends string | null | undefined>(lang: Language, arabic: T, french: string | null | undefined): T | string {
  return lang === "fr" && french ? french : arabic;
}

// Tags and character references (&nbsp; would read as Latin letters).
const MARKUP = /<[^>]*>?|&[#\w]+;/g;

/**
 * The direction of a text by its first strong letter, as the browser's dir="auto" decides it; null when it
 * has no letter (a number, a date). Markup is skipped: a body of rich text is read by its words.
 */
export function textDirection(text: string | null | undefined): "rtl" | "ltr" | null {
  if (!text) return null;
  // The first letter is near the start: look at the beginning only, so a long body costs nothing.
  const head = text.length > 4000 ? text.slice(0, 4000) : text;
  return firstStrongDirection(/[<&]/.test(head) ? head.replace(MARKUP, " ") : head);
}

export type TextProps = { lang?: string; dir?: "rtl" | "ltr" | "auto" };

/**
 * The lang and dir of an element showing a piece of content (a title, an excerpt, a body, a name) on a page
 * in `uiLang`. Content keeps its own language whatever the interface's: the Arabic original on a French or
 * English page is marked lang="ar" dir="rtl", so its punctuation and numbers land on the right side and
 * screen readers read it as Arabic. Latin text on an Arabic page (a French title, a Latin name) is of a
 * language we cannot know: dir="auto" lets it run left to right. Nothing when the text matches the page.
 */
export function textProps(uiLang: Language, text: string | null | undefined): TextProps {
  const direction = textDirection(text);
  if (direction === "rtl") return uiLang === "ar" ? {} : { lang: "ar", dir: "rtl" };
  if (direction === "ltr" && uiLang === "ar") return { dir: "auto" };
  return {};
}
