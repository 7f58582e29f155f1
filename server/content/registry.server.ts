/**
 * The server half of the content-type registry (domain/content-types.ts): which table holds each type and
 * which read-cache tag its writes invalidate. Nothing else about a type belongs here.
 */
import { getTableColumns } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { CONTENT_TYPE_DEFINITIONS, type ContentType, type ContentTypeDefinition } from "#domain/content-types.ts";
import type { CacheTag } from "./cache.server.ts";
import { articles, coverages, media, news, podcasts, programs } from "#server/db/schema.server.ts";

export const CONTENT_TABLES = { article: articles, news, coverage: coverages, podcast: podcasts, program: programs, media } as const;
export type ContentTable = (typeof CONTENT_TABLES)[ContentType];

export const CACHE_TAGS: Record<ContentType, CacheTag> = {
  article: "articles",
  news: "news",
  coverage: "coverages",
  podcast: "podcasts",
  program: "programs",
  media: "media",
};

/**
 * One table's columns under one static type: every content table has these, and drizzle's query builder
 * needs a single table type to build one query for all six.
 */
export type CommonColumns = {
  id: PgColumn;
  title: PgColumn;
  titleFr: PgColumn;
  status: PgColumn;
  pageSlug: PgColumn;
  publishDate: PgColumn;
  createdAt: PgColumn;
  updatedAt: PgColumn;
  imageUrl: PgColumn;
  authorName: PgColumn;
  isDemo: PgColumn;
};

export function tableOf(type: ContentType): typeof articles {
  // The six tables share the columns the generic code reads; the cast gives drizzle one table type.
  return CONTENT_TABLES[type] as unknown as typeof articles;
}

/** A column of a type's table by its schema key, or undefined when the table has none. */
export function columnOf(type: ContentType, key: string): PgColumn | undefined {
  return (getTableColumns(CONTENT_TABLES[type]) as Record<string, PgColumn>)[key];
}

export function definitionOf(type: ContentType): ContentTypeDefinition {
  return CONTENT_TYPE_DEFINITIONS[type];
}
