/**
 * Detail pages and their related items, for the five publishable types a reader opens by slug
 * (public-site.md §7 "Detail by slug" and "Related content"). Published rows only, explicit columns.
 */
import { and, desc, eq, ne, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { articles, categories, coverages, news, podcasts, programs } from "../db/schema.ts";
import { isPublished } from "./published.ts";

export const DETAIL_TYPES = ["article", "news", "program", "podcast", "coverage"] as const;
export type DetailType = (typeof DETAIL_TYPES)[number];

/** Where each type lives on the site (related items link to /{type}s/{page_slug}). */
export const DETAIL_PATH: Record<DetailType, string> = {
  article: "/articles",
  news: "/news",
  program: "/programs",
  podcast: "/podcasts",
  coverage: "/coverage",
};

export const RELATED_LIMIT = 4;

/** A page slug as we generate them, or a numeric id; anything else cannot name an item. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export function parseItemKey(value: string | undefined): { slug: string } | { id: number } | null {
  if (!value || value.length > 200) return null;
  if (/^\d{1,9}$/.test(value)) return { id: Number(value) };
  const slug = value.toLowerCase();
  return SLUG.test(slug) ? { slug } : null;
}

const categoryColumns = { categoryName: categories.name, categoryNameFr: categories.nameFr, categorySlug: categories.slug };

export function findPublishedArticle(db: Database, key: { slug: string } | { id: number }) {
  return db
    .select({
      id: articles.id,
      title: articles.title,
      titleFr: articles.titleFr,
      content: articles.content,
      contentFr: articles.contentFr,
      excerpt: articles.excerpt,
      excerptFr: articles.excerptFr,
      categoryId: articles.categoryId,
      authorName: articles.authorName,
      authorNameFr: articles.authorNameFr,
      authorBio: articles.authorBio,
      imageUrl: articles.imageUrl,
      videoUrl: articles.videoUrl,
      publishDate: articles.publishDate,
      updatedAt: articles.updatedAt,
      pageSlug: articles.pageSlug,
      readTimeMinutes: articles.readTimeMinutes,
      viewCount: articles.viewCount,
      isDemo: articles.isDemo,
      ...categoryColumns,
    })
    .from(articles)
    .leftJoin(categories, eq(articles.categoryId, categories.id))
    .where(isPublished(articles, "id" in key ? eq(articles.id, key.id) : eq(articles.pageSlug, key.slug)))
    .limit(1)
    .then((rows) => rows[0] ?? null);
}

export function findPublishedNews(db: Database, key: { slug: string } | { id: number }) {
  return db
    .select({
      id: news.id,
      title: news.title,
      titleFr: news.titleFr,
      content: news.content,
      contentFr: news.contentFr,
      excerpt: news.excerpt,
      excerptFr: news.excerptFr,
      categoryId: news.categoryId,
      location: news.location,
      priority: news.priority,
      authorName: news.authorName,
      imageUrl: news.imageUrl,
      publishDate: news.publishDate,
      updatedAt: news.updatedAt,
      pageSlug: news.pageSlug,
      isDemo: news.isDemo,
      ...categoryColumns,
    })
    .from(news)
    .leftJoin(categories, eq(news.categoryId, categories.id))
    .where(isPublished(news, "id" in key ? eq(news.id, key.id) : eq(news.pageSlug, key.slug)))
    .limit(1)
    .then((rows) => rows[0] ?? null);
}

export function findPublishedProgram(db: Database, key: { slug: string } | { id: number }) {
  return db
    .select({
      id: programs.id,
      title: programs.title,
      titleFr: programs.titleFr,
      description: programs.description,
      content: programs.content,
      programType: programs.programType,
      episodeNumber: programs.episodeNumber,
      season: programs.season,
      hostName: programs.hostName,
      guestName: programs.guestName,
      duration: programs.duration,
      airDate: programs.airDate,
      videoUrl: programs.videoUrl,
      imageUrl: programs.imageUrl,
      authorName: programs.authorName,
      publishDate: programs.publishDate,
      updatedAt: programs.updatedAt,
      pageSlug: programs.pageSlug,
      isDemo: programs.isDemo,
    })
    .from(programs)
    .where(isPublished(programs, "id" in key ? eq(programs.id, key.id) : eq(programs.pageSlug, key.slug)))
    .limit(1)
    .then((rows) => rows[0] ?? null);
}

export function findPublishedPodcast(db: Database, key: { slug: string } | { id: number }) {
  return db
    .select({
      id: podcasts.id,
      title: podcasts.title,
      titleFr: podcasts.titleFr,
      description: podcasts.description,
      content: podcasts.content,
      episodeNumber: podcasts.episodeNumber,
      season: podcasts.season,
      duration: podcasts.duration,
      hostName: podcasts.hostName,
      guestName: podcasts.guestName,
      audioUrl: podcasts.audioUrl,
      videoUrl: podcasts.videoUrl,
      imageUrl: podcasts.imageUrl,
      authorName: podcasts.authorName,
      publishDate: podcasts.publishDate,
      updatedAt: podcasts.updatedAt,
      pageSlug: podcasts.pageSlug,
      isDemo: podcasts.isDemo,
    })
    .from(podcasts)
    .where(isPublished(podcasts, "id" in key ? eq(podcasts.id, key.id) : eq(podcasts.pageSlug, key.slug)))
    .limit(1)
    .then((rows) => rows[0] ?? null);
}

export function findPublishedCoverage(db: Database, key: { slug: string } | { id: number }) {
  return db
    .select({
      id: coverages.id,
      title: coverages.title,
      titleFr: coverages.titleFr,
      excerpt: coverages.excerpt,
      content: coverages.content,
      coverageType: coverages.coverageType,
      eventLocation: coverages.eventLocation,
      eventDate: coverages.eventDate,
      reporterName: coverages.reporterName,
      authorName: coverages.authorName,
      imageUrl: coverages.imageUrl,
      videoUrl: coverages.videoUrl,
      publishDate: coverages.publishDate,
      updatedAt: coverages.updatedAt,
      pageSlug: coverages.pageSlug,
      isDemo: coverages.isDemo,
    })
    .from(coverages)
    .where(isPublished(coverages, "id" in key ? eq(coverages.id, key.id) : eq(coverages.pageSlug, key.slug)))
    .limit(1)
    .then((rows) => rows[0] ?? null);
}

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

// Programs, podcasts and coverage have no French summary column.
const noFrench = sql<string | null>`null`;

const tables = { article: articles, news, program: programs, podcast: podcasts, coverage: coverages } as const;

/**
 * Up to four other published items of the same type, newest first; for articles and news, of the same
 * category when the item has one.
 */
export function listRelated(db: Database, type: DetailType, item: { id: number; categoryId?: number | null }, limit = RELATED_LIMIT): Promise<RelatedItem[]> {
  const table = tables[type];
  const conditions: (SQL | undefined)[] = [ne(table.id, item.id)];
  if ((type === "article" || type === "news") && item.categoryId) {
    conditions.push(eq((table as typeof articles | typeof news).categoryId, item.categoryId));
  }
  const summary =
    type === "article"
      ? { summary: articles.excerpt, summaryFr: articles.excerptFr }
      : type === "news"
        ? { summary: news.excerpt, summaryFr: news.excerptFr }
        : type === "coverage"
          ? { summary: coverages.excerpt, summaryFr: noFrench }
          : type === "program"
            ? { summary: programs.description, summaryFr: noFrench }
            : { summary: podcasts.description, summaryFr: noFrench };
  return db
    .select({
      id: table.id,
      title: table.title,
      titleFr: table.titleFr,
      ...summary,
      imageUrl: table.imageUrl,
      publishDate: table.publishDate,
      pageSlug: table.pageSlug,
    })
    .from(table as typeof articles)
    .where(and(isPublished(table, ...conditions)))
    .orderBy(desc(table.publishDate), desc(table.id))
    .limit(limit);
}
