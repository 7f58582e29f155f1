import ar from "#domain/locales/ar/common.json" with { type: "json" };
import fr from "#domain/locales/fr/common.json" with { type: "json" };
import en from "#domain/locales/en/common.json" with { type: "json" };
import type { Language } from "#domain/language.ts";
import { formatCount } from "#domain/plural.ts";

const translations = { ar, fr, en } as const;

/** The strings of one language; the server holds all three, the browser receives only the one shown. */
export function translationsFor(lang: Language) {
  return translations[lang];
}

const translationsJson = new Map<Language, string>();

/** The strings of one language as one JSON text, as the root loader hands them (app/lib/root-data.ts), made once. */
export function translationsJsonFor(lang: Language): string {
  let text = translationsJson.get(lang);
  if (text === undefined) translationsJson.set(lang, (text = JSON.stringify(translations[lang])));
  return text;
}

/** A translation lookup for server-side text (e-mails, page titles) without an i18next instance. */
export function translate(lang: Language, key: string): string {
  let node: unknown = translations[lang];
  for (const part of key.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node === "string") return node;
  if (lang !== "ar") return translate("ar", key);
  return key;
}

/**
 * A counted string for server-side text (e-mails): the form of `count` in `lang` (domain/plural.ts, the same
 * function the pages use), Arabic when the language lacks the key.
 */
export function translateCount(lang: Language, key: string, count: number, values: Readonly<Record<string, string | number>> = {}): string {
  const text = formatCount(translations[lang], lang, key, count, values);
  return text === key && lang !== "ar" ? translateCount("ar", key, count, values) : text;
}

const HOUR_SECONDS = 3600;
const DAY_SECONDS = 24 * HOUR_SECONDS;

/**
 * "The link expires in …" for a link that lives `seconds`, written from the lifetime the code enforces so the
 * e-mail cannot promise another one: in hours up to two days (24, 48 hours, as readers count them), in days
 * beyond when it is a whole number of days (7 days).
 */
export function linkExpiry(lang: Language, seconds: number): string {
  if (seconds > 2 * DAY_SECONDS && seconds % DAY_SECONDS === 0) return translateCount(lang, "mail.expiresDays", seconds / DAY_SECONDS);
  return translateCount(lang, "mail.expiresHours", Math.max(1, Math.ceil(seconds / HOUR_SECONDS)));
}
