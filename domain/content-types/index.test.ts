import { describe, expect, it } from "vitest";
import ar from "#domain/locales/ar/common.json" with { type: "json" };
import { ALL_CONTENT_TYPES, categoriesOf, CONTENT_TYPES, contentTypeBySegment, definitionOf, inOrderOf, offersCategory, publicUrl } from "./index.ts";
import { CATEGORIES } from "#server/db/seed-data/categories.ts";
import { formSchemaOf } from "./schema.ts";

/** A translation key the Arabic file has (a counted key by its plural forms). */
const hasKey = (key: string) => {
  const at = (k: string) => k.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], ar);
  return typeof at(key) === "string" || typeof at(`${key}_other`) === "string";
};

const FILE_KINDS = ["image", "audio", "video", "file", "captions"];

describe("the content-type definitions", () => {
  it("name each type, segment, table and public path once", () => {
    for (const key of ["type", "segment", "table", "publicPath"] as const) {
      const values = ALL_CONTENT_TYPES.map((d) => d[key]);
      expect(new Set(values).size, key).toBe(values.length);
    }
    for (const d of ALL_CONTENT_TYPES) {
      expect(definitionOf(d.type)).toBe(d);
      expect(contentTypeBySegment(d.segment)).toBe(d);
      expect(d.publicPath).toMatch(/^\/[a-z]+$/);
    }
    expect(CONTENT_TYPES).toEqual(ALL_CONTENT_TYPES.map((d) => d.type));
    expect(contentTypeBySegment("users")).toBeUndefined();
  });

  it("build each public path from the definition", () => {
    expect(publicUrl("article", "عنوان-المقال")).toBe(`/articles/${encodeURIComponent("عنوان-المقال")}`);
    expect(publicUrl("coverage", "x")).toBe("/coverage/x");
    expect(publicUrl("media", "x", 7)).toBe("/media#media-7");
    expect(publicUrl("media", "x")).toBe("/media");
  });

  it("give every label, message, hint and option a string in the translation file", () => {
    for (const d of ALL_CONTENT_TYPES) {
      const keys = [
        ...Object.values(d.labels),
        `admin.${d.segment}`,
        `dashboard.${d.segment}`,
        `newsroom.ui.upload.cards.${d.type}.title`,
        `newsroom.ui.upload.cards.${d.type}.description`,
        ...d.fields.flatMap((f) => [f.label, f.hint, f.message, f.tooLong, f.plainText, ...(f.options ?? []).map((o) => `${f.optionLabels}.${o}`)]),
        ...d.columns.map((c) => c.label),
        d.detail.relatedTitle,
        d.detail.dateLabel,
        d.detail.kicker.label,
        d.detail.kicker.fallback,
        ...(d.detail.kicker.option ? [d.detail.kicker.option.labels] : []),
        ...d.detail.facts.flatMap((f) => [f.label, f.template, f.counted]),
      ].filter((k): k is string => k !== undefined);
      for (const key of keys) expect(hasKey(key) || (ar as Record<string, unknown>)[key] !== undefined, `${d.type}: ${key}`).toBe(true);
    }
  });

  it("list columns, folders, search columns and list actions of fields the type has", () => {
    for (const d of ALL_CONTENT_TYPES) {
      const names = d.fields.map((f) => f.name);
      for (const c of d.columns) expect([...names, "publish_date", "status", "author_name"], `${d.type} column`).toContain(c.field);
      for (const field of Object.keys(d.folders)) expect(FILE_KINDS, `${d.type} folder ${field}`).toContain(d.fields.find((f) => f.name === field)?.kind);
      if (d.openMediaField) expect(names).toContain(d.openMediaField);
      expect(names).toContain(d.summaryField);
      if (d.search) {
        expect(d.search.title[0]).toBe("title");
        for (const column of [...d.search.title, ...d.search.body]) expect(column, `${d.type} search`).toMatch(/^[a-z]+(?:_[a-z]+)*$/);
      }
      // The column key is the name in camelCase, as in server/db/schema.server.ts.
      for (const f of d.fields) expect(f.column).toBe(f.name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()));
    }
  });

  it("offer each type's form the spec's categories, named in its definition (back-office.md §3)", () => {
    const news = definitionOf("news");
    const article = definitionOf("article");
    // "News category slugs: breaking (عاجل), politics, culture, sports, economy."
    expect(news.categories).toEqual(["breaking", "politics", "culture", "sports", "economy"]);
    expect(categoriesOf(news, CATEGORIES).map((c) => c.slug)).toEqual(["breaking", "politics", "culture", "sports", "economy"]);
    expect(offersCategory(news, "poetry")).toBe(false);
    expect(offersCategory(news, "breaking")).toBe(true);
    // Articles: the sections and their chips, no news-only category; media items: every category.
    for (const slug of ["breaking", "sports", "economy"]) expect(offersCategory(article, slug), slug).toBe(false);
    for (const slug of ["politics", "culture", "poetry", "adrar", "op-ed"]) expect(offersCategory(article, slug), slug).toBe(true);
    expect(categoriesOf(definitionOf("media"), CATEGORIES)).toHaveLength(CATEGORIES.length);
    // Every slug a definition names is a category the site has.
    const slugs = new Set(CATEGORIES.map((c) => c.slug));
    for (const d of ALL_CONTENT_TYPES) for (const slug of d.categories ?? []) expect(slugs.has(slug), `${d.type}: ${slug}`).toBe(true);
    // Only a type with a category field names categories.
    const withCategories = ALL_CONTENT_TYPES.filter((d) => d.categories);
    for (const d of withCategories)
      expect(
        d.fields.map((f) => f.kind),
        d.type,
      ).toContain("category");
  });

  it("place each type once on the dashboard and on the upload hub, in the spec's orders (back-office.md §2)", () => {
    expect(inOrderOf("dashboard").map((d) => d.segment)).toEqual(["articles", "news", "podcasts", "programs", "coverage", "media"]);
    expect(inOrderOf("upload").map((d) => d.type)).toEqual(["news", "article", "coverage", "podcast", "program", "media"]);
  });

  it("build each type's form schema from its fields: required ones refuse a blank with their message", () => {
    for (const d of ALL_CONTENT_TYPES) {
      const result = formSchemaOf(d.type).safeParse({});
      expect(result.success).toBe(false);
      const refused = new Set(result.error?.issues.map((i) => String(i.path[0])));
      for (const f of d.fields) expect(refused.has(f.name), `${d.type}.${f.name}`).toBe(Boolean(f.required));
    }
  });
});
