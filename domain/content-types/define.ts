/**
 * The shape of a content-type definition, the `defineContentType` helper and the field builders the six type
 * files (./article.ts … ./media.ts) share. A definition is plain data: fields carry their validation as rules
 * (./schema.ts builds the zod parser from them, only where a form is validated), so a reading page that
 * imports a definition for a card's link or a detail view carries no form schemas (~9 KB of zod).
 *
 * Messages and labels are translation keys (domain/locales): `newsroom.f.*` field labels, `newsroom.v.*`
 * the spec's validation messages (back-office.md §5, Arabic verbatim), and each type's screen title and toasts
 * derived from its key and segment.
 */
import type { Permission } from "#domain/permissions.ts";
import type { Article, NewsArticle, PodcastEpisode, TVEpisode } from "schema-dts";

/**
 * An item's states (issue 40, decision 0138): draft → review → (changes_requested ↔ review) → approved →
 * scheduled / published; unpublishing is back to draft. "scheduled" is stored as published with a publish time
 * still to come; only a published item whose time has come is ever public. A writer sets draft and review only
 * (domain/workflow.ts); the others need content.publish.
 */
export const EDITOR_STATUSES = ["draft", "review", "changes_requested", "approved", "published", "scheduled"] as const;
export type EditorStatus = (typeof EDITOR_STATUSES)[number];

/** Longest transcript: a two-hour talk is about 120,000 characters. */
export const TRANSCRIPT_MAX = 200_000;

/** Kinds of input; each maps to one control in the editor and one parser on the server (./schema.ts). */
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
  | "url" // an absolute http(s) address (a canonical URL)
  | "boolean"
  | "reference" // the id of an item of the type `references` names (a podcast episode's program), chosen from its items
  // Relations, stored beside the item rather than in its table (server/content/item-relations.server.ts):
  | "authors" // author profile ids, in byline order (item_authors)
  | "tags"; // tag names, found or created by their normalised spelling (item_tags)

/** Kinds whose values live in tables of their own: the item's table has no column for them. */
export const RELATION_KINDS: readonly FieldKind[] = ["authors", "tags"];
export const isRelationField = (field: Pick<FieldDefinition, "kind">) => RELATION_KINDS.includes(field.kind);

/** Most authors an item names, and most tags it carries. */
export const AUTHORS_MAX = 10;
export const TAGS_MAX = 20;
/** Longest tag name, in characters. */
export const TAG_NAME_MAX = 60;

export type FieldDefinition = {
  /** The spec's and the JSON API's field name (snake_case), which is also the SQL column's. */
  name: string;
  /** The table column's key in server/db/schema.server.ts: the name in camelCase. */
  column: string;
  kind: FieldKind;
  /** Translation key of the label. */
  label: string;
  /** A required field refuses a blank value with `message`; an optional one stores blank as null. */
  required?: boolean;
  /** Reference fields: the key of the type whose items it names (one of the registry's, checked at start). */
  references?: string;
  /** Category and reference selects: the blank choice's label (newsroom.ui.choose unless told). */
  blank?: string;
  /** For select fields: the stored values; their labels are `${optionLabels}.${value}`. */
  options?: readonly string[];
  optionLabels?: string;
  /** Default value of a new item. */
  defaultValue?: string;
  /** The editor's hint under the field (translation key). */
  hint?: string;
  /** Lines a textarea shows (3 unless told): long texts such as a transcript get room. */
  rows?: number;
  /** Text fields: the fewest readable characters of a required value (1 unless told) and the most (500 unless told). */
  min?: number;
  max?: number;
  /** Translation key of the refusal: too short or blank, or not one of the options, or not a category or date. */
  message?: string;
  /** Translation key when longer than `max` (newsroom.v.tooLong unless told). */
  tooLong?: string;
  /** Refusal when the value, its markup taken out, is shorter than `min` (back-office.md §5, media titles). */
  plainText?: string;
  /** The form's section the field shows in, apart from the main ones ("searchAndSharing": docs/decisions/0123). */
  group?: FieldGroup;
  /** What stands in for a blank value on the public page, shown as the field's placeholder: the title, the summary, the main image. */
  fallback?: "title" | "summary" | "image";
};

/** Sections of the editor's form that gather fields of their own. */
export type FieldGroup = "searchAndSharing";

/** What a type file gives for a field: the column follows from the name. */
export type FieldInput = Omit<FieldDefinition, "column">;

/** Column display types of back-office.md §2. */
export type ColumnDisplay = "date" | "status" | "media" | "excerpt" | "text" | "category" | "option";
export type ColumnDefinition = { field: string; display: ColumnDisplay; label: string };

/**
 * The schema.org types of a detail page's JSON-LD (app/lib/seo.ts): names of schema.org's vocabulary (schema-dts),
 * so a misspelt one is no type at all and the definition naming it fails the type-check.
 */
export type SchemaType = Extract<
  (NewsArticle | Article | TVEpisode | PodcastEpisode)["@type"],
  "NewsArticle" | "Article" | "OpinionNewsArticle" | "ReportageNewsArticle" | "TVEpisode" | "PodcastEpisode"
>;

/** One fact under a detail page's headline: a column's value, with a label, through a template, or a flag. */
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

/**
 * How an item's detail page presents it: the breadcrumb's kicker, the facts under the headline, the player,
 * the related heading and the schema.org type. Fields are column keys (title, hostName, categoryName…).
 */
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
  /**
   * Columns the page shows that no editor field holds (French variants kept from the old site, the author's
   * French name and bio, read time, view count), by schema key.
   */
  readOnly?: readonly string[];
  relatedTitle: string;
  /** Translation key naming the date under the headline: the publish date unless told (a podcast's is its broadcast). */
  dateLabel?: string;
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

/**
 * A card's field: a column by its schema key, under another name in the card (`{ name: "views", column: "viewCount" }`),
 * or the column's first `chars` characters (a preview, never the whole body).
 */
export type CardField = string | { readonly name: string; readonly column: string; readonly chars?: number };

/**
 * What an item of a type shows as a card, on every listing (section pages, home, the public JSON API): its columns,
 * and whether it names its category (categoryName, categoryNameFr, categorySlug, joined) and its byline (`bylines`,
 * the author profiles). server/content/listings.server.ts selects exactly these; a field added here reaches every
 * card, listing page and the JSON API without a query module's edit.
 */
export type CardDefinition = { readonly fields: readonly CardField[]; readonly category?: boolean; readonly bylines?: boolean };

/**
 * The public JSON API's item (app/routes/api/*): each JSON name from a card field by its name, or `$url` (the item's
 * public path), or `$category` (`{ slug, name, nameFr }` of its category, or null). Dates are written as ISO text.
 */
export type ApiFieldMap = Readonly<Record<string, string>>;

/** What a type file writes. Everything a type has that the others do not is here; the rest is derived. */
export type ContentTypeInput<Key extends string = string> = {
  /** The type's one name in code: cache tag, view counter, flash cookie, preview, search tables. */
  type: Key;
  /** Where a reader opens one item (/{publicPath}/{slug}), or the listing that shows it. */
  publicPath: string;
  /** A type shown on a listing page rather than a page of its own (media items open in /media). */
  detailPage: boolean;
  /** The SQL table (server/db/schema.server.ts; search indexes it by this name). */
  table: string;
  /** The segment of /admin/{segment} and /api/admin/{segment}, the dashboard's count and the admin menu's label. */
  segment: string;
  fields: readonly FieldInput[];
  /**
   * The slugs of the categories its category field offers (the form's select, the server's check and the
   * list's names follow them), in the spec's order; absent: every category (back-office.md §3 lists news').
   */
  categories?: readonly string[];
  /** The admin list's columns (back-office.md §2) in order: a field's name (or publish_date, status, author_name) and its display. */
  columns: Readonly<Record<string, ColumnDisplay>>;
  /**
   * The admin list's order: newest (highest) first by this field's name, one of its fields or a column every type
   * has (§2: articles by publish_date, the rest by created_at).
   */
  listOrder: string;
  /** The plain-text summary shown on cards and related items. */
  summaryField: "excerpt" | "description";
  /** Its cards' fields (listings, home, the public JSON API). */
  card: CardDefinition;
  /** Its item in the public JSON API, when it has one (/api/articles): JSON name → card field. */
  api?: ApiFieldMap;
  /** Storage folders of back-office.md §7 for each file field. */
  folders: Partial<Record<string, string>>;
  /** An extra list action (§2: podcasts and programs open their audio or video in a new tab). */
  openMediaField?: string;
  /**
   * Its podcast feed (RSS 2.0 with the iTunes tags, server/content/feeds.server.ts): where it is served, the page
   * the channel links to and its Apple Podcasts category. The admin list announces it; detail pages link it.
   */
  feed?: { path: string; link: string; category: string };
  /** The SQL columns whose text the search index reads, by weight; null for a type search does not show. */
  search: { title: readonly string[]; body: readonly string[] } | null;
  /** Whether a detail view adds to the item's `view_count` column (the running total of its listings). */
  viewCounter: boolean;
  /**
   * Whether its items can be live (issue 44, docs/decisions/0146-live-coverage.md): started and ended from its edit
   * page's live desk, collecting short entries readers see arrive without reloading.
   */
  live?: boolean;
  /** Permissions of its screens and API: content.write and content.delete unless told. */
  permissions?: { write: Permission; delete: Permission };
  /** Its card on the dashboard and on the upload hub (back-office.md §2): position (from 1) and border colour. */
  dashboard: { position: number; tone: string };
  upload: { position: number; accent: string };
  detail: DetailView;
};

export type TypeDefinition<Key extends string = string> = Omit<ContentTypeInput<Key>, "fields" | "columns" | "permissions"> & {
  fields: readonly FieldDefinition[];
  columns: readonly ColumnDefinition[];
  permissions: { write: Permission; delete: Permission };
  /** Translation keys: the screen title (back-office.md §2), the singular noun, the success and failure toasts. */
  labels: { title: string; singular: string; created: string; updated: string; createFailed: string; updateFailed: string };
  /** Fields read by the admin list's text filter (and the title of an item). */
  searchFields: readonly string[];
  /** The field whose text makes the item's title and its slug. */
  titleField: "title";
};

/** A field's column key: its name in camelCase (publish_date → publishDate). */
export const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** Labels of the admin list's columns that are not fields of the form. */
const COMMON_COLUMN_LABELS: Readonly<Record<string, string>> = {
  publish_date: "newsroom.f.publishDate",
  status: "newsroom.f.status",
  author_name: "newsroom.f.author",
};

/**
 * A type's definition from what its file writes: field columns, column labels, the screen's labels (from
 * the type's key and segment), default permissions, and the list filter's fields.
 */
export function defineContentType<const Key extends string, const Table extends string, const Card extends CardDefinition>(
  input: ContentTypeInput<Key> & { table: Table; card: Card },
): TypeDefinition<Key> & { table: Table; card: Card } {
  const { type, segment } = input;
  const fields = input.fields.map((f) => ({ ...f, column: camel(f.name) }));
  const labelOf = (name: string) => fields.find((f) => f.name === name)?.label ?? COMMON_COLUMN_LABELS[name];
  return {
    ...input,
    fields,
    columns: Object.entries(input.columns).map(([field, display]) => ({ field, display, label: labelOf(field) ?? `newsroom.f.${camel(field)}` })),
    permissions: input.permissions ?? { write: "content.write", delete: "content.delete" },
    labels: {
      title: `newsroom.t.${segment}`,
      singular: `newsroom.s.${type}`,
      created: `newsroom.ok.${type}Created`,
      updated: `newsroom.ok.${type}Updated`,
      createFailed: `newsroom.fail.${type}Create`,
      updateFailed: `newsroom.fail.${type}Update`,
    },
    searchFields: ["title", input.summaryField, ...fields.filter((f) => f.kind === "richtext").map((f) => f.name)],
    titleField: "title",
  };
}

// ---- Field builders: what several types share ----

/** A validation message's translation key. */
export function v(key: string): string {
  return `newsroom.v.${key}`;
}

type Rule = Pick<FieldInput, "min" | "max" | "message" | "tooLong" | "plainText">;

/** The title (required); `min` readable characters with `message`, 300 at most unless told. */
export function title(rule: Rule): FieldInput {
  return { name: "title", kind: "text", label: "newsroom.f.title", required: true, max: 300, ...rule };
}

export const titleFr: FieldInput = { name: "title_fr", kind: "text", label: "newsroom.f.titleFr", max: 300 };

/** A required plain-text summary: the excerpt or the description. */
export function summary(name: "excerpt" | "description", rule: Rule): FieldInput {
  return { name, kind: "textarea", label: `newsroom.f.${name}`, required: true, ...rule };
}

/** The rich-text body: required with at least 20 readable characters, or optional (shows' notes). */
export function body({ required, label = "newsroom.f.content" }: { required: boolean; label?: string }): FieldInput {
  return required
    ? { name: "content", kind: "richtext", label, required: true, min: 20, message: "newsroom.v.content20" }
    : { name: "content", kind: "richtext", label, max: 500_000 };
}

/** The category, required; `message` when none is chosen. */
export function category(message = "newsroom.v.category"): FieldInput {
  return { name: "category_id", kind: "category", label: "newsroom.f.category", required: true, message };
}

/** A required select of `options`, labelled `${optionLabels}.${value}`; its label and message keys are the name in camelCase. */
export function select(name: string, options: readonly string[], optionLabels: string, extra: Partial<FieldInput> = {}): FieldInput {
  const key = camel(name);
  return { name, kind: "select", label: `newsroom.f.${key}`, required: true, options, optionLabels, message: `newsroom.v.${key}`, ...extra };
}

/** The byline: one or more author profiles (blank: the signed-in account's profile, on a new item). */
export const authors: FieldInput = { name: "authors", kind: "authors", label: "newsroom.f.authors", hint: "newsroom.h.authors", message: "newsroom.v.authors" };
/** Tags, typed or chosen from those that exist. */
export const tags: FieldInput = { name: "tags", kind: "tags", label: "newsroom.f.tags", hint: "newsroom.h.tags", message: "newsroom.v.tags" };

export const image: FieldInput = { name: "image_url", kind: "image", label: "newsroom.f.image" };

/**
 * Search engines and sharing (issue 29, docs/decisions/0123-search-and-sharing.md), the last fields of every type:
 * what the page tells search engines and link previews when it should not be the title, summary and main image.
 */
export const searchAndSharing: readonly FieldInput[] = [
  {
    name: "meta_description",
    kind: "textarea",
    label: "searchSharing.f.metaDescription",
    hint: "searchSharing.h.metaDescription",
    max: 300,
    group: "searchAndSharing",
    fallback: "summary",
  },
  { name: "share_title", kind: "text", label: "searchSharing.f.shareTitle", max: 200, group: "searchAndSharing", fallback: "title" },
  {
    name: "share_image_url",
    kind: "image",
    label: "searchSharing.f.shareImage",
    hint: "searchSharing.h.shareImage",
    group: "searchAndSharing",
    fallback: "image",
  },
  {
    name: "canonical_url",
    kind: "url",
    label: "searchSharing.f.canonicalUrl",
    hint: "searchSharing.h.canonicalUrl",
    max: 2048,
    message: "searchSharing.v.canonicalUrl",
    group: "searchAndSharing",
  },
  { name: "noindex", kind: "boolean", label: "searchSharing.f.noindex", hint: "searchSharing.h.noindex", group: "searchAndSharing" },
];
/**
 * Urgent: publishing the item sends a breaking-news alert to the readers who opted in, as publishing an item of the
 * breaking category does (issue 32, docs/decisions/0127-breaking-news-alerts.md). Once per item.
 */
export const urgent: FieldInput = { name: "urgent", kind: "boolean", label: "push.f.urgent", hint: "push.h.urgent" };
/** The program a podcast episode belongs to: optional; its episodes make the program's own podcast feed. */
export const program: FieldInput = {
  name: "program_id",
  kind: "reference",
  references: "program",
  label: "newsroom.f.program",
  hint: "newsroom.h.program",
  message: "newsroom.v.programNotFound",
  blank: "newsroom.ui.noProgram",
};

export const video: FieldInput = { name: "video_url", kind: "video", label: "newsroom.f.video" };
// Video accessibility (docs/decisions/0111-captions-and-transcripts.md): captions for a type's video, a
// transcript for the shows.
export const captions: FieldInput = { name: "captions_url", kind: "captions", label: "newsroom.f.captions", hint: "newsroom.h.captions" };
export const transcript: FieldInput = {
  name: "transcript",
  kind: "textarea",
  label: "newsroom.f.transcript",
  hint: "newsroom.h.transcript",
  rows: 12,
  max: TRANSCRIPT_MAX,
};

/** The shows' (podcasts' and programs') host, guest, episode, season and duration; the host needs `hostMin` characters. */
export function showFields(hostMin: number): FieldInput[] {
  return [
    { name: "host_name", kind: "text", label: "newsroom.f.host", required: true, min: hostMin, max: 120, message: "newsroom.v.host" },
    { name: "guest_name", kind: "text", label: "newsroom.f.guest", max: 200 },
    { name: "episode_number", kind: "integer", label: "newsroom.f.episode" },
    { name: "season", kind: "text", label: "newsroom.f.season", defaultValue: "1", max: 20 },
    { name: "duration", kind: "text", label: "newsroom.f.duration", hint: "newsroom.h.duration", max: 20 },
  ];
}

/** The shows' facts under the headline. */
export const SHOW_FACTS: readonly FactView[] = [
  { field: "episodeNumber", template: "detail.episode" },
  { field: "season", template: "detail.season" },
  { field: "hostName", label: "detail.host" },
  { field: "guestName", label: "detail.guest" },
  { field: "duration", label: "detail.duration" },
];
