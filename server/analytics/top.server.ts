/**
 * The most-read items of a period (issue 45), from the audience rollups (server/analytics/collect.server.ts writes
 * them): the newsroom's top lists (server/analytics/queries.server.ts) and the public «الأكثر قراءة» of the home and
 * detail pages (`mostRead`, last 24 hours and last 7 days, per language) share `topItems`.
 *
 * A period is read where it is cheapest and still exact: its whole UTC days from audience_daily, the hours at either
 * end from audience_hourly while that table still holds them (ANALYTICS_HOURLY_DAYS), else the whole days around
 * them. A range of whole days is read from audience_daily alone; "the last 24 hours" from the hourly rows of the
 * hours it touches. Only published items are ranked (the public rule, server/content/published.server.ts), each
 * type's table joined through the content-type definitions: an item unpublished or scheduled later drops out.
 *
 * The public lists go through the read cache for a minute (MOST_READ_TTL_MS) under every content type's tag: a save
 * that unpublishes or renames an item drops them at once, a view never does (pages are not purged per view: the
 * page cache's and the CDN's lifetimes bound how old a shown list is, as for every page).
 */
import { sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { CONTENT_TYPES, publicUrl, type ContentType } from "#domain/content-types/index.ts";
import type { Language } from "#domain/language.ts";
import type { Database } from "#server/db/client.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { audienceDaily, audienceHourly } from "#server/db/schema.server.ts";
import { getConfig } from "#server/config.server.ts";
import { cached } from "#server/content/cache.server.ts";
import { isPublished } from "#server/content/published.server.ts";
import { columnOf, tableOf } from "#server/content/registry.server.ts";
import { markDegraded } from "#server/http/render-scope.server.ts";
import { GRAINS } from "./grains.server.ts";
import { logger } from "#server/ops/logger.server.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export type TopItem = { contentType: ContentType; contentId: number; views: number };
/** A ranked item with what a list shows of it: its titles and its public (language-neutral) address. */
export type TopItemCard = TopItem & { title: string; titleFr: string | null; url: string };

export type TopItemsQuery = {
  from: Date;
  to: Date;
  /** Views on that language's pages only; all languages when absent. */
  lang?: Language;
  limit?: number;
};

const floorHour = (d: Date) => new Date(Math.floor(d.getTime() / HOUR) * HOUR);
const floorDay = (d: Date) => new Date(Math.floor(d.getTime() / DAY) * DAY);
const ceilDay = (d: Date) => new Date(Math.ceil(d.getTime() / DAY) * DAY);
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** Where each part of [from, to) is read: hourly slots that overlap it, or whole days. */
export type ReadPlan = { days?: { from: Date; to: Date }; hours: { from: Date; to: Date }[] };

/**
 * How [from, to) is read, given the first hour audience_hourly still holds. Whole days in the middle come from the
 * daily rows; the partial days at the ends from the hourly slots overlapping them (or, older than the hourly rows,
 * the whole days around them).
 */
export function readPlan(from: Date, to: Date, hourlyFrom: Date): ReadPlan {
  const firstWhole = ceilDay(from);
  const lastWhole = floorDay(to);
  const hourly = (a: Date) => a.getTime() >= hourlyFrom.getTime();
  if (firstWhole.getTime() >= lastWhole.getTime()) {
    // No whole day inside: hours when they are kept, else the day(s) it touches.
    return hourly(floorHour(from)) ? { hours: [{ from: floorHour(from), to }] } : { days: { from: floorDay(from), to: ceilDay(to) }, hours: [] };
  }
  const plan: ReadPlan = { days: { from: firstWhole, to: lastWhole }, hours: [] };
  if (from < firstWhole) {
    if (hourly(floorHour(from))) plan.hours.push({ from: floorHour(from), to: firstWhole });
    else plan.days!.from = floorDay(from);
  }
  if (lastWhole < to) {
    if (hourly(lastWhole)) plan.hours.push({ from: lastWhole, to });
    else plan.days!.to = ceilDay(to);
  }
  return plan;
}

/** The first hour audience_hourly is sure to hold (the prune job removes what is older than ANALYTICS_HOURLY_DAYS). */
function hourlyKeptFrom(now: Date): Date {
  return floorHour(new Date(now.getTime() - (getConfig().ANALYTICS_HOURLY_DAYS - 1) * DAY));
}

/** The item views of the plan's rows, as one union (content_type, content_id, views). */
function viewRows(plan: ReadPlan, lang: Language | undefined): SQL {
  const parts: SQL[] = [];
  const ofLang = (column: PgColumn) => (lang ? sql` and ${column} = ${lang}` : sql``);
  // One language's views from the items grain; all languages' from the ranking grain, a row per item and slot.
  const grain = lang ? GRAINS.items : GRAINS.ranking;
  if (plan.days) {
    const d = audienceDaily;
    parts.push(
      sql`select ${d.contentType} as content_type, ${d.contentId} as content_id, ${d.views} as views from ${d}
          where ${d.grain} = ${grain} and ${d.day} >= ${dayOf(plan.days.from)}::date and ${d.day} < ${dayOf(plan.days.to)}::date and ${d.contentType} <> ''${ofLang(d.lang)}`,
    );
  }
  const h = audienceHourly;
  for (const hours of plan.hours) {
    parts.push(
      sql`select ${h.contentType} as content_type, ${h.contentId} as content_id, ${h.views} as views from ${h}
          where ${h.grain} = ${grain} and ${h.hour} >= ${hours.from.toISOString()}::timestamptz and ${h.hour} < ${hours.to.toISOString()}::timestamptz and ${h.contentType} <> ''${ofLang(h.lang)}`,
    );
  }
  if (!parts.length) return sql`select ''::text as content_type, 0 as content_id, 0 as views where false`;
  return sql.join(parts, sql` union all `);
}

/** An item type's condition for "has its own text in this language" (domain/localized.ts `languagesWithText`). */
function hasTextIn(type: ContentType, lang: Language | undefined): SQL | undefined {
  if (!lang || lang === "ar") return undefined;
  const column = columnOf(type, lang === "fr" ? "titleFr" : "titleEn");
  return column ? sql`btrim(coalesce(${column}, '')) <> ''` : sql`false`;
}

/**
 * The top items of a period with their titles: ranked by counted views (more first; then the newer id), published
 * items only; with `textIn`, only items that have their own title in that language.
 */
export async function topItemCards(db: Database, query: TopItemsQuery & { textIn?: Language }, now = new Date()): Promise<TopItemCard[]> {
  const { from, to, lang, textIn } = query;
  const limit = Math.max(1, Math.min(query.limit ?? 10, 500));
  if (!(from < to)) return [];
  const plan = readPlan(from, to, hourlyKeptFrom(now));
  const perType = CONTENT_TYPES.map((type) => {
    const t = tableOf(type);
    const titleFr = columnOf(type, "titleFr");
    return sql`select ${type}::text as type, r.content_id as id, r.views, ${t.title} as title, ${titleFr ?? sql`null`}::text as title_fr, ${t.pageSlug} as slug
      from ranked r join ${t} on ${t.id} = r.content_id
      where r.content_type = ${type} and ${isPublished(t, hasTextIn(type, textIn))}`;
  });
  const rows = rowsOf<{ type: ContentType; id: number; views: number; title: string; title_fr: string | null; slug: string }>(
    await db.execute(sql`
      with ranked as (
        select content_type, content_id, sum(views)::int as views from (${viewRows(plan, lang)}) v
        group by content_type, content_id having sum(views) > 0
      )
      select * from (${sql.join(perType, sql` union all `)}) items
      order by views desc, id desc, type
      limit ${limit}`),
  );
  return rows.map((r) => ({
    contentType: r.type,
    contentId: Number(r.id),
    views: Number(r.views),
    title: r.title,
    titleFr: r.title_fr,
    url: publicUrl(r.type, r.slug, Number(r.id)),
  }));
}

/**
 * The most-read published items of [from, to), counted views: from audience_hourly when the range is recent and not
 * whole days, else audience_daily (readPlan). Shared by the newsroom's dashboard and the public block.
 */
export async function topItems(db: Database, query: TopItemsQuery): Promise<TopItem[]> {
  return (await topItemCards(db, query)).map(({ contentType, contentId, views }) => ({ contentType, contentId, views }));
}

export const MOST_READ_WINDOWS = { "24h": DAY, "7d": 7 * DAY } as const;
export type MostReadWindow = keyof typeof MOST_READ_WINDOWS;
/** public-site.md §9: the most-read list has 5 entries. */
export const MOST_READ_LIMIT = 5;
/** How long the read cache keeps a list: views do not invalidate, time does. */
export const MOST_READ_TTL_MS = 60_000;

/** An entry of the public list: the title in the page's language and the item's address. */
export type MostReadCard = { type: ContentType; id: number; title: string; url: string; views: number };

/**
 * The public «الأكثر قراءة» of one window, per language: the items most read on that language's pages, only those
 * with their own text in it (an item without a French title is left out of the French list), read-cached briefly.
 */
export function mostRead(
  db: Database,
  { lang, window, limit = MOST_READ_LIMIT }: { lang: Language; window: MostReadWindow; limit?: number },
): Promise<MostReadCard[]> {
  return cached(
    `most-read:${lang}:${window}:${limit}`,
    CONTENT_TYPES,
    async () => {
      const to = new Date();
      const from = new Date(to.getTime() - MOST_READ_WINDOWS[window]);
      const cards = await topItemCards(db, { from, to, lang, limit, textIn: lang }, to);
      return cards.map((c) => ({
        type: c.contentType,
        id: c.contentId,
        title: lang === "fr" && c.titleFr?.trim() ? c.titleFr : c.title,
        url: c.url,
        views: c.views,
      }));
    },
    MOST_READ_TTL_MS,
  );
}

/** The block's two lists; null when they cannot be read (the block is hidden and the page is not kept). */
export type MostReadLists = { day: MostReadCard[]; week: MostReadCard[] };

export async function mostReadLists(db: Database, lang: Language): Promise<MostReadLists | null> {
  try {
    const [day, week] = await Promise.all([mostRead(db, { lang, window: "24h" }), mostRead(db, { lang, window: "7d" })]);
    return { day, week };
  } catch (error) {
    logger.error({ err: error, lang }, "most-read lists failed");
    markDegraded();
    return null;
  }
}
