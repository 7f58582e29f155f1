import type { MetaDescriptor } from "react-router";
import type { RootLoaderData } from "./root-data.ts";
import type { SchemaType } from "#domain/content-types/define.ts";

type Match = { id: string; data: unknown } | undefined;

export type ContentMetaInput = {
  matches: readonly Match[];
  title: string;
  description?: string | null;
  path: string;
  image?: string | null;
  /** schema.org type of the JSON-LD block. */
  schemaType: SchemaType;
  publishedTime?: Date | string | null;
  modifiedTime?: Date | string | null;
  /** A name, or the item's author profiles (name in the page's language, page path). */
  author?: string | null | readonly { name: string; url: string }[];
  section?: string | null;
  /** Extra JSON-LD fields for this type (episode number, audio, …). */
  extra?: Record<string, unknown>;
  /** og:title and twitter:title when not the title (an item's share title). */
  shareTitle?: string | null;
  /** The canonical URL when not the page's own (an item first published elsewhere). */
  canonical?: string | null;
  /** Kept out of search engines: `robots: noindex`. */
  noindex?: boolean;
  /** The item's tags: JSON-LD `keywords` and `article:tag` (decision 0122). */
  keywords?: readonly string[];
};

const OG_LOCALE = { ar: "ar_AR", fr: "fr_FR", en: "en_GB" } as const;

export function rootData(matches: readonly Match[]): RootLoaderData | undefined {
  return matches.find((m) => m?.id === "root")?.data as RootLoaderData | undefined;
}

export function absoluteUrl(base: string, pathOrUrl: string): string {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  return `${base}${pathOrUrl.startsWith("/") ? "" : "/"}${pathOrUrl}`;
}

const iso = (v: Date | string | null | undefined) => (v ? new Date(v).toISOString() : undefined);

/**
 * Title, description, canonical URL, Open Graph, Twitter card and JSON-LD for a detail page, so shared
 * links preview properly and search engines read the article without running JavaScript.
 */
/** JSON-LD `author`: each profile a Person with its page's URL (decision 0121), or a plain name as a Person. */
function personsOf(author: ContentMetaInput["author"], base: string) {
  if (!author) return undefined;
  if (typeof author === "string") return { "@type": "Person", name: author };
  const people = author.map((a) => ({ "@type": "Person", name: a.name, url: absoluteUrl(base, a.url) }));
  return people.length ? people : undefined;
}

export function contentMeta(input: ContentMetaInput): MetaDescriptor[] {
  const root = rootData(input.matches);
  const base = root?.site.publicUrl ?? "";
  const lang = root?.lang ?? "ar";
  const siteName = (lang === "ar" ? root?.site.siteName : root?.site.siteNameFr) ?? "";
  const url = absoluteUrl(base, input.path);
  const image = input.image ? absoluteUrl(base, input.image) : undefined;
  const description = (input.description ?? "").slice(0, 300);
  const isVideo = input.schemaType === "TVEpisode";
  const shareTitle = input.shareTitle || input.title;
  const meta: MetaDescriptor[] = [
    { title: siteName ? `${input.title} | ${siteName}` : input.title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: input.canonical || url },
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
  if (input.noindex) meta.push({ name: "robots", content: "noindex" });
  if (input.publishedTime) meta.push({ property: "article:published_time", content: iso(input.publishedTime) });
  if (input.modifiedTime) meta.push({ property: "article:modified_time", content: iso(input.modifiedTime) });
  if (input.section) meta.push({ property: "article:section", content: input.section });
  for (const keyword of input.keywords ?? []) meta.push({ property: "article:tag", content: keyword });
  meta.push({
    "script:ld+json": {
      "@context": "https://schema.org",
      "@type": input.schemaType,
      headline: input.title.slice(0, 110),
      name: input.title,
      description,
      url,
      mainEntityOfPage: url,
      inLanguage: lang,
      image: image ? [image] : undefined,
      datePublished: iso(input.publishedTime),
      dateModified: iso(input.modifiedTime ?? input.publishedTime),
      author: personsOf(input.author, base),
      articleSection: input.section ?? undefined,
      keywords: input.keywords?.length ? input.keywords.join(", ") : undefined,
      publisher: { "@type": "Organization", name: siteName, logo: root ? { "@type": "ImageObject", url: absoluteUrl(base, root.site.logoUrl) } : undefined },
      ...input.extra,
    },
  });
  return meta;
}
