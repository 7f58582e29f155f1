/**
 * The founding notes the emirates page shows (public-site.md §2 "Emirates"): Adrar about 1740, Brakna
 * before 1600, Tagant about 1580, Trarza about 1640. Keyed by the category slugs of the emirates.
 */
export const EMIRATE_FOUNDING = {
  adrar: { qualifier: "about", year: 1740 },
  brakna: { qualifier: "before", year: 1600 },
  taganit: { qualifier: "about", year: 1580 },
  trarza: { qualifier: "about", year: 1640 },
} as const satisfies Record<string, { qualifier: "about" | "before"; year: number }>;

export type EmirateSlug = keyof typeof EMIRATE_FOUNDING;
/** The filter of the page, in the spec's order after "all". */
export const EMIRATE_SLUGS = Object.keys(EMIRATE_FOUNDING) as EmirateSlug[];

export const isEmirateSlug = (value: unknown): value is EmirateSlug => typeof value === "string" && Object.hasOwn(EMIRATE_FOUNDING, value);

export type FoundingNote = { key: "emirates.foundedAbout" | "emirates.foundedBefore"; shortKey: "emirates.aboutShort" | "emirates.beforeShort"; year: number };

/** The translation keys (full sentence, and short for the filter chips) of an emirate's founding note; null without one. */
export function foundingNote(slug: string | null | undefined): FoundingNote | null {
  if (!isEmirateSlug(slug)) return null;
  const f = EMIRATE_FOUNDING[slug];
  return f.qualifier === "about"
    ? { key: "emirates.foundedAbout", shortKey: "emirates.aboutShort", year: f.year }
    : { key: "emirates.foundedBefore", shortKey: "emirates.beforeShort", year: f.year };
}

/** Emirates excerpts are cut at 120 characters (public-site.md §9). */
export const EMIRATES_EXCERPT_MAX = 120;
