/**
 * The dashboard's eight counts (back-office.md §2, "Dashboard"): every row of each content type's table
 * (drafts included: it is the back-office), unread messages (contacts with status new) and all messages. One
 * round trip to the database.
 */
import { sql } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { contacts } from "#server/db/schema.server.ts";
import { ALL_CONTENT_TYPES, type ContentType } from "#domain/content-types/index.ts";
import { CONTENT_TABLES } from "./registry.server.ts";

export type DashboardCounts = {
  /** Items of each content type. */
  items: Record<ContentType, number>;
  unreadMessages: number;
  totalMessages: number;
};

export async function dashboardCounts(db: Database): Promise<DashboardCounts> {
  const count = (table: (typeof CONTENT_TABLES)[ContentType] | typeof contacts) => sql<number>`(select count(*)::int from ${table})`;
  const [row] = await db
    .select({
      ...Object.fromEntries(ALL_CONTENT_TYPES.map(({ type }) => [type, count(CONTENT_TABLES[type])])),
      unreadMessages: sql<number>`(select count(*)::int from ${contacts} where ${contacts.status} = 'new')`,
      totalMessages: count(contacts),
    })
    .from(sql`(select 1) as one`);
  const n = (v: unknown) => Number(v ?? 0);
  const values = (row ?? {}) as Record<string, unknown>;
  return {
    items: Object.fromEntries(ALL_CONTENT_TYPES.map(({ type }) => [type, n(values[type])])) as Record<ContentType, number>,
    unreadMessages: n(values.unreadMessages),
    totalMessages: n(values.totalMessages),
  };
}
