import { useTranslation } from "#app/lib/i18n.ts";
import type { Language } from "#domain/language.ts";
import { formatDate, hijriDate, isoDate, showsHijri } from "#domain/format.ts";

/**
 * A Hijri (Umm al-Qura) date, marked approximate: the calendar is computed, and the month a country's moon
 * sighting opens may start a day apart (docs/decisions/0148-hijri-dates-and-digits.md). Nothing when
 * DATE_CALENDARS leaves the Hijri calendar out.
 */
export function HijriDate({ value, lang, testId = "hijri-date" }: { value: Date | string | null | undefined; lang: Language; testId?: string }) {
  const { t } = useTranslation();
  const text = hijriDate(value, lang);
  if (!text) return null;
  return (
    <span data-testid={testId} className="whitespace-nowrap">
      <span className="sr-only">{t("calendarDates.hijri")}: </span>
      {text}{" "}
      <abbr title={t("calendarDates.approxTitle")} className="no-underline">
        ({t("calendarDates.approx")})
      </abbr>
    </span>
  );
}

/**
 * The header's quiet date line: today in Nouakchott, Gregorian then Hijri, shown only with DATE_CALENDARS=gregorian,hijri
 * (the default header is unchanged). Rendered by the server on reading pages, which do not hydrate; a cached page
 * is at most its freshness (PAGE_CACHE, CDN_MAX_AGE) behind midnight.
 */
export function DateLine({ lang }: { lang: Language }) {
  const { t } = useTranslation();
  if (!showsHijri()) return null;
  const now = new Date();
  return (
    <p className="mx-auto flex max-w-7xl flex-wrap gap-x-2 px-4 pt-1 text-xs leading-5 text-ink-soft" data-testid="date-line">
      <span className="sr-only">{t("calendarDates.today")}: </span>
      <time dateTime={isoDate(now)?.slice(0, 10)} className="whitespace-nowrap" data-testid="date-line-gregorian">
        {formatDate(now, lang, "weekdayLong")}
      </time>
      {/* The separator goes with the Hijri date: on a narrow line the two dates wrap, never leaving it at an end. */}
      <span className="whitespace-nowrap">
        <span aria-hidden="true">· </span>
        <HijriDate value={now} lang={lang} testId="date-line-hijri" />
      </span>
    </p>
  );
}
