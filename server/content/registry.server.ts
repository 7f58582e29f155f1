/**
 * The server half of the content-type registry (domain/content-types/): the Drizzle table each definition's
 * `table` names, found among the schema module's tables, and its columns. Nothing else about a type
 * belongs here, and no type is named: a seventh type's table is found the same way.
 */
import { getTableColumns, getTableName, is } from "drizzle-orm";
import { PgTable, type PgColumn } from "drizzle-orm/pg-core";
import { ALL_CONTENT_TYPES, type ContentType } from "#domain/content-types/index.ts";
import * as schema from "#server/db/schema.server.ts";

/** The schema's tables by SQL name. */
const TABLES = new Map(
  (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable)).map((table) => [getTableName(table), table]),
);

/** Each type's table; a definition naming no table of the schema fails at start, not at its first query. */
export const CONTENT_TABLES: Readonly<Record<ContentType, PgTable>> = Object.fromEntries(
  ALL_CONTENT_TYPES.map(({ type, table }) => {
    const found = TABLES.get(table);
    if (!found) throw new Error(`The content type ${type} names the table ${table}, which server/db/schema.server.ts does not define`);
    return [type, found];
  }),
) as unknown as Record<ContentType, PgTable>;

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

export function tableOf(type: ContentType): typeof schema.articles {
  // The tables share the columns the generic code reads; the cast gives drizzle one table type.
  return CONTENT_TABLES[type] as unknown as typeof schema.articles;
}

/** A column of a type's table by its schema key, or undefined when the table has none. */
export function columnOf(type: ContentType, key: string): PgColumn | undefined {
  return (getTableColumns(CONTENT_TABLES[type]) as Record<string, PgColumn>)[key];
}
