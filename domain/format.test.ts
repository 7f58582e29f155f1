import { describe, expect, it } from "vitest";
import { excerpt, formatDate, formatDuration } from "./format.ts";

describe("format", () => {
  it("formats dates in Arabic (Gregorian, Latin digits) and French", () => {
    const d = new Date("2026-03-05T10:00:00Z");
    expect(formatDate(d, "ar")).toBe("5 مارس 2026");
    expect(formatDate(d, "fr")).toBe("5 mars 2026");
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
  });
});
