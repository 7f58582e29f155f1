/**
 * What a detail page tells search engines and link previews, for every content type: title, description,
 * canonical URL, Open Graph, Twitter card and JSON-LD, from the item and its type's detail view (its
 * definition's `detail.schema`, domain/content-types/).
 */
import { definitionOf } from "#domain/content-types/index.ts";
import { localizedField, textOf, type DetailPage } from "#domain/detail-view.ts";
import { localized } from "#domain/localized.ts";
import { shareImagePath } from "#domain/image-details.ts";
import { absoluteUrl, contentMeta, rootData } from "./seo.ts";

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
  const meta = contentMeta({
    matches,
    title: localizedField(lang, item, "title") ?? item.title,
    description: localized(lang, page.summary, page.summaryFr),
    path: page.url,
    // A library picture is shared cropped around its focal point (server/media/share-image.server.ts).
    image: item.imageUrl ? (shareImagePath(item.imageUrl, page.images?.[item.imageUrl]) ?? item.imageUrl) : null,
    schemaType: (category && view.schema.byCategory?.[category]) || view.schema.type,
    publishedTime: item.publishDate,
    modifiedTime: item.updatedAt,
    author: first(view.schema.author),
    section: localizedField(lang, item, "categoryName"),
    extra: {
      contentLocation: place ? { "@type": "Place", name: place } : undefined,
      episodeNumber: typeof episode === "number" ? episode : undefined,
      genre: (view.schema.genre && textOf(item, view.schema.genre)) || undefined,
      associatedMedia: audio ? { "@type": "MediaObject", contentUrl: absoluteUrl(root?.site.publicUrl ?? "", audio) } : undefined,
    },
  });
  // A type with a feed (the podcasts) names it, so podcast apps and feed readers find it from any episode.
  if (!feed) return meta;
  const siteName = (lang === "ar" ? root?.site.siteName : root?.site.siteNameFr) ?? "";
  return [
    ...meta,
    { tagName: "link", rel: "alternate", type: "application/rss+xml", title: siteName, href: absoluteUrl(root?.site.publicUrl ?? "", feed.path) },
  ];
}
