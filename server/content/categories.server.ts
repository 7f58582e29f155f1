/**
 * Categories (public-site.md §3 "category"): a tree one or two levels deep, each section of the site being
 * a parent (culture, politics, literature, emirates, opinion) with its filter chips as children. Categories
 * carry no publication state: they are all public.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { categories, type CATEGORY_TYPES } from "#server/db/schema.server.ts";

export type CategoryType = (typeof CATEGORY_TYPES)[number];

export const categoryColumns = {
  id: categories.id,
  name: categories.name,
  nameFr: categories.nameFr,
  slug: categories.slug,
  type: categories.type,
  parentId: categories.parentId,
  description: categories.description,
  descriptionFr: categories.descriptionFr,
  sortOrder: categories.sortOrder,
};

export type Category = {
  id: number;
  name: string;
  nameFr: string | null;
  slug: string;
  type: CategoryType;
  parentId: number | null;
  description: string | null;
  descriptionFr: string | null;
  sortOrder: number;
};

/**
 * Every category, or those of one type, grouped by type with each parent before its children and in
 * editorial order within a level.
 */
export function listCategories(db: Database, { type }: { type?: CategoryType } = {}): Promise<Category[]> {
  return db
    .select(categoryColumns)
    .from(categories)
    .where(type ? eq(categories.type, type) : undefined)
    .orderBy(asc(categories.type), sql`${categories.parentId} nulls first`, asc(categories.sortOrder), asc(categories.id));
}

export async function findCategoryBySlug(db: Database, slug: string): Promise<Category | null> {
  const [row] = await db.select(categoryColumns).from(categories).where(eq(categories.slug, slug)).limit(1);
  return row ?? null;
}
