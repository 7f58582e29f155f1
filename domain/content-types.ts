/**
 * The content-type registry: one definition per type the newsroom publishes (article, news item, coverage,
 * podcast, program, media item), in the manner of a Payload collection. Everything that differs between the
 * types lives here, as data: fields with their rules and the spec's messages (back-office.md §5), list
 * columns with the spec's display types (§2), the admin and API segment, the public path, permissions,
 * search fields and file fields. One list screen, one editor, one JSON API, one public path builder, the
 * sitemap, RSS and search read it; adding a seventh type is adding one entry.
 *
 * It runs on both sides (the editor validates in the browser with the same schema the server enforces), so
 * it holds no table objects: server/content/registry.server.ts maps each type to its table.
 *
 * Messages are translation keys under `newsroom.v` (domain/locales): the Arabic file carries the spec's words
 * verbatim, the JSON API answers in Arabic.
 */
import { z } from "zod/mini";
import type { Permission } from "#server/auth/permissions.server.ts";
import { CONTENT_TYPES, PUBLIC_PATHS, type ContentType } from "./content-paths.ts";

// The types, their public paths and publicUrl() live in ./content-paths.ts, free of zod for the reading pages.
export { CONTENT_TYPES, publicUrl, type ContentType } from "./content-paths.ts";

/** What an editor chooses; "scheduled" is stored as published with a publish time still to come. */
export const EDITOR_STATUSES = ["draft", "published", "scheduled"] as const;
export type EditorStatus = (typeof EDITOR_STATUSES)[number];

export const NEWS_PRIORITIES = ["high", "medium", "low"] as const;
export const COVERAGE_TYPES = ["live", "event", "conference", "interview", "report", "cultural"] as const;
export const PROGRAM_TYPES = ["khutwa", "maqal", "ayan", "interview", "documentary", "cultural"] as const;
export const MEDIA_KINDS = ["video", "audio", "image"] as const;

/** Kinds of input; each maps to one control in the editor and one parser on the server. */
export type FieldKind =
  | "text" // one line
  | "textarea" // several lines of plain text
  | "richtext" // sanitised HTML from the rich-text editor
  | "select" // one of `options`
  | "category" // a category id from the categories table
  | "integer"
  | "date" // YYYY-MM-DD
  | "image" // an uploaded image (image/*, 10 MB) or its URL
  | "audio" // an audio file URL (uploads: media pipeline)
  | "video" // a hosted video id or a video URL
  | "file" // media item: a file URL or a hosted video id
  | "captions" // the video's WebVTT captions: a .vtt file's URL (uploads: 1 MB, must start with "WEBVTT")
  | "boolean";

export type FieldDefinition = {
  /** The spec's and the JSON API's field name (snake_case). */
  name: string;
  /** The table column's key in server/db/schema.ts. */
  column: string;
  kind: FieldKind;
  /** Translation key of the label. */
  label: string;
  required?: boolean;
  /** For select fields: the stored values; their labels are `${optionLabels}.${value}`. */
  options?: readonly string[];
  optionLabels?: string;
  /** Default value of a new item. */
  defaultValue?: string;
  /** The editor's hint under the field (translation key). */
  hint?: string;
  /** Lines a textarea shows (3 unless told): long texts such as a transcript get room. */
  rows?: number;
  schema: z.ZodMiniType;
};

/** Column display types of back-office.md §2. */
export type ColumnDisplay = "date" | "status" | "media" | "excerpt" | "text" | "category" | "option";
export type ColumnDefinition = { field: string; display: ColumnDisplay; label: string };

export type ContentTypeDefinition = {
  type: ContentType;
  /** The segment of /admin/{segment}, /api/admin/{segment} and the dashboard count key. */
  segment: "articles" | "news" | "coverage" | "podcasts" | "programs" | "media";
  /** Where a reader opens one item, or null when the type has no page of its own. */
  publicPath: string;
  /** A type shown on a listing page rather than a page of its own (media items open in /media). */
  detailPage: boolean;
  /** Translation keys: the screen title (back-office.md §2), the singular noun, the success toasts. */
  labels: { title: string; singular: string; created: string; updated: string; createFailed: string; updateFailed: string };
  fields: readonly FieldDefinition[];
  columns: readonly ColumnDefinition[];
  /** The admin list's order: newest first by this field (§2: articles by publish date, the rest by creation). */
  listOrder: "publish_date" | "created_at";
  permissions: { write: Permission; delete: Permission };
  /** Fields read by search and by the list's text filter. */
  searchFields: readonly string[];
  /** The field whose text makes the item's title and its slug. */
  titleField: "title";
  /** The plain-text summary shown on cards and related items. */
  summaryField: "excerpt" | "description";
  /** Storage folders of back-office.md §7 for each file field. */
  folders: Partial<Record<string, string>>;
  /** An extra list action (§2: podcasts and programs open their audio or video in a new tab). */
  openMediaField?: string;
};

// ---- Field schemas ----
// Every field arrives as a string (a form) or a JSON value; blank optional fields become null.

const text = (value: unknown) => (typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : "");
/** Length of the readable text of a rich-text body (tags and entities do not count). */
export const textLength = (html: string) =>
  html
    .replace(/<[^>]*>/g, "")
    .replace(/&[a-z#0-9]+;/gi, " ")
    .trim().length;

const v = (key: string) => `newsroom.v.${key}`;

function minText(min: number, message: string, max = 500, tooLong = v("tooLong")) {
  return z.pipe(z.transform(text), z.string().check(z.minLength(min, message), z.maxLength(max, tooLong)));
}
function optionalText(max = 500) {
  return z.pipe(
    z.transform((value: unknown) => text(value) || null),
    z.nullable(z.string().check(z.maxLength(max, v("tooLong")))),
  );
}
function richText(min: number, message: string) {
  return z.pipe(
    z.transform(text),
    z.string().check(
      z.refine((html) => textLength(html) >= min, message),
      z.maxLength(500_000, v("tooLong")),
    ),
  );
}
function oneOf(values: readonly string[], message: string) {
  return z.pipe(z.transform(text), z.string().check(z.refine((value) => values.includes(value), message)));
}
function categoryId(message: string) {
  return z.pipe(z.transform(text), z.string().check(z.regex(/^\d{1,9}$/, message)));
}
const optionalInteger = z.pipe(
  z.transform((value: unknown) => text(value) || null),
  z.nullable(z.string().check(z.regex(/^\d{1,6}$/, v("integer")))),
);
const requiredDate = (message: string) => z.pipe(z.transform(text), z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, message)));
const optionalDate = z.pipe(
  z.transform((value: unknown) => text(value) || null),
  z.nullable(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, v("date")))),
);
/** A stored file's URL: a path on this site, or http(s). */
const fileUrl = z.pipe(
  z.transform((value: unknown) => text(value) || null),
  z.nullable(z.string().check(z.maxLength(2048, v("tooLong")), z.regex(/^(?:\/[^/\\]|https?:\/\/)\S*$/i, v("fileUrl")))),
);
/** A hosted video id (UUID) or a URL. */
const videoRef = z.pipe(
  z.transform((value: unknown) => text(value) || null),
  z.nullable(
    z
      .string()
      .check(
        z.maxLength(2048, v("tooLong")),
        z.regex(/^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\/[^/\\]\S*|https?:\/\/\S+)$/i, v("videoRef")),
      ),
  ),
);
/** A WebVTT captions file's URL: a path on this site or http(s), naming a .vtt file. */
const captionsUrl = z.pipe(
  z.transform((value: unknown) => text(value) || null),
  z.nullable(z.string().check(z.maxLength(2048, v("tooLong")), z.regex(/^(?:\/[^/\\]|https?:\/\/)\S*\.vtt(?:[?#]\S*)?$/i, v("captionsUrl")))),
);
/** Longest transcript: a two-hour talk is about 120,000 characters. */
export const TRANSCRIPT_MAX = 200_000;

const flag = z.pipe(
  z.transform((value: unknown) => value === true || value === "true" || value === "on" || value === "1"),
  z.boolean(),
);

const TITLE_5 = minText(5, v("title5"), 300);
const CONTENT_20 = richText(20, v("content20"));
const EXCERPT_10 = minText(10, v("excerpt10"), 1000);

// Fields every type has, in the editor's closing section.
const titleFr: FieldDefinition = { name: "title_fr", column: "titleFr", kind: "text", label: "newsroom.f.titleFr", schema: optionalText(300) };
const image: FieldDefinition = { name: "image_url", column: "imageUrl", kind: "image", label: "newsroom.f.image", schema: fileUrl };
// Video accessibility (docs/decisions/0111-captions-and-transcripts.md): captions for a type's video, a
// transcript for the shows.
const captions: FieldDefinition = {
  name: "captions_url",
  column: "captionsUrl",
  kind: "captions",
  label: "newsroom.f.captions",
  hint: "newsroom.h.captions",
  schema: captionsUrl,
};
const transcript: FieldDefinition = {
  name: "transcript",
  column: "transcript",
  kind: "textarea",
  label: "newsroom.f.transcript",
  hint: "newsroom.h.transcript",
  rows: 12,
  schema: optionalText(TRANSCRIPT_MAX),
};

// ---- The six types ----

const article: ContentTypeDefinition = {
  type: "article",
  segment: "articles",
  ...PUBLIC_PATHS.article,
  labels: {
    title: "newsroom.t.articles",
    singular: "newsroom.s.article",
    created: "newsroom.ok.articleCreated",
    updated: "newsroom.ok.articleUpdated",
    createFailed: "newsroom.fail.articleCreate",
    updateFailed: "newsroom.fail.articleUpdate",
  },
  fields: [
    { name: "title", column: "title", kind: "text", label: "newsroom.f.title", required: true, schema: TITLE_5 },
    titleFr,
    { name: "excerpt", column: "excerpt", kind: "textarea", label: "newsroom.f.excerpt", required: true, schema: EXCERPT_10 },
    { name: "content", column: "content", kind: "richtext", label: "newsroom.f.content", required: true, schema: CONTENT_20 },
    { name: "category_id", column: "categoryId", kind: "category", label: "newsroom.f.category", required: true, schema: categoryId(v("category")) },
    image,
    { name: "is_featured", column: "isFeatured", kind: "boolean", label: "newsroom.f.featured", schema: flag },
  ],
  columns: [
    { field: "title", display: "excerpt", label: "newsroom.f.title" },
    { field: "category_id", display: "category", label: "newsroom.f.category" },
    { field: "publish_date", display: "date", label: "newsroom.f.publishDate" },
    { field: "status", display: "status", label: "newsroom.f.status" },
  ],
  listOrder: "publish_date",
  permissions: { write: "content.write", delete: "content.delete" },
  searchFields: ["title", "excerpt", "content"],
  titleField: "title",
  summaryField: "excerpt",
  folders: { image_url: "articles" },
};

const news: ContentTypeDefinition = {
  type: "news",
  segment: "news",
  ...PUBLIC_PATHS.news,
  labels: {
    title: "newsroom.t.news",
    singular: "newsroom.s.news",
    created: "newsroom.ok.newsCreated",
    updated: "newsroom.ok.newsUpdated",
    createFailed: "newsroom.fail.newsCreate",
    updateFailed: "newsroom.fail.newsUpdate",
  },
  fields: [
    { name: "title", column: "title", kind: "text", label: "newsroom.f.title", required: true, schema: TITLE_5 },
    titleFr,
    { name: "excerpt", column: "excerpt", kind: "textarea", label: "newsroom.f.excerpt", required: true, schema: EXCERPT_10 },
    { name: "content", column: "content", kind: "richtext", label: "newsroom.f.content", required: true, schema: CONTENT_20 },
    { name: "category_id", column: "categoryId", kind: "category", label: "newsroom.f.category", required: true, schema: categoryId(v("category")) },
    {
      name: "priority",
      column: "priority",
      kind: "select",
      label: "newsroom.f.priority",
      required: true,
      options: NEWS_PRIORITIES,
      optionLabels: "newsroom.priority",
      defaultValue: "medium",
      schema: oneOf(NEWS_PRIORITIES, v("priority")),
    },
    { name: "location", column: "location", kind: "text", label: "newsroom.f.location", schema: optionalText(200) },
    image,
  ],
  columns: [
    { field: "title", display: "text", label: "newsroom.f.title" },
    { field: "category_id", display: "category", label: "newsroom.f.category" },
    { field: "priority", display: "option", label: "newsroom.f.priority" },
    { field: "location", display: "text", label: "newsroom.f.location" },
    { field: "author_name", display: "text", label: "newsroom.f.author" },
    { field: "publish_date", display: "date", label: "newsroom.f.publishDate" },
    { field: "status", display: "status", label: "newsroom.f.status" },
  ],
  listOrder: "created_at",
  permissions: { write: "content.write", delete: "content.delete" },
  searchFields: ["title", "excerpt", "content"],
  titleField: "title",
  summaryField: "excerpt",
  folders: { image_url: "news" },
};

const coverage: ContentTypeDefinition = {
  type: "coverage",
  segment: "coverage",
  ...PUBLIC_PATHS.coverage,
  labels: {
    title: "newsroom.t.coverage",
    singular: "newsroom.s.coverage",
    created: "newsroom.ok.coverageCreated",
    updated: "newsroom.ok.coverageUpdated",
    createFailed: "newsroom.fail.coverageCreate",
    updateFailed: "newsroom.fail.coverageUpdate",
  },
  fields: [
    { name: "title", column: "title", kind: "text", label: "newsroom.f.title", required: true, schema: TITLE_5 },
    titleFr,
    { name: "excerpt", column: "excerpt", kind: "textarea", label: "newsroom.f.excerpt", required: true, schema: EXCERPT_10 },
    { name: "content", column: "content", kind: "richtext", label: "newsroom.f.content", required: true, schema: CONTENT_20 },
    {
      name: "coverage_type",
      column: "coverageType",
      kind: "select",
      label: "newsroom.f.coverageType",
      required: true,
      options: COVERAGE_TYPES,
      optionLabels: "coverageTypes",
      schema: oneOf(COVERAGE_TYPES, v("coverageType")),
    },
    {
      name: "event_location",
      column: "eventLocation",
      kind: "text",
      label: "newsroom.f.eventLocation",
      required: true,
      schema: minText(2, v("eventLocation"), 200),
    },
    { name: "event_date", column: "eventDate", kind: "date", label: "newsroom.f.eventDate", required: true, schema: requiredDate(v("eventDate")) },
    { name: "reporter_name", column: "reporterName", kind: "text", label: "newsroom.f.reporter", required: true, schema: minText(2, v("reporter"), 120) },
    image,
    { name: "video_url", column: "videoUrl", kind: "video", label: "newsroom.f.video", schema: videoRef },
    captions,
  ],
  columns: [
    { field: "title", display: "text", label: "newsroom.f.title" },
    { field: "coverage_type", display: "option", label: "newsroom.f.coverageType" },
    { field: "event_location", display: "text", label: "newsroom.f.eventLocation" },
    { field: "reporter_name", display: "text", label: "newsroom.f.reporter" },
    { field: "event_date", display: "date", label: "newsroom.f.eventDate" },
    { field: "status", display: "status", label: "newsroom.f.status" },
  ],
  listOrder: "created_at",
  permissions: { write: "content.write", delete: "content.delete" },
  searchFields: ["title", "excerpt", "content"],
  titleField: "title",
  summaryField: "excerpt",
  folders: { image_url: "coverage/images", video_url: "coverage/videos", captions_url: "coverage/captions" },
};

const podcast: ContentTypeDefinition = {
  type: "podcast",
  segment: "podcasts",
  ...PUBLIC_PATHS.podcast,
  labels: {
    title: "newsroom.t.podcasts",
    singular: "newsroom.s.podcast",
    created: "newsroom.ok.podcastCreated",
    updated: "newsroom.ok.podcastUpdated",
    createFailed: "newsroom.fail.podcastCreate",
    updateFailed: "newsroom.fail.podcastUpdate",
  },
  fields: [
    { name: "title", column: "title", kind: "text", label: "newsroom.f.title", required: true, schema: minText(1, v("titleRequired"), 300) },
    titleFr,
    {
      name: "description",
      column: "description",
      kind: "textarea",
      label: "newsroom.f.description",
      required: true,
      schema: minText(1, v("descriptionRequired"), 2000),
    },
    { name: "content", column: "content", kind: "richtext", label: "newsroom.f.showNotes", schema: optionalText(500_000) },
    { name: "host_name", column: "hostName", kind: "text", label: "newsroom.f.host", required: true, schema: minText(1, v("host"), 120) },
    { name: "guest_name", column: "guestName", kind: "text", label: "newsroom.f.guest", schema: optionalText(200) },
    { name: "episode_number", column: "episodeNumber", kind: "integer", label: "newsroom.f.episode", schema: optionalInteger },
    { name: "season", column: "season", kind: "text", label: "newsroom.f.season", defaultValue: "1", schema: optionalText(20) },
    { name: "duration", column: "duration", kind: "text", label: "newsroom.f.duration", hint: "newsroom.h.duration", schema: optionalText(20) },
    { name: "audio_url", column: "audioUrl", kind: "audio", label: "newsroom.f.audio", schema: fileUrl },
    { name: "video_url", column: "videoUrl", kind: "video", label: "newsroom.f.video", schema: videoRef },
    captions,
    transcript,
    image,
  ],
  columns: [
    { field: "title", display: "text", label: "newsroom.f.title" },
    { field: "episode_number", display: "text", label: "newsroom.f.episode" },
    { field: "season", display: "text", label: "newsroom.f.season" },
    { field: "host_name", display: "text", label: "newsroom.f.host" },
    { field: "duration", display: "text", label: "newsroom.f.duration" },
    { field: "audio_url", display: "media", label: "newsroom.f.audio" },
    { field: "publish_date", display: "date", label: "newsroom.f.publishDate" },
    { field: "status", display: "status", label: "newsroom.f.status" },
  ],
  listOrder: "created_at",
  permissions: { write: "content.write", delete: "content.delete" },
  searchFields: ["title", "description", "content"],
  titleField: "title",
  summaryField: "description",
  folders: { audio_url: "podcasts/audio", image_url: "podcasts/thumbnails", video_url: "podcasts/videos", captions_url: "podcasts/captions" },
  openMediaField: "audio_url",
};

const program: ContentTypeDefinition = {
  type: "program",
  segment: "programs",
  ...PUBLIC_PATHS.program,
  labels: {
    title: "newsroom.t.programs",
    singular: "newsroom.s.program",
    created: "newsroom.ok.programCreated",
    updated: "newsroom.ok.programUpdated",
    createFailed: "newsroom.fail.programCreate",
    updateFailed: "newsroom.fail.programUpdate",
  },
  fields: [
    { name: "title", column: "title", kind: "text", label: "newsroom.f.title", required: true, schema: TITLE_5 },
    titleFr,
    {
      name: "description",
      column: "description",
      kind: "textarea",
      label: "newsroom.f.description",
      required: true,
      schema: minText(20, v("description20"), 2000),
    },
    { name: "content", column: "content", kind: "richtext", label: "newsroom.f.content", schema: optionalText(500_000) },
    {
      name: "program_type",
      column: "programType",
      kind: "select",
      label: "newsroom.f.programType",
      required: true,
      options: PROGRAM_TYPES,
      optionLabels: "programTypes",
      schema: oneOf(PROGRAM_TYPES, v("programType")),
    },
    { name: "host_name", column: "hostName", kind: "text", label: "newsroom.f.host", required: true, schema: minText(2, v("host"), 120) },
    { name: "guest_name", column: "guestName", kind: "text", label: "newsroom.f.guest", schema: optionalText(200) },
    { name: "episode_number", column: "episodeNumber", kind: "integer", label: "newsroom.f.episode", schema: optionalInteger },
    { name: "season", column: "season", kind: "text", label: "newsroom.f.season", defaultValue: "1", schema: optionalText(20) },
    { name: "duration", column: "duration", kind: "text", label: "newsroom.f.duration", hint: "newsroom.h.duration", schema: optionalText(20) },
    { name: "air_date", column: "airDate", kind: "date", label: "newsroom.f.airDate", schema: optionalDate },
    { name: "video_url", column: "videoUrl", kind: "video", label: "newsroom.f.video", schema: videoRef },
    captions,
    transcript,
    image,
  ],
  columns: [
    { field: "title", display: "text", label: "newsroom.f.title" },
    { field: "program_type", display: "option", label: "newsroom.f.programType" },
    { field: "episode_number", display: "text", label: "newsroom.f.episode" },
    { field: "host_name", display: "text", label: "newsroom.f.host" },
    { field: "duration", display: "text", label: "newsroom.f.duration" },
    { field: "video_url", display: "media", label: "newsroom.f.video" },
    { field: "air_date", display: "date", label: "newsroom.f.airDate" },
    { field: "status", display: "status", label: "newsroom.f.status" },
  ],
  listOrder: "created_at",
  permissions: { write: "content.write", delete: "content.delete" },
  searchFields: ["title", "description", "content"],
  titleField: "title",
  summaryField: "description",
  folders: { image_url: "programs/thumbnails", video_url: "programs/videos", captions_url: "programs/captions" },
  openMediaField: "video_url",
};

const media: ContentTypeDefinition = {
  type: "media",
  segment: "media",
  ...PUBLIC_PATHS.media,
  labels: {
    title: "newsroom.t.media",
    singular: "newsroom.s.media",
    created: "newsroom.ok.mediaCreated",
    updated: "newsroom.ok.mediaUpdated",
    createFailed: "newsroom.fail.mediaCreate",
    updateFailed: "newsroom.fail.mediaUpdate",
  },
  fields: [
    {
      name: "title",
      column: "title",
      kind: "text",
      label: "newsroom.f.title",
      required: true,
      // back-office.md §5: still 3 characters once markup is taken out.
      schema: z.pipe(
        minText(3, v("mediaTitleMin"), 200, v("mediaTitleMax")),
        z.string().check(z.refine((title) => title.replace(/<[^>]*>/g, "").trim().length >= 3, v("mediaTitleInvalid"))),
      ),
    },
    titleFr,
    {
      name: "description",
      column: "description",
      kind: "textarea",
      label: "newsroom.f.description",
      required: true,
      schema: minText(10, v("mediaDescriptionMin"), 1000, v("mediaDescriptionMax")),
    },
    { name: "category_id", column: "categoryId", kind: "category", label: "newsroom.f.category", required: true, schema: categoryId(v("mediaCategory")) },
    {
      name: "media_type",
      column: "mediaType",
      kind: "select",
      label: "newsroom.f.mediaType",
      required: true,
      options: MEDIA_KINDS,
      optionLabels: "newsroom.mediaType",
      defaultValue: "video",
      schema: oneOf(MEDIA_KINDS, v("mediaType")),
    },
    { name: "file_url", column: "fileUrl", kind: "file", label: "newsroom.f.file", schema: videoRef },
    image,
  ],
  columns: [
    { field: "title", display: "text", label: "newsroom.f.title" },
    { field: "category_id", display: "category", label: "newsroom.f.category" },
    { field: "media_type", display: "option", label: "newsroom.f.mediaType" },
    { field: "description", display: "excerpt", label: "newsroom.f.description" },
    { field: "file_url", display: "media", label: "newsroom.f.file" },
    { field: "publish_date", display: "date", label: "newsroom.f.publishDate" },
    { field: "status", display: "status", label: "newsroom.f.status" },
  ],
  listOrder: "created_at",
  permissions: { write: "content.write", delete: "content.delete" },
  searchFields: ["title", "description"],
  titleField: "title",
  summaryField: "description",
  folders: { image_url: "media/images", file_url: "media/files" },
  openMediaField: "file_url",
};

export const CONTENT_TYPE_DEFINITIONS: Readonly<Record<ContentType, ContentTypeDefinition>> = { article, news, coverage, podcast, program, media };
export const ALL_CONTENT_TYPES: readonly ContentTypeDefinition[] = CONTENT_TYPES.map((t) => CONTENT_TYPE_DEFINITIONS[t]);

export function contentTypeOf(type: ContentType): ContentTypeDefinition {
  return CONTENT_TYPE_DEFINITIONS[type];
}

/** The definition behind /admin/{segment} or /api/admin/{segment}, or undefined for any other segment. */
export function contentTypeBySegment(segment: string | undefined): ContentTypeDefinition | undefined {
  return ALL_CONTENT_TYPES.find((d) => d.segment === segment);
}

// ---- Publishing fields, common to every type ----

const PUBLISH_MESSAGES = { status: v("status"), publishDate: v("publishDate"), scheduledInPast: v("scheduledInPast"), slug: v("slug") };

/** A slug keeps letters of any script and digits: an Arabic title makes an Arabic slug (the spec's \w rule made it empty). */
export const PAGE_SLUG_PATTERN = /^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*$/u;
export const PAGE_SLUG_MAX = 120;

/** The slug a title makes: lower case, spaces to hyphens, anything but letters, digits and hyphens removed. */
export function slugify(title: string): string {
  return title
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u064B-\u065F\u0670\u0640]/g, "") // harakat and tatweel do not belong in a URL
    .replace(/[\s_]+/g, "-")
    .replace(/[^\p{L}\p{N}-]/gu, "")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, PAGE_SLUG_MAX)
    .replace(/-$/, "");
}

const publishing = {
  status: z.pipe(
    z.transform((value: unknown) => text(value) || "draft"),
    z.string().check(z.refine((s) => (EDITOR_STATUSES as readonly string[]).includes(s), PUBLISH_MESSAGES.status)),
  ),
  /** An ISO date-time or the editor's datetime-local value (site time, UTC); blank means now. */
  publish_date: z.pipe(
    z.transform((value: unknown) => text(value) || null),
    z.nullable(z.string().check(z.refine((s) => !Number.isNaN(Date.parse(/Z|[+-]\d\d:?\d\d$/.test(s) ? s : `${s}Z`)), PUBLISH_MESSAGES.publishDate))),
  ),
  page_slug: z.pipe(
    z.transform((value: unknown) => slugify(text(value)) || null),
    z.nullable(z.string().check(z.maxLength(PAGE_SLUG_MAX, v("tooLong")), z.regex(PAGE_SLUG_PATTERN, PUBLISH_MESSAGES.slug))),
  ),
};

/** The date a publish_date input stands for (no zone given: the site's time, UTC, Nouakchott's). */
export function parsePublishDate(value: string | null, now = new Date()): Date {
  if (!value) return now;
  return new Date(/Z|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
}

const schemas = new Map<ContentType, z.ZodMiniType>();

/**
 * The one schema of a type's form: its fields plus status, publish date and slug. A scheduled status needs a
 * publish date still to come. Output keys are the spec's field names.
 */
export function formSchemaOf(type: ContentType): z.ZodMiniType<Record<string, unknown>> {
  let schema = schemas.get(type);
  if (!schema) {
    const shape: Record<string, z.ZodMiniType> = { ...publishing };
    for (const field of CONTENT_TYPE_DEFINITIONS[type].fields) shape[field.name] = field.schema;
    schema = z.object(shape).check(
      z.refine((item: Record<string, unknown>) => item.status !== "scheduled" || parsePublishDate(item.publish_date as string | null) > new Date(), {
        message: PUBLISH_MESSAGES.scheduledInPast,
        path: ["publish_date"],
      }),
    );
    schemas.set(type, schema);
  }
  return schema as z.ZodMiniType<Record<string, unknown>>;
}

/** The status an editor sees: published with a publish time still to come is "scheduled". */
export function editorStatusOf(status: string, publishDate: Date | string, now = new Date()): EditorStatus {
  if (status !== "published") return "draft";
  return new Date(publishDate) > now ? "scheduled" : "published";
}
