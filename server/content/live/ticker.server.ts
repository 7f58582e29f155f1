/**
 * The ticker under every page's header (issue 44): the coverages live now, then the breaking items of the last
 * TICKER_BREAKING_HOURS (published, and marked urgent or in the breaking category: what sends a push alert,
 * server/push/alerts.server.ts), at most TICKER_MAX_ITEMS. One read for every page in every language, cached under the
 * "live" tag alone: a start or an end, or a save of a breaking item, invalidates it (and, through the surrogate key
 * every page then carries, purges the site); nothing else that is saved touches the pages for it.
 */
import { and, desc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import { ALL_CONTENT_TYPES, publicUrl, type ContentType } from "#domain/content-types/index.ts";
import { localizedPath } from "#domain/addresses.ts";
import type { Language } from "#domain/language.ts";
import { localized } from "#domain/localized.ts";
import { TICKER_BREAKING_HOURS, TICKER_MAX_ITEMS, type TickerItem } from "#domain/live.ts";
import type { Database } from "#server/db/client.server.ts";
import { categories, coverages } from "#server/db/schema.server.ts";
import { BREAKING_CATEGORY } from "#server/push/alerts.server.ts";
import { cached } from "../cache.server.ts";
import { isPublished } from "../published.server.ts";
import { recentPublished } from "../published-items.server.ts";
import { columnOf } from "../registry.server.ts";

/** An item of the ticker before its language is chosen. */
type Row = { kind: TickerItem["kind"]; type: ContentType; id: number; slug: string; title: string; titleFr: string | null };

/** The types an item can be breaking in: those with a page of their own and an urgent flag or a category. */
const breakingTypes = (): ContentType[] =>
  ALL_CONTENT_TYPES.filter((d) => d.detailPage && (columnOf(d.type, "urgent") || columnOf(d.type, "categoryId"))).map((d) => d.type);

/** A type's "breaking" condition: marked urgent, or in the breaking category. */
function breakingOf(type: ContentType): SQL | undefined {
  const urgent = columnOf(type, "urgent");
  const category = columnOf(type, "categoryId");
  const inBreaking = category && inArray(category, sql`(select ${categories.id} from ${categories} where ${categories.slug} = ${BREAKING_CATEGORY})`);
  return or(urgent ? eq(urgent, true) : undefined, inBreaking || undefined);
}

/** The ticker's rows, newest first in each kind: the live coverages, then the breaking items (a live one only once). */
async function tickerRows(db: Database, now: Date): Promise<Row[]> {
  const live = await db
    .select({ id: coverages.id, slug: coverages.pageSlug, title: coverages.title, titleFr: coverages.titleFr })
    .from(coverages)
    .where(isPublished(coverages, and(isNotNull(coverages.liveStartedAt), isNull(coverages.liveEndedAt))))
    .orderBy(desc(coverages.liveStartedAt), desc(coverages.id))
    .limit(TICKER_MAX_ITEMS);
  const rows: Row[] = live.map((r) => ({ kind: "live", type: "coverage", ...r }));
  if (rows.length >= TICKER_MAX_ITEMS) return rows;
  const types = breakingTypes();
  const since = new Date(now.getTime() - TICKER_BREAKING_HOURS * 3_600_000);
  const breaking = await recentPublished(db, { types, since, where: breakingOf })
    .orderBy(sql`publish_date desc`, sql`id desc`)
    .limit(TICKER_MAX_ITEMS * 2);
  const liveIds = new Set(live.map((r) => r.id));
  for (const r of breaking) {
    const type = types[Number(r.rank)];
    if (type === "coverage" && liveIds.has(r.id)) continue;
    rows.push({ kind: "breaking", type, id: r.id, slug: r.slug, title: r.title, titleFr: r.titleFr });
  }
  return rows.slice(0, TICKER_MAX_ITEMS);
}

/**
 * The ticker's items in a page's language: titles in it (the Arabic one where there is no French), addresses
 * in it. Cached a minute at most, so that a breaking item leaves the ticker about when its hours are over.
 */
export async function tickerItems(db: Database, lang: Language, now: () => Date = () => new Date()): Promise<TickerItem[]> {
  const rows = await cached("live:ticker", ["live"], () => tickerRows(db, now()));
  return rows.map((r) => ({
    kind: r.kind,
    title: localized(lang, r.title, r.titleFr) ?? r.title,
    url: localizedPath(lang, publicUrl(r.type, r.slug, r.id)),
  }));
}
