import { afterEach, describe, expect, it } from "vitest";
import {
  configureFormat,
  dateLocale,
  DEFAULT_FORMAT_SETTINGS,
  digitsOf,
  excerpt,
  formatDate,
  formatDuration,
  formatNumber,
  hijriDate,
  localizeDigits,
  numberLocale,
  showsHijri,
} from "./format.ts";
import { formatCount } from "./plural.ts";
import { formatCalendarDay } from "./calendar.ts";
import { formatBytes } from "./library.ts";

const HIJRI = { digits: "latn", calendars: ["gregorian", "hijri"] } as const;
const ARAB = { digits: "arab", calendars: ["gregorian", "hijri"] } as const;

afterEach(() => configureFormat(DEFAULT_FORMAT_SETTINGS));

describe("format", () => {
  it("formats dates in Arabic (Gregorian, Latin digits) and French", () => {
    const d = new Date("2026-03-05T10:00:00Z");
    expect(formatDate(d, "ar")).toBe("5 مارس 2026");
    expect(formatDate(d, "fr")).toBe("5 mars 2026");
    expect(formatDate(d, "en")).toBe("5 March 2026");
    expect(formatDate(null, "ar")).toBe("");
    expect(formatDate("not a date", "ar")).toBe("");
  });

  it("cuts excerpts on a word boundary with an ellipsis", () => {
    const text = "كلمة ".repeat(40);
    const cut = excerpt(text, 120);
    expect(cut.length).toBeLessThanOrEqual(121);
    expect(cut.endsWith("…")).toBe(true);
    expect(cut).not.toMatch(/\s…$/);
    expect(excerpt("قصير", 120)).toBe("قصير");
    expect(excerpt(null, 120)).toBe("");
  });

  it("shows durations as minutes:seconds", () => {
    expect(formatDuration(125)).toBe("2:05");
    expect(formatDuration(0)).toBe("0:00");
    expect(formatDuration(3600)).toBe("60:00");
    expect(formatDuration(125, "ar")).toBe("2:05");
  });
});

describe("the Hijri calendar (DATE_CALENDARS)", () => {
  it("is left out by default", () => {
    expect(showsHijri()).toBe(false);
    expect(hijriDate("2026-02-18T12:00:00Z", "ar")).toBe("");
  });

  // Umm al-Qura's published dates: Ramadan, Eid al-Fitr and Eid al-Adha of 1446 and 1447.
  const KNOWN: [string, string, string, string][] = [
    ["2025-03-01", "1 رمضان 1446 هـ", "1 ramadan 1446 AH", "1 Ramadan 1446 AH"],
    ["2025-03-30", "1 شوال 1446 هـ", "1 chawwal 1446 AH", "1 Shawwal 1446 AH"],
    ["2025-06-06", "10 ذو الحجة 1446 هـ", "10 dhou al-hijja 1446 AH", "10 Dhuʻl-Hijjah 1446 AH"],
    ["2026-02-18", "1 رمضان 1447 هـ", "1 ramadan 1447 AH", "1 Ramadan 1447 AH"],
    ["2026-03-20", "1 شوال 1447 هـ", "1 chawwal 1447 AH", "1 Shawwal 1447 AH"],
    ["2026-05-27", "10 ذو الحجة 1447 هـ", "10 dhou al-hijja 1447 AH", "10 Dhuʻl-Hijjah 1447 AH"],
  ];

  it.each(KNOWN)("dates %s as Umm al-Qura does, in Arabic, French and English", (day, ar, fr, en) => {
    configureFormat(HIJRI);
    expect(showsHijri()).toBe(true);
    // Midday and the last minute of the day in Nouakchott: the same Hijri day (no change at sunset).
    for (const time of ["T12:00:00Z", "T23:59:00Z"]) {
      expect(hijriDate(`${day}${time}`, "ar")).toBe(ar);
      expect(hijriDate(`${day}${time}`, "fr")).toBe(fr);
      expect(hijriDate(`${day}${time}`, "en")).toBe(en);
    }
  });

  it("writes the Hijri date with Arabic-Indic digits in Arabic only, when DIGITS=arab", () => {
    configureFormat(ARAB);
    expect(hijriDate("2026-02-18T08:00:00Z", "ar")).toBe("١ رمضان ١٤٤٧ هـ");
    expect(hijriDate("2026-02-18T08:00:00Z", "fr")).toBe("1 ramadan 1447 AH");
    expect(hijriDate("2026-02-18T08:00:00Z", "en")).toBe("1 Ramadan 1447 AH");
  });

  it("keeps the Gregorian date as it was beside it", () => {
    configureFormat(HIJRI);
    expect(formatDate("2026-03-20T10:00:00Z", "ar")).toBe("20 مارس 2026");
    expect(formatDate("2026-03-20T10:00:00Z", "ar", "weekdayLong")).toBe("الجمعة، 20 مارس 2026");
    expect(formatDate("2026-03-20T10:00:00Z", "fr", "weekdayLong")).toBe("vendredi 20 mars 2026");
    expect(formatDate("2026-03-20T10:00:00Z", "en", "weekdayLong")).toMatch(/^Friday,? 20 March 2026$/);
  });
});

describe("digits (DIGITS)", () => {
  it("are Latin by default in every language", () => {
    expect(digitsOf("ar")).toBe("latn");
    expect(formatNumber("ar", 1234567)).toBe("1,234,567");
    expect(formatNumber("fr", 1234.5)).toBe("1\u202f234,5");
    expect(formatNumber("en", 1234)).toBe("1,234");
    expect(formatDate("2026-03-05T10:00:00Z", "ar", "dateTime")).toMatch(/^5 مارس 2026/);
    expect(localizeDigits("2:05", "ar")).toBe("2:05");
  });

  it("are Arabic-Indic in Arabic with DIGITS=arab: dates, times, numbers, durations, counted strings", () => {
    configureFormat(ARAB);
    expect(digitsOf("ar")).toBe("arab");
    expect(formatDate("2026-03-05T10:00:00Z", "ar")).toBe("٥ مارس ٢٠٢٦");
    expect(formatDate("2026-03-05T10:00:00Z", "ar", "short")).toMatch(/^٥ .+ ٢٠٢٦$/);
    expect(formatDate("2026-03-05T10:07:00Z", "ar", "dateTime")).toContain("١٠:٠٧");
    expect(formatDate("2026-03-05T10:00:00Z", "ar", "month")).toBe("مارس ٢٠٢٦");
    expect(formatNumber("ar", 1234567)).toBe("١٬٢٣٤٬٥٦٧");
    expect(formatNumber("ar", 2.5)).toBe("٢٫٥");
    expect(formatDuration(125, "ar")).toBe("٢:٠٥");
    expect(localizeDigits("2026-10:45", "ar")).toBe("٢٠٢٦-١٠:٤٥");
    expect(formatCount({ n_other: "{{count}} مقالة", n_few: "{{count}} مقالات" }, "ar", "n", 3)).toBe("٣ مقالات");
    expect(formatCalendarDay("2026-03-05", "ar", "date")).toBe("٥ مارس ٢٠٢٦");
    expect(formatBytes(2048, "ar")).toBe("٢ KB");
    expect(numberLocale("ar")).toBe("ar-SA-u-nu-arab");
    expect(dateLocale("ar")).toBe("ar-SA-u-ca-gregory-nu-arab");
  });

  it("stay Latin in French and English whatever the setting", () => {
    configureFormat(ARAB);
    expect(digitsOf("fr")).toBe("latn");
    expect(formatDate("2026-03-05T10:00:00Z", "fr")).toBe("5 mars 2026");
    expect(formatDate("2026-03-05T10:00:00Z", "en")).toBe("5 March 2026");
    expect(formatNumber("en", 1234)).toBe("1,234");
    expect(formatDuration(125, "fr")).toBe("2:05");
    expect(formatCalendarDay("2026-03-05", "fr", "date")).toBe("5 mars 2026");
    expect(numberLocale("fr")).toBe("fr-FR-u-nu-latn");
  });

  it("go back to Latin when the setting does (nothing memoised across settings)", () => {
    expect(formatDate("2026-03-05T10:00:00Z", "ar")).toBe("5 مارس 2026");
    configureFormat(ARAB);
    expect(formatDate("2026-03-05T10:00:00Z", "ar")).toBe("٥ مارس ٢٠٢٦");
    configureFormat(DEFAULT_FORMAT_SETTINGS);
    expect(formatDate("2026-03-05T10:00:00Z", "ar")).toBe("5 مارس 2026");
    expect(formatNumber("ar", 12)).toBe("12");
  });
});
