/** What a detail page's URL segment names (server/content/detail.server.ts, the live coverage's pages). */
import { PAGE_SLUG_PATTERN } from "./content-types/index.ts";

export type ItemKey = { slug: string } | { id: number };

/** Slugs longer than this were never made by us or by the old site; they cannot name an item. */
const MAX_KEY_LENGTH = 200;

/**
 * What a URL segment names: a numeric id, or a page slug (letters of any script, digits, single hyphens:
 * an Arabic slug arrives percent-decoded by the router). Anything else cannot name an item.
 */
export function parseItemKey(value: string | undefined): ItemKey | null {
  if (!value || value.length > MAX_KEY_LENGTH) return null;
  if (/^\d{1,9}$/.test(value)) return { id: Number(value) };
  // The same normal form and case slugify() gives, so a hand-typed URL finds the stored slug.
  const slug = value.normalize("NFKC").toLowerCase();
  return PAGE_SLUG_PATTERN.test(slug) ? { slug } : null;
}
