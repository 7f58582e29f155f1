import { dateLocale } from "./format.ts";
import type { Language } from "./language.ts";

/**
 * The newsroom's calendar in its own time (issue 29, docs/decisions/0125-calendar.md): the days and weeks of
 * Nouakchott, whatever zone the server or the browser runs in. Every conversion goes through Intl with
 * `timeZone`, never through the process's own zone, so a server set to Europe/Paris or a laptop in Montreal
 * draws the same days. Mauritania keeps no daylight saving today (UTC+0 all year); nothing here relies on it.
 *
 * A calendar day is written `YYYY-MM-DD` (the URL's `date`), a wall time `YYYY-MM-DDTHH:mm` (the date-time
 * control's value). The week starts on Monday: Mauritania's working week runs Monday to Friday since the
 * weekend moved to Saturday and Sunday (2014), and that is the week a Nouakchott desk plans.
 */

/** The newsroom's time zone: the calendar's days and hours, and the times the dialog shows and reads. */
export const NEWSROOM_TIME_ZONE = "Africa/Nouakchott";

/** The first day of the calendar's week, as Date#getUTCDay numbers it (0 Sunday … 6 Saturday): Monday. */
export const WEEK_STARTS_ON = 1;

export const CALENDAR_VIEWS = ["week", "day"] as const;
export type CalendarView = (typeof CALENDAR_VIEWS)[number];

/** The longest range the JSON API answers (two months and a bit: a month view of any month fits). */
export const CALENDAR_MAX_RANGE_DAYS = 62;

const DAY_MS = 24 * 60 * 60 * 1000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const WALL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

export const isCalendarView = (value: unknown): value is CalendarView => (CALENDAR_VIEWS as readonly unknown[]).includes(value);

/** Whether `value` is a real calendar day written `YYYY-MM-DD` (no 2026-02-30). */
export function isCalendarDay(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const m = DAY.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

type WallParts = { year: number; month: number; day: number; hour: number; minute: number; second: number };

/** The wall clock of `timeZone` at `instant`. */
function wallOf(instant: Date, timeZone: string): WallParts {
  const parts: Record<string, number> = {};
  for (const p of partsFormatter(timeZone).formatToParts(instant)) if (p.type !== "literal") parts[p.type] = Number(p.value);
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour % 24, minute: parts.minute, second: parts.second };
}

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in milliseconds. */
export function zoneOffsetMs(instant: Date, timeZone = NEWSROOM_TIME_ZONE): number {
  const w = wallOf(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

const pad = (n: number, size = 2) => String(n).padStart(size, "0");

/** The calendar day `instant` falls on in `timeZone`. */
export function dayOf(instant: Date, timeZone = NEWSROOM_TIME_ZONE): string {
  const w = wallOf(instant, timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

/** The hour (0–23) of `instant` in `timeZone`. */
export function hourOf(instant: Date, timeZone = NEWSROOM_TIME_ZONE): number {
  return wallOf(instant, timeZone).hour;
}

/** `HH:mm` of `instant` in `timeZone`. */
export function timeOf(instant: Date, timeZone = NEWSROOM_TIME_ZONE): string {
  const w = wallOf(instant, timeZone);
  return `${pad(w.hour)}:${pad(w.minute)}`;
}

/** The date-time control's value (`YYYY-MM-DDTHH:mm`) for `instant` in `timeZone`. */
export function wallTimeOf(instant: Date, timeZone = NEWSROOM_TIME_ZONE): string {
  return `${dayOf(instant, timeZone)}T${timeOf(instant, timeZone)}`;
}

/**
 * The instant a wall time of `timeZone` stands for (`YYYY-MM-DD`, `YYYY-MM-DDTHH:mm` or with seconds), or null
 * when it is not one. A time skipped by a clock change counts from the offset before it.
 */
export function instantOf(wall: string, timeZone = NEWSROOM_TIME_ZONE): Date | null {
  const text = DAY.test(wall) ? `${wall}T00:00` : wall;
  const m = WALL.exec(text);
  if (!m || !isCalendarDay(text.slice(0, 10))) return null;
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return null;
  const asUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), hour, minute, second);
  // The offset at the guess, then at the instant it gives: right on both sides of a clock change.
  const guess = asUtc - zoneOffsetMs(new Date(asUtc), timeZone);
  return new Date(asUtc - zoneOffsetMs(new Date(guess), timeZone));
}

/** The first instant of a calendar day in `timeZone`. */
export function startOfDay(day: string, timeZone = NEWSROOM_TIME_ZONE): Date {
  const at = instantOf(day, timeZone);
  if (!at) throw new RangeError(`not a calendar day: ${day}`);
  return at;
}

/** The calendar day `n` days after `day` (before, when negative). */
export function addDays(day: string, n: number): string {
  const m = DAY.exec(day);
  if (!m) throw new RangeError(`not a calendar day: ${day}`);
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) + n * DAY_MS);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** The day of the week of a calendar day, as Date#getUTCDay numbers it (0 Sunday … 6 Saturday). */
export const weekdayOf = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay();

/** The first day (Monday) of the week `day` is in. */
export function weekStartOf(day: string): string {
  return addDays(day, -((weekdayOf(day) - WEEK_STARTS_ON + 7) % 7));
}

/** What a view of the calendar shows: its days, and the instants from the first one's start to the next day's. */
export function calendarRange(view: CalendarView, day: string, timeZone = NEWSROOM_TIME_ZONE): { days: string[]; from: Date; to: Date } {
  const first = view === "week" ? weekStartOf(day) : day;
  const count = view === "week" ? 7 : 1;
  const days = Array.from({ length: count }, (_, i) => addDays(first, i));
  return { days, from: startOfDay(first, timeZone), to: startOfDay(addDays(first, count), timeZone) };
}

/** The day before and after the view's (a week's: the same weekday a week away). */
export function neighbours(view: CalendarView, day: string): { previous: string; next: string } {
  const step = view === "week" ? 7 : 1;
  return { previous: addDays(view === "week" ? weekStartOf(day) : day, -step), next: addDays(view === "week" ? weekStartOf(day) : day, step) };
}

/** The calendar page's address of a view (`?view=week|day&date=YYYY-MM-DD`). */
export function calendarHref(view: CalendarView, day: string): string {
  return `/admin/calendar?view=${view}&date=${day}`;
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/** A calendar day's name in `lang`: its weekday alone ("الاثنين"), with the date ("lundi 23 novembre"), the date with the year, or all of them. */
export function formatCalendarDay(day: string, lang: string, style: "weekday" | "weekdayDate" | "date" | "full" = "weekdayDate"): string {
  // The digits are part of the key: the locale of domain/format.ts carries DIGITS (docs/decisions/0148-hijri-dates-and-digits.md).
  const locale = dateLocale(lang as Language);
  const key = `${locale}:${style}`;
  let f = dayFormatters.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      style === "weekday"
        ? { weekday: "long", timeZone: "UTC" }
        : style === "weekdayDate"
          ? { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" }
          : style === "full"
            ? { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }
            : { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" };
    f = new Intl.DateTimeFormat(locale, options);
    dayFormatters.set(key, f);
  }
  // A calendar day names no instant: it is formatted as the UTC day of the same date.
  return f.format(new Date(`${day}T00:00:00Z`));
}
