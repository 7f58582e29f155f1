/**
 * One content item as its detail page shows it, and its related items, for every type of the content-type
 * registry (public-site.md §7 "Detail by slug" and "Related content"). The columns come from the type's
 * definition (domain/content-types/) plus the read-only ones its detail view names and those its hooks add
 * (./types/); nothing here is written per type. The public reader sees published and due items only, through the
 * one rule in ./published.ts; the staff preview reads any status.
 */
import { and, desc, eq, ne, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { definitionOf, isRelationField, type ContentType } from "#domain/content-types/index.ts";
import type { ItemKey } from "#domain/item-key.ts";
import type { DetailItem, DetailValue, RelatedItem } from "#domain/detail-view.ts";
import type { Database } from "#server/db/client.server.ts";
import { categories, slugRedirects } from "#server/db/schema.server.ts";
import { isPublished } from "./published.server.ts";
import { columnOf, referencedType, referenceFields, tableOf } from "./registry.server.ts";
import { hooksOf } from "./types/index.server.ts";
import { bylineSql } from "./authors.server.ts";
import { outerColumn } from "./published-items.server.ts";

export const RELATED_LIMIT = 4;

// Where a detail page's URL segment is read (a pure function, shared with the live pages: domain/item-key.ts).
export { parseItemKey, type ItemKey } from "#domain/item-key.ts";

/** Every type has these (registry.server.ts CommonColumns); the page needs them whatever the type. */
const COMMON_COLUMNS = ["id", "title", "titleFr", "pageSlug", "status", "publishDate", "updatedAt", "imageUrl", "authorName", "isDemo"] as const;

const hasCategory = (type: ContentType) => definitionOf(type).fields.some((f) => f.kind === "category");

const columnOfField = (type: ContentType, name: string) => definitionOf(type).fields.find((f) => f.name === name)?.column;

/** The column of the plain-text summary shown under the title and on cards (excerpt or description). */
export const summaryColumnOf = (type: ContentType): string => columnOfField(type, definitionOf(type).summaryField) ?? definitionOf(type).summaryField;

/** The column of the body (the rich-text field), or null for a type without one (media items). */
export const bodyColumnOf = (type: ContentType): string | null => definitionOf(type).fields.find((f) => f.kind === "richtext")?.column ?? null;

/** The page's columns of a type, built once from its definition. */
const selections = new Map<ContentType, Record<string, PgColumn | SQL>>();
function detailColumns(type: ContentType): Record<string, PgColumn | SQL> {
  let columns: Record<string, PgColumn | SQL> | undefined = selections.get(type);
  if (!columns) {
    // Relation fields (authors, tags) live in tables of their own, not in the item's row.
    const fields = definitionOf(type).fields.filter((f) => !isRelationField(f));
    const keys = [...COMMON_COLUMNS, ...fields.map((f) => f.column), ...(definitionOf(type).detail.readOnly ?? [])];
    columns = {};
    for (const key of keys) {
      const column = columnOf(type, key);
      if (!column) throw new Error(`${type} has no column ${key}`);
      columns[key] = column;
    }
    if (hasCategory(type)) Object.assign(columns, { categoryName: categories.name, categoryNameFr: categories.nameFr, categorySlug: categories.slug });
    // The byline: the item's author profiles (taken out of the row into the page's `authors` by the loader).
    if (definitionOf(type).fields.some((f) => f.kind === "authors")) columns.bylines = bylineSql(type, tableOf(type).id);
    // The item a reference field names, when published, by its slug (`{type}Slug`): a podcast episode links its program's feed.
    for (const field of referenceFields(type)) {
      const named = tableOf(referencedType(field));
      columns[`${field.references}Slug`] = sql<
        string | null
      >`(select ${named.pageSlug} from ${named} where ${named.id} = ${outerColumn(columnOf(type, field.column)!)} and ${isPublished(named)})`;
    }
    Object.assign(columns, hooksOf(type).detailColumns?.());
    selections.set(type, columns);
  }
  return columns;
}

async function findItem(db: Database, type: ContentType, key: ItemKey, publicOnly: boolean): Promise<DetailItem | null> {
  const table = tableOf(type);
  const match = "id" in key ? eq(table.id, key.id) : eq(table.pageSlug, key.slug);
  // A type without categories joins on false: PostgreSQL reads no category row for it.
  const category = hasCategory(type) ? eq(columnOf(type, "categoryId")!, categories.id) : sql`false`;
  const [row] = await db
    .select(detailColumns(type))
    .from(table)
    .leftJoin(categories, category)
    .where(publicOnly ? isPublished(table, match) : match)
    .limit(1);
  // The selection is built at run time; its keys and value types are the ones DetailItem names.
  return (row as DetailItem | undefined) ?? null;
}

/** One item the public may see (published, publish date come) by slug or id, or null. */
export function findPublishedItem(db: Database, type: ContentType, key: ItemKey): Promise<DetailItem | null> {
  return findItem(db, type, key, true);
}

/** One item by id whatever its status (draft, scheduled): the staff preview. Callers check the permission. */
export function findItemForStaff(db: Database, type: ContentType, id: number): Promise<DetailItem | null> {
  return findItem(db, type, { id }, false);
}

/** The item an old slug of a type pointed to before an editor changed it, or null. */
export async function findRedirectedItemId(db: Database, type: ContentType, oldSlug: string): Promise<number | null> {
  const [row] = await db
    .select({ itemId: slugRedirects.itemId })
    .from(slugRedirects)
    .where(and(eq(slugRedirects.contentType, type), eq(slugRedirects.oldSlug, oldSlug)))
    .limit(1);
  return row?.itemId ?? null;
}

// Types without a French summary column still give the card the same shape.
const noFrench = sql<string | null>`null`;

/**
 * Up to four other published items of the same type, newest first; of the same category when the type has
 * categories and the item one.
 */
export function listRelated(db: Database, type: ContentType, item: { id: number; categoryId?: DetailValue }, limit = RELATED_LIMIT): Promise<RelatedItem[]> {
  const table = tableOf(type);
  const conditions: (SQL | undefined)[] = [ne(table.id, item.id)];
  if (hasCategory(type) && typeof item.categoryId === "number") conditions.push(eq(columnOf(type, "categoryId")!, item.categoryId));
  const summaryColumn = summaryColumnOf(type);
  return db
    .select({
      id: table.id,
      title: table.title,
      titleFr: table.titleFr,
      summary: columnOf(type, summaryColumn) ?? noFrench,
      summaryFr: columnOf(type, `${summaryColumn}Fr`) ?? noFrench,
      imageUrl: table.imageUrl,
      publishDate: table.publishDate,
      pageSlug: table.pageSlug,
      ...(definitionOf(type).fields.some((f) => f.kind === "authors") ? { bylines: bylineSql(type, table.id) } : {}),
    })
    .from(table)
    .where(isPublished(table, ...conditions))
    .orderBy(desc(table.publishDate), desc(table.id))
    .limit(limit) as Promise<RelatedItem[]>;
}
