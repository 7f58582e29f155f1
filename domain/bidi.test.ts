import { describe, expect, it } from "vitest";
import { firstStrongDirection, linesOf, segmentsOf, textLanguage } from "./bidi.ts";

describe("direction and language of post text", () => {
  it("takes the direction of the first strong letter, as dir=auto does", () => {
    expect(firstStrongDirection("2024 — افتتاح المعرض")).toBe("rtl");
    expect(firstStrongDirection("« Racines » : نواكشوط")).toBe("ltr");
    expect(firstStrongDirection("2024 !!! 🎉")).toBeNull();
  });

  it("names the language by the dominant script, French for Latin text unless it reads as English", () => {
    expect(textLanguage("افتتاح مهرجان مدائن التراث في وادان")).toBe("ar");
    expect(textLanguage("Le festival des villes anciennes s'ouvre à Ouadane")).toBe("fr");
    expect(textLanguage("The festival of the old towns opens in Ouadane")).toBe("en");
    expect(textLanguage("مهرجان Ouadane الدولي للتراث")).toBe("ar");
    expect(textLanguage("12 / 2024")).toBeNull();
  });

  it("gives each line of a bilingual post its own direction and language", () => {
    expect(linesOf("افتتاح معرض الكتاب في نواكشوط (الدورة 12)!\n\nOuverture du salon du livre de Nouakchott (12e édition) !\n🎉")).toEqual([
      { text: "افتتاح معرض الكتاب في نواكشوط (الدورة 12)!", dir: "rtl", lang: "ar" },
      { text: "Ouverture du salon du livre de Nouakchott (12e édition) !", dir: "ltr", lang: "fr" },
      { text: "🎉", dir: "auto", lang: undefined },
    ]);
  });

  it("finds http(s) links without the punctuation that follows them", () => {
    expect(segmentsOf("البرنامج الكامل: https://sahara-media.mr/programme، شاركونا.")).toEqual([
      { kind: "text", text: "البرنامج الكامل: " },
      { kind: "link", text: "https://sahara-media.mr/programme", href: "https://sahara-media.mr/programme" },
      { kind: "text", text: "، شاركونا." },
    ]);
    expect(segmentsOf("javascript:alert(1) ftp://x")).toEqual([{ kind: "text", text: "javascript:alert(1) ftp://x" }]);
  });
});
