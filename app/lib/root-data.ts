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
  translations: Translations;
  site: PublicConfig;
  year: number;
  user: SignedInUser | null;
  /** The header's ticker (issue 44): live coverages, then breaking items, in the page's language; empty off the reading pages or on a failure. */
  ticker: TickerItem[];
  /** Night reading and text size (decision 0149), from the reader's cookie: rendered on <html> in the first byte. */
  reading: ReadingPreferences;
};
