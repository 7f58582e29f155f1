/**
 * One schema for PGlite and PostgreSQL. Tables follow the entities of spec/public-site.md §3 and
 * spec/back-office.md §3. Every content table has status, page_slug (unique per table), publish_date,
 * created_at, updated_at, is_demo, and indexes for the listing queries of the spec.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  primaryKey,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { CONTACT_KINDS, CONTACT_STATUSES } from "#domain/contacts.ts";
import { MEDIA_TYPES } from "#domain/media-library.ts";
import { LIBRARY_KINDS } from "#domain/library.ts";

/** Stored statuses; "scheduled" is published with a publish time to come; the review states are never public (issue 40, decision 0138). */
export const CONTENT_STATUSES = ["draft", "review", "changes_requested", "approved", "published"] as const;
export type ContentStatus = (typeof CONTENT_STATUSES)[number];

export const CATEGORY_TYPES = ["news", "culture", "politics", "literature", "emirates", "opinion", "media", "general"] as const;
export const REGIONS = ["uae", "morocco", "mauritania", "sahara", "mali"] as const;
export const NEWS_PRIORITIES = ["high", "medium", "low"] as const;
export const COVERAGE_TYPES = ["live", "event", "conference", "interview", "report", "cultural"] as const;
export const PROGRAM_TYPES = ["khutwa", "maqal", "ayan", "interview", "documentary", "cultural"] as const;
export const ARTICLE_CONTENT_TYPES = ["article", "video"] as const;

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
};

/** Columns every publishable content table shares. */
const publishable = {
  status: text("status", { enum: CONTENT_STATUSES }).notNull().default("draft"),
  pageSlug: text("page_slug").notNull(),
  publishDate: timestamp("publish_date", { withTimezone: true }).notNull().defaultNow(),
  isDemo: boolean("is_demo").notNull().default(false),
  /** Urgent: publishing it alerts the push subscribers, as an item of the breaking category does (decision 0127). */
  urgent: boolean("urgent").notNull().default(false),
  ...timestamps,
};

/** Search and sharing fields every content type has (issue 29, drizzle/0013_search_and_sharing.sql). */
const searchAndSharing = {
  metaDescription: text("meta_description"),
  shareTitle: text("share_title"),
  shareImageUrl: text("share_image_url"),
  canonicalUrl: text("canonical_url"),
  /** Kept out of search engines: robots noindex on its page, left out of the sitemap. */
  noindex: boolean("noindex").notNull().default(false),
};

export const categories = pgTable(
  "categories",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    nameFr: text("name_fr"),
    slug: text("slug").notNull(),
    type: text("type", { enum: CATEGORY_TYPES }).notNull().default("general"),
    parentId: integer("parent_id").references((): AnyPgColumn => categories.id, { onDelete: "set null" }),
    description: text("description"),
    descriptionFr: text("description_fr"),
    sortOrder: integer("sort_order").notNull().default(0),
    isDemo: boolean("is_demo").notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("categories_slug_unique").on(t.slug),
    index("categories_type_idx").on(t.type, t.sortOrder),
    index("categories_parent_idx").on(t.parentId),
  ],
);

export const articles = pgTable(
  "articles",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    titleFr: text("title_fr"),
    content: text("content").notNull(),
    contentFr: text("content_fr"),
    excerpt: text("excerpt"),
    excerptFr: text("excerpt_fr"),
    categoryId: integer("category_id").references(() => categories.id, { onDelete: "set null" }),
    authorId: text("author_id"),
    authorName: text("author_name"),
    authorNameFr: text("author_name_fr"),
    authorBio: text("author_bio"),
    authorImageUrl: text("author_image_url"),
    imageUrl: text("image_url"),
    isFeatured: boolean("is_featured").notNull().default(false),
    viewCount: integer("view_count").notNull().default(0),
    /** politics and history: the region filter (uae, morocco, mauritania, sahara, mali). */
    region: text("region", { enum: REGIONS }),
    isTrending: boolean("is_trending").notNull().default(false),
    /** politics and history: the content-type filter (articles or videos). */
    contentType: text("content_type", { enum: ARTICLE_CONTENT_TYPES }).notNull().default("article"),
    videoUrl: text("video_url"),
    readTimeMinutes: integer("read_time_minutes"),
    ...publishable,
    ...searchAndSharing,
  },
  (t) => [
    uniqueIndex("articles_page_slug_unique").on(t.pageSlug),
    index("articles_status_publish_idx").on(t.status, t.publishDate.desc()),
    // Keyset pages of the archive (decision 0144): the scan starts at the cursor and reads a page, ties broken by id.
    index("articles_status_publish_id_idx").on(t.status, t.publishDate, t.id),
    index("articles_featured_idx").on(t.status, t.isFeatured, t.publishDate.desc()),
    index("articles_category_idx").on(t.categoryId, t.status, t.publishDate.desc()),
    index("articles_region_idx").on(t.region, t.status, t.publishDate.desc()),
    index("articles_views_idx").on(t.status, t.viewCount.desc()),
  ],
);

export const news = pgTable(
  "news",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    titleFr: text("title_fr"),
    content: text("content").notNull(),
    contentFr: text("content_fr"),
    excerpt: text("excerpt"),
    excerptFr: text("excerpt_fr"),
    categoryId: integer("category_id").references(() => categories.id, { onDelete: "set null" }),
    priority: text("priority", { enum: NEWS_PRIORITIES }).notNull().default("medium"),
    location: text("location"),
    authorId: text("author_id"),
    authorName: text("author_name"),
    imageUrl: text("image_url"),
    ...publishable,
    ...searchAndSharing,
  },
  (t) => [
    uniqueIndex("news_page_slug_unique").on(t.pageSlug),
    // The news listing orders by created_at (public-site.md §7); detail and related by publish_date.
    index("news_status_created_idx").on(t.status, t.createdAt.desc()),
    index("news_status_publish_idx").on(t.status, t.publishDate.desc()),
    // Keyset pages of the archive (decision 0144): the scan starts at the cursor and reads a page, ties broken by id.
    index("news_status_publish_id_idx").on(t.status, t.publishDate, t.id),
    // Keyset pages of the news listing past page 20 (decision 0144), read backwards: newest first.
    index("news_status_created_id_idx").on(t.status, t.createdAt, t.id),
    index("news_category_idx").on(t.categoryId, t.status, t.publishDate.desc()),
  ],
);

export const coverages = pgTable(
  "coverages",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    titleFr: text("title_fr"),
    excerpt: text("excerpt"),
    content: text("content").notNull(),
    coverageType: text("coverage_type", { enum: COVERAGE_TYPES }).notNull().default("report"),
    eventLocation: text("event_location"),
    eventDate: date("event_date"),
    reporterName: text("reporter_name"),
    authorId: text("author_id"),
    authorName: text("author_name"),
    imageUrl: text("image_url"),
    videoUrl: text("video_url"),
    /** The video's WebVTT captions (a .vtt file's URL). */
    captionsUrl: text("captions_url"),
    /** Live coverage (issue 44, drizzle/0025_live_coverage.sql): live between its start and its end (none yet). */
    liveStartedAt: timestamp("live_started_at", { withTimezone: true }),
    liveEndedAt: timestamp("live_ended_at", { withTimezone: true }),
    ...publishable,
    ...searchAndSharing,
  },
  (t) => [
    uniqueIndex("coverages_page_slug_unique").on(t.pageSlug),
    index("coverages_live_idx")
      .on(t.liveStartedAt)
      .where(sql`${t.liveStartedAt} IS NOT NULL AND ${t.liveEndedAt} IS NULL`),
    index("coverages_status_publish_idx").on(t.status, t.publishDate.desc()),
    // Keyset pages of the archive (decision 0144): the scan starts at the cursor and reads a page, ties broken by id.
    index("coverages_status_publish_id_idx").on(t.status, t.publishDate, t.id),
    index("coverages_created_idx").on(t.createdAt.desc()),
  ],
);

/**
 * A live coverage's entries (issue 44, drizzle/0025_live_coverage.sql). Ids and versions come from one sequence
 * (`coverage_entry_seq`): each create, edit and delete sets version to its next value, so a reader's cursor asks for
 * every change after it. A deleted entry stays as a tombstone (deleted_at, its content blanked).
 */
export const coverageEntries = pgTable(
  "coverage_entries",
  {
    id: bigint("id", { mode: "number" })
      .primaryKey()
      .default(sql`nextval('coverage_entry_seq')`),
    coverageId: integer("coverage_id")
      .notNull()
      .references(() => coverages.id, { onDelete: "cascade" }),
    version: bigint("version", { mode: "number" }).notNull(),
    body: text("body").notNull(),
    imageUrl: text("image_url"),
    imageAlt: text("image_alt"),
    videoId: text("video_id"),
    embedUrl: text("embed_url"),
    keyEvent: boolean("key_event").notNull().default(false),
    pinned: boolean("pinned").notNull().default(false),
    authorId: text("author_id").references(() => user.id, { onDelete: "set null" }),
    /** The byline: the poster's display name when they posted. */
    authorName: text("author_name").notNull(),
    /** The composer's idempotency key: a resent post answers the first. */
    clientKey: text("client_key"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp("edited_at", { withTimezone: true }),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    index("coverage_entries_coverage_version_idx").on(t.coverageId, t.version),
    uniqueIndex("coverage_entries_client_key_unique").on(t.coverageId, t.clientKey),
    uniqueIndex("coverage_entries_one_pinned")
      .on(t.coverageId)
      .where(sql`${t.pinned} AND ${t.deletedAt} IS NULL`),
  ],
);

export const podcasts = pgTable(
  "podcasts",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    titleFr: text("title_fr"),
    description: text("description").notNull(),
    content: text("content"),
    episodeNumber: integer("episode_number"),
    season: text("season").notNull().default("1"),
    duration: text("duration"),
    hostName: text("host_name"),
    guestName: text("guest_name"),
    audioUrl: text("audio_url"),
    imageUrl: text("image_url"),
    /** A hosted video id (UUID) or a URL. */
    videoUrl: text("video_url"),
    /** The video's WebVTT captions (a .vtt file's URL). */
    captionsUrl: text("captions_url"),
    /** The episode's full text, plain text with blank lines between paragraphs. */
    transcript: text("transcript"),
    /** The program (show) the episode belongs to; its episodes make that program's own feed. */
    programId: integer("program_id").references((): AnyPgColumn => programs.id, { onDelete: "set null" }),
    authorId: text("author_id"),
    authorName: text("author_name"),
    ...publishable,
    ...searchAndSharing,
  },
  (t) => [
    uniqueIndex("podcasts_page_slug_unique").on(t.pageSlug),
    index("podcasts_program_idx").on(t.programId, t.publishDate.desc()),
    index("podcasts_status_publish_idx").on(t.status, t.publishDate.desc()),
    // Keyset pages of the archive (decision 0144): the scan starts at the cursor and reads a page, ties broken by id.
    index("podcasts_status_publish_id_idx").on(t.status, t.publishDate, t.id),
    index("podcasts_created_idx").on(t.createdAt.desc()),
  ],
);

export const programs = pgTable(
  "programs",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    titleFr: text("title_fr"),
    description: text("description").notNull(),
    content: text("content"),
    programType: text("program_type", { enum: PROGRAM_TYPES }).notNull().default("cultural"),
    episodeNumber: integer("episode_number"),
    season: text("season").notNull().default("1"),
    hostName: text("host_name"),
    guestName: text("guest_name"),
    duration: text("duration"),
    airDate: date("air_date").default(sql`CURRENT_DATE`),
    videoUrl: text("video_url"),
    /** The video's WebVTT captions (a .vtt file's URL). */
    captionsUrl: text("captions_url"),
    /** The episode's full text, plain text with blank lines between paragraphs. */
    transcript: text("transcript"),
    imageUrl: text("image_url"),
    authorId: text("author_id"),
    authorName: text("author_name"),
    ...publishable,
    ...searchAndSharing,
  },
  (t) => [
    uniqueIndex("programs_page_slug_unique").on(t.pageSlug),
    index("programs_status_publish_idx").on(t.status, t.publishDate.desc()),
    // Keyset pages of the archive (decision 0144): the scan starts at the cursor and reads a page, ties broken by id.
    index("programs_status_publish_id_idx").on(t.status, t.publishDate, t.id),
    index("programs_created_idx").on(t.createdAt.desc()),
  ],
);

export const media = pgTable(
  "media",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    titleFr: text("title_fr"),
    description: text("description"),
    mediaType: text("media_type", { enum: MEDIA_TYPES }).notNull(),
    /** A hosted video id (36-character UUID) or a file URL. */
    fileUrl: text("file_url"),
    thumbnailUrl: text("thumbnail_url"),
    imageUrl: text("image_url"),
    authorName: text("author_name"),
    /** The account that created the item (issue 40, migration 0019: ownership, as the other content tables have it). */
    authorId: text("author_id"),
    isFeatured: boolean("is_featured").notNull().default(false),
    viewCount: integer("view_count").notNull().default(0),
    durationSeconds: integer("duration_seconds"),
    categoryId: integer("category_id").references(() => categories.id, { onDelete: "set null" }),
    region: text("region", { enum: REGIONS }),
    isTrending: boolean("is_trending").notNull().default(false),
    ...publishable,
    ...searchAndSharing,
  },
  (t) => [
    uniqueIndex("media_page_slug_unique").on(t.pageSlug),
    index("media_status_publish_idx").on(t.status, t.isFeatured, t.publishDate.desc()),
    index("media_type_idx").on(t.mediaType, t.status, t.publishDate.desc()),
    index("media_category_idx").on(t.categoryId, t.mediaType, t.publishDate.desc()),
  ],
);

export const contacts = pgTable(
  "contacts",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    status: text("status", { enum: CONTACT_STATUSES }).notNull().default("new"),
    /** A plain message, or an article proposal from the opinion page's write-article box. */
    kind: text("kind", { enum: CONTACT_KINDS }).notNull().default("message"),
    ...timestamps,
  },
  (t) => [index("contacts_status_created_idx").on(t.status, t.createdAt.desc()), index("contacts_created_idx").on(t.createdAt.desc())],
);

/** Video library items of the local driver (the hosted driver keeps them at the video host). */
export const videos = pgTable(
  "videos",
  {
    guid: text("guid").primaryKey(),
    title: text("title").notNull(),
    description: text("description"),
    /** 0 waiting, 1 processing, 2 encoding, 3 finished, 4 ready, 5 failed (back-office.md §4). */
    status: integer("status").notNull().default(0),
    lengthSeconds: integer("length_seconds").notNull().default(0),
    views: integer("views").notNull().default(0),
    thumbnailFileName: text("thumbnail_file_name"),
    /** Why processing ended at status 5 (ffmpeg's last words, a refused file); shown to the newsroom. */
    failureReason: text("failure_reason"),
    collection: text("collection"),
    isDemo: boolean("is_demo").notNull().default(false),
    dateUploaded: timestamp("date_uploaded", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("videos_date_idx").on(t.dateUploaded.desc())],
);

/**
 * The media library (decision 0120, server/media/library.server.ts): every uploaded image, audio file and PDF,
 * keyed by the public URL the content columns store, with its alt text, caption, credit and focal point.
 */
export const libraryFiles = pgTable(
  "library_files",
  {
    id: serial("id").primaryKey(),
    url: text("url").notNull(),
    kind: text("kind", { enum: LIBRARY_KINDS }).notNull(),
    mime: text("mime"),
    bytes: bigint("bytes", { mode: "number" }),
    width: integer("width"),
    height: integer("height"),
    originalName: text("original_name").notNull().default(""),
    altAr: text("alt_ar").notNull().default(""),
    altFr: text("alt_fr").notNull().default(""),
    captionAr: text("caption_ar").notNull().default(""),
    captionFr: text("caption_fr").notNull().default(""),
    creditAr: text("credit_ar").notNull().default(""),
    creditFr: text("credit_fr").notNull().default(""),
    focalX: real("focal_x").notNull().default(0.5),
    focalY: real("focal_y").notNull().default(0.5),
    uploadedBy: text("uploaded_by"),
    /** The folded text the search reads (name and texts through domain/arabic.ts); null until the application fills it. */
    searchText: text("search_text"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("library_files_url_unique").on(t.url),
    index("library_files_kind_created_idx").on(t.kind, t.createdAt.desc()),
    index("library_files_created_idx").on(t.createdAt.desc()),
  ],
);

export const newsletterSubscribers = pgTable(
  "newsletter_subscribers",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    status: text("status", { enum: ["pending", "confirmed", "unsubscribed"] })
      .notNull()
      .default("pending"),
    /** SHA-256 of the confirmation token; the token itself only travels in the e-mail. */
    tokenHash: text("token_hash"),
    language: text("language").notNull().default("ar"),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    /** Which digests the subscriber gets (decision 0126): daily, weekly or none. */
    frequency: text("frequency", { enum: ["daily", "weekly", "none"] })
      .notNull()
      .default("daily"),
    /** SHA-256 of the unsubscribe and preferences token (server/newsletter/tokens.server.ts); the token is derived, never stored. */
    manageTokenHash: text("manage_token_hash"),
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("newsletter_email_unique").on(t.email),
    index("newsletter_token_idx").on(t.tokenHash),
    uniqueIndex("newsletter_manage_token_unique").on(t.manageTokenHash),
    index("newsletter_audience_idx").on(t.status, t.language, t.frequency),
  ],
);

/** One newsletter send (decision 0126): a digest or one item, in one language, with its items as they were sent. */
export const newsletterSends = pgTable(
  "newsletter_sends",
  {
    id: serial("id").primaryKey(),
    kind: text("kind", { enum: ["digest", "item"] }).notNull(),
    period: text("period", { enum: ["daily", "weekly"] }),
    language: text("language").notNull(),
    subject: text("subject").notNull(),
    intro: text("intro"),
    items: jsonb("items").notNull(),
    state: text("state", { enum: ["queued", "sending", "sent", "failed", "cancelled"] })
      .notNull()
      .default("queued"),
    total: integer("total").notNull().default(0),
    createdBy: text("created_by"),
    createdByName: text("created_by_name"),
    lastError: text("last_error"),
    /** The deliveries' counts, kept when they are pruned (NEWSLETTER_DELIVERIES_KEPT_DAYS after the send). */
    counts: jsonb("counts"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("newsletter_sends_created_idx").on(t.createdAt.desc())],
);

/** One recipient of a send: pending → sending (claimed with its batch) → sent, failed or skipped. */
export const newsletterDeliveries = pgTable(
  "newsletter_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    sendId: integer("send_id")
      .notNull()
      .references(() => newsletterSends.id, { onDelete: "cascade" }),
    subscriberId: integer("subscriber_id")
      .notNull()
      .references(() => newsletterSubscribers.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    state: text("state", { enum: ["pending", "sending", "sent", "failed", "skipped"] })
      .notNull()
      .default("pending"),
    attempts: smallint("attempts").notNull().default(0),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    error: text("error"),
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("newsletter_deliveries_unique").on(t.sendId, t.subscriberId),
    index("newsletter_deliveries_claim_idx").on(t.sendId, t.state, t.id),
    index("newsletter_deliveries_subscriber_idx").on(t.subscriberId),
  ],
);

/**
 * One row per reader per item per day: a detail view counts once per reader per day (the reader key is a
 * salted hash, never an address). The item's own counter (view_count, on the table of each type that counts
 * views) is bumped when a row is inserted, so listings read a plain column.
 */
export const contentViews = pgTable(
  "content_views",
  {
    contentType: text("content_type").notNull(),
    contentId: integer("content_id").notNull(),
    readerKey: text("reader_key").notNull(),
    day: date("day").notNull(),
  },
  (t) => [primaryKey({ columns: [t.contentType, t.contentId, t.readerKey, t.day] })],
);

// ---- Audience figures (issue 45, docs/decisions/0147-audience-figures.md; written by server/analytics/collect.server.ts) ----

/**
 * One row per recorded beacon, kept ANALYTICS_RAW_DAYS days: what "now" and a rebuild of the rollups read. The
 * visitor is the daily reader key (decision 0041) cut to 22 characters; no address, no user agent, no cookie.
 * `counted`: the visitor's first beacon of this page this UTC day (a view); `new_visitor`: their first of the day.
 */
export const audienceViews = pgTable(
  "audience_views",
  {
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    visitor: text("visitor").notNull(),
    page: text("page").notNull(),
    contentType: text("content_type"),
    contentId: integer("content_id"),
    lang: text("lang").notNull(),
    source: text("source").notNull(),
    campaign: text("campaign"),
    device: text("device").notNull(),
    counted: boolean("counted").notNull(),
    newVisitor: boolean("new_visitor").notNull(),
  },
  (t) => [index("audience_views_at_idx").on(t.at), index("audience_views_item_idx").on(t.contentType, t.contentId, t.at)],
);

/** What a visitor has been seen on today (page '' = the visitor itself): the one dedupe of views. Kept 2 days. */
export const audienceSeen = pgTable(
  "audience_seen",
  {
    day: date("day").notNull(),
    visitor: text("visitor").notNull(),
    page: text("page").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.visitor, t.page] })],
);

/**
 * The rollups' shared columns: `views` = counted views in the slot, `visitors` = new visitors of the day whose first
 * beacon fell in it. `grain` (server/analytics/grains.server.ts) says which columns a row keeps, the others blank:
 * every view is summed at each grain, so that a dashboard reads a few rows per slot, not one per page, source,
 * device and campaign.
 */
const audienceRollupColumns = () => ({
  grain: smallint("grain").notNull().default(0),
  page: text("page").notNull(),
  contentType: text("content_type").notNull().default(""),
  contentId: integer("content_id").notNull().default(0),
  lang: text("lang").notNull(),
  source: text("source").notNull(),
  device: text("device").notNull(),
  campaign: text("campaign").notNull().default(""),
  views: integer("views").notNull().default(0),
  visitors: integer("visitors").notNull().default(0),
});

/** Views by hour, kept ANALYTICS_HOURLY_DAYS days: today's and recent periods, an item's hours. */
export const audienceHourly = pgTable("audience_hourly", { hour: timestamp("hour", { withTimezone: true }).notNull(), ...audienceRollupColumns() }, (t) => [
  primaryKey({ columns: [t.grain, t.hour, t.page, t.lang, t.source, t.device, t.campaign] }),
  // One item's figures read its own rows, not every row of the period.
  index("audience_hourly_item_idx").on(t.contentType, t.contentId, t.hour),
]);

/** Views by UTC day, kept for ever: periods of whole days. */
export const audienceDaily = pgTable("audience_daily", { day: date("day").notNull(), ...audienceRollupColumns() }, (t) => [
  primaryKey({ columns: [t.grain, t.day, t.page, t.lang, t.source, t.device, t.campaign] }),
  index("audience_daily_item_idx").on(t.contentType, t.contentId, t.day),
]);

/** Searches by day and normalized query (domain/audience.ts normalizeSearchQuery); `empty`: those that found nothing. */
export const audienceSearches = pgTable(
  "audience_searches",
  {
    day: date("day").notNull(),
    query: text("query").notNull(),
    lang: text("lang").notNull(),
    searches: integer("searches").notNull(),
    empty: integer("empty").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.query, t.lang] })],
);

// ---- Authentication (better-auth's core tables) and profiles ----

export const user = pgTable("user", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
  },
  (t) => [index("session_user_idx").on(t.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("account_user_idx").on(t.userId)],
);

export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("verification_identifier_idx").on(t.identifier)],
);

export const rateLimit = pgTable("rate_limit", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  /** Milliseconds since the epoch (better-auth writes Date.now()), which does not fit a 32-bit integer. */
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

export const profiles = pgTable(
  "profiles",
  {
    id: text("id")
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    role: text("role").notNull().default("reader"),
    isAdmin: boolean("is_admin").notNull().default(false),
    permissions: text("permissions")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    fullName: text("full_name"),
    username: text("username"),
    avatarUrl: text("avatar_url"),
    disabled: boolean("disabled").notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex("profiles_username_unique").on(t.username)],
);

/** A revision's kind (drizzle/0009_revision_kind.sql). */
export const REVISION_KINDS = ["save", "autosave"] as const;
export type RevisionKind = (typeof REVISION_KINDS)[number];

/**
 * Every save of a content item keeps the item as it was saved (the spec's field names), so an editor can
 * see an earlier version and restore it. Kept per type and item, newest first.
 */
export const contentRevisions = pgTable(
  "content_revisions",
  {
    id: serial("id").primaryKey(),
    contentType: text("content_type").notNull(),
    itemId: integer("item_id").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    authorId: text("author_id"),
    authorName: text("author_name"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** 'save' (what someone saved) or 'autosave' (a draft's form as it was being typed; the item unchanged). */
    kind: text("kind", { enum: REVISION_KINDS }).notNull().default("save"),
  },
  (t) => [
    index("content_revisions_item_idx").on(t.contentType, t.itemId, t.createdAt.desc()),
    // At most one autosave per item and author: a newer one replaces it.
    uniqueIndex("content_revisions_autosave_idx")
      .on(t.contentType, t.itemId, t.authorId)
      .where(sql`${t.kind} = 'autosave'`),
  ],
);

/** A slug an item had before it was changed: its old URL answers with a 301 to the new one. */
export const slugRedirects = pgTable(
  "slug_redirects",
  {
    contentType: text("content_type").notNull(),
    oldSlug: text("old_slug").notNull(),
    itemId: integer("item_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.contentType, t.oldSlug] }), index("slug_redirects_item_idx").on(t.contentType, t.itemId)],
);

/**
 * Reading pages' addresses that moved (drizzle/0024_moved_addresses.sql, decision 0144): a renamed or merged tag's,
 * a published item's old slug. Language-neutral paths (the Arabic address); a 404 at an old one, in any language,
 * answers 301 to the new one in the same language. Chains are kept collapsed: every row leads to a live address.
 */
export const movedAddresses = pgTable(
  "moved_addresses",
  {
    oldPath: text("old_path").primaryKey(),
    newPath: text("new_path").notNull(),
    movedAt: timestamp("moved_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("moved_addresses_new_idx").on(t.newPath)],
);

/**
 * Author profiles (drizzle/0011_authors.sql): the bylines readers see, each with a public page. An account may
 * be linked to one profile, its default byline. Links are `{ label, url }` pairs (a site, X, Facebook…).
 */
export const authors = pgTable(
  "authors",
  {
    id: serial("id").primaryKey(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    nameFr: text("name_fr"),
    nameEn: text("name_en"),
    photoUrl: text("photo_url"),
    bio: text("bio"),
    bioFr: text("bio_fr"),
    bioEn: text("bio_en"),
    links: jsonb("links")
      .$type<{ label: string; url: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [uniqueIndex("authors_slug_unique").on(t.slug), uniqueIndex("authors_user_unique").on(t.userId)],
);

/** An item's authors in byline order; content_type is the registry's type key. */
export const itemAuthors = pgTable(
  "item_authors",
  {
    contentType: text("content_type").notNull(),
    itemId: integer("item_id").notNull(),
    authorId: integer("author_id")
      .notNull()
      .references(() => authors.id, { onDelete: "cascade" }),
    position: smallint("position").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.contentType, t.itemId, t.authorId] }), index("item_authors_author_idx").on(t.authorId, t.contentType, t.itemId)],
);

/**
 * Tags (drizzle/0012_tags.sql): people, places and events. `matchKey` is the name as the search analysis
 * normalises it, so two spellings of one name are one tag.
 */
export const tags = pgTable(
  "tags",
  {
    id: serial("id").primaryKey(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    matchKey: text("match_key").notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("tags_slug_unique").on(t.slug), uniqueIndex("tags_match_key_unique").on(t.matchKey)],
);

export const itemTags = pgTable(
  "item_tags",
  {
    contentType: text("content_type").notNull(),
    itemId: integer("item_id").notNull(),
    tagId: integer("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.contentType, t.itemId, t.tagId] }), index("item_tags_tag_idx").on(t.tagId, t.contentType, t.itemId)],
);

/** Tables whose rows are publishable content with a page slug: the ones detail pages and search read. */
/**
 * The job queue (server/jobs/queue.server.ts): work that outlives a request (video processing, daily pruning). A job
 * is claimed by setting `locked_until`; a worker that dies lets the lock lapse and another one takes it over.
 * `singleton_key` keeps one pending copy of a job (one daily prune, one processing run per video).
 */
export const jobs = pgTable(
  "jobs",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    payload: jsonb("payload").notNull().default({}),
    state: text("state", { enum: ["queued", "running", "done", "failed"] })
      .notNull()
      .default("queued"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(3),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lockedBy: text("locked_by"),
    lastError: text("last_error"),
    singletonKey: text("singleton_key"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("jobs_due_idx").on(t.state, t.runAt),
    uniqueIndex("jobs_singleton_unique")
      .on(t.singletonKey)
      .where(sql`state in ('queued', 'running')`),
  ],
);

// ---- Breaking-news alerts by Web Push (issue 32, decision 0127, drizzle/0016_push_subscriptions.sql) ----

/** A reader's browser subscription (its push service's endpoint and keys) and the language its alerts come in. */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: serial("id").primaryKey(),
    endpoint: text("endpoint").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    language: text("language").notNull().default("ar"),
    /** Deliveries failed in a row, for any reason; reset by one that succeeds; removed at PUSH_MAX_FAILURES (decision 0134). */
    failures: integer("failures").notNull().default(0),
    ...timestamps,
  },
  (t) => [uniqueIndex("push_subscriptions_endpoint_unique").on(t.endpoint)],
);

/**
 * One alert per item, ever (re-saving does not resend): queued, sending (by `jobId`, up to subscription id
 * `cursor`, so a crash repeats at most one batch), sent; with what the editor sees: sent, failed, removed.
 * Held: not sent, the hour's cap of alerts (PUSH_ALERTS_PER_HOUR) being reached when its turn came (decision 0134).
 */
export const pushAlerts = pgTable(
  "push_alerts",
  {
    contentType: text("content_type").notNull(),
    itemId: integer("item_id").notNull(),
    state: text("state", { enum: ["queued", "sending", "sent", "held"] })
      .notNull()
      .default("queued"),
    jobId: integer("job_id"),
    cursor: integer("cursor").notNull().default(0),
    sent: integer("sent").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    removed: integer("removed").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ name: "push_alerts_pkey", columns: [t.contentType, t.itemId] })],
);

export const contentTables = { articles, news, coverages, podcasts, programs, media } as const;
export type ContentTableName = keyof typeof contentTables;

/**
 * A correction published on an item (issue 40, decision 0140): shown under the story with its date, in the item's
 * JSON-LD (`correction`) and RSS item; adding one moves the item's `updated_at`. Removed with the item.
 */
export const itemCorrections = pgTable(
  "item_corrections",
  {
    id: serial("id").primaryKey(),
    contentType: text("content_type").notNull(),
    itemId: integer("item_id").notNull(),
    text: text("text").notNull(),
    textFr: text("text_fr"),
    authorId: text("author_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("item_corrections_item_idx").on(t.contentType, t.itemId, t.createdAt)],
);

/**
 * Who did what (issue 40, decision 0140): one row per publish, unpublish, schedule, delete, restore, bulk action,
 * permission change, sign-in lock-out and newsletter send, written in the change's own transaction; every item id
 * of a bulk action in one row. Pruned after AUDIT_RETENTION_DAYS (server/content/audit.server.ts).
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actorId: text("actor_id"),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    contentType: text("content_type"),
    itemIds: integer("item_ids")
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    requestId: text("request_id"),
  },
  (t) => [index("audit_log_at_idx").on(t.at), index("audit_log_item_ids_idx").using("gin", t.itemIds)],
);

/**
 * Who is editing an item (decision 0139): one soft lock per item, held by `holderId` since `since`, renewed by its
 * form's heartbeat (`renewedAt`); silent for ITEM_LOCK_TTL_SECONDS, it is free. The row is the truth for every process.
 */
export const itemLocks = pgTable(
  "item_locks",
  {
    contentType: text("content_type").notNull(),
    itemId: integer("item_id").notNull(),
    holderId: text("holder_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    since: timestamp("since", { withTimezone: true }).notNull().defaultNow(),
    renewedAt: timestamp("renewed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "item_locks_pkey", columns: [t.contentType, t.itemId] })],
);

/** The newsroom's internal notes on an item (decision 0139): never public, removed with the item. */
export const itemNotes = pgTable(
  "item_notes",
  {
    id: serial("id").primaryKey(),
    contentType: text("content_type").notNull(),
    itemId: integer("item_id").notNull(),
    authorId: text("author_id").references(() => user.id, { onDelete: "set null" }),
    /** The author's name as it was when they wrote (their profile's full name, else the e-mail's local part). */
    authorName: text("author_name"),
    text: text("text").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("item_notes_item_idx").on(t.contentType, t.itemId, t.createdAt)],
);

// ---- Workflow states and review (issue 40, decision 0138, drizzle/0020_workflow_states.sql) ----

/**
 * Where an item stands in review, one row per item that was ever submitted: who submitted it and when (the
 * review queue's writer and time), and the note an editor sent it back with (shown in the editor until it is
 * resubmitted). Removed with the item.
 */
export const itemWorkflow = pgTable(
  "item_workflow",
  {
    contentType: text("content_type").notNull(),
    itemId: integer("item_id").notNull(),
    submittedBy: text("submitted_by"),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    reviewNote: text("review_note"),
    reviewedBy: text("reviewed_by"),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ name: "item_workflow_pkey", columns: [t.contentType, t.itemId] })],
);

export const STAFF_NOTICE_KINDS = ["submitted", "changes_requested", "published"] as const;
export type StaffNoticeKind = (typeof STAFF_NOTICE_KINDS)[number];

/**
 * An in-app notice to one account (issue 40): a story submitted (to each account with content.publish), sent back
 * with a note or published (to its writer). Shown on the dashboard; `read_at` set once seen.
 */
export const staffNotices = pgTable(
  "staff_notices",
  {
    id: serial("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: STAFF_NOTICE_KINDS }).notNull(),
    contentType: text("content_type").notNull(),
    itemId: integer("item_id").notNull(),
    title: text("title").notNull(),
    actorName: text("actor_name"),
    note: text("note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp("read_at", { withTimezone: true }),
  },
  (t) => [index("staff_notices_account_idx").on(t.accountId, t.createdAt.desc()), index("staff_notices_item_idx").on(t.contentType, t.itemId)],
);
