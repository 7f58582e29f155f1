/**
 * The dashboard's eight counts (back-office.md §2, "Dashboard"): every row of each content table (drafts
 * included: it is the back-office), unread messages (contacts with status new) and all messages. One
 * round trip to the database.
 */
import { sql } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { articles, contacts, coverages, media, news, podcasts, programs } from "#server/db/schema.server.ts";

export type DashboardCounts = {
  articles: number;
  news: number;
  podcasts: number;
  programs: number;
  coverage: number;
  media: number;
  unreadMessages: number;
  totalMessages: number;
};

export async function dashboardCounts(db: Database): Promise<DashboardCounts> {
  const count = (table: typeof articles | typeof news | typeof podcasts | typeof programs | typeof coverages | typeof media | typeof contacts) =>
    sql<number>`(select count(*)::int from ${table})`;
  const [row] = await db
    .select({
      articles: count(articles),
      news: count(news),
      podcasts: count(podcasts),
      programs: count(programs),
      coverage: count(coverages),
      media: count(media),
      unreadMessages: sql<number>`(select count(*)::int from ${contacts} where ${contacts.status} = 'new')`,
      totalMessages: count(contacts),
    })
    .from(sql`(select 1) as one`);
  const n = (v: unknown) => Number(v ?? 0);
  return {
    articles: n(row?.articles),
    news: n(row?.news),
    podcasts: n(row?.podcasts),
    programs: n(row?.programs),
    coverage: n(row?.coverage),
    media: n(row?.media),
    unreadMessages: n(row?.unreadMessages),
    totalMessages: n(row?.totalMessages),
  };
}
