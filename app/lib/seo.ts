/**
 * What a detail page tells search engines and link previews (docs/architecture.md "What search engines read"):
 * title, description, canonical URL, Open Graph, Twitter card, robots and JSON-LD. The JSON-LD objects are typed
 * with schema-dts, schema.org's vocabulary as TypeScript types, so a property that does not exist for its type,
 * or a value of the wrong kind, fails the type-check (tests/e2e/seo/article-markup.e2e.test.ts checks the pages'
 * JSON-LD against the same types).
 */
import type { MetaDescriptor } from "react-router";
import type {
  Article,
  BlogPosting,
  BreadcrumbList,
  LiveBlogPosting,
  NewsArticle,
  Organization,
  Person,
  PodcastEpisode,
  PodcastEpisodeLeaf,
  TVEpisode,
  WithContext,
} from "schema-dts";
import { translationsOf, type RootLoaderData } from "./root-data.ts";
import type { SchemaType } from "#domain/content-types/define.ts";
import { localizedPath } from "#domain/addresses.ts";
import { PUBLISHER_LOGO_PATH, PUBLISHER_LOGO_SIZE } from "#domain/image-details.ts";
import type { Language } from "#domain/language.ts";

type Match = { id: string; data: unknown } | undefined;

/** The JSON-LD fields some types add (a place, an episode's number, its audio, corrections): schema.org names. */
export type DetailExtra = Partial<Pick<PodcastEpisodeLeaf, "contentLocation" | "episodeNumber" | "genre" | "associatedMedia" | "correction">>;

/** A detail page's JSON-LD: its type's schema.org object (define.ts `SchemaType`). */
export type DetailJsonLd = WithContext<NewsArticle | Article | PodcastEpisode | TVEpisode | LiveBlogPosting>;

/**
 * A live coverage's blog (issue 44): its page is a `LiveBlogPosting` (Google's LIVE badge) with the time its coverage
 * began and, once over, ended, and its latest entries as `liveBlogUpdate`, each a BlogPosting at its anchor.
 */
export type LiveBlogInput = {
  startTime: string | null;
  endTime: string | null;
  /** Newest first: each entry's text (no markup), its times and its path with its anchor (`/coverage/x#entry-12`). */
  updates: readonly { text: string; published: string; modified: string | null; path: string }[];
};

export type ContentMetaInput = {
  matches: readonly Match[];
  title: string;
  description?: string | null;
  /** The page's language-neutral path (its Arabic address); the page's own language's address is made of it. */
  path: string;
  /** The link previews' picture (og:image, twitter:image). */
  image?: string | null;
  /** JSON-LD `image`: the picture in the ratios search engines ask for (16:9, 4:3, 1:1), else `image`. */
  images?: readonly string[];
  /** schema.org type of the JSON-LD block. */
  schemaType: SchemaType;
  publishedTime?: Date | string | null;
  modifiedTime?: Date | string | null;
  /** A name, or the item's author profiles (name in the page's language, page path). */
  author?: string | null | readonly { name: string; url: string }[];
  section?: string | null;
  /** Extra JSON-LD fields for this type (episode number, audio, …). */
  extra?: DetailExtra;
  /** The page's trail after the home page (a section, the item), each named in the page's language: JSON-LD BreadcrumbList. */
  breadcrumb?: readonly { name: string; path: string }[];
  /** og:title and twitter:title when not the title (an item's share title). */
  shareTitle?: string | null;
  /** The canonical URL when not the page's own (an item first published elsewhere). */
  canonical?: string | null;
  /**
   * Kept out of search engines: `robots: noindex` (the item's own setting, or a language the item has no text
   * of its own in). An indexable page says `max-image-preview:large` instead.
   */
  noindex?: boolean;
  /** The item's tags: JSON-LD `keywords` and `article:tag` (decision 0122). */
  keywords?: readonly string[];
  /** A coverage that has been live: the JSON-LD is its LiveBlogPosting instead of its type's object. */
  liveBlog?: LiveBlogInput;
};

const OG_LOCALE = { ar: "ar_AR", fr: "fr_FR", en: "en_GB" } as const;

/** Google's limit for an article's `headline`, in characters. */
export const HEADLINE_MAX = 110;

export function rootData(matches: readonly Match[]): RootLoaderData | undefined {
  return matches.find((m) => m?.id === "root")?.data as RootLoaderData | undefined;
}

export function absoluteUrl(base: string, pathOrUrl: string): string {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  return `${base}${pathOrUrl.startsWith("/") ? "" : "/"}${pathOrUrl}`;
}

/** The absolute URL of a (language-neutral) path in the page's language. */
export function localUrl(base: string, lang: Language, path: string): string {
  return absoluteUrl(base, localizedPath(lang, path));
}

/**
 * The robots meta of a page: `noindex` alone for a page kept out (nothing else it says matters then), else
 * permission for large image previews (Discover and Top Stories show an article's picture large only with it).
 * One descriptor, so a page never says both.
 */
export function robotsMeta(noindex = false): MetaDescriptor {
  return { name: "robots", content: noindex ? "noindex" : "max-image-preview:large" };
}

/** The site's name in the page's language (the French one for French and English: the site has no English name). */
export function siteNameOf(root: RootLoaderData | undefined): string {
  return (root?.lang === "ar" ? root?.site.siteName : root?.site.siteNameFr) ?? root?.site.siteName ?? "";
}

const iso = (v: Date | string | null | undefined) => (v ? new Date(v).toISOString() : undefined);

/**
 * An article's `headline`: its title when it fits HEADLINE_MAX (UTF-16 units, the strictest count), else cut
 * after the last whole word that fits, with an ellipsis. Words and letters come from Intl.Segmenter, so no cut
 * falls inside a word, between an Arabic letter and its marks, or between a surrogate pair's halves.
 */
export function headlineOf(title: string, max = HEADLINE_MAX): string {
  const text = title.replace(/\s+/g, " ").trim();
  if (text.length <= max) return text;
  const room = max - 1;
  let end = 0;
  for (const word of new Intl.Segmenter(undefined, { granularity: "word" }).segment(text)) {
    const after = word.index + word.segment.length;
    if (after > room) break;
    if (word.isWordLike) end = after;
  }
  // One word longer than the room: cut between letters (graphemes) instead.
  if (end === 0) {
    for (const letter of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)) {
      const after = letter.index + letter.segment.length;
      if (after > room) break;
      end = after;
    }
  }
  return `${text.slice(0, end).replace(/[\s\p{P}]+$/u, "")}…`;
}

/** JSON-LD `author`: each profile a Person with its page's URL in the page's language (decision 0121), or a plain name as a Person. */
function personsOf(author: ContentMetaInput["author"], base: string, lang: Language): Person | Person[] | undefined {
  if (!author) return undefined;
  if (typeof author === "string") return { "@type": "Person", name: author };
  const people = author.map((a): Person => ({ "@type": "Person", name: a.name, url: localUrl(base, lang, a.url) }));
  return people.length ? people : undefined;
}

/** JSON-LD `publisher`: the site, with the raster logo search engines take (server/media/share-image.server.ts `publisherLogo`). */
function publisherOf(root: RootLoaderData | undefined, base: string): Organization {
  return {
    "@type": "Organization",
    name: siteNameOf(root),
    url: localUrl(base, root?.lang ?? "ar", "/"),
    logo: {
      "@type": "ImageObject",
      url: absoluteUrl(base, PUBLISHER_LOGO_PATH),
      // schema.org's Distance is text; Google reads a bare number of pixels.
      width: String(PUBLISHER_LOGO_SIZE.width),
      height: String(PUBLISHER_LOGO_SIZE.height),
    },
  };
}

/** JSON-LD BreadcrumbList: the home page, then the trail given, each at its address in the page's language. */
export function breadcrumbJsonLd(
  root: RootLoaderData | undefined,
  trail: readonly { name: string; path: string }[],
  homeName: string,
): WithContext<BreadcrumbList> {
  const base = root?.site.publicUrl ?? "";
  const lang = root?.lang ?? "ar";
  const steps = [{ name: homeName, path: "/" }, ...trail];
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: steps.map((step, i) => ({ "@type": "ListItem", position: i + 1, name: step.name, item: localUrl(base, lang, step.path) })),
  };
}

/** The JSON-LD object of a detail page (ContentMetaInput), its URL the page's own-language address. */
export function detailJsonLd(input: ContentMetaInput, root: RootLoaderData | undefined): DetailJsonLd {
  const base = root?.site.publicUrl ?? "";
  const lang = root?.lang ?? "ar";
  const url = localUrl(base, lang, input.path);
  const images = (input.images?.length ? input.images : input.image ? [input.image] : []).map((image) => absoluteUrl(base, image));
  const published = iso(input.publishedTime);
  // An item edited before its publish date (scheduled) was modified, for its readers, when it was published.
  const modified = [iso(input.modifiedTime), published]
    .filter((d): d is string => Boolean(d))
    .sort()
    .at(-1);
  const common = {
    headline: headlineOf(input.title),
    name: input.title,
    description: (input.description ?? "").slice(0, 300),
    url,
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
    inLanguage: lang,
    image: images.length ? images : undefined,
    datePublished: published,
    dateModified: modified,
    author: personsOf(input.author, base, lang),
    articleSection: input.section ?? undefined,
    keywords: input.keywords?.length ? input.keywords.join(", ") : undefined,
    publisher: publisherOf(root, base),
  };
  if (input.liveBlog)
    return { "@context": "https://schema.org", "@type": "LiveBlogPosting", ...common, ...input.extra, ...liveBlogFields(input.liveBlog, base, lang) };
  return { "@context": "https://schema.org", "@type": input.schemaType, ...common, ...input.extra };
}

/** A live blog's own JSON-LD fields: its coverage's times and its latest updates, each at its address in the page's language. */
function liveBlogFields(live: LiveBlogInput, base: string, lang: Language): Pick<LiveBlogPosting, "coverageStartTime" | "coverageEndTime" | "liveBlogUpdate"> {
  const updates = live.updates.map((u): BlogPosting => ({
    "@type": "BlogPosting",
    headline: headlineOf(u.text),
    articleBody: u.text,
    datePublished: u.published,
    dateModified: u.modified ?? u.published,
    url: localUrl(base, lang, u.path),
  }));
  return {
    coverageStartTime: live.startTime ?? undefined,
    coverageEndTime: live.endTime ?? undefined,
    liveBlogUpdate: updates.length ? updates : undefined,
  };
}

/**
 * Title, description, canonical URL, Open Graph, Twitter card, robots and JSON-LD (the type's object and the
 * breadcrumb) for a detail page, so shared links preview properly and search engines read the article without
 * running JavaScript. Every URL is the page's own language's address.
 */
export function contentMeta(input: ContentMetaInput): MetaDescriptor[] {
  const root = rootData(input.matches);
  const base = root?.site.publicUrl ?? "";
  const lang = root?.lang ?? "ar";
  const siteName = siteNameOf(root);
  const url = localUrl(base, lang, input.path);
  const image = input.image ? absoluteUrl(base, input.image) : undefined;
  const description = (input.description ?? "").slice(0, 300);
  const isVideo = input.schemaType === "TVEpisode";
  const shareTitle = input.shareTitle || input.title;
  const meta: MetaDescriptor[] = [
    { title: siteName ? `${input.title} | ${siteName}` : input.title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: input.canonical || url },
    robotsMeta(input.noindex),
    { property: "og:site_name", content: siteName },
    { property: "og:locale", content: OG_LOCALE[lang] },
    { property: "og:type", content: isVideo ? "video.episode" : "article" },
    { property: "og:title", content: shareTitle },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: shareTitle },
    { name: "twitter:description", content: description },
  ];
  if (image) meta.push({ property: "og:image", content: image }, { name: "twitter:image", content: image });
  if (input.publishedTime) meta.push({ property: "article:published_time", content: iso(input.publishedTime) });
  if (input.modifiedTime) meta.push({ property: "article:modified_time", content: iso(input.modifiedTime) });
  if (input.section) meta.push({ property: "article:section", content: input.section });
  for (const keyword of input.keywords ?? []) meta.push({ property: "article:tag", content: keyword });
  meta.push({ "script:ld+json": detailJsonLd(input, root) });
  if (input.breadcrumb) meta.push({ "script:ld+json": breadcrumbJsonLd(root, input.breadcrumb, homeNameOf(root)) });
  return meta;
}

/** The home page's name in the navigation, in the page's language. */
function homeNameOf(root: RootLoaderData | undefined): string {
  const nav = translationsOf(root).nav as Record<string, unknown> | undefined;
  return typeof nav?.home === "string" ? nav.home : siteNameOf(root);
}
