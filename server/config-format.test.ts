import { afterEach, describe, expect, it } from "vitest";
import { checkConfig, publicConfig, startupCheck } from "./config.server.ts";
import { configureFormat, DEFAULT_FORMAT_SETTINGS, formatDate, showsHijri } from "#domain/format.ts";

const quiet = { warn: () => {}, error: () => {}, info: () => {} };

afterEach(() => configureFormat(DEFAULT_FORMAT_SETTINGS));

describe("DATE_CALENDARS and DIGITS (docs/decisions/0148-hijri-dates-and-digits.md)", () => {
  it("default to the Gregorian calendar and Latin digits", () => {
    const { config, errors } = checkConfig({});
    expect(errors).toEqual([]);
    expect(config.DATE_CALENDARS).toEqual(["gregorian"]);
    expect(config.DIGITS).toBe("latn");
    expect(publicConfig(config).format).toEqual({ digits: "latn", calendars: ["gregorian"] });
  });

  it("read gregorian,hijri in any order, case or spacing, and arab", () => {
    const { config, errors } = checkConfig({ DATE_CALENDARS: " Hijri , gregorian ", DIGITS: "arab" });
    expect(errors).toEqual([]);
    expect(config.DATE_CALENDARS).toEqual(["gregorian", "hijri"]);
    expect(publicConfig(config).format).toEqual({ digits: "arab", calendars: ["gregorian", "hijri"] });
  });

  it("refuse a calendar they do not know, the Hijri one alone, and other digits, naming the setting", () => {
    for (const [name, value] of [
      ["DATE_CALENDARS", "gregorian,julian"],
      ["DATE_CALENDARS", "hijri"],
      ["DIGITS", "arabext"],
    ]) {
      const { errors } = checkConfig({ [name]: value });
      expect(errors.join("\n")).toContain(`Invalid environment variable ${name}`);
    }
  });

  it("are adopted by the formatter when the server reads its configuration", () => {
    startupCheck({ DATE_CALENDARS: "gregorian,hijri", DIGITS: "arab" }, quiet);
    expect(showsHijri()).toBe(true);
    expect(formatDate("2026-03-05T10:00:00Z", "ar")).toBe("٥ مارس ٢٠٢٦");
    startupCheck({}, quiet);
    expect(showsHijri()).toBe(false);
    expect(formatDate("2026-03-05T10:00:00Z", "ar")).toBe("5 مارس 2026");
  });
});
