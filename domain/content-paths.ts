/**
 * The public side of the content-type registry: the six types, where a reader opens each one, and the one
 * public path builder. It is apart from domain/content-types.ts, which takes its paths from here and
 * re-exports all of it, because that module carries every form schema (zod): reading pages build links on
 * cards in the browser, and a card's href must not cost the reader ~9 KB of compressed JavaScript.
 */
export const CONTENT_TYPES = ["article", "news", "coverage", "podcast", "program", "media"] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

export type PublicPath = {
  /** Where a reader opens one item (/{publicPath}/{slug}), or the listing that shows it. */
  publicPath: string;
  /** A type shown on a listing page rather than a page of its own (media items open in /media). */
  detailPage: boolean;
};

export const PUBLIC_PATHS: Readonly<Record<ContentType, PublicPath>> = {
  article: { publicPath: "/articles", detailPage: true },
  news: { publicPath: "/news", detailPage: true },
  coverage: { publicPath: "/coverage", detailPage: true },
  podcast: { publicPath: "/podcasts", detailPage: true },
  program: { publicPath: "/programs", detailPage: true },
  media: { publicPath: "/media", detailPage: false },
};

/** The one public path builder: where a reader opens an item (cards, sitemap, RSS, search, related items). */
export function publicUrl(type: ContentType, slug: string, id?: number): string {
  const { publicPath, detailPage } = PUBLIC_PATHS[type];
  if (!detailPage) return id === undefined ? publicPath : `${publicPath}#media-${id}`;
  return `${publicPath}/${encodeURIComponent(slug)}`;
}
