import { describe, expect, it } from "vitest";
import { EMIRATE_SLUGS, foundingNote } from "./emirates.ts";
import ar from "./locales/ar/common.json";
import fr from "./locales/fr/common.json";

const fill = (template: string, year: number) => template.replace("{{year}}", String(year));

describe("the emirates' founding notes (public-site.md §2)", () => {
  it("are adrar about 1740, brakna before 1600, taganit about 1580, trarza about 1640", () => {
    expect(EMIRATE_SLUGS).toEqual(["adrar", "brakna", "taganit", "trarza"]);
    const text = (slug: string, lang: typeof ar | typeof fr) => {
      const n = foundingNote(slug)!;
      return fill(n.key === "emirates.foundedAbout" ? lang.emirates.foundedAbout : lang.emirates.foundedBefore, n.year);
    };
    expect(text("adrar", ar)).toBe("تأسست نحو سنة 1740");
    expect(text("brakna", ar)).toBe("تأسست قبل سنة 1600");
    expect(text("taganit", ar)).toBe("تأسست نحو سنة 1580");
    expect(text("trarza", ar)).toBe("تأسست نحو سنة 1640");
    expect(text("brakna", fr)).toBe("Fondé avant 1600");
    expect(foundingNote("emirates")).toBeNull();
    expect(foundingNote("__proto__")).toBeNull();
  });
});
