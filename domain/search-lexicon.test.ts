import { describe, expect, it } from "vitest";
import { foldArabic } from "./arabic.ts";
import { BROKEN_PLURALS, latinNamesOf, latinReading, PLACE_NAMES, readingDistance, soundOf, typoCost, typoLimit } from "./search-lexicon.ts";

describe("the consonant skeleton both scripts share", () => {
  it.each([
    ["atar", "أطار"],
    ["rosso", "روصو"],
    ["ould", "ولد"],
    ["nouakchott", "نواكشوط"],
    ["nouadhibou", "نواذيبو"],
    ["chinguetti", "شنقيط"],
    ["kiffa", "كيفة"],
    ["zouerate", "الزويرات"],
    ["tidjikja", "تجكجة"],
    ["ouadane", "وادان"],
    ["nema", "النعمة"],
    ["aleg", "ألاك"],
    ["tichitt", "تيشيت"],
    ["boutilimit", "بوتلميت"],
    ["mohamed", "محمد"],
    ["moudjeria", "المجرية"],
  ])("reads %s and %s alike", (latin, arabic) => {
    expect(soundOf(latin)).not.toBe("");
    expect(soundOf(latin)).toBe(soundOf(foldArabic(arabic)));
  });

  it("gives no skeleton to a word of one consonant, and ranks the words of one skeleton by their vowels", () => {
    expect(soundOf("eau")).toBe("");
    expect(soundOf("ال")).toBe("");
    // Rosso and رئيس share a skeleton (the kept list says روصو); the vowels decide between words of one
    // skeleton: Rosso is روصو before رئيس, Atar is أطار before تيار.
    expect(soundOf("rosso")).toBe(soundOf(foldArabic("رئيس")));
    expect(readingDistance(latinReading("rosso"), latinReading(foldArabic("روصو")))).toBeLessThan(
      readingDistance(latinReading("rosso"), latinReading(foldArabic("رئيس"))),
    );
    expect(readingDistance(latinReading("atar"), latinReading(foldArabic("أطار")))).toBeLessThan(
      readingDistance(latinReading("atar"), latinReading(foldArabic("تيار"))),
    );
  });
});

describe("the kept lists", () => {
  it("spells every kept name in Latin letters, folded, with Arabic forms", () => {
    expect(PLACE_NAMES.size).toBeGreaterThan(50);
    for (const [latin, forms] of PLACE_NAMES) {
      expect(latin).toMatch(/^[a-z]+$/);
      expect(forms.length).toBeGreaterThan(0);
      for (const f of forms) expect(f).toMatch(/^[\u0621-\u064A]+$/);
    }
    expect(PLACE_NAMES.get("kaedi")).toEqual(["كيهيدي"]);
    expect(latinNamesOf("نواكشوط", foldArabic)).toEqual(expect.arrayContaining(["nouakchott"]));
  });

  it("keeps a few hundred broken plurals, each once, none its own singular", () => {
    expect(BROKEN_PLURALS.length).toBeGreaterThan(250);
    const plurals = BROKEN_PLURALS.map(([p]) => p);
    expect(new Set(plurals).size).toBe(plurals.length);
    for (const [plural, singular] of BROKEN_PLURALS) expect(foldArabic(plural), plural).not.toBe(foldArabic(singular));
    // Left out on purpose: plurals that are another common word, or whose singular's key meets one.
    for (const kept of ["كتب", "جمال", "علماء", "فرق"]) expect(plurals).not.toContain(kept);
  });
});

describe("the weighted typo distance", () => {
  it("makes the slips readers make cheaper than any other letter", () => {
    expect(typoCost("الانتحابات", "الانتخابات")).toBe(0.4); // a dot
    expect(typoCost("ظابط", "ضابط")).toBe(0.5); // a sound
    expect(typoCost("البرلمن", "البرلمان")).toBe(0.5); // a long vowel dropped
    expect(typoCost("المدرسسة", "المدرسة")).toBe(0.3); // a letter doubled
    expect(typoCost("مكبتة", "مكتبة")).toBe(0.6); // two letters swapped
    expect(typoCost("سيارة", "سفارة")).toBe(1); // any other letter
  });

  it("forgives nothing under four letters, and more in longer words", () => {
    expect(typoLimit(3)).toBe(0);
    expect(typoLimit(4)).toBeLessThan(typoLimit(6));
    expect(typoLimit(6)).toBeLessThan(typoLimit(10));
  });
});
