/**
 * How a content item's detail page presents it, per type, as data: the breadcrumb's kicker, the facts under
 * the headline, the player, the related heading and the schema.org type. One component
 * (app/components/content/content-detail.tsx) reads it for every type, on the public page and in the staff
 * preview; what a type stores and where it lives is the registry's (domain/content-types.ts).
 *
 * Types only from the registry: the reading pages' browser bundle carries no form schemas.
 */
import type { ContentType } from "./content-paths.ts";
import type { EditorStatus } from "./content-types.ts";
import type { Language } from "./language.ts";
import { localized } from "./localized.ts";
import { absoluteUrl, contentMeta, rootData, type ContentMetaInput } from "#app/lib/seo.ts";

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

/** What a related-item card needs, whatever the type. */
export type RelatedItem = {
  id: number;
  title: string;
  titleFr: string | null;
  summary: string | null;
  summaryFr: string | null;
  imageUrl: string | null;
  publishDate: Date;
  pageSlug: string;
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
};

type SchemaType = ContentMetaInput["schemaType"];

/** One fact under the headline: a column's value, with a label, through a template, or a flag. */
export type FactView = {
  field: string;
  /** Translation key shown before the value ("المكان: …"). */
  label?: string;
  /** Translation key taking the value as {{n}}, a number no word agrees with ("الحلقة 3"). */
  template?: string;
  /** Counted translation key: the value picks its plural form and fills {{count}} ("مشاهدتان", "11 مشاهدة"). */
  counted?: string;
  /** Shown (as the template alone) only when the value is this one. */
  equals?: string;
  date?: boolean;
  testId?: string;
};

export type DetailView = {
  /** The breadcrumb's second step: the category, an option's label, or a fixed label; a link when href is set. */
  kicker: { category?: boolean; option?: { field: string; labels: string }; label?: string; fallback?: string; href?: string };
  facts: readonly FactView[];
  /**
   * Columns holding a video (hosted id or URL) or an audio file; without them the page shows the image. The
   * video's WebVTT captions, when its type has them, in `captions`.
   */
  media?: { video?: string; audio?: string; captions?: string; byKind?: { kind: string; source: string } };
  /** The column of a plain-text transcript, shown under the body in a section the reader opens. */
  transcript?: string;
  /** Categories whose body is verse (one line per hemistich, centred). */
  verseCategories?: readonly string[];
  relatedTitle: string;
  schema: {
    type: SchemaType;
    byCategory?: Partial<Record<string, SchemaType>>;
    /** The first of these columns with a value is the author. */
    author: readonly string[];
    place?: string;
    episode?: string;
    genre?: string;
    audio?: string;
  };
};

const SHOW_FACTS: readonly FactView[] = [
  { field: "episodeNumber", template: "detail.episode" },
  { field: "season", template: "detail.season" },
  { field: "hostName", label: "detail.host" },
  { field: "guestName", label: "detail.guest" },
  { field: "duration", label: "detail.duration" },
];

export const DETAIL_VIEWS: Readonly<Record<ContentType, DetailView>> = {
  article: {
    kicker: { category: true },
    facts: [
      { field: "authorName", label: "common.by", testId: "detail-author" },
      { field: "readTimeMinutes", counted: "detail.readTime", testId: "detail-read-time" },
      { field: "viewCount", counted: "detail.views", testId: "detail-views" },
    ],
    verseCategories: ["poetry"],
    // A video article (the politics page's coverage) plays its video where the others show their image.
    media: { video: "videoUrl" },
    relatedTitle: "detail.relatedArticles",
    schema: { type: "NewsArticle", byCategory: { opinion: "OpinionNewsArticle" }, author: ["authorName"] },
  },
  news: {
    kicker: { category: true, fallback: "nav.news", href: "/news" },
    facts: [
      { field: "priority", equals: "high", template: "detail.priorityHigh" },
      { field: "location", label: "detail.location", testId: "detail-location" },
      { field: "authorName", label: "common.by", testId: "detail-author" },
    ],
    relatedTitle: "detail.relatedNews",
    schema: { type: "NewsArticle", author: ["authorName"], place: "location" },
  },
  coverage: {
    kicker: { option: { field: "coverageType", labels: "coverageTypes" } },
    facts: [
      { field: "eventLocation", label: "detail.eventLocation" },
      { field: "eventDate", label: "detail.eventDate", date: true },
      { field: "reporterName", label: "detail.reporter" },
    ],
    media: { video: "videoUrl", captions: "captionsUrl" },
    relatedTitle: "detail.relatedCoverage",
    schema: { type: "ReportageNewsArticle", author: ["reporterName", "authorName"], place: "eventLocation" },
  },
  podcast: {
    kicker: { label: "programsPage.podcasts", href: "/programs" },
    facts: SHOW_FACTS,
    media: { video: "videoUrl", audio: "audioUrl", captions: "captionsUrl" },
    transcript: "transcript",
    relatedTitle: "detail.relatedPodcasts",
    schema: { type: "PodcastEpisode", author: ["hostName", "authorName"], episode: "episodeNumber", audio: "audioUrl" },
  },
  program: {
    kicker: { option: { field: "programType", labels: "programTypes" }, href: "/programs" },
    facts: [...SHOW_FACTS, { field: "airDate", label: "detail.airDate", date: true }],
    media: { video: "videoUrl", captions: "captionsUrl" },
    transcript: "transcript",
    relatedTitle: "detail.relatedPrograms",
    schema: { type: "TVEpisode", author: ["hostName", "authorName"], episode: "episodeNumber", genre: "programType" },
  },
  // Media items have no public page (they open in /media); the staff preview still shows one.
  media: {
    kicker: { category: true, href: "/media" },
    facts: [{ field: "authorName", label: "common.by", testId: "detail-author" }],
    media: { byKind: { kind: "mediaType", source: "fileUrl" } },
    relatedTitle: "detail.related",
    schema: { type: "Article", author: ["authorName"] },
  },
};

/** A column's text, or null when it holds none. */
export function textOf(item: DetailItem, field: string): string | null {
  const value = item[field];
  return typeof value === "string" ? value || null : typeof value === "number" ? String(value) : null;
}

/** What a detail page plays: its video, its audio (each from its own column, or a media item's file by its kind), and its picture. */
export function mediaSourcesOf(page: DetailPage): { video: string | null; audio: string | null; image: string | null } {
  const { item } = page;
  const media = DETAIL_VIEWS[page.type].media;
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

type Match = Parameters<typeof rootData>[0][number];

/** Title, description, canonical URL, Open Graph, Twitter card and JSON-LD of a detail page. */
export function detailMeta(page: DetailPage, matches: readonly Match[]) {
  const { item, type } = page;
  const view = DETAIL_VIEWS[type];
  const root = rootData(matches);
  const lang = root?.lang ?? "ar";
  const category = textOf(item, "categorySlug");
  const first = (fields: readonly string[]) => fields.map((f) => textOf(item, f)).find(Boolean) ?? null;
  const place = view.schema.place && textOf(item, view.schema.place);
  const audio = view.schema.audio && textOf(item, view.schema.audio);
  const episode = view.schema.episode ? item[view.schema.episode] : undefined;
  return contentMeta({
    matches,
    title: localizedField(lang, item, "title") ?? item.title,
    description: localized(lang, page.summary, page.summaryFr),
    path: page.url,
    image: item.imageUrl,
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
}
