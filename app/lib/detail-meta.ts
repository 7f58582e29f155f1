/**
 * What a detail page tells search engines and link previews, for every content type: title, description,
 * canonical URL, Open Graph, Twitter card and JSON-LD, from the item and its type's detail view (its
 * definition's `detail.schema`, domain/content-types/).
 */
import { definitionOf, programFeedPath } from "#domain/content-types/index.ts";
import { localizedField, textOf, type DetailPage } from "#domain/detail-view.ts";
import { languagesWithText, localized } from "#domain/localized.ts";
import { bylineLinks } from "#domain/authors.ts";
import { CROP_RATIOS, shareImagePath, type CropRatio } from "#domain/image-details.ts";
import { NAV_ITEMS } from "#domain/navigation.ts";
import { effectiveSharing } from "#domain/search-sharing.ts";
import { entryAnchor, LIVE_JSON_LD_UPDATES, type LiveEntry } from "#domain/live.ts";
import { absoluteUrl, contentMeta, rootData, siteNameOf, type LiveBlogInput } from "./seo.ts";
import { translationsOf } from "./root-data.ts";

type Match = Parameters<typeof rootData>[0][number];

/** Title, description, canonical URL, Open Graph, Twitter card and JSON-LD of a detail page. */
export function detailMeta(page: DetailPage, matches: readonly Match[]) {
  const { item, type } = page;
  const view = definitionOf(type).detail;
  const root = rootData(matches);
  const lang = root?.lang ?? "ar";
  const category = textOf(item, "categorySlug");
  const first = (fields: readonly string[]) => fields.map((f) => textOf(item, f)).find(Boolean) ?? null;
  const place = view.schema.place && textOf(item, view.schema.place);
  const audio = view.schema.audio && textOf(item, view.schema.audio);
  const episode = view.schema.episode ? item[view.schema.episode] : undefined;
  const feed = definitionOf(type).feed;
  const title = localizedField(lang, item, "title") ?? item.title;
  // The item's search and sharing fields, or the title, summary and main image they stand for (domain/search-sharing.ts).
  const sharing = effectiveSharing({
    title,
    summary: localized(lang, page.summary, page.summaryFr),
    image: textOf(item, "imageUrl"),
    metaDescription: textOf(item, "metaDescription"),
    shareTitle: textOf(item, "shareTitle"),
    shareImage: textOf(item, "shareImageUrl"),
    canonicalUrl: textOf(item, "canonicalUrl"),
    noindex: item.noindex === true,
  });
  const liveBlog = page.live ? liveBlogOf(page) : undefined;
  const picture = sharing.image;
  const details = picture ? page.images?.[picture] : undefined;
  const crops = picture ? (Object.keys(CROP_RATIOS) as CropRatio[]).map((r) => shareImagePath(picture, details, r)) : [];
  const meta = contentMeta({
    matches,
    title,
    shareTitle: sharing.title,
    description: sharing.description,
    canonical: sharing.canonical,
    // A language the item has no text of its own in shows the Arabic text: not a page of its own (decision 0143).
    noindex: sharing.noindex || !languagesWithText(item).includes(lang),
    path: page.url,
    // A library picture is shared cropped around its focal point (server/media/share-image.server.ts).
    image: picture ? (shareImagePath(picture, details) ?? picture) : null,
    // Search engines' crops of a library picture (16:9, 4:3, 1:1, 1,200 px wide); any other picture as it is.
    images: crops.every(Boolean) ? (crops as string[]) : undefined,
    breadcrumb: [...sectionOf(page, translationsOf(root)), { name: title, path: page.url }],
    schemaType: (category && view.schema.byCategory?.[category]) || view.schema.type,
    publishedTime: item.publishDate,
    // A live coverage was last modified by its latest entry as much as by its own edits.
    modifiedTime: liveBlog?.updates.length ? latestOf(item.updatedAt, liveBlog.updates) : item.updatedAt,
    liveBlog,
    // The author profiles when the item names any (decision 0121), else the type's author column.
    author: page.authors?.length ? bylineLinks(lang, page.authors).map((a) => ({ name: a.name, url: a.href })) : first(view.schema.author),
    section: localizedField(lang, item, "categoryName"),
    keywords: page.tags?.map((tag) => tag.name),
    extra: {
      contentLocation: place ? { "@type": "Place", name: place } : undefined,
      episodeNumber: typeof episode === "number" ? episode : undefined,
      genre: (view.schema.genre && textOf(item, view.schema.genre)) || undefined,
      associatedMedia: audio ? { "@type": "MediaObject", contentUrl: absoluteUrl(root?.site.publicUrl ?? "", audio) } : undefined,
      // Its corrections (decision 0140): schema.org CreativeWork `correction`, each a CorrectionComment.
      correction: page.corrections?.length
        ? page.corrections.map((c) => ({ "@type": "CorrectionComment", text: (lang === "fr" && c.textFr) || c.text, datePublished: c.at }))
        : undefined,
    },
  });
  // A type with a feed (the podcasts) names it, so podcast apps and feed readers find it from any episode; an
  // episode of a program names its program's feed too, and a program with episodes its own.
  const siteName = siteNameOf(root);
  const feedLink = (title: string, path: string) => ({
    tagName: "link",
    rel: "alternate",
    type: "application/rss+xml",
    title,
    href: absoluteUrl(root?.site.publicUrl ?? "", path),
  });
  const programSlug = textOf(item, "programSlug");
  return [
    ...meta,
    ...(feed ? [feedLink(siteName, feed.path)] : []),
    ...(programSlug ? [feedLink(siteName, programFeedPath(programSlug))] : []),
    ...(item.hasPodcastFeed === true ? [feedLink(title, programFeedPath(item.pageSlug))] : []),
  ];
}

/** A translation of the page's strings (root data) by its dotted key; null when there is none. */
function translated(translations: Record<string, unknown>, key: string): string | null {
  let node: unknown = translations;
  for (const part of key.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === "string" ? node : null;
}

/**
 * The listing a detail page belongs to, as its breadcrumb shows it (the type's kicker with a link: news, programs,
 * media) or, for a type whose kicker links nowhere, the section its category is (an article of /culture). None: the
 * trail goes from the home page to the item.
 */
function sectionOf(page: DetailPage, translations: Record<string, unknown>): { name: string; path: string }[] {
  const { kicker } = definitionOf(page.type).detail;
  const nav = NAV_ITEMS.find((n) => n.to === kicker.href) ?? NAV_ITEMS.find((n) => n.slug === textOf(page.item, "categorySlug") && n.to !== "/");
  if (!nav) return [];
  const name = translated(translations, nav.label);
  return name ? [{ name, path: nav.to }] : [];
}

/** A live coverage's LiveBlogPosting: its live times and its LIVE_JSON_LD_UPDATES latest entries (the pinned one among them by its time). */
function liveBlogOf(page: DetailPage): LiveBlogInput | undefined {
  const live = page.live;
  if (!live) return undefined;
  const entries: LiveEntry[] = [...(live.pinned ? [live.pinned] : []), ...live.entries].sort((a, b) => b.id - a.id).slice(0, LIVE_JSON_LD_UPDATES);
  return {
    startTime: live.state.started_at,
    endTime: live.state.ended_at,
    updates: entries.map((e) => ({ text: textOfHtml(e.body), published: e.at, modified: e.edited_at, path: `${page.url}#${entryAnchor(e.id)}` })),
  };
}

/** The later of an item's own last edit and its entries' times (ISO). */
function latestOf(updatedAt: Date, updates: LiveBlogInput["updates"]): string {
  return [new Date(updatedAt).toISOString(), ...updates.flatMap((u) => [u.published, u.modified ?? u.published])].sort().at(-1)!;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** An entry's sanitised HTML as plain text: its words without the markup, blocks apart, character references read. */
export function textOfHtml(html: string): string {
  return html
    .replace(/<(?:br|\/p|\/li|\/h[1-6]|\/blockquote)\b[^>]*>/gi, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] !== "#") return ENTITIES[name.toLowerCase()] ?? whole;
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    })
    .replace(/\s+/g, " ")
    .trim();
}
