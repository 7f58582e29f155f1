/**
 * What the sitemaps list, as server/content/sitemap.server.ts reads it and server/content/feeds.server.ts writes it
 * as XML (apart, so that the feeds' writer needs nothing of the reading side).
 */
import type { Language } from "./language.ts";

/**
 * A page of the site (its language-neutral path) and the languages whose address of it is a page of its own:
 * every language for the sections, author and tag pages (their words are the interface's), the item's
 * `languagesWithText` for an item.
 */
export type SitemapEntry = { path: string; lastModified: Date; languages: readonly Language[] };

/** An item of the Google News sitemap: its page, its titles in the languages it has a text in, its publication. */
export type NewsSitemapItem = { path: string; publishDate: Date; titles: Partial<Record<Language, string>> };
