/**
 * What readers' pages and answers read of a live coverage (issue 44, docs/decisions/0146-live-coverage.md): the
 * published coverage a reader's address names, the live part of its detail page (DetailPage.live), an entry's own
 * page, and the last-modified time the sitemap gives a coverage whose entries move. Every read goes through the
 * read cache: the coverage under "coverage" and "live" (a start or an end invalidates both), its entries under
 * "entries" (each entry written invalidates it), so an answer's surrogate keys name exactly what it shows.
 */
import { and, eq, sql, type SQL } from "drizzle-orm";
import { publicUrl } from "#domain/content-types/index.ts";
import type { DetailPage, LivePageData } from "#domain/detail-view.ts";
import { parseItemKey } from "#domain/item-key.ts";
import { LIVE_KEY_EVENTS_SHOWN, LIVE_PAGE_SIZE, type LiveEntry, type LiveState } from "#domain/live.ts";
import type { Database } from "#server/db/client.server.ts";
import { coverageEntries, coverages } from "#server/db/schema.server.ts";
import { getConfig } from "#server/config.server.ts";
import { notFound } from "#server/http/responses.server.ts";
import { markDegraded } from "#server/http/render-scope.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { cached } from "../cache.server.ts";
import { isPublished } from "../published.server.ts";
import { outerColumn } from "../published-items.server.ts";
import type { TypeHooks } from "../types/hooks.server.ts";
import { findEntry, keyEventsOf, listEntries } from "./entries.server.ts";

/** A published coverage that has been live, as the reader's JSON, stream and entry pages need it. */
export type LiveCoverage = {
  id: number;
  title: string;
  titleFr: string | null;
  /** Its public path (language-neutral). */
  url: string;
  imageUrl: string | null;
  state: LiveState;
};

const isoOrNull = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/**
 * The published coverage a reader's address names by its slug, when it has ever been live; null otherwise (a
 * draft's entries are nobody's yet, and a coverage never live has no entries to read).
 */
export function publishedLiveCoverage(db: Database, slug: string | undefined): Promise<LiveCoverage | null> {
  const key = parseItemKey(slug);
  if (!key || !("slug" in key)) return Promise.resolve(null);
  return cached(`live:coverage:${key.slug}`, ["coverage", "live"], async () => {
    const [row] = await db
      .select({
        id: coverages.id,
        title: coverages.title,
        titleFr: coverages.titleFr,
        pageSlug: coverages.pageSlug,
        imageUrl: coverages.imageUrl,
        startedAt: coverages.liveStartedAt,
        endedAt: coverages.liveEndedAt,
      })
      .from(coverages)
      .where(isPublished(coverages, eq(coverages.pageSlug, key.slug)))
      .limit(1);
    if (!row?.startedAt) return null;
    return {
      id: row.id,
      title: row.title,
      titleFr: row.titleFr,
      url: publicUrl("coverage", row.pageSlug),
      imageUrl: row.imageUrl,
      state: { started_at: isoOrNull(row.startedAt), ended_at: isoOrNull(row.endedAt) },
    };
  });
}

/** A coverage's live state by its id (the detail page knows the item), cached with the coverage. */
function liveStateById(db: Database, id: number): Promise<LiveState | null> {
  return cached(`live:state:${id}`, ["coverage", "live"], async () => {
    const [row] = await db.select({ startedAt: coverages.liveStartedAt, endedAt: coverages.liveEndedAt }).from(coverages).where(eq(coverages.id, id)).limit(1);
    return row ? { started_at: isoOrNull(row.startedAt), ended_at: isoOrNull(row.endedAt) } : null;
  });
}

/** The newest entries of a coverage (newest first), or those older than `before`, with the latest change's version. */
export function entriesPage(db: Database, coverageId: number, before?: number) {
  return cached(`live:page:${coverageId}:${before ?? ""}`, ["entries"], async () => {
    // One more than a page: whether there are older ones to link to.
    const { entries, cursor } = await listEntries(db, coverageId, { limit: LIVE_PAGE_SIZE + 1, before });
    return { entries, cursor };
  });
}

/** The coverage's pinned entry (at most one), shown first whatever its age. */
function pinnedEntryOf(db: Database, coverageId: number): Promise<LiveEntry | null> {
  return cached(`live:pinned:${coverageId}`, ["entries"], async () => {
    const [row] = await db
      .select({ id: coverageEntries.id })
      .from(coverageEntries)
      .where(and(eq(coverageEntries.coverageId, coverageId), eq(coverageEntries.pinned, true), sql`${coverageEntries.deletedAt} is null`))
      .limit(1);
    return row ? findEntry(db, coverageId, row.id) : null;
  });
}

/** A `?before=<id>` of the page's address: an entry id, else nothing (the newest entries). */
export function beforeParam(searchParams: URLSearchParams | undefined): number | undefined {
  const value = searchParams?.get("before");
  return value && /^\d{1,15}$/.test(value) && Number(value) > 0 ? Number(value) : undefined;
}

/**
 * The live part of a coverage's detail page (DetailPage.live), or undefined for a coverage never live: its state,
 * the newest entries (or those before `?before=`) without the pinned one, the pinned entry, the key events, the
 * cursor the page's script resumes after, and where the script reads from.
 */
export async function loadLivePage(
  db: Database,
  page: Pick<DetailPage, "item" | "url">,
  { searchParams, pollMs }: { searchParams?: URLSearchParams; pollMs: number },
): Promise<LivePageData | undefined> {
  const id = page.item.id;
  const state = await liveStateById(db, id);
  if (!state?.started_at) return undefined;
  const before = beforeParam(searchParams);
  const [newest, older, pinned, keyEvents] = await Promise.all([
    entriesPage(db, id),
    before ? entriesPage(db, id, before) : undefined,
    pinnedEntryOf(db, id),
    cached(`live:key:${id}`, ["entries"], () => keyEventsOf(db, id, LIVE_KEY_EVENTS_SHOWN)),
  ]);
  const shown = (older ?? newest).entries;
  const more = shown.length > LIVE_PAGE_SIZE;
  const entries = shown.slice(0, LIVE_PAGE_SIZE);
  return {
    state,
    live: state.ended_at === null,
    entries: entries.filter((e) => !e.pinned),
    pinned,
    keyEvents,
    // The newest page's cursor, on an older page too: the script follows the changes after the latest.
    cursor: newest.cursor,
    olderBefore: more ? entries[entries.length - 1].id : null,
    streamPath: `${page.url}/stream`,
    entriesPath: `${page.url}/entries`,
    pollMs,
  };
}

/** An entry's own page (`/coverage/<slug>/entries/<id>`): its coverage and the entry, or a 404. */
export async function loadEntryPage(
  db: Database,
  slug: string | undefined,
  entryId: string | number | undefined,
): Promise<{ coverage: Pick<LiveCoverage, "id" | "title" | "titleFr" | "url" | "imageUrl" | "state">; entry: LiveEntry }> {
  const id = typeof entryId === "number" ? entryId : /^\d{1,15}$/.test(entryId ?? "") ? Number(entryId) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) notFound();
  const coverage = await publishedLiveCoverage(db, slug);
  if (!coverage) notFound();
  const entry = await cached(`live:entry:${coverage.id}:${id}`, ["entries"], () => findEntry(db, coverage.id, id));
  if (!entry) notFound();
  const { id: coverageId, title, titleFr, url, imageUrl, state } = coverage;
  return { coverage: { id: coverageId, title, titleFr, url, imageUrl, state }, entry };
}

/**
 * A coverage's last modification for the sitemap: its own edit, or its latest entry's post, edit or deletion,
 * whichever came last (an entry never touches the coverage's row: its updated_at is the editor's save check).
 */
export function coverageLastModified(): SQL<Date> {
  const e = coverageEntries;
  return sql<Date>`greatest(${outerColumn(coverages.updatedAt)}, (select max(greatest(${e.createdAt}, ${e.editedAt}, ${e.deletedAt})) from ${e} where ${e.coverageId} = ${outerColumn(coverages.id)}))`.mapWith(
    coverages.updatedAt,
  );
}

/**
 * The coverage type's hooks for live coverage (server/content/types/coverage.server.ts spreads them): the live part
 * of its detail page, and its sitemap's last modification. A failed read of the entries leaves the page as the
 * coverage's article (degraded: never kept, the next reader tries again) rather than failing it.
 */
export const liveCoverageHooks = {
  detailExtras: async (db, page, { searchParams }) => {
    try {
      const live = await loadLivePage(db, page, { searchParams, pollMs: getConfig().LIVE_POLL_MS });
      return live ? { live } : {};
    } catch (error) {
      logger.warn({ err: error, coverageId: page.item.id }, "live entries failed");
      markDegraded();
      return {};
    }
  },
  lastModified: coverageLastModified,
} satisfies Pick<TypeHooks, "detailExtras" | "lastModified">;
