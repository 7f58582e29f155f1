/**
 * What the root loader (app/root.tsx) gives every page: the language and its strings, the site's public
 * settings, the signed-in account. Declared here rather than inferred from the loader, so the modules that read
 * it (the i18n hooks, the meta helpers, the header) do not import root.tsx, which imports them: the loader is
 * checked against this type (`satisfies`), so the two cannot drift apart.
 */
import type { Language } from "#domain/language.ts";
import type { PublicConfig } from "#server/config.server.ts";
import type { TickerItem } from "#domain/live.ts";
import type { ReadingPreferences } from "#domain/reading-preferences.ts";

/** One language's strings, as the root loader hands them to the browser. */
export type Translations = Record<string, unknown>;

/** The signed-in account as the header shows it (no session cookie: null). */
export type SignedInUser = { id: string; email: string; name: string; isAdmin: boolean };

export type RootLoaderData = {
  lang: Language;
  dir: "rtl" | "ltr";
  /**
   * The language's strings as one JSON text (read them with translationsOf). React Router encodes every loader's
   * data for the browser, even on a page that does not hydrate: an object is encoded value by value (over 2,000 of
   * them, about 2 ms of every page, issue 47), a text in one call.
   */
  translationsJson: string;
  site: PublicConfig;
  year: number;
  user: SignedInUser | null;
  /** The header's ticker (issue 44): live coverages, then breaking items, in the page's language; empty off the reading pages or on a failure. */
  ticker: TickerItem[];
  /** Night reading and text size (decision 0149), from the reader's cookie: rendered on <html> in the first byte. */
  reading: ReadingPreferences;
};

/** Parsed once per text: the server hands the same text object per language, the browser gets one per language shown. */
const parsed = new Map<string, Translations>();

/** The strings of the root data's language; empty without root data (an error screen before the root loader ran). */
export function translationsOf(root: Pick<RootLoaderData, "translationsJson"> | undefined): Translations {
  const text = root?.translationsJson;
  if (!text) return {};
  let strings = parsed.get(text);
  if (!strings) {
    // Three languages: a fourth text can only be an old one of a page left open across a deployment.
    if (parsed.size >= 3) parsed.clear();
    parsed.set(text, (strings = JSON.parse(text) as Translations));
  }
  return strings;
}
