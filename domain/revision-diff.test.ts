import { describe, expect, it } from "vitest";
import { formatDate } from "./format.ts";
import {
  changedFields,
  comparable,
  decodeEntities,
  diffBlocks,
  diffLongText,
  diffWords,
  displayValue,
  hasChanges,
  MAX_BLOCKS,
  MAX_CELLS,
  plainTextBlocks,
  richTextBlocks,
  tokenize,
  type WordPart,
} from "./revision-diff.ts";

/** The parts as a compact string: [-removed-] {+added+}. */
const show = (parts: WordPart[]) => parts.map((p) => (p.op === "same" ? p.text : p.op === "del" ? `[-${p.text}-]` : `{+${p.text}+}`)).join("");
const textOf = (parts: WordPart[], side: "before" | "after") =>
  parts
    .filter((p) => p.op === "same" || p.op === (side === "before" ? "del" : "ins"))
    .map((p) => p.text)
    .join("");

describe("tokenize", () => {
  it("splits Arabic on whitespace, keeps punctuation as tokens of its own and gives the text back when joined", () => {
    const text = "قال الوزير، إنّ المشروع سيكتمل؟ نعم؛ قريباً.";
    const tokens = tokenize(text);
    expect(tokens.join("")).toBe(text);
    expect(tokens.map((t) => t.trim())).toEqual(["قال", "الوزير", "،", "إنّ", "المشروع", "سيكتمل", "؟", "نعم", "؛", "قريباً", "."]);
  });

  it("keeps harakat, shadda and tatweel inside their word", () => {
    expect(tokenize("مُحَمَّد الكـــبير").map((t) => t.trim())).toEqual(["مُحَمَّد", "الكـــبير"]);
  });

  it("treats French elisions and numbers as words and marks", () => {
    expect(tokenize("l'été 2026, à Nouakchott").map((t) => t.trim())).toEqual(["l", "'", "été", "2026", ",", "à", "Nouakchott"]);
  });
});

describe("diffWords", () => {
  it("marks the one word that changed in an Arabic sentence", () => {
    const { parts, truncated } = diffWords("افتتح الوزير المهرجان في نواكشوط", "افتتح الرئيس المهرجان في نواكشوط");
    expect(truncated).toBe(false);
    expect(show(parts)).toBe("افتتح [-الوزير -]{+الرئيس +}المهرجان في نواكشوط");
  });

  it("marks a changed punctuation mark without the word beside it", () => {
    expect(show(diffWords("نعم، قريباً", "نعم؛ قريباً").parts)).toBe("نعم[-، -]{+؛ +}قريباً");
  });

  it("shows additions and removals, and each side reads back as its text", () => {
    const before = "le festival ouvre demain à Atar";
    const after = "le grand festival ouvre ce soir à Atar";
    const { parts } = diffWords(before, after);
    expect(textOf(parts, "before")).toBe(before);
    expect(textOf(parts, "after")).toBe(after);
    expect(parts.filter((p) => p.op === "ins").map((p) => p.text.trim())).toEqual(["grand", "ce soir"]);
    expect(parts.filter((p) => p.op === "del").map((p) => p.text.trim())).toEqual(["demain"]);
  });

  it("reads a whole replacement as one removal and one addition", () => {
    expect(show(diffWords("أ، ب", "ج، د").parts)).toBe("[-أ، ب-]{+ج، د+}");
  });

  it("finds nothing between equal texts, and everything against an empty one", () => {
    expect(diffWords("نص واحد", "نص واحد").parts).toEqual([{ op: "same", text: "نص واحد" }]);
    expect(diffWords("", "جديد").parts).toEqual([{ op: "ins", text: "جديد" }]);
    expect(diffWords("قديم", "").parts).toEqual([{ op: "del", text: "قديم" }]);
  });

  it("cuts a comparison past its bound and says so, still giving both texts", () => {
    const side = Math.ceil(Math.sqrt(MAX_CELLS)) + 10;
    const before = Array.from({ length: side }, (_, i) => `a${i}`).join(" ");
    const after = Array.from({ length: side }, (_, i) => `b${i}`).join(" ");
    const { parts, truncated } = diffWords(before, after);
    expect(truncated).toBe(true);
    expect(textOf(parts, "before")).toBe(before);
    expect(textOf(parts, "after")).toBe(after);
  });

  it("compares a long text with one change in the middle without reaching the bound (common start and end)", () => {
    const words = Array.from({ length: 20_000 }, (_, i) => `كلمة${i}`);
    const changed = [...words];
    changed[10_000] = "تعديل";
    const { parts, truncated } = diffWords(words.join(" "), changed.join(" "));
    expect(truncated).toBe(false);
    expect(parts.filter((p) => p.op !== "same").map((p) => p.text.trim())).toEqual(["كلمة10000", "تعديل"]);
  });
});

describe("blocks", () => {
  it("reads sanitised rich text as paragraphs, headings, list items and images, entities decoded", () => {
    const html =
      '<h2>عنوان</h2><p>الفقرة <strong>الأولى</strong> &amp; السطر<br>الثاني</p><ul><li>بند</li></ul><figure><img src="/uploads/a.webp" alt="صورة &quot;الواحة&quot;"><figcaption>تعليق</figcaption></figure><p> </p>';
    expect(richTextBlocks(html)).toEqual([
      { kind: "text", text: "عنوان" },
      { kind: "text", text: "الفقرة الأولى & السطر" },
      { kind: "text", text: "الثاني" },
      { kind: "text", text: "بند" },
      { kind: "image", src: "/uploads/a.webp", alt: 'صورة "الواحة"' },
      { kind: "text", text: "تعليق" },
    ]);
  });

  it("decodes numeric and named references and leaves unknown ones", () => {
    expect(decodeEntities("&#1575;&#x644; &nbsp;&lt;b&gt; &bogus;")).toBe("ال \u00a0<b> &bogus;");
  });

  it("reads plain text as its lines", () => {
    expect(plainTextBlocks("سطر أول\n\n  سطر   ثان \r\n")).toEqual([
      { kind: "text", text: "سطر أول" },
      { kind: "text", text: "سطر ثان" },
    ]);
  });

  it("counts kept paragraphs, compares a changed one by words and shows added and removed ones whole", () => {
    const before = "<p>الأولى تبقى</p><p>الثانية تتغير هنا</p><p>الثالثة تبقى</p><p>الرابعة تحذف كلها</p>";
    const after = "<p>الأولى تبقى</p><p>الثانية تبدلت هنا</p><p>الثالثة تبقى</p><p>فقرة جديدة</p><p>وأخرى</p>";
    const { changes, truncated } = diffLongText("richtext", before, after);
    expect(truncated).toBe(false);
    expect(changes[0]).toEqual({ op: "same", count: 1 });
    expect(changes[1].op).toBe("changed");
    expect(show((changes[1] as { parts: WordPart[] }).parts)).toBe("الثانية [-تتغير -]{+تبدلت +}هنا");
    expect(changes[2]).toEqual({ op: "same", count: 1 });
    expect(changes.slice(3).map((c) => c.op)).toEqual(["changed", "ins"]);
    expect(changes[4]).toEqual({ op: "ins", block: { kind: "text", text: "وأخرى" } });
  });

  it("shows an image added to or removed from the body", () => {
    const { changes } = diffLongText("richtext", '<p>نص</p><img src="/uploads/a.webp" alt="أ">', '<p>نص</p><img src="/uploads/b.webp" alt="ب">');
    expect(changes).toEqual([
      { op: "same", count: 1 },
      { op: "del", block: { kind: "image", src: "/uploads/a.webp", alt: "أ" } },
      { op: "ins", block: { kind: "image", src: "/uploads/b.webp", alt: "ب" } },
    ]);
  });

  it("finds no change when only the markup differs, and says whether anything changed", () => {
    const diff = diffLongText("richtext", "<p>نص <em>واحد</em></p>", "<p>نص واحد</p>");
    expect(hasChanges(diff)).toBe(false);
    expect(hasChanges(diffLongText("textarea", "أ", "ب"))).toBe(true);
  });

  it("bounds the number of blocks it matches and says the comparison was cut", () => {
    const many = Array.from({ length: MAX_BLOCKS + 50 }, (_, i) => ({ kind: "text" as const, text: `p${i}` }));
    const diff = diffBlocks(many, [...many.slice(0, -1), { kind: "text", text: "changed" }]);
    expect(diff.truncated).toBe(true);
    expect(hasChanges(diff)).toBe(true);
  });
});

describe("changedFields", () => {
  const fields = [
    { name: "title", kind: "text" },
    { name: "content", kind: "richtext" },
    { name: "category_id", kind: "category" },
    { name: "is_featured", kind: "boolean" },
    { name: "image_url", kind: "image" },
    { name: "publish_date", kind: "datetime" },
  ];

  it("lists only the fields that differ, and treats blank, absent, false and equal times alike", () => {
    const before = { title: "عنوان", content: "<p>نص</p>", category_id: "1", is_featured: false, image_url: null, publish_date: "2026-03-05T10:00:00Z" };
    expect(changedFields(fields, before, { ...before, image_url: "", is_featured: undefined, publish_date: "2026-03-05T10:00:00.000Z" })).toEqual([]);
    expect(changedFields(fields, before, { ...before, title: "عنوان جديد", category_id: 2, is_featured: true })).toEqual([
      "title",
      "category_id",
      "is_featured",
    ]);
  });

  it("treats publish times that show the same (to the minute, the form's zone-less time as UTC) as unchanged (issue 46)", () => {
    const saved = { publish_date: "2026-03-05T10:07:31.512Z" };
    // The form's datetime-local after it, and the same time as a Date.
    expect(changedFields(fields, saved, { publish_date: "2026-03-05T10:07" })).toEqual([]);
    expect(changedFields(fields, saved, { publish_date: new Date("2026-03-05T10:07:00Z") })).toEqual([]);
    expect(changedFields(fields, saved, { publish_date: "2026-03-05T10:08" })).toEqual(["publish_date"]);
    // What is shown is what was compared: both sides the same words.
    const shown = (v: unknown) => formatDate((displayValue({ kind: "datetime" }, v) as { value: string }).value, "ar", "dateTime");
    expect(shown(saved.publish_date)).toBe(shown("2026-03-05T10:07"));
  });

  it("shows times on one 24-hour clock in every language", () => {
    for (const lang of ["ar", "fr", "en"] as const) {
      const text = formatDate("2026-03-05T15:07:00Z", lang, "dateTime");
      expect(text).toMatch(/15:07|١٥:٠٧/);
      expect(text).not.toMatch(/\b(?:AM|PM)\b|[صم]$/u);
    }
  });

  it("compares rich text by its words, not its markup", () => {
    expect(comparable("richtext", "<p>أ <b>ب</b></p>")).toBe(comparable("richtext", "<p>أ ب</p>"));
  });
});

describe("displayValue", () => {
  const categories = new Map([[3, { id: 3, name: "ثقافة", nameFr: "Culture" }]]);

  it("names a category instead of its id, and says when it no longer exists", () => {
    expect(displayValue({ kind: "category" }, "3", categories)).toEqual({ kind: "category", of: "category", id: "3", name: "ثقافة", nameFr: "Culture" });
    expect(displayValue({ kind: "category" }, 9, categories)).toEqual({ kind: "category", of: "category", id: "9", name: null, nameFr: null });
    const programs = new Map([[4, { id: 4, name: "حكايات الصحراء", nameFr: "Contes du désert" }]]);
    expect(displayValue({ kind: "reference", references: "program" }, "4", programs)).toEqual({
      kind: "category",
      of: "program",
      id: "4",
      name: "حكايات الصحراء",
      nameFr: "Contes du désert",
    });
    expect(displayValue({ kind: "reference", references: "program" }, "3", programs)).toEqual({
      kind: "category",
      of: "program",
      id: "3",
      name: null,
      nameFr: null,
    });
  });

  it("gives booleans, options, dates, images, library videos and links as what they are", () => {
    expect(displayValue({ kind: "boolean" }, null)).toEqual({ kind: "boolean", value: false });
    expect(displayValue({ kind: "boolean" }, true)).toEqual({ kind: "boolean", value: true });
    expect(displayValue({ kind: "select", optionLabels: "newsroom.priority" }, "high")).toEqual({ kind: "option", key: "newsroom.priority.high" });
    expect(displayValue({ kind: "date" }, "2026-03-05")).toEqual({ kind: "date", value: "2026-03-05", withTime: false });
    expect(displayValue({ kind: "datetime" }, "2026-03-05T10:00:00Z")).toEqual({ kind: "date", value: "2026-03-05T10:00:00.000Z", withTime: true });
    expect(displayValue({ kind: "image" }, "/uploads/articles/a.webp")).toEqual({ kind: "image", src: "/uploads/articles/a.webp" });
    expect(displayValue({ kind: "video" }, "0F8FAD5B-D9CB-469F-A165-70867728950E")).toEqual({ kind: "video", id: "0f8fad5b-d9cb-469f-a165-70867728950e" });
    expect(displayValue({ kind: "audio" }, "/uploads/podcasts/a.mp3")).toEqual({ kind: "link", href: "/uploads/podcasts/a.mp3" });
    expect(displayValue({ kind: "text" }, "  ")).toEqual({ kind: "empty" });
    expect(displayValue({ kind: "integer" }, 4)).toEqual({ kind: "text", text: "4" });
  });

  it("shows an item's authors and tags by their names, in order, and sees a change of order", () => {
    const before = [
      { id: 1, name: "خديجة" },
      { id: 2, name: "كاتب ضيف" },
    ];
    expect(displayValue({ kind: "authors" }, before)).toEqual({ kind: "list", items: ["خديجة", "كاتب ضيف"] });
    expect(displayValue({ kind: "tags" }, [])).toEqual({ kind: "empty" });
    const fields = [{ name: "authors", kind: "authors" }];
    expect(changedFields(fields, { authors: before }, { authors: [...before].reverse() })).toEqual(["authors"]);
    expect(changedFields(fields, { authors: before }, { authors: before.map((a) => ({ ...a })) })).toEqual([]);
  });
});
