/**
 * A content item's detail page, whatever its type: what the loader gives the page, and the reading of a
 * type's detail view (its definition's `detail`, domain/content-types/: the breadcrumb's kicker, the facts
 * under the headline, the player, the related heading and the schema.org type) into what to play. One
 * component (app/components/content/content-detail.tsx) reads it for every type, on the public page and in the
 * staff preview; what the page tells search engines is app/lib/detail-meta.ts's.
 *
 * The registry it reads holds no form schemas (domain/content-types/schema.ts has them), so the reading
 * pages' browser bundle carries none.
 */
import { definitionOf, type ContentType, type EditorStatus } from "./content-types/index.ts";
import type { ImageDetailsMap } from "./image-details.ts";
import type { Language } from "./language.ts";
import { localized } from "./localized.ts";
import type { BylineAuthor } from "./authors.ts";
import type { LiveEntry, LiveState } from "./live.ts";

/** A value of a detail row: text, number, flag or timestamp. */
export type DetailValue = string | number | boolean | Date | null;

/**
 * One item with the columns of its type by schema key (title, titleFr, hostName, categoryName…); its
 * summary (excerpt or description) and body are taken out into `summary` and `body` by the loader.
 */
export type DetailItem = {
  id: number;
  title: string;
  titleFr: string | null;
  pageSlug: string;
  status: string;
  publishDate: Date;
  updatedAt: Date;
  imageUrl: string | null;
  authorName: string | null;
  isDemo: boolean;
  [column: string]: DetailValue | undefined;
};

/** A body as the page renders it: sanitised HTML from the rich-text editor, or plain text paragraphs. */
export type Body = { html: string } | { text: string };

/**
 * An item of any type as a small card (related items, an author's or a tag's page): its summary is its type's
 * summary field (an article's excerpt, a show's description). Declared once: server/content/published-items.server.ts
 * builds it for the pages that list every type.
 */
export type SummaryCard = {
  id: number;
  title: string;
  titleFr: string | null;
  summary: string | null;
  summaryFr: string | null;
  imageUrl: string | null;
  publishDate: Date;
};

/** What a related-item card needs, whatever the type. */
export type RelatedItem = SummaryCard & {
  pageSlug: string;
  /** Its author profiles, in byline order. */
  bylines?: BylineAuthor[];
};

/** What the detail loader and the staff preview loader give the page. */
export type DetailPage = {
  type: ContentType;
  /** The item's public path (publicUrl): canonical URL and share link. */
  url: string;
  item: DetailItem;
  summary: string | null;
  summaryFr: string | null;
  body: Body | null;
  bodyFr: Body | null;
  related: (RelatedItem & { url: string })[];
  /** Set by the staff preview: the page shows who may not see it yet. */
  preview?: { status: EditorStatus };
  /** A hosted video's direct file, played by the browser itself without JavaScript (server/content/detail-page.server.ts). */
  videoFile?: string;
  /** The media library's alt text, caption, credit and focal point of the page's pictures, by URL (domain/image-details.ts). */
  images?: ImageDetailsMap;
  /** The item's author profiles in byline order (domain/authors.ts); empty for an item that names none. */
  authors?: BylineAuthor[];
  /** The item's tags by name (server/content/tags.server.ts), shown as links to their pages and in JSON-LD `keywords`. */
  tags?: { id: number; slug: string; name: string }[];
  /** The item's published corrections, oldest first (server/content/corrections.server.ts): under the story and in JSON-LD. */
  corrections?: PageCorrection[];
  /** A coverage that has ever been live (issue 44): its entries and where its script follows them (server/content/live/pages.server.ts). */
  live?: LivePageData;
};

/** The live part of a coverage's page: what the server renders, and what app/enhance/live.js continues from. */
export type LivePageData = {
  state: LiveState;
  /** Started and not ended. */
  live: boolean;
  /** Newest first, the pinned entry excluded: the newest page, or the one before `?before=`. */
  entries: LiveEntry[];
  pinned: LiveEntry | null;
  /** The key events, newest first («أهم الأحداث»). */
  keyEvents: LiveEntry[];
  /** The latest change's version: the stream's and the JSON's `after`. */
  cursor: number;
  /** The id for `?before=` when older entries exist, else null. */
  olderBefore: number | null;
  /** The stream's and the entries JSON's paths, language-neutral (the script prefixes the page's language). */
  streamPath: string;
  entriesPath: string;
  /** How often a reader without a stream polls (ms). */
  pollMs: number;
};

/** A correction as the public page shows it: its text, the French one when there is one, and its time (ISO). */
export type PageCorrection = { text: string; textFr: string | null; at: string };

/** A column's text, or null when it holds none. */
export function textOf(item: DetailItem, field: string): string | null {
  const value = item[field];
  return typeof value === "string" ? value || null : typeof value === "number" ? String(value) : null;
}

/** What a detail page plays: its video, its audio (each from its own column, or a media item's file by its kind), and its picture. */
export function mediaSourcesOf(page: DetailPage): { video: string | null; audio: string | null; image: string | null } {
  const { item } = page;
  const media = definitionOf(page.type).detail.media;
  let video = media?.video ? textOf(item, media.video) : null;
  let audio = media?.audio ? textOf(item, media.audio) : null;
  let image = item.imageUrl;
  if (media?.byKind) {
    const source = textOf(item, media.byKind.source);
    const kind = textOf(item, media.byKind.kind);
    if (kind === "video") video = source;
    else if (kind === "audio") audio = source;
    else image = source ?? image;
  }
  return { video, audio, image };
}

/** A column's text in the shown language: its French twin (`${field}Fr`) when French is shown and it has one. */
export function localizedField(lang: Language, item: DetailItem, field: string): string | null {
  return localized(lang, textOf(item, field), textOf(item, `${field}Fr`));
}
