/**
 * The server half of the content-type registry (domain/content-types/): the Drizzle table each definition's
 * `table` names, found among the schema module's tables, its columns, and the type each reference field names.
 * What one type does differently is in its hooks (./types/); no type is named here: a seventh type's table is
 * found the same way.
 */
import { getTableColumns, getTableName, is } from "drizzle-orm";
import { PgTable, type PgColumn } from "drizzle-orm/pg-core";
import { ALL_CONTENT_TYPES, CONTENT_TYPES, definitionOf, type ContentType, type FieldDefinition } from "#domain/content-types/index.ts";
import * as schema from "#server/db/schema.server.ts";

/** The schema's tables by SQL name. */
const TABLES = new Map(
  (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable)).map((table) => [getTableName(table), table]),
);

/** Each type's table; a definition naming no table of the schema fails at start, not at its first query. */
export const CONTENT_TABLES = Object.fromEntries(
  ALL_CONTENT_TYPES.map(({ type, table }) => {
    const found = TABLES.get(table);
    if (!found) throw new Error(`The content type ${type} names the table ${table}, which server/db/schema.server.ts does not define`);
    return [type, found];
  }),
) as Readonly<Record<ContentType, PgTable>>;

const isContentType = (key: string | undefined): key is ContentType => (CONTENT_TYPES as readonly string[]).includes(key ?? "");

// A reference field naming no type of the registry fails at start too.
for (const { type, fields } of ALL_CONTENT_TYPES) {
  for (const field of fields) {
    if (field.kind === "reference" && !isContentType(field.references)) {
      throw new Error(`The field ${field.name} of ${type} references ${field.references ?? "no type"}, which is not a content type`);
    }
  }
}

/** A type's reference fields: each names an item of another type (a podcast episode's program). */
export const referenceFields = (type: ContentType): FieldDefinition[] => definitionOf(type).fields.filter((f) => f.kind === "reference");

/** The type a reference field names (checked at start). */
export function referencedType(field: Pick<FieldDefinition, "references">): ContentType {
  if (!isContentType(field.references)) throw new Error(`Not a content type: ${field.references}`);
  return field.references;
}

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
  return CONTENT_TABLES[type] as typeof schema.articles;
}

/** A column of a type's table by its schema key, or undefined when the table has none. */
export function columnOf(type: ContentType, key: string): PgColumn | undefined {
  return (getTableColumns(CONTENT_TABLES[type]) as Record<string, PgColumn>)[key];
}
