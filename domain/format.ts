import type { Language } from "./language.ts";

/**
 * The one formatter of dates and numbers, on the server and in the browser alike (docs/decisions/0004-dates.md,
 * 0148-hijri-dates-and-digits.md). Arabic follows the spec's Saudi conventions but with the Gregorian calendar, as
 * the Mauritanian press writes dates (ar-SA alone would give Hijri dates); French uses fr-FR, English en-GB.
 *
 * Two operator settings shape it (DATE_CALENDARS, DIGITS of server/config.server.ts): whether the Hijri date
 * (Umm al-Qura) is shown beside the Gregorian one, and whether Arabic is written with Latin digits, as the Maghreb
 * does, or Arabic-Indic ones (٠–٩), as the Gulf does. French and English keep Latin digits whatever the setting,
 * and machine-readable values (dateTime attributes, JSON, URLs, structured data) never come through here.
 * The server adopts the settings when it reads its configuration; the browser from the root loader's public
 * configuration before anything renders, so both write the same text and hydration finds no difference.
 */
export const DIGIT_SYSTEMS = ["latn", "arab"] as const;
export type Digits = (typeof DIGIT_SYSTEMS)[number];
export const CALENDAR_NAMES = ["gregorian", "hijri"] as const;
export type CalendarName = (typeof CALENDAR_NAMES)[number];
export type FormatSettings = { digits: Digits; calendars: readonly CalendarName[] };

export const DEFAULT_FORMAT_SETTINGS: FormatSettings = Object.freeze({ digits: "latn", calendars: Object.freeze(["gregorian"] as const) });

let settings: FormatSettings = DEFAULT_FORMAT_SETTINGS;

const formatters = new Map<string, Intl.DateTimeFormat>();
const numbers = new Map<string, Intl.NumberFormat>();
const lists = new Map<Language, Intl.ListFormat>();
// Formatting is costly in some ICU builds and pages show the same days over and over.
const formatted = new Map<string, string>();

/** Adopts the operator's settings (the same on every request: they are read once, at start). */
export function configureFormat(next: FormatSettings): void {
  if (next.digits === settings.digits && next.calendars.join() === settings.calendars.join()) return;
  settings = { digits: next.digits, calendars: [...next.calendars] };
  formatters.clear();
  numbers.clear();
  formatted.clear();
}

export const formatSettings = (): FormatSettings => settings;

/** Whether the Hijri date is shown beside the Gregorian one (DATE_CALENDARS=gregorian,hijri). */
export const showsHijri = (): boolean => settings.calendars.includes("hijri");

/** The digits `lang` is written with: the setting's in Arabic, Latin in French and English. */
export const digitsOf = (lang: Language): Digits => (lang === "ar" ? settings.digits : "latn");

const BASE_LOCALES: Record<Language, string> = { ar: "ar-SA", fr: "fr-FR", en: "en-GB" };

/**
 * The BCP 47 locale dates of `lang` are written in, for code that needs Intl options of its own (the newsroom's
 * calendar, a page's script): Gregorian unless `calendar` says Umm al-Qura, and the setting's digits.
 */
export function dateLocale(lang: Language, calendar: "gregory" | "islamic-umalqura" = "gregory"): string {
  return `${BASE_LOCALES[lang] ?? BASE_LOCALES.ar}-u-ca-${calendar}-nu-${digitsOf(lang)}`;
}

/** The locale numbers of `lang` are written in, grouped by the language's custom (1,234 in Arabic, 1 234 in French). */
export const numberLocale = (lang: Language): string => `${BASE_LOCALES[lang] ?? BASE_LOCALES.ar}-u-nu-${digitsOf(lang)}`;

/** A number written the site's way (at most one decimal). */
export function formatNumber(lang: Language, value: number): string {
  const key = `${lang}:${digitsOf(lang)}`;
  let f = numbers.get(key);
  if (!f) numbers.set(key, (f = new Intl.NumberFormat(numberLocale(lang), { maximumFractionDigits: 1 })));
  return f.format(value);
}

/**
 * `text` with its Latin digits written in `lang`'s digits: for numbers already laid out as text (a duration's
 * "2:05", a time typed by the newsroom). Nothing changes unless Arabic is set to Arabic-Indic digits.
 */
export function localizeDigits(text: string, lang: Language): string {
  return digitsOf(lang) === "arab" ? text.replace(/[0-9]/g, (d) => String.fromCharCode(0x0660 + Number(d))) : text;
}

export type DateStyle = "long" | "short" | "dateTime" | "month" | "weekdayLong" | "hijri";

function optionsOf(style: DateStyle): Intl.DateTimeFormatOptions {
  switch (style) {
    case "month":
      return { month: "long", year: "numeric", timeZone: "UTC" };
    case "short":
      return { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" };
    case "dateTime":
      // One 24-hour clock in every language (issue 46): Arabic and English would otherwise say 12-hour «م»/PM
      // beside the newsroom's 24-hour times (item locks, the calendar).
      return { day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "Africa/Nouakchott" };
    case "weekdayLong":
      return { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "Africa/Nouakchott" };
    case "hijri":
      // The day as Nouakchott counts it: its Hijri day is the one of that civil day (the Hijri day's own start at
      // sunset is left out, as the Saudi calendar and every Arabic news site's date line leave it out).
      return { day: "numeric", month: "long", year: "numeric", timeZone: "Africa/Nouakchott" };
    default:
      return { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" };
  }
}

/**
 * A date in `lang`: "5 مارس 2026", "5 mars 2026"; `weekdayLong` names the day too (the header's date line);
 * `hijri` is the Umm al-Qura date ("16 رمضان 1447 هـ", "16 ramadan 1447 AH"), whatever DATE_CALENDARS says:
 * whether to show it is the caller's to ask (showsHijri).
 */
export function formatDate(value: Date | string | number | null | undefined, lang: Language, style: DateStyle = "long"): string {
  if (value === null || value === undefined || value === "") return "";
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  const key = `${lang}:${style}`;
  const memoKey = style === "dateTime" || style === "weekdayLong" || style === "hijri" ? "" : `${key}:${date.toISOString().slice(0, 10)}`;
  const memo = memoKey && formatted.get(memoKey);
  if (memo) return memo;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(dateLocale(lang, style === "hijri" ? "islamic-umalqura" : "gregory"), optionsOf(style));
    formatters.set(key, f);
  }
  const text = f.format(date);
  if (memoKey) {
    if (formatted.size > 5000) formatted.clear();
    formatted.set(memoKey, text);
  }
  return text;
}

/** The Hijri (Umm al-Qura) date of `value` in `lang`, or "" when DATE_CALENDARS leaves it out. */
export const hijriDate = (value: Date | string | number | null | undefined, lang: Language): string => (showsHijri() ? formatDate(value, lang, "hijri") : "");

/** Names joined as the language joins them: «سلمى وأحمد», «Salma et Ahmed» (the Arabic comma is not French punctuation). */
export function formatList(items: readonly string[], lang: Language): string {
  if (items.length < 2) return items[0] ?? "";
  try {
    let f = lists.get(lang);
    if (!f) lists.set(lang, (f = new Intl.ListFormat(BASE_LOCALES[lang] ?? lang, { type: "conjunction" })));
    return f.format(items);
  } catch {
    return items.join(lang === "ar" ? "، " : ", ");
  }
}

/** ISO 8601 for <time dateTime> and structured data. */
export const isoDate = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : undefined);

/**
 * Cuts text to at most `max` characters on a word boundary and adds an ellipsis (public-site.md §9:
 * 120 on home, culture, literature and emirates; 150 on opinion; 100 for media descriptions).
 */
export function excerpt(text: string | null | undefined, max: number): string {
  if (!text) return "";
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max);
  const lastSpace = cut.lastIndexOf(" ");
  const base = lastSpace > max * 0.6 ? cut.slice(0, lastSpace) : cut;
  return `${base.replace(/[\s،,.;:!?؛-]+$/u, "")}…`;
}

/** Durations as minutes:seconds (spec §9), in `lang`'s digits when a language is given. */
export function formatDuration(totalSeconds: number | null | undefined, lang?: Language): string {
  const s = !totalSeconds || totalSeconds < 0 || !Number.isFinite(totalSeconds) ? 0 : Math.round(totalSeconds);
  const text = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  return lang ? localizeDigits(text, lang) : text;
}
