import { DEFAULT_LANGUAGE, type Language } from "./language.ts";
import { firstStrongDirection } from "./bidi.ts";

/** The French variant when French is shown and the variant exists; the Arabic text otherwise. */
export function localized<T extends string | null | undefined>(lang: Language, arabic: T, french: string | null | undefined): T | string {
  return lang === "fr" && french ? french : arabic;
}

/**
 * The languages an item has a text of its own in (issue 42, docs/decisions/0143-language-addresses.md): Arabic, the
 * original, always; French or English when the item's title in that language is written (`titleFr`; items have no
 * English fields yet, so `titleEn` is read only where a row carries it). The one rule for "this language's page is a
 * page of its own": only these addresses are indexable, listed in the sitemaps and given as hreflang alternates; the
 * others show the Arabic text, say so, and are noindex.
 */
export function languagesWithText(item: { titleFr?: string | null; titleEn?: string | null }): Language[] {
  const own: Language[] = [DEFAULT_LANGUAGE];
  if (item.titleFr?.trim()) own.push("fr");
  if (item.titleEn?.trim()) own.push("en");
  return own;
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
