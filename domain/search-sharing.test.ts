import { describe, expect, it } from "vitest";
import ar from "#domain/locales/ar/common.json" with { type: "json" };
import fr from "#domain/locales/fr/common.json" with { type: "json" };
import en from "#domain/locales/en/common.json" with { type: "json" };
import { ALL_CONTENT_TYPES } from "./content-types/index.ts";
import { formSchemaOf } from "./content-types/schema.ts";
import { fieldErrorsOf } from "./schemas/shared.ts";
import { DESCRIPTION_MAX, effectiveSharing, snippetText } from "./search-sharing.ts";

const SEO_FIELDS = ["meta_description", "share_title", "share_image_url", "canonical_url", "noindex"];

/** The schema's result for these values: the messages of the search and sharing fields, and the parsed values. */
function parse(type: (typeof ALL_CONTENT_TYPES)[number]["type"], values: Record<string, unknown>) {
  const result = formSchemaOf(type).safeParse(values);
  const errors = result.success ? {} : (fieldErrorsOf(result.error) as Record<string, string>);
  return { errors: Object.fromEntries(Object.entries(errors).filter(([k]) => SEO_FIELDS.includes(k))), data: result.success ? result.data : null };
}

const at = (file: unknown, key: string) => key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], file);

describe("search and sharing fields", () => {
  it("are the last fields of every type, in their own group, labelled in Arabic, French and English", () => {
    for (const def of ALL_CONTENT_TYPES) {
      const fields = def.fields.filter((f) => f.group === "searchAndSharing");
      expect(
        fields.map((f) => f.name),
        def.type,
      ).toEqual(SEO_FIELDS);
      expect(def.fields.slice(-SEO_FIELDS.length), def.type).toEqual(fields);
      expect(fields.every((f) => !f.required)).toBe(true);
      expect(def.folders.share_image_url, def.type).toBe(def.folders.image_url);
      for (const f of fields) {
        for (const key of [f.label, f.hint, f.message].filter((k): k is string => Boolean(k))) {
          for (const [lang, file] of Object.entries({ ar, fr, en })) expect(typeof at(file, key), `${lang} ${key}`).toBe("string");
        }
      }
    }
    expect(at(ar, "searchSharing.section")).toBe("محركات البحث والمشاركة");
    expect(at(fr, "searchSharing.section")).toBe("Moteurs de recherche et partage");
    expect(at(en, "searchSharing.section")).toBe("Search engines and sharing");
  });

  it("store blanks as null and noindex as false, so an item without them is as before", () => {
    for (const def of ALL_CONTENT_TYPES) expect(parse(def.type, { meta_description: "  ", share_title: "", canonical_url: "" }).errors, def.type).toEqual({});
    const article = { title: "عنوان مقال", excerpt: "مقتطف المقال هنا", content: "<p>محتوى المقال بما يكفي من الحروف</p>", category_id: "3", status: "draft" };
    expect(parse("article", { ...article, meta_description: "  ", share_title: "" }).data).toMatchObject({
      meta_description: null,
      share_title: null,
      share_image_url: null,
      canonical_url: null,
      noindex: false,
    });
    expect(parse("article", { ...article, noindex: "on" }).data).toMatchObject({ noindex: true });
    expect(parse("article", { ...article, noindex: true }).data).toMatchObject({ noindex: true });
  });

  it("take an absolute http(s) canonical URL and refuse anything else with a clear message", () => {
    for (const good of ["https://example.org/a/b?c=1#d", "http://news.example.com", "https://موقع.example/مقال"]) {
      expect(parse("news", { canonical_url: good }).errors, good).toEqual({});
    }
    for (const bad of [
      "example.org/a",
      "/articles/x",
      "ftp://example.org/x",
      "javascript:alert(1)",
      "https://",
      "https://example",
      "https://exa mple.org/x",
      "//example.org/x",
    ]) {
      expect(parse("news", { canonical_url: bad }).errors, bad).toEqual({ canonical_url: "searchSharing.v.canonicalUrl" });
    }
    expect(at(ar, "searchSharing.v.canonicalUrl")).toContain("https://");
    expect(at(fr, "searchSharing.v.canonicalUrl")).toContain("https://");
    expect(at(en, "searchSharing.v.canonicalUrl")).toContain("https://");
    expect(parse("news", { canonical_url: `https://example.org/${"a".repeat(2100)}` }).errors).toEqual({ canonical_url: "newsroom.v.tooLong" });
  });

  it("limit the meta description to 300 characters and the share title to 200", () => {
    expect(parse("article", { meta_description: "و".repeat(300), share_title: "ع".repeat(200) }).errors).toEqual({});
    expect(parse("article", { meta_description: "و".repeat(301), share_title: "ع".repeat(201) }).errors).toEqual({
      meta_description: "newsroom.v.tooLong",
      share_title: "newsroom.v.tooLong",
    });
  });

  it("take the share image as the image fields do: a path on this site or http(s)", () => {
    expect(parse("podcast", { share_image_url: "/uploads/podcasts/a.jpg" }).errors).toEqual({});
    expect(parse("podcast", { share_image_url: "javascript:x" }).errors).toEqual({ share_image_url: "newsroom.v.fileUrl" });
  });
});

describe("effectiveSharing", () => {
  const item = { title: "عنوان المادة", summary: "ملخص\n  المادة", image: "/uploads/a.jpg" };
  it("uses the title, the summary and the main image when the fields are blank", () => {
    expect(effectiveSharing({ ...item, metaDescription: "", shareTitle: null, shareImage: undefined, canonicalUrl: " ", noindex: null })).toEqual({
      title: "عنوان المادة",
      description: "ملخص المادة",
      image: "/uploads/a.jpg",
      canonical: null,
      noindex: false,
    });
  });
  it("uses the fields when given, the description cut at 300", () => {
    const long = "ك".repeat(400);
    expect(
      effectiveSharing({
        ...item,
        metaDescription: long,
        shareTitle: "عنوان المشاركة",
        shareImage: "/uploads/b.png",
        canonicalUrl: "https://example.org/x",
        noindex: true,
      }),
    ).toEqual({
      title: "عنوان المشاركة",
      description: long.slice(0, DESCRIPTION_MAX),
      image: "/uploads/b.png",
      canonical: "https://example.org/x",
      noindex: true,
    });
  });
});

describe("snippetText", () => {
  it("cuts as a search engine does: at a word's end near the limit, with an ellipsis", () => {
    expect(snippetText("قصير", 60)).toBe("قصير");
    const words = Array.from({ length: 20 }, (_, i) => `كلمة${i}`).join(" ");
    const cut = snippetText(words, 60);
    expect(cut.endsWith("…")).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(61);
    expect(words.startsWith(cut.slice(0, -1))).toBe(true);
    expect(cut.slice(0, -1)).not.toMatch(/\s$/);
    expect(snippetText("x".repeat(100), 60)).toBe(`${"x".repeat(60)}…`);
  });
});
