/**
 * The calendar's days and weeks in Nouakchott's time, whatever the process's own zone: day and week
 * boundaries, the Monday-first week, wall times to instants and back, and a zone with daylight saving to show
 * the arithmetic is the zone's and not an assumption of UTC.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  addDays,
  calendarHref,
  calendarRange,
  dayOf,
  hourOf,
  instantOf,
  isCalendarDay,
  neighbours,
  NEWSROOM_TIME_ZONE,
  startOfDay,
  timeOf,
  wallTimeOf,
  weekStartOf,
  zoneOffsetMs,
} from "./calendar.ts";

const at = (iso: string) => new Date(iso);

for (const processZone of ["UTC", "America/Montreal", "Asia/Tokyo"]) {
  describe(`the newsroom calendar (process in ${processZone})`, () => {
    let saved: string | undefined;
    beforeEach(() => {
      saved = process.env.TZ;
      process.env.TZ = processZone;
    });
    afterEach(() => {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    });

    it("reads Nouakchott's day and time of an instant, at the edges of the day", () => {
      expect(NEWSROOM_TIME_ZONE).toBe("Africa/Nouakchott");
      expect(zoneOffsetMs(at("2026-11-26T12:00:00Z"))).toBe(0);
      expect(dayOf(at("2026-11-26T23:59:59.999Z"))).toBe("2026-11-26");
      expect(dayOf(at("2026-11-27T00:00:00Z"))).toBe("2026-11-27");
      expect(timeOf(at("2026-11-26T00:00:00Z"))).toBe("00:00");
      expect(timeOf(at("2026-11-26T23:59:30Z"))).toBe("23:59");
      expect(hourOf(at("2026-11-26T09:45:00Z"))).toBe(9);
      expect(wallTimeOf(at("2026-11-26T09:05:00Z"))).toBe("2026-11-26T09:05");
    });

    it("turns the newsroom's wall times into instants and back", () => {
      expect(instantOf("2026-11-26T09:05")?.toISOString()).toBe("2026-11-26T09:05:00.000Z");
      expect(instantOf("2026-11-26T09:05:30")?.toISOString()).toBe("2026-11-26T09:05:30.000Z");
      expect(instantOf("2026-11-26")?.toISOString()).toBe("2026-11-26T00:00:00.000Z");
      expect(startOfDay("2026-03-01").toISOString()).toBe("2026-03-01T00:00:00.000Z");
      for (const bad of ["", "2026-02-30T10:00", "2026-11-26T24:00", "2026-11-26T10:60", "26/11/2026", "2026-11-26T10"]) expect(instantOf(bad)).toBeNull();
    });

    it("starts the week on Monday and covers seven Nouakchott days", () => {
      // 2026-11-26 is a Thursday; its week runs Monday 23 to Sunday 29.
      expect(weekStartOf("2026-11-26")).toBe("2026-11-23");
      expect(weekStartOf("2026-11-23")).toBe("2026-11-23");
      expect(weekStartOf("2026-11-29")).toBe("2026-11-23");
      expect(weekStartOf("2026-11-30")).toBe("2026-11-30");
      // Across a month and a year.
      expect(weekStartOf("2027-01-01")).toBe("2026-12-28");
      const week = calendarRange("week", "2026-11-26");
      expect(week.days).toEqual(["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29"]);
      expect(week.from.toISOString()).toBe("2026-11-23T00:00:00.000Z");
      expect(week.to.toISOString()).toBe("2026-11-30T00:00:00.000Z");
      const day = calendarRange("day", "2026-12-31");
      expect(day.days).toEqual(["2026-12-31"]);
      expect([day.from.toISOString(), day.to.toISOString()]).toEqual(["2026-12-31T00:00:00.000Z", "2027-01-01T00:00:00.000Z"]);
    });

    it("steps to the previous and next day or week, and writes the view's address", () => {
      expect(neighbours("day", "2026-03-01")).toEqual({ previous: "2026-02-28", next: "2026-03-02" });
      expect(neighbours("day", "2028-03-01").previous).toBe("2028-02-29");
      expect(neighbours("week", "2026-11-26")).toEqual({ previous: "2026-11-16", next: "2026-11-30" });
      expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
      expect(calendarHref("week", "2026-11-23")).toBe("/admin/calendar?view=week&date=2026-11-23");
    });

    it("knows a calendar day from anything else", () => {
      expect(isCalendarDay("2028-02-29")).toBe(true);
      for (const bad of ["2026-02-29", "2026-13-01", "2026-1-1", "today", "", null, 20261126]) expect(isCalendarDay(bad)).toBe(false);
    });

    it("follows a zone's own offset, daylight saving included (the arithmetic is not UTC's)", () => {
      // Paris: UTC+1 in winter, UTC+2 from the last Sunday of March.
      expect(instantOf("2026-01-15T09:00", "Europe/Paris")?.toISOString()).toBe("2026-01-15T08:00:00.000Z");
      expect(instantOf("2026-07-15T09:00", "Europe/Paris")?.toISOString()).toBe("2026-07-15T07:00:00.000Z");
      expect(dayOf(at("2026-07-14T22:30:00Z"), "Europe/Paris")).toBe("2026-07-15");
      // The day the clocks go forward is 23 hours long.
      const spring = calendarRange("day", "2026-03-29", "Europe/Paris");
      expect(spring.to.getTime() - spring.from.getTime()).toBe(23 * 3600_000);
      expect(spring.from.toISOString()).toBe("2026-03-28T23:00:00.000Z");
    });
  });
}
