import { describe, expect, it } from "vitest";
import { highlightParts, matchRanges, normalizeArabic, queryTerms, TRANSLATE_FROM, TRANSLATE_TO } from "./arabic.ts";
import { ARABIC_PAIRS } from "../../tests/helpers/arabic-pairs.ts";

/** The marked pieces of `text` for `query`. */
const marked = (text: string, query: string) => matchRanges(text, query).map(([s, e]) => text.slice(s, e));

describe("normalizeArabic", () => {
  it.each(ARABIC_PAIRS)("treats %s and %s as one word (%s)", (written, typed) => {
    expect(normalizeArabic(written)).toBe(normalizeArabic(typed));
    expect(normalizeArabic(written)).not.toBe("");
  });

  it("folds alef forms, alef maqsura, ta marbuta and the hamza seats, and keeps a lone hamza", () => {
    expect(normalizeArabic("أ إ آ ٱ")).toBe("ا ا ا ا");
    expect(normalizeArabic("على مدرسة")).toBe("علي مدرسه");
    expect(normalizeArabic("مؤتمر بئر")).toBe("موتمر بير");
    expect(normalizeArabic("سماء جزء")).toBe("سماء جزء");
  });

  it("removes tatweel, harakat and Quranic marks", () => {
    expect(normalizeArabic("بـــســـم")).toBe("بسم");
    expect(normalizeArabic("كَتَبَ الْوَلَدُ")).toBe("كتب الولد");
    expect(normalizeArabic("بِسْمِ ٱللَّهِ ٱلرَّحْمَٰنِ ٱلرَّحِيمِ ۝")).toBe("بسم الله الرحمن الرحيم");
    expect(normalizeArabic("قُلْ ۖ هُوَ")).toBe("قل هو");
  });

  it("turns Arabic-Indic and Persian digits into 0-9", () => {
    expect(normalizeArabic("٠١٢٣٤٥٦٧٨٩ ۰۱۲۳۴۵۶۷۸۹")).toBe("0123456789 0123456789");
  });

  it("lower-cases Latin by table and folds French accents", () => {
    expect(normalizeArabic("Chinguetti ÉTÉ Çà Œuvre")).toBe("chinguetti ete ca œuvre");
    // Other scripts are left alone: folding them would depend on the database's locale.
    expect(normalizeArabic("ΑΒΓ")).toBe("ΑΒΓ");
  });

  it("makes punctuation and every kind of space one plain space, trimmed", () => {
    expect(normalizeArabic("  شنقيط،\u00A0وادان؛\tتيشيت\n\nولاتة؟  ")).toBe("شنقيط وادان تيشيت ولاته");
    expect(normalizeArabic("«إمارة آدرار»: النخيل…")).toBe("اماره ادرار النخيل");
    expect(normalizeArabic("l'ardin — 100%")).toBe("l ardin 100");
  });

  it("removes invisible characters (zero-width, bidi marks, soft hyphen)", () => {
    expect(normalizeArabic("مدر\u200Cسة\u200F")).toBe("مدرسه");
    expect(normalizeArabic("extra\u00ADordinary")).toBe("extraordinary");
    expect(normalizeArabic("e\u0301cole")).toBe("ecole");
  });

  it("is idempotent and leaves empty input empty", () => {
    for (const [a, b] of ARABIC_PAIRS) {
      expect(normalizeArabic(normalizeArabic(a))).toBe(normalizeArabic(a));
      expect(normalizeArabic(b)).toBe(normalizeArabic(normalizeArabic(b)));
    }
    expect(normalizeArabic("")).toBe("");
    expect(normalizeArabic(" \u064E ، ")).toBe("");
  });

  it("has translate tables of equal length, as SQL translate() needs", () => {
    expect([...TRANSLATE_FROM].length).toBe([...TRANSLATE_TO].length);
    expect(new Set(TRANSLATE_FROM).size).toBe([...TRANSLATE_FROM].length);
  });
});

describe("highlighting", () => {
  it("finds words typed without hamza in text written with it", () => {
    const title = "إمارة آدرار: النخيل والقوافل وسلطة الأمراء";
    expect(marked(title, "امارة ادرار")).toEqual(["إمارة", "آدرار"]);
    expect(marked(title, "الامراء")).toEqual(["الأمراء"]);
  });

  it("finds words typed with hamza or diacritics in text written without them", () => {
    expect(marked("اسلام في موريتانيا", "إسلام مُوريتانيا")).toEqual(["اسلام", "موريتانيا"]);
  });

  it("marks whole words, harakat and attached prefixes included", () => {
    expect(marked("شِنْقِيطُ مدينة", "شنقيط")).toEqual(["شِنْقِيطُ"]);
    expect(marked("المدرسة الكبرى", "مدرسه")).toEqual(["المدرسة"]);
    expect(marked("وبالإمارة، والقوافل", "اماره")).toEqual(["وبالإمارة"]);
    expect(marked("عام ٢٠٢٤م", "2024")).toEqual(["٢٠٢٤م"]);
    expect(marked("L'émirat de l'Adrar", "emir")).toEqual(["émirat"]);
  });

  it("merges overlapping matches and ignores one-letter words", () => {
    expect(marked("القاهرة", "القاهرة قاهر")).toEqual(["القاهرة"]);
    expect(marked("دار الأمراء", "امر امراء")).toEqual(["الأمراء"]);
    expect(marked("و في", "و")).toEqual([]);
    expect(queryTerms("و  مدرسة، مدرسه")).toEqual(["مدرسه"]);
  });

  it("returns nothing when nothing matches, and offsets stay right after surrogate pairs", () => {
    expect(marked("نواكشوط", "تمبكتو")).toEqual([]);
    expect(marked("🐪 قافلة الملح", "الملح")).toEqual(["الملح"]);
  });

  it("cuts the text into pieces that put it back together", () => {
    const text = "رقمنة مخطوطات وادان: سباق مع الأرضة والرطوبة";
    const parts = highlightParts(text, "الارضه وادان");
    expect(parts.map((p) => p.text).join("")).toBe(text);
    expect(parts.filter((p) => p.match).map((p) => p.text)).toEqual(["وادان", "الأرضة"]);
    expect(highlightParts("نص", "كلمة")).toEqual([{ text: "نص", match: false }]);
  });
});
