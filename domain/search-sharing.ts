/**
 * What an item tells search engines and link previews (issue 29, docs/decisions/0123-search-and-sharing.md): its
 * own search and sharing fields where the editor filled them, else its title, summary and main image. One rule for
 * both sides: the editor's previews (app/components/admin/search-sharing.tsx) and the public page's meta tags
 * (app/lib/detail-meta.ts) read it, so the preview shows what the page will say.
 */

/** The longest description a page gives (meta description, og:description). */
export const DESCRIPTION_MAX = 300;
/** Where a search engine's snippet cuts the title and the description (Google: about 60 and 160 characters). */
export const SNIPPET_TITLE_MAX = 60;
export const SNIPPET_DESCRIPTION_MAX = 160;

export type SharingInput = {
  title: string | null | undefined;
  summary: string | null | undefined;
  /** The main image's address. */
  image: string | null | undefined;
  metaDescription: string | null | undefined;
  shareTitle: string | null | undefined;
  shareImage: string | null | undefined;
  canonicalUrl: string | null | undefined;
  noindex: boolean | null | undefined;
};

export type Sharing = {
  /** og:title and twitter:title. */
  title: string;
  /** The meta description, og:description and twitter:description. */
  description: string;
  /** og:image's source (before the share crop), or null. */
  image: string | null;
  /** The canonical URL the editor gave, or null: the page's own. */
  canonical: string | null;
  noindex: boolean;
};

const clean = (value: string | null | undefined) => (value ?? "").replace(/\s+/g, " ").trim();

/** The item's sharing as the page states it: each field, or what stands in for it. */
export function effectiveSharing(input: SharingInput): Sharing {
  return {
    title: clean(input.shareTitle) || clean(input.title),
    description: (clean(input.metaDescription) || clean(input.summary)).slice(0, DESCRIPTION_MAX),
    image: clean(input.shareImage) || clean(input.image) || null,
    canonical: clean(input.canonicalUrl) || null,
    noindex: input.noindex === true,
  };
}

/** A text cut as a search engine cuts it: at most `max` characters, at a word's end when one is near, with «…». */
export function snippetText(text: string, max: number): string {
  const value = clean(text);
  if (value.length <= max) return value;
  const cut = value.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max - 20 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
