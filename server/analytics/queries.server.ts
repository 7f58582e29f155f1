/**
 * What the newsroom reads of its audience (issue 45, docs/decisions/0147-audience-figures.md): the dashboard of
 * /admin/analytics, the edit page's panel, the admin API (docs/api.md, "Audience figures") and the CSV exports.
 * Every figure of a period comes from the rollups (audience_daily for whole UTC days, audience_hourly for the part
 * days at either end), never from the raw rows, except "now" (the raw rows of the last 30 minutes, through their
 * `at` index). The rows are written by server/analytics/collect.server.ts; the top items are topItems' of
 * server/analytics/top.server.ts, which the public «الأكثر قراءة» shares.
 *
 * Words (contracts of issue 45): `views` are counted views (a visitor's first of a page in a UTC day); a rollup
 * row's `visitors` are the visitors whose first beacon of the day fell in it, so a period's sum is its visitor-days
 * (a reader who comes back tomorrow is counted again: the key changes every day, by design). For one page the
 * visitors are its views.
 */
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { ALL_CONTENT_TYPES, CONTENT_TYPES, publicUrl, type ContentType } from "#domain/content-types/index.ts";
import { DEVICES, SOURCES, type Device, type Source } from "#domain/audience.ts";
import { LANGUAGES, type Language } from "#domain/language.ts";
import type { Database } from "#server/db/client.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import {
  audienceDaily,
  audienceHourly,
  audienceSearches,
  audienceViews,
  authors,
  categories,
  coverageEntries,
  coverages,
  itemAuthors,
  newsletterSends,
  pushAlerts,
} from "#server/db/schema.server.ts";
import { getConfig } from "#server/config.server.ts";
import { BadRequestError } from "#server/http/errors.server.ts";
import { isPublished } from "#server/content/published.server.ts";
import { columnOf, tableOf } from "#server/content/registry.server.ts";
import { csvCell } from "#server/content/audit.server.ts";
import { readPlan, topItemCards, type ReadPlan } from "./top.server.ts";
import { GRAINS, type Grain } from "./grains.server.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// ---- Periods ----

/** The dashboard's ready-made periods; `now` is the last 30 minutes, read from the raw rows. */
export const PERIODS = ["now", "today", "7d", "30d"] as const;
export type Period = (typeof PERIODS)[number];
export const isPeriod = (value: unknown): value is Period => typeof value === "string" && (PERIODS as readonly string[]).includes(value);

/** What "now" covers, and its shorter window (readers in the last 5 minutes). */
export const NOW_MINUTES = 30;
export const NOW_SHORT_MINUTES = 5;

/** The longest range a request may ask for (the admin API's contract). */
export const MAX_RANGE_DAYS = 400;

/** A span of time: from (included) to (excluded). */
export type Range = { from: Date; to: Date };

const floorTo = (d: Date, unit: number) => new Date(Math.floor(d.getTime() / unit) * unit);
const ceilTo = (d: Date, unit: number) => new Date(Math.ceil(d.getTime() / unit) * unit);
const dayText = (d: Date) => d.toISOString().slice(0, 10);

/** A ready-made period's range at `now`: today is the UTC day so far (the newsroom's day: Nouakchott keeps UTC). */
export function rangeOf(period: Period, now = new Date()): Range {
  switch (period) {
    case "now":
      return { from: new Date(now.getTime() - NOW_MINUTES * MINUTE), to: now };
    case "today":
      return { from: floorTo(now, DAY), to: now };
    case "7d":
      return { from: new Date(now.getTime() - 7 * DAY), to: now };
    case "30d":
      return { from: new Date(now.getTime() - 30 * DAY), to: now };
  }
}

/** ISO 8601: a date, or a date and time (seconds and a zone optional; without a zone it is UTC). */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:\d{2})?)?$/;

function isoInstant(value: string): Date | null {
  if (!ISO_8601.test(value)) return null;
  const zoned = value.length === 10 || /(?:Z|[+-]\d{2}:\d{2})$/.test(value) ? value : `${value}Z`;
  const at = new Date(value.length === 10 ? `${value}T00:00:00Z` : zoned);
  // 2026-02-30 parses to March: refuse a day that is not on the calendar.
  if (Number.isNaN(at.getTime()) || (value.length >= 10 && !sameCalendarDay(value, at, zoned))) return null;
  return at;
}

function sameCalendarDay(value: string, at: Date, zoned: string): boolean {
  // Only a UTC (or zone-less) date can be compared with the instant's own UTC date.
  if (value.length > 10 && !/Z$/.test(zoned)) return true;
  return at.toISOString().slice(0, 10) === value.slice(0, 10);
}

/**
 * The range of `from` and `to` as a request gives them (ISO 8601; a bare date is that day's start, and a bare `to`
 * date includes that day), `fallbackDays` back from now when both are absent: 400 INVALID_RANGE when one is not a
 * date, `from` is not before `to`, or the range is longer than MAX_RANGE_DAYS.
 */
export function parseRange(query: { from?: string; to?: string }, { now = new Date(), fallbackDays = 7 } = {}): Range {
  const bad = (field: "from" | "to", message: string): never => {
    throw new BadRequestError("INVALID_RANGE", message, { fields: { [field]: message } });
  };
  const from = query.from === undefined || query.from === "" ? null : isoInstant(query.from);
  if (from === null && query.from) bad("from", "from is not an ISO 8601 date or time.");
  let to = query.to === undefined || query.to === "" ? null : isoInstant(query.to);
  if (to === null && query.to) bad("to", "to is not an ISO 8601 date or time.");
  // A bare date as the end means the whole of that day.
  if (to && query.to?.length === 10) to = new Date(to.getTime() + DAY);
  const end = to ?? now;
  const start = from ?? new Date(end.getTime() - fallbackDays * DAY);
  if (start.getTime() >= end.getTime()) bad("from", "from must be before to.");
  if (end.getTime() - start.getTime() > MAX_RANGE_DAYS * DAY) bad("to", `A range may cover at most ${MAX_RANGE_DAYS} days.`);
  return { from: start, to: end };
}

// ---- Which rollup rows a range reads ----

/** The first hour audience_hourly is sure to hold (the prune job removes what is older than ANALYTICS_HOURLY_DAYS). */
const hourlyKeptFrom = (now: Date) => floorTo(new Date(now.getTime() - (getConfig().ANALYTICS_HOURLY_DAYS - 1) * DAY), HOUR);

/**
 * Where a range's rows are read (readPlan, the rule topItems follows too): audience_daily for its whole UTC days,
 * audience_hourly for the hours of the part days at either end while it holds them, else the whole days around them.
 */
const planOf = (range: Range, now: Date): ReadPlan => readPlan(range.from, range.to, hourlyKeptFrom(now));

/** A condition on a rollup table's columns (both have the same ones). */
type RollupWhere = (t: typeof audienceDaily | typeof audienceHourly) => SQL | undefined;

/**
 * The rows a plan reads, as one derived table `r` with the columns both rollups share and `slot` (its start):
 * page, content_type, content_id, lang, source, device, campaign, views, visitors.
 */
function rollupRows(plan: ReadPlan, grain: Grain, where?: RollupWhere): SQL {
  const columns = (t: typeof audienceDaily | typeof audienceHourly) =>
    sql`${t.page} as page, ${t.contentType} as content_type, ${t.contentId} as content_id, ${t.lang} as lang, ${t.source} as source,
      ${t.device} as device, ${t.campaign} as campaign, ${t.views} as views, ${t.visitors} as visitors`;
  const parts: SQL[] = [];
  if (plan.days) {
    const d = audienceDaily;
    parts.push(sql`select (${d.day}::timestamp at time zone 'UTC') as slot, ${columns(d)} from ${d}
      where ${and(sql`${d.grain} = ${GRAINS[grain]} and ${d.day} >= ${dayText(plan.days.from)}::date and ${d.day} < ${dayText(plan.days.to)}::date`, where?.(d))}`);
  }
  for (const hours of plan.hours) {
    const h = audienceHourly;
    parts.push(sql`select ${h.hour} as slot, ${columns(h)} from ${h}
      where ${and(sql`${h.grain} = ${GRAINS[grain]} and ${h.hour} >= ${hours.from.toISOString()}::timestamptz and ${h.hour} < ${hours.to.toISOString()}::timestamptz`, where?.(h))}`);
  }
  // An empty range reads nothing (the callers' ranges are never empty; this keeps the SQL whole if one is).
  if (!parts.length)
    return sql`(select null::timestamptz as slot, ''::text as page, ''::text as content_type, 0 as content_id, ''::text as lang,
    ''::text as source, ''::text as device, ''::text as campaign, 0 as views, 0 as visitors where false) as r`;
  return sql`(${sql.join(parts, sql` union all `)}) as r`;
}

const rowsFor = (range: Range, grain: Grain, where?: RollupWhere, now = new Date()) => rollupRows(planOf(range, now), grain, where);

/** Only the rows of items' pages (`<type>:<id>`), which carry their type and id. */
const itemPages: RollupWhere = (t) => sql`${t.contentId} <> 0`;

// ---- A period's figures ----

export type Counted = { views: number; visitors: number };
export type Breakdown<K extends string> = Record<K, Counted>;

/** The period's totals and its views and visitors by source, language and device: one scan (grouping sets). */
export type PeriodSummary = Counted & { sources: Breakdown<Source>; langs: Breakdown<Language>; devices: Breakdown<Device> };

const zeroes = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, { views: 0, visitors: 0 }])) as Breakdown<K>;

export async function periodSummary(db: Database, range: Range, now = new Date()): Promise<PeriodSummary> {
  const rows = rowsOf<{ source: string | null; lang: string | null; device: string | null; views: number; visitors: number; g: number }>(
    await db.execute(sql`
      select source, lang, device, coalesce(sum(views), 0)::int as views, coalesce(sum(visitors), 0)::int as visitors,
        grouping(source, lang, device)::int as g
      from ${rowsFor(range, "totals", undefined, now)}
      group by grouping sets ((), (source), (lang), (device))`),
  );
  const summary: PeriodSummary = { views: 0, visitors: 0, sources: zeroes(SOURCES), langs: zeroes(LANGUAGES), devices: zeroes(DEVICES) };
  for (const row of rows) {
    const counted = { views: Number(row.views), visitors: Number(row.visitors) };
    // grouping(): a bit per column left out of the row's set (source 4, lang 2, device 1).
    const g = Number(row.g);
    if (g === 7) Object.assign(summary, counted);
    else if (g === 3 && row.source && row.source in summary.sources) summary.sources[row.source as Source] = counted;
    else if (g === 5 && row.lang && row.lang in summary.langs) summary.langs[row.lang as Language] = counted;
    else if (g === 6 && row.device && row.device in summary.devices) summary.devices[row.device as Device] = counted;
  }
  return summary;
}

/** Views and visitors over time: by hour for a range up to two days, else by UTC day; slots without any left out. */
export type TimelinePoint = { at: string; views: number; visitors: number };
export type Timeline = { step: "hour" | "day"; points: TimelinePoint[] };

export const HOURLY_TIMELINE_MAX = 2 * DAY;

export async function timeline(db: Database, range: Range, now = new Date()): Promise<Timeline> {
  const hourly = range.to.getTime() - range.from.getTime() <= HOURLY_TIMELINE_MAX;
  const plan: ReadPlan = hourly ? { hours: [{ from: floorTo(range.from, HOUR), to: range.to }] } : planOf(range, now);
  const rows = rowsOf<{ at: number; views: number; visitors: number }>(
    await db.execute(sql`
      select (extract(epoch from date_trunc(${sql.raw(hourly ? "'hour'" : "'day'")}, slot at time zone 'UTC')) * 1000)::float8 as at,
        coalesce(sum(views), 0)::int as views, coalesce(sum(visitors), 0)::int as visitors
      from ${rollupRows(plan, "totals")}
      group by 1 order by 1`),
  );
  return {
    step: hourly ? "hour" : "day",
    points: rows.map((r) => ({ at: new Date(Number(r.at)).toISOString(), views: Number(r.views), visitors: Number(r.visitors) })),
  };
}

// ---- Items ----

/** An item as the lists show it: its type, id, titles, public address and the views of the period. */
export type ItemFigure = { type: ContentType; id: number; title: string; titleFr: string | null; url: string; views: number };

type ItemRef = { contentType: ContentType; contentId: number };
const refKey = (type: string, id: number) => `${type}:${id}`;

/** Titles and public addresses of items, by `<type>:<id>` (published ones only, when asked): one query per type named. */
async function itemTitles(db: Database, refs: readonly ItemRef[], { publishedOnly }: { publishedOnly: boolean }) {
  const found = new Map<string, { title: string; titleFr: string | null; url: string }>();
  const byType = new Map<ContentType, number[]>();
  for (const { contentType, contentId } of refs) {
    if ((CONTENT_TYPES as readonly string[]).includes(contentType)) byType.set(contentType, [...(byType.get(contentType) ?? []), contentId]);
  }
  await Promise.all(
    [...byType].map(async ([type, ids]) => {
      const t = tableOf(type);
      const where = inArray(t.id, ids);
      const rows = await db
        .select({ id: t.id, title: t.title, titleFr: t.titleFr, slug: t.pageSlug })
        .from(t)
        .where(publishedOnly ? isPublished(t, where) : where);
      for (const r of rows) found.set(refKey(type, r.id), { title: r.title, titleFr: r.titleFr ?? null, url: publicUrl(type, r.slug, r.id) });
    }),
  );
  return found;
}

async function withTitles(db: Database, ranked: readonly (ItemRef & { views: number })[], limit: number): Promise<ItemFigure[]> {
  const titles = await itemTitles(db, ranked, { publishedOnly: true });
  return ranked
    .flatMap((r) => {
      const t = titles.get(refKey(r.contentType, r.contentId));
      return t ? [{ type: r.contentType, id: r.contentId, ...t, views: r.views }] : [];
    })
    .slice(0, limit);
}

/** The most viewed published items of a range, with their titles (topItemCards: the public block's ranking). */
export async function topItemsOf(
  db: Database,
  range: Range,
  { limit = 10, lang, now = new Date() }: { limit?: number; lang?: Language; now?: Date } = {},
): Promise<ItemFigure[]> {
  const cards = await topItemCards(db, { from: range.from, to: range.to, lang, limit }, now);
  return cards.map((c) => ({ type: c.contentType, id: c.contentId, title: c.title, titleFr: c.titleFr, url: c.url, views: c.views }));
}

/**
 * Now: distinct visitors of the raw rows of the last 5 and 30 minutes, and the published items they read (an item's
 * `views` here are its readers in the 30 minutes: a reader back on the same page still reads it).
 */
export type NowFigures = { at: string; last5: number; last30: number; items: ItemFigure[] };

export async function readersNow(db: Database, { now = new Date(), limit = 10 }: { now?: Date; limit?: number } = {}): Promise<NowFigures> {
  const since = new Date(now.getTime() - NOW_MINUTES * MINUTE).toISOString();
  const recent = new Date(now.getTime() - NOW_SHORT_MINUTES * MINUTE).toISOString();
  const v = audienceViews;
  const window = sql`${v.at} >= ${since}::timestamptz and ${v.at} <= ${now.toISOString()}::timestamptz`;
  const [counts, items] = await Promise.all([
    db.execute(sql`
      select (count(distinct ${v.visitor}) filter (where ${v.at} >= ${recent}::timestamptz))::int as last5,
        count(distinct ${v.visitor})::int as last30
      from ${v} where ${window}`),
    db.execute(sql`
      select ${v.contentType} as type, ${v.contentId} as id, count(distinct ${v.visitor})::int as readers
      from ${v} where ${window} and ${v.contentId} is not null
      group by 1, 2 order by readers desc, id desc limit ${limit * 2}`),
  ]);
  const [count] = rowsOf<{ last5: number; last30: number }>(counts);
  const ranked = rowsOf<{ type: ContentType; id: number; readers: number }>(items).map((r) => ({
    contentType: r.type,
    contentId: Number(r.id),
    views: Number(r.readers),
  }));
  return { at: now.toISOString(), last5: Number(count?.last5 ?? 0), last30: Number(count?.last30 ?? 0), items: await withTitles(db, ranked, limit) };
}

/** The top items of a ready-made period: `now` from the raw rows, the others from the rollups. */
export async function topOfPeriod(db: Database, period: Period, { now = new Date(), limit = 10 }: { now?: Date; limit?: number } = {}) {
  const range = rangeOf(period, now);
  const items = period === "now" ? (await readersNow(db, { now, limit })).items : await topItemsOf(db, range, { limit, now });
  return { range, items };
}

// ---- Sections and authors ----

/** A section (a top category: a category's parent, or itself) or an author, with the views of its items. */
export type GroupFigure = { id: number; slug: string; name: string; nameFr: string | null; views: number };

/** The views of each item of a range (the rollups' item rows, summed per item): the CTE `iv` of the queries below. */
const itemViews = (range: Range, now: Date) =>
  sql`iv as (select content_type, content_id, sum(views)::int as views from ${rowsFor(range, "ranking", itemPages, now)} group by 1, 2)`;

/** The types whose items have a category, each with its table and category column. */
const CATEGORISED = ALL_CONTENT_TYPES.flatMap(({ type, fields }) => {
  const column = fields.some((f) => f.kind === "category") ? columnOf(type, "categoryId") : undefined;
  return column ? [{ type, table: tableOf(type), column }] : [];
});

/** The sections most read in a range: each item's views go to its category's top category. */
export async function topSections(db: Database, range: Range, { limit = 10, now = new Date() }: { limit?: number; now?: Date } = {}): Promise<GroupFigure[]> {
  if (!CATEGORISED.length) return [];
  const perItem = sql.join(
    CATEGORISED.map(
      ({ type, table, column }) =>
        sql`select iv.views, ${column} as category_id from iv join ${table} on iv.content_type = ${type} and ${table.id} = iv.content_id`,
    ),
    sql` union all `,
  );
  const c = categories;
  const rows = rowsOf<{ id: number; slug: string; name: string; name_fr: string | null; views: number }>(
    await db.execute(sql`
      with ${itemViews(range, now)}
      select s.id, s.slug, s.name, s.name_fr, sum(i.views)::int as views
      from (${perItem}) as i
      join ${c} on ${c.id} = i.category_id
      join ${c} as s on s.id = coalesce(${c.parentId}, ${c.id})
      group by s.id, s.slug, s.name, s.name_fr
      order by views desc, s.id
      limit ${limit}`),
  );
  return rows.map((r) => ({ id: Number(r.id), slug: r.slug, name: r.name, nameFr: r.name_fr, views: Number(r.views) }));
}

/** The authors most read in a range: each item's views go to every author credited on it. */
export async function topAuthors(db: Database, range: Range, { limit = 10, now = new Date() }: { limit?: number; now?: Date } = {}): Promise<GroupFigure[]> {
  const a = authors;
  const ia = itemAuthors;
  const rows = rowsOf<{ id: number; slug: string; name: string; name_fr: string | null; views: number }>(
    await db.execute(sql`
      with ${itemViews(range, now)}
      select ${a.id} as id, ${a.slug} as slug, ${a.name} as name, ${a.nameFr} as name_fr, sum(iv.views)::int as views
      from iv
      join ${ia} on ${ia.contentType} = iv.content_type and ${ia.itemId} = iv.content_id
      join ${a} on ${a.id} = ${ia.authorId}
      group by ${a.id}, ${a.slug}, ${a.name}, ${a.nameFr}
      order by views desc, ${a.id}
      limit ${limit}`),
  );
  return rows.map((r) => ({ id: Number(r.id), slug: r.slug, name: r.name, nameFr: r.name_fr, views: Number(r.views) }));
}

// ---- One item ----

/** One item's figures (the admin API's contract): views, visitors (its views), views by source, and by hour. */
export type ItemAudience = { views: number; visitors: number; sources: Record<Source, number>; hourly: { hour: string; views: number }[] };

/**
 * An item's figures over a range: the totals and sources from the rollups (days and end hours), the hours from
 * audience_hourly (hours without a view left out; none before ANALYTICS_HOURLY_DAYS).
 */
export async function itemAudience(db: Database, type: ContentType, id: number, range: Range, now = new Date()): Promise<ItemAudience> {
  const one: RollupWhere = (t) => sql`${t.contentType} = ${type} and ${t.contentId} = ${id}`;
  const h = audienceHourly;
  const [bySource, byHour] = await Promise.all([
    db.execute(sql`select source, coalesce(sum(views), 0)::int as views from ${rowsFor(range, "sources", one, now)} group by source`),
    db.execute(sql`
      select (extract(epoch from ${h.hour}) * 1000)::float8 as hour, sum(${h.views})::int as views
      from ${h}
      where ${h.grain} = ${GRAINS.ranking} and ${h.contentType} = ${type} and ${h.contentId} = ${id}
        and ${h.hour} >= ${floorTo(range.from, HOUR).toISOString()}::timestamptz and ${h.hour} < ${range.to.toISOString()}::timestamptz
      group by 1 having sum(${h.views}) > 0 order by 1`),
  ]);
  const sources = Object.fromEntries(SOURCES.map((s) => [s, 0])) as Record<Source, number>;
  let views = 0;
  for (const row of rowsOf<{ source: string; views: number }>(bySource)) {
    views += Number(row.views);
    if (row.source in sources) sources[row.source as Source] += Number(row.views);
  }
  const hourly = rowsOf<{ hour: number; views: number }>(byHour).map((r) => ({ hour: new Date(Number(r.hour)).toISOString(), views: Number(r.views) }));
  return { views, visitors: views, sources, hourly };
}

/** Whether an item of that type and id exists (any status): the item API's 404. */
export async function itemExists(db: Database, type: ContentType, id: number): Promise<boolean> {
  const t = tableOf(type);
  const [row] = await db.select({ id: t.id }).from(t).where(eq(t.id, id)).limit(1);
  return Boolean(row);
}

// ---- Searches ----

/** A search as the lists show it: the query as counted (trimmed, spaces collapsed, lower-cased) and how often. */
export type SearchFigure = { query: string; count: number };

export const SEARCHES_DEFAULT_DAYS = 30;
export const SEARCHES_LIMIT = 100;

/** The last `days` UTC days, today included (the searches are kept per day). */
export const lastDays = (days: number, now = new Date()): Range => ({ from: new Date(floorTo(now, DAY).getTime() - (days - 1) * DAY), to: now });

/** The searches of the UTC days a range touches, most frequent first; `empty`: only those that found nothing. */
export async function topSearches(
  db: Database,
  range: Range,
  { empty = false, limit = SEARCHES_LIMIT }: { empty?: boolean; limit?: number } = {},
): Promise<SearchFigure[]> {
  const s = audienceSearches;
  const counted = empty ? s.empty : s.searches;
  const rows = rowsOf<{ query: string; count: number }>(
    await db.execute(sql`
      select ${s.query} as query, sum(${counted})::int as count
      from ${s} where ${s.day} >= ${dayText(range.from)}::date and ${s.day} < ${dayText(ceilTo(range.to, DAY))}::date
      group by ${s.query} having sum(${counted}) > 0
      order by count desc, query limit ${limit}`),
  );
  return rows.map((r) => ({ query: r.query, count: Number(r.count) }));
}

// ---- Newsletter sends and push alerts ----

/**
 * The newsletter's sends with the clicks their links brought in the range (views with source `newsletter` and
 * campaign `send-<id>`, newsletterCampaign of domain/link-tags.ts; opens are not tracked): the sends clicked in the
 * range and those sent in it, newest first.
 */
export type SendClicks = { id: number; subject: string; language: string; total: number; sentAt: string; clicks: number };

export async function newsletterClicks(
  db: Database,
  range: Range,
  { limit = 30, now = new Date() }: { limit?: number; now?: Date } = {},
): Promise<SendClicks[]> {
  const campaigns: RollupWhere = (t) => sql`${t.source} = 'newsletter' and ${t.campaign} ~ '^send-[0-9]{1,9}$'`;
  const s = newsletterSends;
  const rows = rowsOf<{ id: number; subject: string; language: string; total: number; sent_at: number; clicks: number | null }>(
    await db.execute(sql`
      with clicks as (
        select substr(campaign, 6)::int as send_id, sum(views)::int as clicks from ${rowsFor(range, "campaigns", campaigns, now)} group by 1
      )
      select ${s.id} as id, ${s.subject} as subject, ${s.language} as language, ${s.total} as total,
        (extract(epoch from coalesce(${s.startedAt}, ${s.createdAt})) * 1000)::float8 as sent_at, clicks.clicks
      from ${s} left join clicks on clicks.send_id = ${s.id}
      where clicks.clicks is not null
        or (${s.state} = 'sent' and ${s.createdAt} >= ${range.from.toISOString()}::timestamptz and ${s.createdAt} < ${range.to.toISOString()}::timestamptz)
      order by ${s.createdAt} desc, ${s.id} desc
      limit ${limit}`),
  );
  return rows.map((r) => ({
    id: Number(r.id),
    subject: r.subject,
    language: r.language,
    total: Number(r.total),
    sentAt: new Date(Number(r.sent_at)).toISOString(),
    clicks: Number(r.clicks ?? 0),
  }));
}

/**
 * Push alerts with the opens their link brought in the range (views with source `push` and the alert's campaign,
 * `alert-<type>-<id>`: pushAlertCampaign of domain/link-tags.ts, push_alerts having no id of its own): the alerts
 * opened in the range and those sent in it, newest first, each with what it was about.
 */
export type AlertOpens = { type: string; id: number; title: string | null; titleFr: string | null; sent: number; sentAt: string | null; opens: number };

export async function pushOpens(db: Database, range: Range, { limit = 30, now = new Date() }: { limit?: number; now?: Date } = {}): Promise<AlertOpens[]> {
  const alerts: RollupWhere = (t) => sql`${t.source} = 'push' and ${t.campaign} like 'alert-%'`;
  const p = pushAlerts;
  const rows = rowsOf<{ type: string; id: number; sent: number; sent_at: number | null; opens: number | null }>(
    await db.execute(sql`
      with opens as (select campaign, sum(views)::int as opens from ${rowsFor(range, "campaigns", alerts, now)} group by 1)
      select ${p.contentType} as type, ${p.itemId} as id, ${p.sent} as sent,
        (extract(epoch from coalesce(${p.startedAt}, ${p.createdAt})) * 1000)::float8 as sent_at, opens.opens
      from ${p} left join opens on opens.campaign = 'alert-' || ${p.contentType} || '-' || ${p.itemId}
      where opens.opens is not null
        or (${p.startedAt} >= ${range.from.toISOString()}::timestamptz and ${p.startedAt} < ${range.to.toISOString()}::timestamptz)
      order by coalesce(${p.startedAt}, ${p.createdAt}) desc
      limit ${limit}`),
  );
  const items = rows.map((r) => ({ contentType: r.type as ContentType, contentId: Number(r.id) }));
  const [titles, entries] = await Promise.all([itemTitles(db, items, { publishedOnly: false }), entryTitles(db, rows)]);
  return rows.map((r) => {
    const t = (CONTENT_TYPES as readonly string[]).includes(r.type) ? titles.get(refKey(r.type, Number(r.id))) : entries.get(Number(r.id));
    return {
      type: r.type,
      id: Number(r.id),
      title: t?.title ?? null,
      titleFr: t?.titleFr ?? null,
      sent: Number(r.sent),
      sentAt: r.sent_at === null ? null : new Date(Number(r.sent_at)).toISOString(),
      opens: Number(r.opens ?? 0),
    };
  });
}

/** A live coverage entry's alert (push_alerts' `coverage_entry`) is about its coverage: the coverage's titles. */
async function entryTitles(db: Database, rows: readonly { type: string; id: number }[]) {
  const ids = rows.filter((r) => !(CONTENT_TYPES as readonly string[]).includes(r.type)).map((r) => Number(r.id));
  const found = new Map<number, { title: string; titleFr: string | null }>();
  if (!ids.length) return found;
  const list = await db
    .select({ id: coverageEntries.id, title: coverages.title, titleFr: coverages.titleFr })
    .from(coverageEntries)
    .innerJoin(coverages, eq(coverages.id, coverageEntries.coverageId))
    .where(inArray(coverageEntries.id, ids));
  for (const r of list) found.set(r.id, { title: r.title, titleFr: r.titleFr ?? null });
  return found;
}

// ---- The dashboard ----

export type Dashboard = {
  range: { from: string; to: string };
  summary: PeriodSummary;
  timeline: Timeline;
  items: ItemFigure[];
  sections: GroupFigure[];
  authors: GroupFigure[];
  searches: { empty: SearchFigure[]; frequent: SearchFigure[] };
  sends: SendClicks[];
  alerts: AlertOpens[];
};

/** Everything /admin/analytics shows of a range, read side by side. */
export async function dashboardOf(db: Database, range: Range, { now = new Date(), limit = 10 }: { now?: Date; limit?: number } = {}): Promise<Dashboard> {
  const [summary, line, items, sections, authorList, empty, frequent, sends, alerts] = await Promise.all([
    periodSummary(db, range, now),
    timeline(db, range, now),
    topItemsOf(db, range, { limit, now }),
    topSections(db, range, { limit, now }),
    topAuthors(db, range, { limit, now }),
    topSearches(db, range, { empty: true, limit: 20 }),
    topSearches(db, range, { limit: 20 }),
    newsletterClicks(db, range, { now }),
    pushOpens(db, range, { now }),
  ]);
  return {
    range: { from: range.from.toISOString(), to: range.to.toISOString() },
    summary,
    timeline: line,
    items,
    sections,
    authors: authorList,
    searches: { empty, frequent },
    sends,
    alerts,
  };
}

// ---- CSV ----

/** The exports of /api/admin/analytics.csv: one table of the dashboard each. */
export const CSV_REPORTS = [
  "items",
  "sections",
  "authors",
  "sources",
  "langs",
  "devices",
  "timeline",
  "searches",
  "empty-searches",
  "newsletter",
  "push",
] as const;
export type CsvReport = (typeof CSV_REPORTS)[number];

/** Rows an export holds at most. */
export const CSV_LIMIT = 1000;

/** One report of a range as CSV: UTF-8 with a byte-order mark (Excel then reads Arabic right), CRLF line ends, a header row. */
export async function analyticsCsv(db: Database, report: CsvReport, range: Range, now = new Date()): Promise<string> {
  const table = await csvTable(db, report, range, now);
  const lines = [table.header.join(","), ...table.rows.map((row) => row.map(csvCell).join(","))];
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

async function csvTable(db: Database, report: CsvReport, range: Range, now: Date): Promise<{ header: string[]; rows: unknown[][] }> {
  const breakdown = async (key: "sources" | "langs" | "devices", name: string) => {
    const summary = await periodSummary(db, range, now);
    return { header: [name, "views", "visitors"], rows: Object.entries(summary[key]).map(([k, c]) => [k, c.views, c.visitors]) };
  };
  switch (report) {
    case "items": {
      const items = await topItemsOf(db, range, { limit: CSV_LIMIT, now });
      return { header: ["type", "id", "title", "title_fr", "url", "views"], rows: items.map((i) => [i.type, i.id, i.title, i.titleFr, i.url, i.views]) };
    }
    case "sections":
    case "authors": {
      const list = report === "sections" ? await topSections(db, range, { limit: CSV_LIMIT, now }) : await topAuthors(db, range, { limit: CSV_LIMIT, now });
      return { header: ["id", "slug", "name", "name_fr", "views"], rows: list.map((g) => [g.id, g.slug, g.name, g.nameFr, g.views]) };
    }
    case "sources":
      return breakdown("sources", "source");
    case "langs":
      return breakdown("langs", "lang");
    case "devices":
      return breakdown("devices", "device");
    case "timeline": {
      const line = await timeline(db, range, now);
      return { header: [line.step, "views", "visitors"], rows: line.points.map((p) => [p.at, p.views, p.visitors]) };
    }
    case "searches":
    case "empty-searches": {
      const list = await topSearches(db, range, { empty: report === "empty-searches", limit: CSV_LIMIT });
      return { header: ["query", "count"], rows: list.map((s) => [s.query, s.count]) };
    }
    case "newsletter": {
      const sends = await newsletterClicks(db, range, { limit: CSV_LIMIT, now });
      return {
        header: ["send_id", "sent_at", "language", "subject", "recipients", "clicks"],
        rows: sends.map((s) => [s.id, s.sentAt, s.language, s.subject, s.total, s.clicks]),
      };
    }
    case "push": {
      const alerts = await pushOpens(db, range, { limit: CSV_LIMIT, now });
      return {
        header: ["type", "id", "sent_at", "title", "title_fr", "recipients", "opens"],
        rows: alerts.map((a) => [a.type, a.id, a.sentAt, a.title, a.titleFr, a.sent, a.opens]),
      };
    }
  }
}

/** The item API's `:type`: a content type's key, or null (a 404). */
export function contentTypeOf(value: string | undefined): ContentType | null {
  return value !== undefined && (CONTENT_TYPES as readonly string[]).includes(value) ? (value as ContentType) : null;
}
