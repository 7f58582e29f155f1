import ar from "../app/locales/ar/common.json" with { type: "json" };
import fr from "../app/locales/fr/common.json" with { type: "json" };
import en from "../app/locales/en/common.json" with { type: "json" };
import type { Language } from "../app/lib/language.ts";

const translations = { ar, fr, en } as const;

/** The strings of one language; the server holds all three, the browser receives only the one shown. */
export function translationsFor(lang: Language) {
  return translations[lang];
}

/** A translation lookup for server-side text (e-mails, page titles) without an i18next instance. */
export function translate(lang: Language, key: string): string {
  let node: unknown = translations[lang];
  for (const part of key.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node === "string") return node;
  if (lang !== "ar") return translate("ar", key);
  return key;
}
