import { describe, expect, it } from "vitest";
import { DEFAULT_READING, isTextSize, isTheme, parseReadingValue, readingAttributes, readingValue } from "./reading-preferences.ts";

describe("reading preferences (decision 0149)", () => {
  it("reads a cookie's value, and ignores what names nothing known part by part", () => {
    expect(parseReadingValue("dark.large")).toEqual({ theme: "dark", textSize: "large" });
    expect(parseReadingValue("light.larger")).toEqual({ theme: "light", textSize: "larger" });
    expect(parseReadingValue("dark")).toEqual({ theme: "dark", textSize: "normal" });
    expect(parseReadingValue("purple.large")).toEqual({ theme: "system", textSize: "large" });
    expect(parseReadingValue("dark.huge")).toEqual({ theme: "dark", textSize: "normal" });
    for (const bad of [undefined, null, 3, "", "<script>", "dark.large".repeat(5), "constructor.__proto__"])
      expect(parseReadingValue(bad)).toEqual(DEFAULT_READING);
  });

  it("writes no value for the default and one value per real choice, the same both ways", () => {
    expect(readingValue(DEFAULT_READING)).toBeNull();
    expect(readingValue({ theme: "dark", textSize: "normal" })).toBe("dark.normal");
    expect(readingValue({ theme: "system", textSize: "larger" })).toBe("system.larger");
    for (const theme of ["system", "light", "dark"] as const)
      for (const textSize of ["normal", "large", "larger"] as const) {
        const value = readingValue({ theme, textSize });
        if (value) expect(parseReadingValue(value)).toEqual({ theme, textSize });
      }
  });

  it("puts on <html> only what differs from the default", () => {
    expect(readingAttributes(DEFAULT_READING)).toEqual({});
    expect(readingAttributes({ theme: "dark", textSize: "larger" })).toEqual({ "data-theme": "dark", "data-text-size": "larger" });
    expect(readingAttributes({ theme: "light", textSize: "normal" })).toEqual({ "data-theme": "light" });
  });

  it("knows its values and nothing else", () => {
    expect(isTheme("dark")).toBe(true);
    expect(isTheme("Dark")).toBe(false);
    expect(isTheme("toString")).toBe(false);
    expect(isTextSize("larger")).toBe(true);
    expect(isTextSize(null)).toBe(false);
  });
});
