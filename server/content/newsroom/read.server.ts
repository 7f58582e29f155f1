/**
 * What staff read (the newsroom's lists, the editor, the JSON API): any item of any type of the registry
 * (domain/content-types/), whatever its status, under the spec's field names. The public reader is
 * ../detail.server.ts and the section modules, behind the one published-and-due rule of ../published.server.ts.
 */
import { and, asc, count, desc, eq, gt, ilike, lte, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import {
  categoriesOf,
  CONTENT_TYPE_DEFINITIONS,
  editorStatusOf,
  isRelationField,
  publicUrl,
  type ContentType,
  type EditorStatus,
} from "#domain/content-types/index.ts";
import type { Queryable } from "#server/db/client.server.ts";
import { categories } from "#server/db/schema.server.ts";
import { parseId } from "#domain/ids.ts";
import { columnOf, referencedType, tableOf } from "../registry.server.ts";
import { relationsOfItems } from "../item-relations.server.ts";

export const STAFF_PAGE_SIZE = 20;
const STAFF_PAGE_MAX = 100;

export type StaffItem = {
  id: number;
  title: string;
  page_slug: string;
  status: EditorStatus;
  publish_date: string;
  created_at: string;
  updated_at: string;
  author_name: string | null;
  url: string;
  category_name?: string | null;
  /** The category's French name, for the French and English back-offices. */
  category_name_fr?: string | null;
  [field: string]: unknown;
};

const COMMON = ["id", "title", "pageSlug", "status", "publishDate", "createdAt", "updatedAt", "authorName"] as const;

/** A type's fields stored in its table (not its relations: authors, tags). */
export const tableFields = (type: ContentType) => CONTENT_TYPE_DEFINITIONS[type].fields.filter((f) => !isRelationField(f));

/** Field kinds stored as a row's id (a category, another type's item) or a number: the spec's fields give them as text. */
export const NUMERIC_KINDS: readonly string[] = ["category", "integer", "reference"];

/** The columns a staff read selects for a type: the common ones and every field of its definition. */
function staffColumns(type: ContentType): Record<string, PgColumn | SQL> {
  const selection: Record<string, PgColumn | SQL> = {};
  for (const key of COMMON) selection[key] = columnOf(type, key)!;
  for (const field of tableFields(type)) selection[field.column] = columnOf(type, field.column)!;
  if (columnOf(type, "categoryId")) Object.assign(selection, { categoryName: categories.name, categoryNameFr: categories.nameFr });
  return selection;
}

export const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString());

/** A row under the spec's field names, as the editor, the lists and the JSON API show it. */
function toStaffItem(type: ContentType, row: Record<string, unknown>, now = new Date()): StaffItem {
  const item: StaffItem = {
    id: row.id as number,
    title: row.title as string,
    page_slug: row.pageSlug as string,
    status: editorStatusOf(row.status as string, row.publishDate as Date, now),
    publish_date: iso(row.publishDate),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    author_name: (row.authorName as string | null) ?? null,
    url: publicUrl(type, row.pageSlug as string, row.id as number),
  };
  for (const field of tableFields(type)) {
    const value = row[field.column];
    item[field.name] = NUMERIC_KINDS.includes(field.kind) ? (value == null ? null : String(value as number)) : (value ?? null);
  }
  if ("categoryName" in row) {
    item.category_name = (row.categoryName as string | null) ?? null;
    item.category_name_fr = (row.categoryNameFr as string | null) ?? null;
  }
  return item;
}

export function statusFilter(type: ContentType, status: EditorStatus | "all" | undefined): SQL | undefined {
  const t = tableOf(type);
  if (status === "draft" || status === "review" || status === "changes_requested" || status === "approved") return eq(t.status, status);
  if (status === "published") return and(eq(t.status, "published"), lte(t.publishDate, sql`now()`));
  if (status === "scheduled") return and(eq(t.status, "published"), gt(t.publishDate, sql`now()`));
  return undefined;
}

export function textFilter(type: ContentType, q: string | undefined): SQL | undefined {
  const words = (q ?? "").trim().slice(0, 200);
  if (!words) return undefined;
  const pattern = `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const columns = CONTENT_TYPE_DEFINITIONS[type].searchFields
    .filter((name) => name !== "content") // bodies are long: the list filters on what it shows
    .map((name) => columnOf(type, CONTENT_TYPE_DEFINITIONS[type].fields.find((f) => f.name === name)?.column ?? name))
    .filter((c): c is PgColumn => Boolean(c));
  return or(...columns.map((c) => ilike(c, pattern)));
}

export type StaffListQuery = { page?: number; perPage?: number; q?: string; status?: EditorStatus | "all" };
export type StatusCounts = Record<EditorStatus | "all", number>;

/** How many of a type's items (matching the text filter) are in each status. */
async function countByStatus(db: Queryable, type: ContentType, text: SQL | undefined): Promise<StatusCounts> {
  const t = tableOf(type);
  const [tally] = await db
    .select({
      all: count(),
      draft: sql<number>`count(*) filter (where ${t.status} = 'draft')`,
      review: sql<number>`count(*) filter (where ${t.status} = 'review')`,
      changes_requested: sql<number>`count(*) filter (where ${t.status} = 'changes_requested')`,
      approved: sql<number>`count(*) filter (where ${t.status} = 'approved')`,
      published: sql<number>`count(*) filter (where ${t.status} = 'published' and ${t.publishDate} <= now())`,
      scheduled: sql<number>`count(*) filter (where ${t.status} = 'published' and ${t.publishDate} > now())`,
    })
    .from(t)
    .where(text);
  return {
    all: Number(tally?.all ?? 0),
    draft: Number(tally?.draft ?? 0),
    review: Number(tally?.review ?? 0),
    changes_requested: Number(tally?.changes_requested ?? 0),
    approved: Number(tally?.approved ?? 0),
    published: Number(tally?.published ?? 0),
    scheduled: Number(tally?.scheduled ?? 0),
  };
}

/** A select of a type's staff columns, with its category's names when it has categories. */
function selectStaff(db: Queryable, type: ContentType) {
  const t = tableOf(type);
  let query = db.select(staffColumns(type)).from(t).$dynamic();
  if (columnOf(type, "categoryId")) query = query.leftJoin(categories, eq(t.categoryId, categories.id));
  return query;
}

/** One page of a type's items for the back-office, newest first, with the count of each status. */
export async function listForStaff(db: Queryable, type: ContentType, query: StaffListQuery = {}) {
  const def = CONTENT_TYPE_DEFINITIONS[type];
  const t = tableOf(type);
  const perPage = Math.min(Math.max(1, Math.trunc(query.perPage ?? STAFF_PAGE_SIZE)), STAFF_PAGE_MAX);
  const page = Math.max(1, Math.trunc(query.page ?? 1));
  const text = textFilter(type, query.q);
  const order = def.listOrder === "publish_date" ? t.publishDate : t.createdAt;
  const [rows, counts] = await Promise.all([
    selectStaff(db, type)
      .where(and(text, statusFilter(type, query.status)))
      .orderBy(desc(order), desc(t.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    countByStatus(db, type, text),
  ]);
  const total = query.status && query.status !== "all" ? counts[query.status] : counts.all;
  const now = new Date();
  const items = rows.map((r) => toStaffItem(type, r, now));
  const relations = await relationsOfItems(
    db,
    type,
    items.map((i) => i.id),
  );
  for (const item of items) Object.assign(item, relations.get(item.id));
  return { items, total, page, perPage, counts };
}

export async function getForStaff(db: Queryable, type: ContentType, id: number): Promise<StaffItem | null> {
  if (parseId(id) === null) return null;
  const [row] = await selectStaff(db, type)
    .where(eq(tableOf(type).id, id))
    .limit(1);
  if (!row) return null;
  const item = toStaffItem(type, row);
  return Object.assign(item, (await relationsOfItems(db, type, [id])).get(id));
}

/** Every category, or those a type's form offers (its definition's `categories`, in their order). */
export async function listCategoryOptions(db: Queryable, type?: ContentType) {
  const all = await db
    .select({ id: categories.id, name: categories.name, nameFr: categories.nameFr, slug: categories.slug })
    .from(categories)
    .orderBy(asc(categories.sortOrder), asc(categories.name));
  return type ? categoriesOf(CONTENT_TYPE_DEFINITIONS[type], all) : all;
}

/**
 * What a reference field to `type` offers (a podcast episode's program): every item of that type by title,
 * published or not (a show is set up before its first episode).
 */
export async function listReferenceOptions(db: Queryable, type: ContentType) {
  const t = tableOf(type);
  return db.select({ id: t.id, name: t.title, nameFr: t.titleFr }).from(t).orderBy(asc(t.title));
}

/** A row a field may name by id, as a select offers it. */
export type RowOption = { id: number; name: string; nameFr: string | null };

/**
 * The rows each category or reference field of `fields` may name, by field name: the categories the type's form
 * offers (every category with `everyCategory`: an old revision may name one it no longer offers), and every item
 * of the type a reference field names.
 */
export async function rowOptionsOf(
  db: Queryable,
  type: ContentType,
  fields: readonly { name: string; kind: string; references?: string }[],
  { everyCategory = false } = {},
): Promise<Record<string, RowOption[]>> {
  const named = fields.filter((f) => f.kind === "category" || f.kind === "reference");
  const options = await Promise.all(
    named.map((f) => (f.kind === "category" ? listCategoryOptions(db, everyCategory ? undefined : type) : listReferenceOptions(db, referencedType(f)))),
  );
  return Object.fromEntries(named.map((f, i) => [f.name, options[i]]));
}
