/**
 * The schedule (issue 29, docs/decisions/0125-calendar.md): the scheduled and published items of every type
 * whose publish date falls in a range, in one query over the types' tables, and moving an item to another
 * time. A move is a save like any other — updateItem of the newsroom's data layer with `partial` and the
 * `updated_at` the calendar read — so it keeps a revision, re-arms scheduled publishing, invalidates the
 * type's cached reads, and refuses (409) an item someone saved since the calendar was drawn.
 *
 * Drafts are not on the calendar and are not moved: a draft has no time to move. A move stores status
 * "published" with the new time, so what the item is follows from the time alone: a time to come makes it
 * scheduled (it goes out then, by the timer of armScheduledPublishing), a time gone makes it published at
 * once. (The form's rule — status "scheduled" needs a time to come — is never in the way, and a time a few
 * seconds ahead cannot turn into a refusal while the request travels.)
 */
import { and, eq, gte, lt, sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";
import { definitionOf, editorStatusOf, publicUrl, type ContentType } from "#domain/content-types/index.ts";
import type { Language } from "#domain/language.ts";
import type { Database } from "#server/db/client.server.ts";
import { categories } from "#server/db/schema.server.ts";
import { arabic, ValidationError } from "#server/http/errors.server.ts";
import { getForStaff, type StaffItem } from "./newsroom/read.server.ts";
import { contentNotFound, updateItem, type Author } from "./newsroom/write.server.ts";
import { columnOf, tableOf } from "./registry.server.ts";

/** The most items one range answers; past it the answer says `truncated` (a busy newsroom's two months fit). */
export const CALENDAR_MAX_ITEMS = 2000;

export type CalendarItem = {
  type: ContentType;
  id: number;
  title: string;
  /** Drafts are never on the calendar. */
  status: "published" | "scheduled";
  publish_date: string;
  /** The version read: a move sends it back, and is refused (409) when someone saved since. */
  updated_at: string;
  /** The category's name in the language asked for (French for French and English), or null. */
  category_name: string | null;
  /** Where readers open it (once published), and where staff edit it. */
  url: string;
  edit_url: string;
};

export type CalendarQuery = {
  from: Date;
  to: Date;
  /** The types to show: those the signed-in account may write. */
  types: readonly ContentType[];
  lang?: Language;
  now?: Date;
};

/** Items of `types` whose publish date is in [from, to), not drafts, in time order (then the registry's order, then id). */
export async function listCalendarItems(db: Database, query: CalendarQuery): Promise<{ items: CalendarItem[]; truncated: boolean }> {
  const { from, to, types, lang = "ar", now = new Date() } = query;
  if (!types.length || !(from < to)) return { items: [], truncated: false };
  const branches = types.map((type, rank) => {
    const t = tableOf(type);
    const category = columnOf(type, "categoryId");
    const selection = {
      rank: sql<number>`${sql.raw(String(rank))}`.as("rank"),
      id: t.id,
      title: t.title,
      pageSlug: t.pageSlug,
      status: t.status,
      publishDate: t.publishDate,
      updatedAt: t.updatedAt,
      categoryName: (category ? sql<string | null>`${categories.name}` : sql<string | null>`null::text`).as("category_name"),
      categoryNameFr: (category ? sql<string | null>`${categories.nameFr}` : sql<string | null>`null::text`).as("category_name_fr"),
    };
    const base = db.select(selection).from(t).$dynamic();
    const joined = category ? base.leftJoin(categories, eq(category, categories.id)) : base;
    return joined.where(and(eq(t.status, "published"), gte(t.publishDate, from), lt(t.publishDate, to)));
  });
  const [first, ...rest] = branches;
  const union = rest.length ? (unionAll as unknown as (...q: (typeof first)[]) => typeof first)(first, ...rest) : first;
  const rows = await union.orderBy(sql`publish_date`, sql`rank`, sql`id`).limit(CALENDAR_MAX_ITEMS + 1);
  const items = rows.slice(0, CALENDAR_MAX_ITEMS).map((r): CalendarItem => {
    const type = types[Number(r.rank)];
    const publishDate = new Date(r.publishDate);
    return {
      type,
      id: r.id,
      title: r.title,
      status: editorStatusOf(r.status, publishDate, now) === "scheduled" ? "scheduled" : "published",
      publish_date: publishDate.toISOString(),
      updated_at: new Date(r.updatedAt).toISOString(),
      category_name: lang === "ar" ? r.categoryName : (r.categoryNameFr ?? r.categoryName),
      url: publicUrl(type, r.pageSlug, r.id),
      edit_url: `/admin/${definitionOf(type).segment}/${r.id}`,
    };
  });
  return { items, truncated: rows.length > CALENDAR_MAX_ITEMS };
}

export type Move = {
  /** The new time (an instant: the page turns the newsroom's wall time into one). */
  publishDate: Date;
  /** The `updated_at` the calendar showed; a save by anybody since then is a 409 conflict. */
  expectedUpdatedAt: string | null;
};

/** A draft, or a time that is not one: refused as the editor refuses it (422, newsroom.v.* / calendar.* keys). */
const refused = (key: string) => new ValidationError(arabic("newsroom.v.invalid"), { publish_date: key });

/**
 * Moves an item to another time through updateItem (partial, with the version read): returns the item as
 * saved. 404 for no such item, 422 for a draft or for an item the form would refuse as it stands, 409 when
 * someone saved it since `expectedUpdatedAt`.
 */
export async function moveItem(db: Database, type: ContentType, id: number, move: Move, author: Author): Promise<StaffItem> {
  if (Number.isNaN(move.publishDate.getTime())) throw refused("newsroom.v.publishDate");
  const current = await getForStaff(db, type, id);
  if (!current) throw contentNotFound();
  // A draft, or a story in review (decision 0138), has no time on the calendar: moving it would publish it.
  if (current.status !== "published" && current.status !== "scheduled") throw refused("calendar.draftNotMoved");
  return updateItem(db, type, id, { status: "published", publish_date: move.publishDate.toISOString() }, author, {
    partial: true,
    expectedUpdatedAt: move.expectedUpdatedAt,
  });
}
