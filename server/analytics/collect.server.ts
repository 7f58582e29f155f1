/**
 * The audience collector (issue 45, docs/decisions/0147-audience-figures.md). A page's beacon (POST /api/views)
 * becomes an event in this process's buffer — never awaited by the page — and the buffer is written every
 * ANALYTICS_FLUSH_MS, or at 500 events, in one transaction: the raw rows, the day's dedupe (audience_seen), the
 * hourly and daily rollups, the searches, and each counted item view's running `view_count`.
 *
 * A view counts once per visitor per page per UTC day; the visitor is the daily reader key of decision 0041
 * (server/content/views.server.ts `readerKeyFor`: an HMAC of the day, the address and the user agent under a key
 * from the server's secret), cut to 22 characters. No row keeps an address, a user agent or a cookie; readers who
 * send `DNT: 1` or `Sec-GPC: 1`, crawlers and prefetches are not recorded at all. With ANALYTICS=off only the
 * items' view counts are kept (deduped the same way), so the all-time "most read" keeps working.
 */
import crypto from "node:crypto";
import { and, gte, lt, sql, type SQL } from "drizzle-orm";
import type { Database, Queryable } from "#server/db/client.server.ts";
import { audienceDaily, audienceHourly, audienceSearches, audienceSeen, audienceViews, contentViews } from "#server/db/schema.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { getConfig, type Config } from "#server/config.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { asksNotToBeTracked, isCountableView, readerKeyFor, VIEW_COUNT_COLUMN } from "#server/content/views.server.ts";
import { campaignOf, deviceOf, itemOfPage, normalizeSearchQuery, sourceOf, type Beacon, type Device, type Source } from "#domain/audience.ts";
import { definitionOf, type ContentType } from "#domain/content-types/index.ts";
import { atGrain, GRAINS, grainsOf, rawRollupSelect, type RollupKey } from "./grains.server.ts";
import { languageOfAddress } from "#domain/addresses.ts";
import type { Language } from "#domain/language.ts";

/** The stored visitor: the reader key's first 22 characters (132 bits), enough to tell a day's visitors apart. */
export const VISITOR_LENGTH = 22;
/** A buffer this long is written at once, without waiting for the timer. */
export const FLUSH_AT_EVENTS = 500;
/** Past this many events waiting (a database too slow to keep up), new beacons are dropped rather than kept in memory. */
const MAX_WAITING_EVENTS = 50_000;
/** Rows per INSERT: PostgreSQL takes at most 65,535 parameters a statement. */
const ROWS_PER_STATEMENT = 1000;

/** One beacon, as the collector keeps it until the flush. */
export type AudienceEvent = {
  /** When it arrived; now by default. */
  at?: Date;
  /** The daily reader key (cut to VISITOR_LENGTH when longer). */
  visitor: string;
  /** An item's `"<type>:<id>"` or one of AUDIENCE_PAGES. */
  page: string;
  lang: Language;
  source: Source;
  device: Device;
  campaign?: string | null;
  /** On the search page: what was searched and how many results it found (null: not said). */
  search?: { query: string; results: number | null } | null;
};

export type CollectOptions = { config?: Config; now?: Date };

type Batch = { db: Database; analytics: boolean; events: AudienceEvent[] };

let waiting: Batch[] = [];
let waitingEvents = 0;
let inFlight = 0;
let dropped = 0;
let timer: ReturnType<typeof setTimeout> | undefined;
let flushing: Promise<void> = Promise.resolve();

/** The site's own hosts: PUBLIC_URL's, and the one the beacon was posted to (the page's origin). */
function siteHostsOf(request: Request, config: Config): string[] {
  const hosts: string[] = [];
  for (const url of [config.publicUrl, request.url]) {
    try {
      hosts.push(new URL(url).hostname);
    } catch {
      // Not a URL: nothing to compare with.
    }
  }
  return hosts;
}

/** The page's language when an old page's beacon does not say it: the address its Referer header names. */
function languageOfReferer(request: Request): Language {
  try {
    return languageOfAddress(new URL(request.headers.get("referer") ?? "/", "http://site.invalid").pathname);
  } catch {
    return "ar";
  }
}

/**
 * Takes one beacon of a reader's browser: skipped for DNT / Sec-GPC, crawlers and prefetches; otherwise made an
 * event (visitor key, device, source, campaign) and buffered for the next flush. Never throws, never waits.
 */
export function collectBeacon(db: Database, request: Request, beacon: Beacon, { config = getConfig(), now = new Date() }: CollectOptions = {}): void {
  if (asksNotToBeTracked(request) || !isCountableView(request)) return;
  const analytics = config.ANALYTICS === "on";
  if (!analytics && !itemOfPage(beacon.page)) return;
  let visitor: string;
  try {
    visitor = readerKeyFor(request, { day: now, config }).slice(0, VISITOR_LENGTH);
  } catch (error) {
    logger.warn({ err: error }, "view not counted: no reader key");
    return;
  }
  const event: AudienceEvent = {
    at: now,
    visitor,
    page: beacon.page,
    lang: beacon.lang ?? languageOfReferer(request),
    source: sourceOf({ utmSource: beacon.src, referrer: beacon.ref, siteHost: siteHostsOf(request, config) }),
    device: deviceOf(request.headers.get("user-agent")),
    campaign: campaignOf(beacon.camp),
    search: beacon.page === "search" && beacon.q ? { query: beacon.q, results: beacon.n ?? null } : null,
  };
  enqueue(db, analytics, event, config);
}

function enqueue(db: Database, analytics: boolean, event: AudienceEvent, config: Config): void {
  if (waitingEvents + inFlight >= MAX_WAITING_EVENTS) {
    if (dropped++ === 0) logger.warn({ waiting: waitingEvents + inFlight }, "audience beacons dropped: the database is not keeping up");
    return;
  }
  let batch = waiting.find((b) => b.db === db && b.analytics === analytics);
  if (!batch) waiting.push((batch = { db, analytics, events: [] }));
  batch.events.push(event);
  waitingEvents++;
  if (waitingEvents >= FLUSH_AT_EVENTS) void flushAudience();
  else if (!timer) {
    timer = setTimeout(() => void flushAudience(), config.ANALYTICS_FLUSH_MS);
    timer.unref?.();
  }
}

/**
 * Writes what is buffered now, after any flush already running (one at a time per process). Resolves when it is
 * written; a batch the database refuses is logged and lost (figures, not records), never thrown.
 */
export function flushAudience(): Promise<void> {
  if (timer) clearTimeout(timer);
  timer = undefined;
  const batches = waiting;
  const count = waitingEvents;
  waiting = [];
  waitingEvents = 0;
  inFlight += count;
  flushing = flushing.then(async () => {
    for (const { db, analytics, events } of batches) {
      try {
        await recordAudienceBatch(db, events, { analytics });
      } catch (error) {
        logger.warn({ err: error, events: events.length }, "audience beacons not recorded");
      }
    }
    inFlight -= count;
    if (dropped) {
      logger.warn({ dropped }, "audience beacons were dropped while the database was behind");
      dropped = 0;
    }
  });
  return flushing;
}

const utcDay = (d: Date) => d.toISOString().slice(0, 10);
const utcHour = (d: Date) => new Date(Math.floor(d.getTime() / 3_600_000) * 3_600_000);
const seenKey = (day: string, visitor: string, page: string) => `${day}\n${visitor}\n${page}`;
/** A search's dedupe key in audience_seen: a hash, so the dedupe table never holds what a visitor searched for. */
const searchSeenPage = (query: string, lang: string) => `q:${crypto.createHash("sha256").update(`${lang}\n${query}`).digest("base64url").slice(0, 16)}`;

function chunks<T>(rows: T[], size = ROWS_PER_STATEMENT): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

type Row = {
  at: Date;
  day: string;
  visitor: string;
  page: string;
  item: { contentType: ContentType; contentId: number } | null;
  lang: Language;
  source: Source;
  device: Device;
  campaign: string | null;
  search: { query: string; empty: boolean | null; seen: string } | null;
  counted: boolean;
  newVisitor: boolean;
  searchCounted: boolean;
};

function rowOf(e: AudienceEvent): Row {
  const at = e.at ?? new Date();
  const query = e.search ? normalizeSearchQuery(e.search.query) : "";
  return {
    at,
    day: utcDay(at),
    visitor: e.visitor.slice(0, VISITOR_LENGTH),
    page: e.page,
    item: itemOfPage(e.page),
    lang: e.lang,
    source: e.source,
    device: e.device,
    campaign: campaignOf(e.campaign),
    search: query ? { query, empty: e.search!.results === null ? null : e.search!.results === 0, seen: searchSeenPage(query, e.lang) } : null,
    counted: false,
    newVisitor: false,
    searchCounted: false,
  };
}

/**
 * Marks each row's firsts against audience_seen: the visitor's first beacon of the page this day (counted), their
 * first of the day (newVisitor), their first search of this query this day. Concurrent writers (several
 * processes) agree: only one insert of a key returns it.
 */
async function markFirsts(tx: Queryable, rows: Row[], analytics: boolean): Promise<void> {
  const keys = new Map<string, { day: string; visitor: string; page: string }>();
  const add = (day: string, visitor: string, page: string) => keys.set(seenKey(day, visitor, page), { day, visitor, page });
  for (const r of rows) {
    if (!analytics && !r.item) continue;
    add(r.day, r.visitor, r.page);
    if (analytics) add(r.day, r.visitor, "");
    if (analytics && r.search) add(r.day, r.visitor, r.search.seen);
  }
  const fresh = new Set<string>();
  // In key order, so that two processes' flushes take the same rows' locks in the same order.
  const sorted = [...keys.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
  for (const part of chunks(sorted)) {
    const inserted = await tx.insert(audienceSeen).values(part).onConflictDoNothing().returning();
    for (const k of inserted) fresh.add(seenKey(k.day, k.visitor, k.page));
  }
  // The first row of a key in the batch takes it: a second beacon the same day is raw only.
  for (const r of rows) {
    r.counted = fresh.delete(seenKey(r.day, r.visitor, r.page));
    r.newVisitor = analytics && fresh.delete(seenKey(r.day, r.visitor, ""));
    r.searchCounted = analytics && r.search !== null && fresh.delete(seenKey(r.day, r.visitor, r.search.seen));
  }
}

/** Adds each counted item view to its item's running total, on the types whose definition keeps one. */
async function addViewCounts(tx: Queryable, rows: Row[]): Promise<void> {
  const byType = new Map<ContentType, Map<number, number>>();
  for (const r of rows) {
    if (!r.counted || !r.item || !definitionOf(r.item.contentType).viewCounter) continue;
    const ids = byType.get(r.item.contentType) ?? new Map<number, number>();
    ids.set(r.item.contentId, (ids.get(r.item.contentId) ?? 0) + 1);
    byType.set(r.item.contentType, ids);
  }
  const counter = sql.identifier(VIEW_COUNT_COLUMN);
  // Types and ids in order, as every process's flush takes the rows' locks.
  for (const [type, ids] of [...byType].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const table = sql.identifier(definitionOf(type).table);
    const values = [...ids].sort(([a], [b]) => a - b).map(([id, n]) => sql`(${id}::int, ${n}::int)`);
    await tx.execute(
      sql`update ${table} set ${counter} = ${table}.${counter} + v.n from (values ${sql.join(values, sql`, `)}) as v(id, n) where ${table}.id = v.id`,
    );
  }
}

type RollupRow = RollupKey & { grain: number; slot: string; views: number; visitors: number };

/**
 * Counted views and new visitors summed by slot (an hour's ISO time or a day) and the rollups' other key columns, at
 * each grain (server/analytics/grains.server.ts).
 */
function rollupsOf(rows: Row[], slotOf: (r: Row) => string): RollupRow[] {
  const slots = new Map<string, RollupRow>();
  for (const r of rows) {
    if (!r.counted && !r.newVisitor) continue;
    const slot = slotOf(r);
    const full: RollupKey = {
      page: r.page,
      contentType: r.item?.contentType ?? "",
      contentId: r.item?.contentId ?? 0,
      lang: r.lang,
      source: r.source,
      device: r.device,
      campaign: r.campaign ?? "",
    };
    for (const grain of grainsOf(full)) {
      const k = atGrain(full, grain);
      const key = [GRAINS[grain], slot, k.page, k.lang, k.source, k.device, k.campaign].join("\n");
      let row = slots.get(key);
      if (!row) slots.set(key, (row = { grain: GRAINS[grain], slot, ...k, views: 0, visitors: 0 }));
      if (r.counted) row.views++;
      if (r.newVisitor) row.visitors++;
    }
  }
  return [...slots.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}

/** An upsert's `column = table.column + excluded.column`: the slot's figures add up over the flushes. */
const addExcluded = (table: string, column: string) => sql.raw(`"${table}"."${column}" + excluded."${column}"`);

async function upsertRollups(tx: Queryable, rows: Row[]): Promise<void> {
  const add = (table: string) => ({ views: addExcluded(table, "views"), visitors: addExcluded(table, "visitors") });
  const rest = (r: RollupRow) => ({
    grain: r.grain,
    page: r.page,
    contentType: r.contentType,
    contentId: r.contentId,
    lang: r.lang,
    source: r.source,
    device: r.device,
    campaign: r.campaign,
    views: r.views,
    visitors: r.visitors,
  });
  const hourly = rollupsOf(rows, (r) => utcHour(r.at).toISOString());
  for (const part of chunks(hourly)) {
    const h = audienceHourly;
    await tx
      .insert(h)
      .values(part.map((r) => ({ hour: new Date(r.slot), ...rest(r) })))
      .onConflictDoUpdate({ target: [h.grain, h.hour, h.page, h.lang, h.source, h.device, h.campaign], set: add("audience_hourly") });
  }
  const daily = rollupsOf(rows, (r) => r.day);
  for (const part of chunks(daily)) {
    const d = audienceDaily;
    await tx
      .insert(d)
      .values(part.map((r) => ({ day: r.slot, ...rest(r) })))
      .onConflictDoUpdate({ target: [d.grain, d.day, d.page, d.lang, d.source, d.device, d.campaign], set: add("audience_daily") });
  }
}

/** Each visitor's first search of a query on a day counts once; `empty` when it found nothing. */
async function upsertSearches(tx: Queryable, rows: Row[]): Promise<void> {
  const counts = new Map<string, { day: string; query: string; lang: string; searches: number; empty: number }>();
  for (const r of rows) {
    if (!r.searchCounted || !r.search) continue;
    const key = `${r.day}\n${r.lang}\n${r.search.query}`;
    const row = counts.get(key) ?? { day: r.day, query: r.search.query, lang: r.lang, searches: 0, empty: 0 };
    row.searches++;
    if (r.search.empty) row.empty++;
    counts.set(key, row);
  }
  const sorted = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
  for (const part of chunks(sorted)) {
    const s = audienceSearches;
    await tx
      .insert(s)
      .values(part)
      .onConflictDoUpdate({
        target: [s.day, s.query, s.lang],
        set: { searches: addExcluded("audience_searches", "searches"), empty: addExcluded("audience_searches", "empty") },
      });
  }
}

/**
 * Writes a batch of events in one transaction (the flush's write; the tests' and the bench's too). `analytics`
 * (ANALYTICS by default) false: only the items' view counts, deduped per visitor-day, nothing else kept.
 */
export async function recordAudienceBatch(
  db: Database,
  events: AudienceEvent[],
  { analytics = getConfig().ANALYTICS === "on" }: { analytics?: boolean } = {},
): Promise<{ recorded: number; counted: number }> {
  const rows = events.filter((e) => e.visitor && e.page).map(rowOf);
  if (rows.length === 0) return { recorded: 0, counted: 0 };
  return db.transaction(async (tx) => {
    await markFirsts(tx, rows, analytics);
    await addViewCounts(tx, rows);
    const counted = rows.filter((r) => r.counted).length;
    if (!analytics) return { recorded: 0, counted };
    for (const part of chunks(rows)) {
      await tx.insert(audienceViews).values(
        part.map((r) => ({
          at: r.at,
          visitor: r.visitor,
          page: r.page,
          contentType: r.item?.contentType ?? null,
          contentId: r.item?.contentId ?? null,
          lang: r.lang,
          source: r.source,
          campaign: r.campaign,
          device: r.device,
          counted: r.counted,
          newVisitor: r.newVisitor,
        })),
      );
    }
    await upsertRollups(tx, rows);
    await upsertSearches(tx, rows);
    return { recorded: rows.length, counted };
  });
}

const HOUR = 3_600_000;
const DAY = 86_400_000;
const floorTo = (d: Date, unit: number) => new Date(Math.floor(d.getTime() / unit) * unit);
const ceilTo = (d: Date, unit: number) => new Date(Math.ceil(d.getTime() / unit) * unit);

/** The rollup rows of the raw rows of [from, to) at every grain, grouped by `slot` (an SQL expression of `at`). */
const rollupSelect = (slot: SQL, from: Date, to: Date) => rawRollupSelect(slot, sql`at >= ${from.toISOString()} and at < ${to.toISOString()}`);

/**
 * Recomputes the hourly and daily rows of a period from the raw rows (after a restore, or rows written another way:
 * the bench's generator). Whole hours and whole UTC days around `from`–`to` are rebuilt, so only a period whose
 * raw rows are all still kept (ANALYTICS_RAW_DAYS) comes back complete.
 */
export async function rebuildAudienceRollups(db: Database, { from, to }: { from: Date; to: Date }): Promise<void> {
  const hours = { from: floorTo(from, HOUR), to: ceilTo(to, HOUR) };
  const days = { from: floorTo(from, DAY), to: ceilTo(to, DAY) };
  const utc = sql`(at at time zone 'UTC')`;
  await db.transaction(async (tx) => {
    // Millions of rows take longer than a page's statement limit.
    await tx.execute(sql`set local statement_timeout = 0`);
    await tx.delete(audienceHourly).where(and(gte(audienceHourly.hour, hours.from), lt(audienceHourly.hour, hours.to)));
    await tx.execute(sql`insert into ${audienceHourly} (grain, hour, page, content_type, content_id, lang, source, device, campaign, views, visitors)
      ${rollupSelect(sql`date_trunc('hour', ${utc}) at time zone 'UTC'`, hours.from, hours.to)}`);
    await tx.delete(audienceDaily).where(and(gte(audienceDaily.day, utcDay(days.from)), lt(audienceDaily.day, utcDay(days.to))));
    await tx.execute(sql`insert into ${audienceDaily} (grain, day, page, content_type, content_id, lang, source, device, campaign, views, visitors)
      ${rollupSelect(sql`${utc}::date`, days.from, days.to)}`);
  });
}

/** Deletes rows of `table` matching `where`, a bounded number at a time (each statement stays short), and counts them. */
async function deleteInBatches(db: Database, table: SQL, where: SQL, batch = 50_000): Promise<number> {
  let total = 0;
  for (;;) {
    const [{ n }] = rowsOf<{ n: number }>(
      await db.execute(sql`with gone as (delete from ${table} where ctid in (select ctid from ${table} where ${where} limit ${batch}) returning 1)
        select count(*)::int as n from gone`),
    );
    total += Number(n);
    if (Number(n) < batch) return total;
  }
}

/**
 * The daily job: raw rows older than ANALYTICS_RAW_DAYS, the dedupe of days before yesterday, hourly rows and
 * searches older than ANALYTICS_HOURLY_DAYS. The daily rows are kept for ever. Also empties content_views, the
 * dedupe of views before issue 45, which nothing writes any more.
 */
export async function pruneAudience(
  db: Database,
  now: Date = new Date(),
  { config = getConfig() }: { config?: Pick<Config, "ANALYTICS_RAW_DAYS" | "ANALYTICS_HOURLY_DAYS"> } = {},
): Promise<{ raw: number; seen: number; hourly: number; searches: number }> {
  const rawBefore = new Date(now.getTime() - config.ANALYTICS_RAW_DAYS * DAY);
  const hourlyBefore = new Date(now.getTime() - config.ANALYTICS_HOURLY_DAYS * DAY);
  // Today's and yesterday's keys: a beacon of a page loaded just before midnight may arrive after it.
  const seenBefore = utcDay(new Date(now.getTime() - DAY));
  const raw = await deleteInBatches(db, sql`${audienceViews}`, sql`at < ${rawBefore.toISOString()}`);
  const seen = await deleteInBatches(db, sql`${audienceSeen}`, sql`day < ${seenBefore}::date`);
  const hourly = await deleteInBatches(db, sql`${audienceHourly}`, sql`hour < ${hourlyBefore.toISOString()}`);
  const searches = await deleteInBatches(db, sql`${audienceSearches}`, sql`day < ${utcDay(hourlyBefore)}::date`);
  await db.delete(contentViews);
  return { raw, seen, hourly, searches };
}

/** For tests: what is buffered and not yet written. */
export const waitingAudienceEvents = () => waitingEvents;
