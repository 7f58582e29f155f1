import { and, eq, lte, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";

/**
 * The one rule for what the public may see: status published and a publish date that has come.
 * Every public query builds its filter from here.
 */
export function isPublished(table: { status: PgColumn; publishDate: PgColumn }, ...more: (SQL | undefined)[]): SQL {
  return and(eq(table.status, "published"), lte(table.publishDate, sql`now()`), ...more) as SQL;
}
