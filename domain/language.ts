/**
 * Language rules of public-site.md §1: Arabic is the default and the fallback; detection order is the
 * stored choice, then the browser language, then the page's lang attribute; values that look like script
 * injection are dropped. The stored choice lives in localStorage `i18nextLng` (the spec) and in a cookie
 * of the same name so the server renders the right language on the first request (docs/decisions).
 * Reading a request's language is server-side: language.server.ts.
 */
export const LANGUAGES = ["ar", "fr", "en"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "ar";
/** Also the localStorage key of the stored choice (app/enhance/reading.js keeps both in step). */
export const LANGUAGE_COOKIE = "i18nextLng";
/** The header toggle offers only these two. */
export const TOGGLE_LANGUAGES: readonly Language[] = ["ar", "fr"];

export const directionOf = (lang: Language): "rtl" | "ltr" => (lang === "ar" ? "rtl" : "ltr");

/** A BCP 47-looking tag and nothing else: anything with markup, quotes, brackets or a scheme is dropped. */
const TAG = /^[a-z]{2,3}(?:[-_][a-z0-9]{2,8}){0,3}$/i;

export function looksLikeInjection(value: string): boolean {
  return /[<>"'`;(){}\\/=&%]|javascript:|script/i.test(value);
}

/** The supported language a detected value names, or null when it is unsupported or suspicious. */
export function toSupportedLanguage(value: unknown): Language | null {
  if (typeof value !== "string") return null;
  const v = value.trim();
  if (!v || v.length > 35 || looksLikeInjection(v) || !TAG.test(v)) return null;
  const base = v.slice(0, 2).toLowerCase();
  return (LANGUAGES as readonly string[]).includes(base) ? (base as Language) : null;
}

export type DetectionSources = {
  /** The reader's stored choice (cookie on the server, localStorage in the browser). */
  stored?: string | null;
  /** Browser languages in preference order (Accept-Language on the server, navigator.languages). */
  browser?: readonly string[];
  /** The page's lang attribute. */
  htmlLang?: string | null;
};

export function detectLanguage({ stored, browser = [], htmlLang }: DetectionSources): Language {
  for (const candidate of [stored, ...browser, htmlLang]) {
    const lang = toSupportedLanguage(candidate);
    if (lang) return lang;
  }
  return DEFAULT_LANGUAGE;
}
