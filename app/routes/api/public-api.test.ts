/**
 * The public REST endpoints (public-site.md §7) on a seeded database: shapes, published-only, ordering,
 * limits and the 400 INVALID_QUERY answers for bad query strings (docs/api-errors.md).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray, or } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { setDatabaseHandle } from "#server/db/client.server.ts";
import { seedDemoContent } from "#server/db/seed.server.ts";
import { articles, categories, CATEGORY_TYPES } from "#server/db/schema.server.ts";
import { loader as articlesLoader } from "./articles.ts";
import { loader as categoriesLoader } from "./categories.ts";
import { loader as literatureLoader } from "./literature.ts";
import { loader as literatureTypesLoader } from "./literature-types.ts";
import { loader as newsLoader } from "./news.ts";
import { recordLibraryFile, updateLibraryFile } from "#server/media/library.server.ts";
import type { ImageDetailsMap } from "#domain/image-details.ts";
import { sharedCacheControl } from "#server/http/shared-cache.server.ts";

type Loader = (args: never) => Promise<Response>;

/** The answers' JSON, as far as these tests read it. */
type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };
type ArticleJson = { id: number; slug: string; url: string; publishDate: string; category: { slug: string } | null };
type CategoryJson = { id: number; slug: string; type: string; parentId: number | null };
type LiteratureJson = { slug: string; type: string; typeFr: string; category: string; content: string; date: string };
type Articles = { articles: ArticleJson[] };
type Categories = { categories: CategoryJson[] };
type Literature = { items: LiteratureJson[] };

async function get<T = ErrorBody>(loader: Loader, query = "") {
  const response = await loader({ request: new Request(`http://localhost/api/x${query}`), params: {}, context: {} } as never);
  return { status: response.status, cache: response.headers.get("cache-control"), body: (await response.json()) as T };
}

describe.each(testDatabaseKinds)("public API on %s", (kind) => {
  let t: TestDatabase;
  const uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-"));
  /** Slugs of a section's parent and children. */
  const sectionSlugs = async (section: string) => {
    const [parent] = await t.db.select({ id: categories.id }).from(categories).where(eq(categories.slug, section));
    const rows = await t.db
      .select({ slug: categories.slug })
      .from(categories)
      .where(or(eq(categories.id, parent.id), eq(categories.parentId, parent.id)));
    return new Set(rows.map((r) => r.slug));
  };
  const drafts = async () => (await t.db.select({ slug: articles.pageSlug }).from(articles).where(eq(articles.status, "draft"))).map((r) => r.slug);

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    setDatabaseHandle(t);
    await seedDemoContent(t.db, { uploadsDir });
    const ids = Object.fromEntries(
      (
        await t.db
          .select({ id: categories.id, slug: categories.slug })
          .from(categories)
          .where(inArray(categories.slug, ["poetry", "music"]))
      ).map((c) => [c.slug, c.id]),
    );
    // A literature draft and a culture article scheduled for tomorrow: neither may appear.
    await t.db.insert(articles).values([
      { title: "مسودة قصيدة", content: "بيت\nبيت", categoryId: ids.poetry, status: "draft", pageSlug: "api-test-poem-draft" },
      {
        title: "مقال مجدول",
        content: "نص",
        categoryId: ids.music,
        status: "published",
        pageSlug: "api-test-scheduled",
        publishDate: new Date(Date.now() + 86_400_000),
      },
    ]);
  });
  afterAll(async () => {
    setDatabaseHandle(undefined);
    await t?.drop();
    fs.rmSync(uploadsDir, { recursive: true, force: true });
  });

  describe("GET /api/articles", () => {
    it.each(["culture", "opinion"])("?category=%s lists the section's published articles, children included, newest first", async (section) => {
      const { status, cache, body } = await get<Articles>(articlesLoader, `?category=${section}&limit=50`);
      expect(status).toBe(200);
      expect(cache).toBe(sharedCacheControl(60));
      const list = body.articles;
      expect(list.length).toBeGreaterThan(3);
      const allowed = await sectionSlugs(section);
      for (const a of list) expect(allowed.has(a.category!.slug), a.slug).toBe(true);
      // Children are included, not only the parent.
      expect(list.some((a) => a.category!.slug !== section)).toBe(true);
      const dates = list.map((a) => Date.parse(a.publishDate));
      expect(dates).toEqual([...dates].sort((x, y) => y - x));
      const hidden = [...(await drafts()), "api-test-scheduled"];
      for (const a of list) expect(hidden).not.toContain(a.slug);
      expect(Object.keys(list[0]).sort()).toEqual(
        [
          "author",
          "category",
          "excerpt",
          "excerptFr",
          "featured",
          "id",
          "imageUrl",
          "publishDate",
          "readTime",
          "slug",
          "title",
          "titleFr",
          "url",
          "views",
        ].sort(),
      );
      expect(list[0].url).toBe(`/articles/${list[0].slug}`);
    });

    it("has a draft in the seed to prove the filter (culture and opinion each hold one)", async () => {
      const d = await drafts();
      expect(d).toContain("ouadane-visitor-guide-draft");
      expect(d).toContain("sunday-notebook-draft");
    });

    it("honours limit and offset, and lists every section without a category", async () => {
      const first = (await get<Articles>(articlesLoader, "?category=culture&limit=2")).body.articles;
      expect(first).toHaveLength(2);
      const next = (await get<Articles>(articlesLoader, "?category=culture&limit=2&offset=2")).body.articles;
      expect(next[0].id).not.toBe(first[0].id);
      const all = (await get<Articles>(articlesLoader, "?limit=50")).body.articles;
      expect(new Set(all.map((a) => a.category?.slug)).size).toBeGreaterThan(4);
    });

    it.each([
      ["?category=nope", "category"],
      ["?category=<script>", "category"],
      ["?category=", "category"],
      ["?limit=0", "limit"],
      ["?limit=51", "limit"],
      ["?limit=ten", "limit"],
      ["?offset=-1", "offset"],
      ["?sort=views", "sort"],
      ["?category=culture&category=opinion", "category"],
      [`?category=${"x".repeat(500)}`, "category"],
    ])("answers 400 INVALID_QUERY for %s, naming the parameter", async (query, parameter) => {
      const { status, body, cache } = await get(articlesLoader, query);
      expect(status).toBe(400);
      expect(cache).toBe("no-store");
      expect(body.error.code).toBe("INVALID_QUERY");
      expect(Object.keys(body.error.fields!)).toEqual([parameter]);
      expect(body.error.message).toBe(body.error.fields![parameter]);
      expect(body.error.message.length).toBeGreaterThan(10);
      expect(JSON.stringify(body)).not.toContain("<script>");
    });
  });

  describe("GET /api/categories", () => {
    it("lists every category, each parent before its children", async () => {
      const { status, cache, body } = await get<Categories>(categoriesLoader);
      expect(status).toBe(200);
      expect(cache).toBe(sharedCacheControl(60));
      const list = body.categories;
      expect(list.length).toBeGreaterThan(20);
      expect(Object.keys(list[0]).sort()).toEqual(["description", "descriptionFr", "id", "name", "nameFr", "parentId", "slug", "sortOrder", "type"]);
      const position = new Map(list.map((c, i) => [c.id, i]));
      for (const c of list) if (c.parentId) expect(position.get(c.parentId)!).toBeLessThan(position.get(c.id)!);
    });

    it.each(CATEGORY_TYPES)("?type=%s lists only that type", async (type) => {
      const { status, body } = await get<Categories>(categoriesLoader, `?type=${type}`);
      expect(status).toBe(200);
      for (const c of body.categories) expect(c.type).toBe(type);
    });

    it("lists culture's parent and children for ?type=culture", async () => {
      const slugs = (await get<Categories>(categoriesLoader, "?type=culture")).body.categories.map((c) => c.slug);
      expect(slugs).toEqual(expect.arrayContaining(["culture", "music", "crafts", "manuscripts", "architecture"]));
    });

    it.each(["?type=nope", "?type=%3Cscript%3E", "?type=Culture", "?kind=culture"])("answers 400 for %s", async (query) => {
      const { status, body } = await get(categoriesLoader, query);
      expect(status).toBe(400);
      expect(body.error.code).toBe("INVALID_QUERY");
      expect(Object.keys(body.error.fields!)).toEqual([query.slice(1).split("=")[0]]);
    });
  });

  describe("GET /api/literature and /api/literature-types", () => {
    it("lists published literature as the spec's literature item", async () => {
      const { status, cache, body } = await get<Literature>(literatureLoader, "?limit=50");
      expect(status).toBe(200);
      expect(cache).toBe(sharedCacheControl(60));
      const items = body.items;
      expect(items.length).toBeGreaterThanOrEqual(8);
      for (const key of ["type", "typeFr", "title", "excerpt", "content", "author", "date", "views", "readTime", "featured", "category"]) {
        expect(items[0]).toHaveProperty(key);
      }
      const types = new Set(items.map((i) => i.type));
      for (const type of types) expect(["poetry", "prose", "folktales", "translations"]).toContain(type);
      expect(types.size).toBe(4);
      expect(items.map((i) => i.slug)).not.toContain("api-test-poem-draft");
      const poem = items.find((i) => i.type === "poetry")!;
      expect(poem.typeFr).toBe("Poésie");
      expect(poem.category).toBe("الشعر");
      expect(poem.content.split("\n").length).toBeGreaterThanOrEqual(6);
      const dates = items.map((i) => Date.parse(i.date));
      expect(dates).toEqual([...dates].sort((x, y) => y - x));
    });

    it("filters by ?type=", async () => {
      for (const type of ["poetry", "prose", "folktales", "translations"]) {
        const items = (await get<Literature>(literatureLoader, `?type=${type}`)).body.items;
        expect(items.length, type).toBeGreaterThan(0);
        for (const i of items) expect(i.type).toBe(type);
      }
    });

    it.each(["?type=%3Cscript%3E", "?type=novel", "?limit=100", "?page=2"])("answers 400 for %s", async (query) => {
      const { status, body } = await get(literatureLoader, query);
      expect(status).toBe(400);
      expect(JSON.stringify(body)).not.toContain("<script>");
    });

    it("lists the four literature types with their names", async () => {
      const { status, body } = await get<{ types: unknown[] }>(literatureTypesLoader);
      expect(status).toBe(200);
      expect(body.types).toEqual([
        { type: "poetry", name: "الشعر", nameFr: "Poésie" },
        { type: "prose", name: "النثر", nameFr: "Prose" },
        { type: "folktales", name: "الحكايات الشعبية", nameFr: "Contes populaires" },
        { type: "translations", name: "الترجمات", nameFr: "Traductions" },
      ]);
      expect((await get(literatureTypesLoader, "?x=1")).status).toBe(400);
    });
  });

  describe("GET /api/news", () => {
    it("answers a page of news, page 1 without ?page", async () => {
      const first = await get<{ items: unknown[] }>(newsLoader);
      expect(first.status).toBe(200);
      expect(first.cache).toBe(sharedCacheControl(30));
      expect(first.body.items.length).toBeGreaterThan(0);
      expect((await get(newsLoader, "?page=2")).status).toBe(200);
    });

    it("carries the library's alt text and focal point of the page's pictures in `images`, by URL", async () => {
      type NewsJson = { items: { imageUrl: string | null }[]; images: ImageDetailsMap };
      const before = await get<NewsJson>(newsLoader);
      const url = before.body.items.find((item) => item.imageUrl)?.imageUrl;
      expect(url).toBeTruthy();
      const file = await recordLibraryFile(t.db, { url: url!, kind: "image" });
      await updateLibraryFile(t.db, file.id, { alt: { ar: "نص بديل للخبر", fr: "Texte de remplacement" }, focal: { x: 0.2, y: 0.8 } });
      const { status, body } = await get<NewsJson>(newsLoader);
      expect(status).toBe(200);
      expect(body.images[url!]).toMatchObject({ alt: { ar: "نص بديل للخبر", fr: "Texte de remplacement" }, focal: { x: 0.2, y: 0.8 } });
      // Only pictures of this page: every key is one of its items' images.
      const shown = new Set(body.items.map((item) => item.imageUrl));
      for (const key of Object.keys(body.images)) expect(shown.has(key)).toBe(true);
    });

    it.each([
      ["?page=0", "page"],
      ["?page=-1", "page"],
      ["?page=1e2", "page"],
      ["?page=501", "page"],
      ["?page=1&page=2", "page"],
      ["?sort=new", "sort"],
    ])("answers 400 for %s", async (query, parameter) => {
      const { status, body } = await get(newsLoader, query);
      expect(status).toBe(400);
      expect(body.error.code).toBe("INVALID_QUERY");
      expect(Object.keys(body.error.fields!)).toEqual([parameter]);
    });
  });

  it("answers 500 without details when the database fails", async () => {
    const { openDatabase } = await import("#server/db/client.server.ts");
    const broken = openDatabase({ inMemory: true });
    setDatabaseHandle(broken);
    try {
      const { status, body } = await get(categoriesLoader);
      expect(status).toBe(500);
      expect(body.error.code).toBe("INTERNAL_ERROR");
      expect(JSON.stringify(body)).not.toMatch(/relation|categories|select/i);
    } finally {
      setDatabaseHandle(t);
      await broken.close();
    }
  });
});
