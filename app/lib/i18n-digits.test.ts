import { afterEach, describe, expect, it } from "vitest";
import { createI18n } from "./i18n.ts";
import { configureFormat, DEFAULT_FORMAT_SETTINGS } from "#domain/format.ts";

afterEach(() => configureFormat(DEFAULT_FORMAT_SETTINGS));

describe("numbers interpolated into strings (DIGITS)", () => {
  const strings = { page: "الصفحة {{page}}", share: "{{n}} ٪", name: "{{name}}" };

  it("keep their plain Latin form by default", () => {
    const t = createI18n("ar", strings).t;
    expect(t("page", { page: 12 })).toBe("الصفحة 12");
    expect(t("page", { page: 2026 })).toBe("الصفحة 2026");
  });

  it("are written in Arabic-Indic digits in Arabic with DIGITS=arab, without grouping a whole number", () => {
    configureFormat({ digits: "arab", calendars: ["gregorian"] });
    const t = createI18n("ar", strings).t;
    expect(t("page", { page: 2026 })).toBe("الصفحة ٢٠٢٦");
    expect(t("share", { n: 12.5 })).toBe("١٢٫٥ ٪");
    // Text keeps its digits: a name or an address is not a number.
    expect(t("name", { name: "Route 66" })).toBe("Route 66");
  });

  it("stay Latin in French and English", () => {
    configureFormat({ digits: "arab", calendars: ["gregorian"] });
    expect(createI18n("fr", { page: "Page {{page}}" }).t("page", { page: 12 })).toBe("Page 12");
    expect(createI18n("en", { page: "Page {{page}}" }).t("page", { page: 12 })).toBe("Page 12");
  });
});
