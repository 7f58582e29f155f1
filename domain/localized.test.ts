import { describe, expect, it } from "vitest";
import { localized, textDirection, textProps } from "./localized.ts";

describe("localized", () => {
  it("shows the French variant on French pages only, the Arabic original otherwise", () => {
    expect(localized("fr", "عنوان", "Titre")).toBe("Titre");
    expect(localized("fr", "عنوان", null)).toBe("عنوان");
    expect(localized("en", "عنوان", "Titre")).toBe("عنوان");
  });
});

describe("textDirection", () => {
  it("follows the first letter, skipping digits, punctuation, markup and character references", () => {
    expect(textDirection("2025 — نواكشوط")).toBe("rtl");
    expect(textDirection("« Nouakchott » 2025")).toBe("ltr");
    expect(textDirection('<p class="x">&nbsp;قصيدة</p>')).toBe("rtl");
    expect(textDirection("12:30")).toBeNull();
    expect(textDirection(null)).toBeNull();
  });
});

describe("textProps", () => {
  it("marks Arabic content on French and English pages, nothing on Arabic ones", () => {
    expect(textProps("fr", "قصيدة الكثبان")).toEqual({ lang: "ar", dir: "rtl" });
    expect(textProps("en", "قصيدة الكثبان")).toEqual({ lang: "ar", dir: "rtl" });
    expect(textProps("ar", "قصيدة الكثبان")).toEqual({});
  });

  it("lets Latin text on an Arabic page run by its own direction, and leaves matching text alone", () => {
    expect(textProps("ar", "Ahmed Salem")).toEqual({ dir: "auto" });
    expect(textProps("fr", "Le poème des dunes")).toEqual({});
    expect(textProps("en", "2025")).toEqual({});
  });
});
