/**
 * The archive by date (issue 42, docs/decisions/0144-archive-and-moved-addresses.md): what was published in a year,
 * a month or a day of the newsroom's calendar, every type with a page of its own, oldest first, in keyset pages
 * (`?after=` a cursor of publish time, type and id), and how many items each month of a year or day of a month has.
 *
 * Each type's branch reads its own (status, publish_date) index from the cursor and stops at a page and one row, so
 * a page of the busiest month costs what the first page costs; the union merges at most a page per type. Cached
 * under the types' tags, like the listings.
 */
import { and, asc, count, desc, gte, lt, sql, type SQL } from "drizzle-orm";
import { ARCHIVE_TYPES, periodRange, type ArchivePeriod } from "#domain/archive.ts";
import { NEWSROOM_TIME_ZONE } from "#domain/calendar.ts";
import { definitionOf, publicUrl, type ContentType } from "#domain/content-types/index.ts";
import { encodeCursor, type Cursor, type KeysetDirection } from "#domain/listings.ts";
import type { Database } from "#server/db/client.server.ts";
import { cached } from "./cache.server.ts";
import { cursorTimeSql } from "./listings.server.ts";
import { unionOf } from "./published-items.server.ts";
import { isPublished } from "./published.server.ts";
import { columnOf, tableOf } from "./registry.server.ts";

/** An item of an archive page: enough for a line with its title, type and time. */
export type ArchiveItem = {
  type: ContentType;
  id: number;
  url: string;
  title: string;
  titleFr: string | null;
  summary: string | null;
  summaryFr: string | null;
  imageUrl: string | null;
  publishDate: Date;
};

type ArchiveRow = Omit<ArchiveItem, "type" | "url"> & { rank: number; slug: string; cursorTime: string };

export type ArchivePage = { items: ArchiveItem[]; next: string | null; prev: string | null };

const noText = sql<string | null>`null`;
const summaryColumn = (type: ContentType) => {
  const d = definitionOf(type);
  return d.fields.find((f) => f.name === d.summaryField)?.column;
};

/**
 * The condition on one type's rows that puts them past the cursor (publish time, then the type's rank in
 * ARCHIVE_TYPES, then id), written so the time bounds the index scan: a type ranked after the cursor's takes its
 * time too, one ranked before starts after it.
 */
function pastCursor(type: ContentType, rank: number, cursor: Cursor, forwards: boolean): SQL {
  const t = tableOf(type);
  const at = sql`${String(cursor[0])}::timestamptz`;
  const cursorRank = ARCHIVE_TYPES.indexOf(cursor[1] as ContentType);
  const [after, onOrAfter, idPast] = forwards
    ? [sql`${t.publishDate} > ${at}`, sql`${t.publishDate} >= ${at}`, sql`${t.id} > ${Number(cursor[2])}`]
    : [sql`${t.publishDate} < ${at}`, sql`${t.publishDate} <= ${at}`, sql`${t.id} < ${Number(cursor[2])}`];
  const rankPast = forwards ? rank > cursorRank : rank < cursorRank;
  if (rank === cursorRank) return and(onOrAfter, sql`(${after} or ${idPast})`)!;
  return rankPast ? onOrAfter : after;
}

/** One page of a period's items, oldest first, from a cursor (`after`: on; `before`: back). */
export async function readArchivePage(
  db: Database,
  period: ArchivePeriod,
  from: { direction: KeysetDirection; cursor: Cursor } | null,
  pageSize: number,
): Promise<ArchivePage> {
  const { from: start, to: end } = periodRange(period);
  const forwards = from?.direction !== "before";
  const order = forwards ? asc : desc;
  const union = unionOf(ARCHIVE_TYPES, (type, rank) => {
    const t = tableOf(type);
    const summary = summaryColumn(type);
    return db
      .select({
        rank: sql<number>`${sql.raw(String(rank))}`.as("rank"),
        id: t.id,
        slug: t.pageSlug,
        title: t.title,
        titleFr: t.titleFr,
        summary: sql<string | null>`${(summary && columnOf(type, summary)) || noText}`.as("summary"),
        summaryFr: sql<string | null>`${(summary && columnOf(type, `${summary}Fr`)) || noText}`.as("summary_fr"),
        imageUrl: t.imageUrl,
        publishDate: t.publishDate,
        cursorTime: cursorTimeSql(t.publishDate).as("cursor_time"),
      })
      .from(t)
      .where(isPublished(t, gte(t.publishDate, start), lt(t.publishDate, end), from ? pastCursor(type, rank, from.cursor, forwards) : undefined))
      .orderBy(order(t.publishDate), order(t.id))
      .limit(pageSize + 1);
  }) as unknown as { orderBy: (...by: SQL[]) => { limit: (n: number) => Promise<ArchiveRow[]> } };
  // The branches are each limited (drizzle's types forget a limited select can still join a union).
  const rows = await union.orderBy(order(sql.identifier("publish_date")), order(sql.identifier("rank")), order(sql.identifier("id"))).limit(pageSize + 1);
  const more = rows.length > pageSize;
  const page = rows.slice(0, pageSize);
  if (!forwards) page.reverse();
  const cursorOf = (r: (typeof rows)[number] | undefined) => (r ? encodeCursor([r.cursorTime, ARCHIVE_TYPES[r.rank], r.id]) : null);
  return {
    items: page.map((r) => ({
      type: ARCHIVE_TYPES[r.rank],
      id: r.id,
      url: publicUrl(ARCHIVE_TYPES[r.rank], r.slug, r.id),
      title: r.title,
      titleFr: r.titleFr,
      summary: r.summary,
      summaryFr: r.summaryFr,
      imageUrl: r.imageUrl,
      publishDate: new Date(r.publishDate),
    })),
    // Read on, the rows before the cursor exist (the cursor's own); read back, the rows after it.
    next: !forwards || more ? cursorOf(page.at(-1)) : null,
    prev: from && (forwards || more) ? cursorOf(page[0]) : null,
  };
}

/**
 * How many items each month of a year (`unit` month: 1–12) or each day of a month (day: 1–31) has, in the
 * newsroom's time zone; units without any are left out.
 */
export async function readArchiveCounts(db: Database, period: ArchivePeriod, unit: "month" | "day"): Promise<{ unit: number; count: number }[]> {
  const { from: start, to: end } = periodRange(period);
  const part = unit === "month" ? sql.raw("'month'") : sql.raw("'day'");
  const rows = await unionOf(ARCHIVE_TYPES, (type) => {
    const t = tableOf(type);
    const local = sql`(${t.publishDate} at time zone ${NEWSROOM_TIME_ZONE})`;
    return db
      .select({ unit: sql<number>`extract(${part} from ${local})::int`.as("unit"), n: count().as("n") })
      .from(t)
      .where(isPublished(t, gte(t.publishDate, start), lt(t.publishDate, end)))
      .groupBy(sql`1`);
  });
  const totals = new Map<number, number>();
  for (const r of rows) totals.set(Number(r.unit), (totals.get(Number(r.unit)) ?? 0) + Number(r.n));
  return [...totals].sort(([a], [b]) => a - b).map(([u, n]) => ({ unit: u, count: n }));
}

const ARCHIVE_TAGS = [...ARCHIVE_TYPES];

/** readArchivePage, cached until an item of an archived type changes. */
export function loadArchivePage(db: Database, period: ArchivePeriod, from: { direction: KeysetDirection; cursor: Cursor } | null, pageSize: number) {
  return cached(`archive:${JSON.stringify(period)}:${JSON.stringify(from)}:${pageSize}`, ARCHIVE_TAGS, () => readArchivePage(db, period, from, pageSize));
}

/** readArchiveCounts, cached the same way. */
export function loadArchiveCounts(db: Database, period: ArchivePeriod, unit: "month" | "day") {
  return cached(`archive-counts:${JSON.stringify(period)}:${unit}`, ARCHIVE_TAGS, () => readArchiveCounts(db, period, unit));
}
