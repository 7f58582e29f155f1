import type { Language } from "./language.ts";

/**
 * The one date formatter. Arabic follows the spec's Saudi conventions but with the Gregorian calendar and
 * Latin digits, as the Mauritanian press writes dates (ar-SA alone would give Hijri dates); French uses
 * fr-FR. See docs/decisions/0004-dates.md.
 */
const LOCALES: Record<Language, string> = { ar: "ar-SA-u-ca-gregory-nu-latn", fr: "fr-FR", en: "en-GB" };
const formatters = new Map<string, Intl.DateTimeFormat>();
// Formatting is costly in some ICU builds and pages show the same days over and over.
const formatted = new Map<string, string>();

export type DateStyle = "long" | "short" | "dateTime" | "month";

export function formatDate(value: Date | string | number | null | undefined, lang: Language, style: DateStyle = "long"): string {
  if (value === null || value === undefined || value === "") return "";
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  const key = `${lang}:${style}`;
  const memoKey = style === "dateTime" ? "" : `${key}:${date.toISOString().slice(0, 10)}`;
  const memo = memoKey && formatted.get(memoKey);
  if (memo) return memo;
  let f = formatters.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      style === "month"
        ? { month: "long", year: "numeric", timeZone: "UTC" }
        : style === "short"
          ? { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }
          : style === "dateTime"
            ? { day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "Africa/Nouakchott" }
            : { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" };
    f = new Intl.DateTimeFormat(LOCALES[lang], options);
    formatters.set(key, f);
  }
  const text = f.format(date);
  if (memoKey) {
    if (formatted.size > 5000) formatted.clear();
    formatted.set(memoKey, text);
  }
  return text;
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

/** Durations as minutes:seconds (spec §9). */
export function formatDuration(totalSeconds: number | null | undefined): string {
  if (!totalSeconds || totalSeconds < 0 || !Number.isFinite(totalSeconds)) return "0:00";
  const s = Math.round(totalSeconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
