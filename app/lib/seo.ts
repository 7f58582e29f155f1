import type { MetaDescriptor } from "react-router";
import type { RootLoaderData } from "#app/root.tsx";
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
  author?: string | null;
  section?: string | null;
  /** Extra JSON-LD fields for this type (episode number, audio, …). */
  extra?: Record<string, unknown>;
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
export function contentMeta(input: ContentMetaInput): MetaDescriptor[] {
  const root = rootData(input.matches);
  const base = root?.site.publicUrl ?? "";
  const lang = root?.lang ?? "ar";
  const siteName = (lang === "ar" ? root?.site.siteName : root?.site.siteNameFr) ?? "";
  const url = absoluteUrl(base, input.path);
  const image = input.image ? absoluteUrl(base, input.image) : undefined;
  const description = (input.description ?? "").slice(0, 300);
  const isVideo = input.schemaType === "TVEpisode";
  const meta: MetaDescriptor[] = [
    { title: siteName ? `${input.title} | ${siteName}` : input.title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: siteName },
    { property: "og:locale", content: OG_LOCALE[lang] },
    { property: "og:type", content: isVideo ? "video.episode" : "article" },
    { property: "og:title", content: input.title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: input.title },
    { name: "twitter:description", content: description },
  ];
  if (image) meta.push({ property: "og:image", content: image }, { name: "twitter:image", content: image });
  if (input.publishedTime) meta.push({ property: "article:published_time", content: iso(input.publishedTime) });
  if (input.modifiedTime) meta.push({ property: "article:modified_time", content: iso(input.modifiedTime) });
  if (input.section) meta.push({ property: "article:section", content: input.section });
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
      author: input.author ? { "@type": "Person", name: input.author } : undefined,
      articleSection: input.section ?? undefined,
      publisher: { "@type": "Organization", name: siteName, logo: root ? { "@type": "ImageObject", url: absoluteUrl(base, root.site.logoUrl) } : undefined },
      ...input.extra,
    },
  });
  return meta;
}
