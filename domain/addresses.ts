/**
 * Every language at its own address (issue 42, docs/decisions/0143-language-addresses.md): Arabic at the root
 * (`/news/…`), French under `/fr/…`, English under `/en/…`. A reading page's language is decided by its address
 * alone, so a crawler sees the three and a shared cache keeps one copy per address.
 *
 * Paths in the code, the database and loader data are written once, language-neutral (the Arabic address:
 * `publicUrl`, NAV_ITEMS, …); a page turns them into its own language's addresses as it renders them
 * (`localizedPath`, app/lib/addresses.ts `useLocalPath`). The back-office, the APIs, files and the site-wide
 * sitemaps have one address for all languages and are left as they are.
 *
 * Client-safe: plain functions of strings.
 */
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "./language.ts";

/** The address prefix of each language: none for Arabic, the site's first language. */
export const LANGUAGE_PREFIX: Readonly<Record<Language, string>> = { ar: "", fr: "/fr", en: "/en" };

/** The languages that live under a prefix of their own. */
export const PREFIXED_LANGUAGES = LANGUAGES.filter((lang) => LANGUAGE_PREFIX[lang] !== "");

/**
 * Addresses that are the same for every language: the back-office, the APIs, the language switch, sign-out,
 * uploaded files and build assets, debugging, the site-wide sitemaps and robots.txt, and any file but a feed
 * (`…/feed.xml`, `rss.xml` have a twin per language).
 */
const SHARED_PATHS =
  /^\/(?:admin|api|assets|uploads|files|fonts|social|language|preferences|sitemaps|\.well-known)(?:\/|$)|^\/auth\/sign-out(?:\/|$)|^\/(?:sitemap\.xml|robots\.txt)$/;
const FILE = /\/[^/]*\.(?!xml$)[a-z0-9]+$/i;

/** Splits a path into its address language (null: none named, that is Arabic or a shared address) and the rest. */
export function splitAddress(pathname: string): { lang: Language | null; path: string } {
  for (const lang of PREFIXED_LANGUAGES) {
    const prefix = LANGUAGE_PREFIX[lang];
    if (pathname === prefix || pathname.startsWith(`${prefix}/`) || pathname.startsWith(`${prefix}?`) || pathname.startsWith(`${prefix}#`)) {
      const rest = pathname.slice(prefix.length);
      return { lang, path: rest.startsWith("/") ? rest : `/${rest}` };
    }
  }
  return { lang: null, path: pathname };
}

/** Whether a (language-neutral) path has an address per language: every reading page and feed. */
export function isLocalizable(path: string): boolean {
  if (!path.startsWith("/") || path.startsWith("//")) return false;
  const pathname = path.split(/[?#]/, 1)[0];
  return !SHARED_PATHS.test(pathname) && !FILE.test(pathname);
}

/** The language an address shows: its prefix's, else Arabic. */
export function languageOfAddress(pathname: string): Language {
  return splitAddress(pathname).lang ?? DEFAULT_LANGUAGE;
}

/** Whether the address alone decides the language of the page at `pathname` (else: the reader's stored choice). */
export function isAddressedByLanguage(pathname: string): boolean {
  const { lang, path } = splitAddress(pathname);
  return lang !== null || isLocalizable(path);
}

/**
 * The address of `path` (language-neutral, or already another language's: it is read again) in `lang`, query
 * and fragment kept. External links, shared addresses and anything not a path come back unchanged.
 */
export function localizedPath(lang: Language, path: string): string {
  if (!path.startsWith("/") || path.startsWith("//")) return path;
  const neutral = splitAddress(path).path;
  if (!isLocalizable(neutral)) return neutral;
  const prefix = LANGUAGE_PREFIX[lang];
  if (!prefix) return neutral;
  // The home page of a language is `/fr`, not `/fr/` (one address per page); a query or fragment follows it.
  return neutral === "/" ? prefix : /^\/[?#]/.test(neutral) ? prefix + neutral.slice(1) : prefix + neutral;
}

/** The language-neutral path of an address (its Arabic address): what loaders, caches and alternates start from. */
export function neutralPath(pathname: string): string {
  return splitAddress(pathname).path;
}

/** The same page in every language, neutral path in: `{ ar: "/news", fr: "/fr/news", en: "/en/news" }`. */
export function alternatePaths(path: string): Record<Language, string> {
  return Object.fromEntries(LANGUAGES.map((lang) => [lang, localizedPath(lang, path)])) as Record<Language, string>;
}
