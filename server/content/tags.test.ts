/**
 * Tags on a real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set): an item's tags saved through the
 * newsroom's one save, spellings the search analysis folds kept as one tag, the form's suggestions, the tags
 * screen's rename (into another tag's spelling: a merge), merge and delete, the bulk action that adds a tag, and
 * what readers get (a tag's published items of every type, its feed, the sitemap's tag pages).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { ContentType } from "#domain/content-types/index.ts";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { authors, categories, tags } from "#server/db/schema.server.ts";
import { ConflictError, NotFoundError } from "#server/http/errors.server.ts";
import { getForStaff } from "./newsroom/read.server.ts";
import { createItem, deleteItem, updateItem } from "./newsroom/write.server.ts";
import { countSitemapEntries, listSitemapEntries } from "./sitemap.server.ts";
import {
  addTagToItems,
  countTagPages,
  deleteTag,
  listTagFeedItems,
  listTagItems,
  listTags,
  mergeTags,
  renameTag,
  suggestTags,
  tagBySlug,
  tagsOfItems,
} from "./tags.server.ts";

const editor = { id: "user-tags", email: "tags.desk@example.org" };
const body = "<p>نص كامل يتجاوز عشرين حرفًا بكثير كما يكتبه المحرر.</p>";

for (const kind of testDatabaseKinds) {
  describe(`tags (${kind})`, () => {
    let h: TestDatabase;
    let categoryId: number;

    const article = (title: string, tagNames: unknown, status = "published") =>
      createItem(h.db, "article", { title, status, excerpt: "مقتطف المقال التجريبي", content: body, category_id: String(categoryId), tags: tagNames }, editor);
    const news = (title: string, tagNames: unknown) =>
      createItem(
        h.db,
        "news",
        {
          title,
          status: "published",
          excerpt: "مقتطف الخبر التجريبي",
          content: body,
          category_id: categoryId,
          priority: "high",
          location: "نواكشوط",
          tags: tagNames,
        },
        editor,
      );
    const namesOf = async (type: ContentType, id: number) => ((await tagsOfItems(h.db, type, [id])).get(id) ?? []).map((t) => t.name);
    const idOf = async (name: string) => (await suggestTags(h.db, name, 1))[0].id;

    beforeAll(async () => {
      h = await createTestDatabase(kind);
      const [c] = await h.db.insert(categories).values({ name: "سياسة", nameFr: "Politique", slug: "politics", type: "news" }).returning({ id: categories.id });
      categoryId = c.id;
    });
    afterAll(() => h?.drop());

    it("saves an item's tags with the item, one tag for every spelling the search analysis folds", async () => {
      const a = await article("مقال عن الانتخابات في نواكشوط", "نواكشوط، الإنتخابات الرئاسية,  شنقيط ");
      expect(await namesOf("article", a.id)).toEqual(["الإنتخابات الرئاسية", "شنقيط", "نواكشوط"]);
      // Another editor's spellings: hamza, taa marbuta, alef forms. Still three tags, under their first spelling.
      const b = await news("خبر عن الانتخابات الرئاسية اليوم", ["الانتخابات الرئاسيه", { name: "نواكشوط" }, "أطار"]);
      expect(await namesOf("news", b.id)).toEqual(["أطار", "الإنتخابات الرئاسية", "نواكشوط"]);
      expect((await h.db.select().from(tags)).length).toBe(4);
      const item = (await getForStaff(h.db, "news", b.id)) as unknown as { tags: { slug: string; name: string }[] };
      expect(item.tags.map((t) => t.name)).toEqual(["أطار", "الإنتخابات الرئاسية", "نواكشوط"]);
      expect(item.tags[0].slug).toBe("أطار");
    });

    it("suggests tags as they are typed: with or without «ال», any hamza, by the start of any word", async () => {
      expect((await suggestTags(h.db, "انتخ", 8)).map((t) => t.name)).toEqual(["الإنتخابات الرئاسية"]);
      expect((await suggestTags(h.db, "الانتخابات", 8)).map((t) => t.name)).toEqual(["الإنتخابات الرئاسية"]);
      expect((await suggestTags(h.db, "رئاس", 8)).map((t) => t.name)).toEqual(["الإنتخابات الرئاسية"]);
      const [nkc] = await suggestTags(h.db, "نواك", 8);
      expect(nkc).toMatchObject({ name: "نواكشوط", count: 2 });
      expect(await suggestTags(h.db, "كشوط", 8)).toEqual([]);
      expect(await suggestTags(h.db, "%", 8)).toEqual([]);
    });

    it("lists tags by name with their item counts, and finds them however they are spelt", async () => {
      const all = await listTags(h.db, { page: 1, perPage: 50 });
      expect(all.total).toBe(4);
      expect(all.tags.find((t) => t.name === "نواكشوط")).toMatchObject({ count: 2, url: `/tags/${encodeURIComponent("نواكشوط")}` });
      expect((await listTags(h.db, { q: "الانتخابات", page: 1, perPage: 50 })).tags.map((t) => t.name)).toEqual(["الإنتخابات الرئاسية"]);
    });

    it("adds a tag to items and keeps the tags they had (the bulk action)", async () => {
      const a = await article("مقال ثان عن مدينة شنقيط القديمة", ["شنقيط"]);
      const b = await article("مقال ثالث عن التراث في وادان", []);
      await h.db.transaction(async (tx) => addTagToItems(tx as never, "article", [a.id, b.id], "التراث"));
      expect(await namesOf("article", a.id)).toEqual(["التراث", "شنقيط"]);
      expect(await namesOf("article", b.id)).toEqual(["التراث"]);
      // Again, in another spelling: nothing doubles.
      await h.db.transaction(async (tx) => addTagToItems(tx as never, "article", [a.id], "الثراث".replace("ث", "ت")));
      expect(await namesOf("article", a.id)).toEqual(["التراث", "شنقيط"]);
    });

    it("renames a tag's name and slug; a slug another tag has is refused; an unknown tag is not found", async () => {
      const id = await idOf("أطار");
      const { tag, mergedFrom } = await renameTag(h.db, id, { name: "مدينة أطار", slug: "atar" });
      expect(tag).toMatchObject({ id, name: "مدينة أطار", slug: "atar", count: 1 });
      expect(mergedFrom).toEqual([]);
      expect(await tagBySlug(h.db, "ATAR")).toMatchObject({ id });
      await expect(renameTag(h.db, id, { slug: (await tagBySlug(h.db, "نواكشوط"))!.slug })).rejects.toBeInstanceOf(ConflictError);
      await expect(renameTag(h.db, 999_999, { name: "لا شيء" })).rejects.toBeInstanceOf(NotFoundError);
    });

    it("merges when a tag is renamed to another tag's spelling: items keep one copy, the renamed one is gone", async () => {
      const atar = await idOf("مدينة أطار");
      const nkc = await idOf("نواكشوط");
      const { tag, mergedFrom } = await renameTag(h.db, atar, { name: "نواكشوط" });
      expect(tag.id).toBe(nkc);
      expect(mergedFrom).toEqual([atar]);
      // The news item had both: it now has نواكشوط once.
      const all = await listTags(h.db, { page: 1, perPage: 50 });
      expect(all.tags.find((t) => t.id === nkc)?.count).toBe(2);
      expect(all.tags.some((t) => t.id === atar)).toBe(false);
    });

    it("merges several tags into one, moving their items and dropping duplicates", async () => {
      const chinguetti = await idOf("شنقيط");
      const heritage = await idOf("التراث");
      const { tag } = await mergeTags(h.db, { into: heritage, from: [chinguetti, heritage] });
      expect(tag).toMatchObject({ id: heritage, count: 3 });
      expect(await tagBySlug(h.db, "شنقيط")).toBeNull();
      await expect(mergeTags(h.db, { into: heritage, from: [999_999] })).rejects.toBeInstanceOf(NotFoundError);
    });

    it("shows readers a tag's published items of every type, newest first, and its feed; drafts and deleted items are not there", async () => {
      const draft = await article("مسودة عن نواكشوط لم تنشر بعد", ["نواكشوط"], "draft");
      const nkc = (await tagBySlug(h.db, "نواكشوط"))!;
      const { items, total } = await listTagItems(h.db, nkc.id, { offset: 0, limit: 12 });
      expect(total).toBe(2);
      expect(items.map((i) => i.type).sort()).toEqual(["article", "news"]);
      expect(items.some((i) => i.id === draft.id && i.type === "article")).toBe(false);
      expect(items[0].url).toMatch(/^\/(news|articles)\//);
      expect((await listTagItems(h.db, nkc.id, { offset: 1, limit: 12 })).items).toHaveLength(1);
      const feed = await listTagFeedItems(h.db, nkc);
      expect(feed).toHaveLength(2);
      expect(feed[0]).toMatchObject({ category: "نواكشوط" });
      await deleteItem(h.db, "news", items.find((i) => i.type === "news")!.id);
      expect((await listTagItems(h.db, nkc.id, { offset: 0, limit: 12 })).total).toBe(1);
    });

    it("lists the tags with published items in the sitemap, after the items", async () => {
      const entries = await listSitemapEntries(h.db);
      const tagPages = entries.filter((e) => e.path.startsWith("/tags/")).map((e) => decodeURIComponent(e.path));
      expect(tagPages.sort()).toEqual(["/tags/التراث", "/tags/الإنتخابات-الرئاسية", "/tags/نواكشوط"].sort());
      expect(await countTagPages(h.db)).toBe(3);
      expect(await countSitemapEntries(h.db)).toBe(entries.length);
      expect(entries.at(-1)!.path.startsWith("/tags/")).toBe(true);
    });

    it("deletes a tag and says how many items it was on; the items keep their other tags", async () => {
      const id = await idOf("الانتخابات الرئاسية");
      const [first] = (await listTagItems(h.db, id, { offset: 0, limit: 1 })).items;
      expect(await deleteTag(h.db, id)).toEqual({ id, items: 1 });
      // Its شنقيط was merged into التراث above.
      expect(await namesOf("article", first.id)).toEqual(["التراث", "نواكشوط"]);
      await expect(deleteTag(h.db, id)).rejects.toBeInstanceOf(NotFoundError);
      // Saving the item with its form's text gives it exactly those tags.
      await updateItem(h.db, "article", first.id, { tags: "نواكشوط، وادان" }, editor, { partial: true });
      expect(await namesOf("article", first.id)).toEqual(["نواكشوط", "وادان"]);
      expect((await h.db.select().from(tags).where(eq(tags.name, "وادان"))).length).toBe(1);
    });

    it("credits each of an item's author profiles in the tag's feed", async () => {
      const [{ id: writer }] = await h.db.insert(authors).values({ slug: "tags-feed-writer", name: "مريم بنت أحمد" }).returning({ id: authors.id });
      await createItem(
        h.db,
        "article",
        {
          title: "رحلة إلى وادان القديمة",
          status: "published",
          excerpt: "مقتطف المقال التجريبي",
          content: body,
          category_id: String(categoryId),
          tags: ["وادان"],
          authors: [writer],
        },
        editor,
      );
      const [item] = await listTagFeedItems(h.db, (await tagBySlug(h.db, "وادان"))!);
      expect(item.authors).toEqual(["مريم بنت أحمد"]);
    });

    it("reuses the tag a name is with or without «ال» (issue 46): one tag, and an item never carries both", async () => {
      const a = await article("مقال عن المخطوطات في شنقيط", ["المخطوطات"]);
      const b = await article("مقال آخر عن مخطوطات ولاتة", ["مخطوطات", "تراث الصحراء"]);
      expect(await namesOf("article", b.id)).toEqual(["المخطوطات", "تراث الصحراء"]);
      // Both spellings on one item: one tag.
      const c = await article("مقال عن التراث الصحراوي", ["التراث الصحراء", "تراث الصحراء", "مخطوطات"]);
      expect(await namesOf("article", c.id)).toEqual(["المخطوطات", "تراث الصحراء"]);
      const manuscripts = (await h.db.select().from(tags)).filter((t) => t.name.includes("مخطوطات"));
      expect(manuscripts).toHaveLength(1);
      // A word whose «ال» is its own letters is not read as the article: «الله» is not «له».
      const d = await article("مقال عن اسم الجلالة", ["له", "الله"]);
      expect(await namesOf("article", d.id)).toEqual(["الله", "له"]);
      expect(a.id).toBeGreaterThan(0);
    });

    it("merges when a tag is renamed to a name another tag is with or without «ال»", async () => {
      await article("مقال عن الواحات", ["الواحات"]);
      await article("مقال عن واحات أدرار", ["واحات أدرار"]);
      const oases = await idOf("الواحات");
      const adrar = await idOf("واحات أدرار");
      const { tag, mergedFrom } = await renameTag(h.db, adrar, { name: "واحات" });
      expect(tag).toMatchObject({ id: oases, name: "واحات", count: 2 });
      expect(mergedFrom).toEqual([adrar]);
    });
  });
}
