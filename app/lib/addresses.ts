/**
 * A page's links in its own language (issue 42, domain/addresses.ts): paths are written language-neutral (the
 * Arabic address) and each link turns them into the address of the language shown, so a French reader stays
 * under `/fr` and a crawler following links stays in one language.
 */
import { useCallback } from "react";
import { alternatePaths, isAddressedByLanguage, localizedPath, neutralPath } from "#domain/addresses.ts";
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "#domain/language.ts";
import { useLanguage } from "./i18n.ts";

/** `(path) => the address of path in the language shown`: for every href, `to` and form action of a reading page. */
export function useLocalPath(): (path: string) => string {
  const lang = useLanguage();
  return useCallback((path: string) => localizedPath(lang, path), [lang]);
}

/** The page at `pathname` (any language's address, query kept by the caller) in each language. */
export function alternatesOfAddress(pathname: string): Record<Language, string> {
  return alternatePaths(neutralPath(pathname));
}

/**
 * Query parameters that never make another page: notices said once, tokens, where to go after signing in, and
 * campaign tags. The rest (`?page=2`, a section's filters, a search) are part of the page's address, so its
 * canonical URL and its alternates keep them.
 */
const NOT_THE_PAGE = /^(?:notice|token|redirectTo|fbclid|gclid|utm_.*)$/;

/** The part of a query string that names the page (`?page=2&type=video`), `""` when none does. */
export function pageQuery(search: string): string {
  const params = new URLSearchParams(search);
  for (const key of [...params.keys()]) if (NOT_THE_PAGE.test(key)) params.delete(key);
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** A reading page's language versions (hreflang) and its canonical URL: absolute, in `<head>` (root.tsx). */
export type PageAddresses = {
  canonical: string;
  /** The languages the page exists in on its own, then `x-default` (the Arabic address): reciprocal on each. */
  alternates: { hreflang: Language | "x-default"; href: string }[];
};

/**
 * The canonical URL and the alternates of the page at `pathname` + `search` shown in `lang`, given the languages
 * it has a text of its own in (an item without French text has no French page of its own: decision 0143). None for a
 * page that is not a reading page, or that shows a language it has no text in (that page is noindex).
 */
export function pageAddresses(
  base: string,
  lang: Language,
  { pathname, search }: { pathname: string; search: string },
  own: readonly Language[] = LANGUAGES,
): PageAddresses | null {
  if (!isAddressedByLanguage(pathname) || !own.includes(lang)) return null;
  const path = neutralPath(pathname) + pageQuery(search);
  const url = (l: Language) => `${base}${localizedPath(l, path)}`;
  return {
    canonical: url(lang),
    alternates: [
      ...LANGUAGES.filter((l) => own.includes(l)).map((l) => ({ hreflang: l, href: url(l) })),
      { hreflang: "x-default", href: url(DEFAULT_LANGUAGE) },
    ],
  };
}
