/**
 * The archive by date (issue 42, docs/decisions/0144-archive-and-moved-addresses.md): `/archive/YYYY`,
 * `/archive/YYYY/MM` and `/archive/YYYY/MM/DD` list what was published in that year, month or day, as the newsroom's
 * calendar counts days (Nouakchott's, domain/calendar.ts), whatever zone the server runs in. Client-safe: the detail
 * page links its date to its day here.
 */
import { addDays, dayOf, isCalendarDay, NEWSROOM_TIME_ZONE, startOfDay } from "./calendar.ts";
import type { CursorShape } from "./listings.ts";
import { ALL_CONTENT_TYPES, type ContentType } from "./content-types/index.ts";

/** A year, a month of it or a day of that month. */
export type ArchivePeriod = { year: number; month?: number; day?: number };

/** The archive's first year: nothing older is a page (the site's demo goes back a few years at most). */
export const ARCHIVE_FIRST_YEAR = 1990;

/** Items an archive page shows. */
export const ARCHIVE_PAGE_SIZE = 30;

/** The types the archive lists: those with a page of their own to link to, in the definitions' order. */
export const ARCHIVE_TYPES: readonly ContentType[] = ALL_CONTENT_TYPES.filter((d) => d.detailPage).map((d) => d.type);

/** An archive page's cursor: the publish time, the type and the id of the row a page stops at. */
export const ARCHIVE_CURSOR: CursorShape = ["time", ARCHIVE_TYPES, "id"];

const pad = (n: number) => String(n).padStart(2, "0");
const YEAR = /^\d{4}$/;
const TWO = /^\d{2}$/;

/**
 * The period an address names (`year`, `month`, `day` as written in the path: 2025, 05, 03), or null when it is not
 * a real date from the archive's first year, or starts after `now` (the archive of the future is a 404, not an
 * empty page that a crawler would index without end).
 */
export function parseArchivePeriod(params: { year?: string; month?: string; day?: string }, now = new Date()): ArchivePeriod | null {
  const { year, month, day } = params;
  if (!year || !YEAR.test(year) || (month !== undefined && !TWO.test(month)) || (day !== undefined && !TWO.test(day))) return null;
  if (day !== undefined && month === undefined) return null;
  const period: ArchivePeriod = { year: Number(year), ...(month ? { month: Number(month) } : {}), ...(day ? { day: Number(day) } : {}) };
  if (period.year < ARCHIVE_FIRST_YEAR || !isCalendarDay(firstDayOf(period))) return null;
  if (startOfDay(firstDayOf(period)) > now) return null;
  return period;
}

/** `YYYY-MM-DD` of a period's first day. */
const firstDayOf = ({ year, month = 1, day = 1 }: ArchivePeriod): string => `${String(year).padStart(4, "0")}-${pad(month)}-${pad(day)}`;

/** The first instant of the period and the first instant after it, in the newsroom's time zone. */
export function periodRange(period: ArchivePeriod, timeZone = NEWSROOM_TIME_ZONE): { from: Date; to: Date } {
  const first = firstDayOf(period);
  const next =
    period.day !== undefined
      ? addDays(first, 1)
      : period.month !== undefined
        ? period.month === 12
          ? `${period.year + 1}-01-01`
          : `${period.year}-${pad(period.month + 1)}-01`
        : `${period.year + 1}-01-01`;
  return { from: startOfDay(first, timeZone), to: startOfDay(next, timeZone) };
}

/** The period's address, language-neutral (`/archive/2025/05/03`). */
export function archivePath({ year, month, day }: ArchivePeriod): string {
  return `/archive/${year}${month ? `/${pad(month)}` : ""}${month && day ? `/${pad(day)}` : ""}`;
}

/** The archive page of the day an instant falls on (a detail page's publish date), in the newsroom's time zone. */
export function archiveDayPath(instant: Date | string): string {
  const [year, month, day] = dayOf(new Date(instant)).split("-").map(Number);
  return archivePath({ year, month, day });
}

/** The period one level up (a day's month, a month's year), or null for a year. */
export function parentPeriod({ year, month, day }: ArchivePeriod): ArchivePeriod | null {
  if (day !== undefined) return { year, month };
  if (month !== undefined) return { year };
  return null;
}

/** What a period's counts are of: a year's months, a month's days; a day has none. */
export const countUnitOf = (period: ArchivePeriod): "month" | "day" | null => (period.day !== undefined ? null : period.month !== undefined ? "day" : "month");
