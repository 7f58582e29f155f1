/**
 * The tag input's matching (domain/tags.ts), the same in the browser and on the server: spellings the search
 * analysis folds are one tag, and a query finds a tag by the start of any of its words, with or without «ال».
 */
import { describe, expect, it } from "vitest";
import { rankTagSuggestions, sameTag, TagMerge, TagPatch, tagMatchKey, tagMatchRank, tagQueryCore, tidyTagName } from "./tags.ts";
import { z } from "zod/mini";

describe("tag match keys", () => {
  it("makes hamza, alef, taa marbuta, alef maqsura, diacritics and case variants one key", () => {
    expect(tagMatchKey("الإنتخابات")).toBe(tagMatchKey("الانتخابات"));
    expect(tagMatchKey("أحمد")).toBe(tagMatchKey("احمد"));
    expect(tagMatchKey("آمنة")).toBe(tagMatchKey("امنه"));
    expect(tagMatchKey("مُوسَى")).toBe(tagMatchKey("موسي"));
    expect(tagMatchKey("  Nouakchott   ville ")).toBe("nouakchott ville");
    expect(tagMatchKey("نواكشوط")).not.toBe(tagMatchKey("شنقيط"));
  });

  it("makes a name with and without its article one tag, word by word, but not a word whose «ال» is its own", () => {
    expect(sameTag("مخطوطات", "المخطوطات")).toBe(true);
    expect(sameTag("التراث", "تراث")).toBe(true);
    expect(sameTag("الانتخابات الرئاسية", "انتخابات الرئاسيه")).toBe(true);
    expect(sameTag("الإنتخابات", "انتخابات")).toBe(true);
    expect(sameTag("الله", "له")).toBe(false);
    expect(sameTag("مخطوطات", "مخطوطة")).toBe(false);
    expect(tagMatchRank("مخطوطات", "المخطوطات")).toBe(0);
  });

  it("tidies a typed name: separators and runs of spaces become one space", () => {
    expect(tidyTagName("  الانتخابات ،  الرئاسية ")).toBe("الانتخابات الرئاسية");
  });
});

describe("tag suggestions' matching", () => {
  it("matches with or without the article, any hamza, at the start of the name or of a later word", () => {
    expect(tagMatchRank("الانتخابات الرئاسية", "الانتخابات الرئاسية")).toBe(0);
    expect(tagMatchRank("الإنتخابات", "الانتخابات الرئاسية")).toBe(1);
    expect(tagMatchRank("انتخ", "الانتخابات الرئاسية")).toBe(1);
    expect(tagMatchRank("الانتخ", "انتخابات محلية")).toBe(1);
    expect(tagMatchRank("رئاس", "الانتخابات الرئاسية")).toBe(2);
    expect(tagMatchRank("نواك", "نواكشوط")).toBe(1);
    expect(tagMatchRank("nouak", "Nouakchott")).toBe(1);
  });

  it("does not match letters inside a word, or nothing typed", () => {
    expect(tagMatchRank("كشوط", "نواكشوط")).toBeNull();
    expect(tagMatchRank("  ", "نواكشوط")).toBeNull();
    expect(tagMatchRank("شنقيط", "نواكشوط")).toBeNull();
  });

  it("ranks the same tag first, then names that start with the query, the most used first", () => {
    const tags = [
      { name: "انتخابات بلدية", count: 1 },
      { name: "مراقبة الانتخابات", count: 40 },
      { name: "الانتخابات", count: 3 },
      { name: "الانتخابات الرئاسية", count: 9 },
    ];
    // «الانتخابات» is the tag «انتخابات» is (its article off): first, before the more used longer names.
    expect(rankTagSuggestions("انتخابات", tags, 10).map((t) => t.name)).toEqual(["الانتخابات", "الانتخابات الرئاسية", "انتخابات بلدية", "مراقبة الانتخابات"]);
    expect(rankTagSuggestions("الانتخابات", tags, 2).map((t) => t.name)).toEqual(["الانتخابات", "الانتخابات الرئاسية"]);
  });

  it("narrows the database's search by the query's longest word, article off", () => {
    expect(tagQueryCore("الإنتخابات الر")).toBe("انتخابات");
    expect(tagQueryCore("")).toBe("");
  });
});

describe("the tags screen's inputs", () => {
  it("accepts a new name or slug, and refuses an empty change, a bad slug or unknown fields", () => {
    expect(z.safeParse(TagPatch, { name: " شنقيط " }).data).toEqual({ name: "شنقيط" });
    expect(z.safeParse(TagPatch, { slug: "Chinguetti" }).data).toEqual({ slug: "chinguetti" });
    expect(z.safeParse(TagPatch, {}).success).toBe(false);
    expect(z.safeParse(TagPatch, { slug: "a b" }).success).toBe(false);
    expect(z.safeParse(TagPatch, { slug: "123" }).success).toBe(false);
    expect(z.safeParse(TagPatch, { name: "x".repeat(61) }).success).toBe(false);
    expect(z.safeParse(TagPatch, { name: "ok", colour: "red" }).success).toBe(false);
  });

  it("accepts a merge of whole ids", () => {
    expect(z.safeParse(TagMerge, { into: 1, from: [2, 3] }).success).toBe(true);
    expect(z.safeParse(TagMerge, { into: 1, from: [] }).success).toBe(false);
    expect(z.safeParse(TagMerge, { into: "1", from: [2] }).success).toBe(false);
    expect(z.safeParse(TagMerge, { into: 1.5, from: [2] }).success).toBe(false);
  });
});
