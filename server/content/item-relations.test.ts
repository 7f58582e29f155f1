/**
 * An item's relations (authors, tags) go through the newsroom's one save path: written in the save's own
 * transaction, read back with the item by the staff reader and the JSON API, kept in revisions, refused with
 * the field's message when they name what does not exist, and forgotten with the item.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { authors, categories, itemAuthors, itemTags, tags, user } from "#server/db/schema.server.ts";
import { ValidationError } from "#server/http/errors.server.ts";
import { findPublishedItem, listRelated } from "./detail.server.ts";
import { searchPublished } from "#server/search/search.server.ts";
import { getForStaff, listForStaff } from "./newsroom/read.server.ts";
import { createItem, deleteItem, updateItem } from "./newsroom/write.server.ts";
import { getRevision, listRevisions, restoreRevision } from "./newsroom/revisions.server.ts";

const editor = { id: "user-rel", email: "khadija@example.org" };

for (const kind of testDatabaseKinds) {
  describe(`item relations (${kind})`, () => {
    let h: TestDatabase;
    let categoryId: number;
    let profile: number;
    let guest: number;
    const news = (extra: Record<string, unknown>) => ({
      title: "افتتاح مهرجان المدن القديمة",
      excerpt: "ملخص الخبر التجريبي",
      content: "<p>نص الخبر الكامل الذي يتجاوز عشرين حرفًا بكثير.</p>",
      category_id: String(categoryId),
      priority: "high",
      status: "published",
      ...extra,
    });

    beforeAll(async () => {
      h = await createTestDatabase(kind);
      [{ id: categoryId }] = await h.db.insert(categories).values({ name: "سياسة", slug: "politics", type: "news" }).returning({ id: categories.id });
      await h.db.insert(user).values({ id: editor.id, name: "Khadija", email: editor.email });
      [{ id: profile }] = await h.db.insert(authors).values({ slug: "khadija", name: "خديجة", userId: editor.id }).returning({ id: authors.id });
      [{ id: guest }] = await h.db.insert(authors).values({ slug: "guest", name: "كاتب ضيف", nameFr: "Auteur invité" }).returning({ id: authors.id });
    });
    afterAll(() => h?.drop());

    it("gives a new item without authors the account's own profile, and keeps the named ones in their order", async () => {
      const mine = await createItem(h.db, "news", news({}), editor);
      expect((mine.authors as { name: string }[]).map((a) => a.name)).toEqual(["خديجة"]);
      const both = await createItem(h.db, "news", news({ authors: `${guest},${profile}`, tags: "نواكشوط، الانتخابات الرئاسية" }), editor);
      expect((both.authors as { id: number }[]).map((a) => a.id)).toEqual([guest, profile]);
      expect((both.tags as { name: string }[]).map((t) => t.name).sort()).toEqual(["الانتخابات الرئاسية", "نواكشوط"]);
      const listed = (await listForStaff(h.db, "news")).items.find((i) => i.id === both.id)!;
      expect((listed.authors as { slug: string }[]).map((a) => a.slug)).toEqual(["guest", "khadija"]);
    });

    it("finds a tag under another spelling, and a partial update keeps what it does not name", async () => {
      const item = await createItem(h.db, "news", news({ tags: ["الإنتخابات الرئاسية"] }), editor);
      const [tag] = item.tags as { id: number; name: string }[];
      // One tag for two spellings, shown under the first.
      expect(tag.name).toBe("الانتخابات الرئاسية");
      expect(await h.db.select().from(tags)).toHaveLength(2);
      const renamed = await updateItem(h.db, "news", item.id, { title: "عنوان جديد للخبر" }, editor, { partial: true });
      expect((renamed.tags as { id: number }[]).map((t) => t.id)).toEqual([tag.id]);
      expect((renamed.authors as { id: number }[]).map((a) => a.id)).toEqual([profile]);
      const cleared = await updateItem(h.db, "news", item.id, { tags: [] }, editor, { partial: true });
      expect(cleared.tags).toEqual([]);
      // The revision kept the tags as they were; restoring it brings them back.
      const revisions = await listRevisions(h.db, "news", item.id);
      const first = revisions[revisions.length - 1];
      expect(((await getRevision(h.db, "news", item.id, first.id))!.data.tags as { name: string }[]).map((t) => t.name)).toEqual(["الانتخابات الرئاسية"]);
      const restored = await restoreRevision(h.db, "news", item.id, first.id, editor);
      expect((restored.tags as { id: number }[]).map((t) => t.id)).toEqual([tag.id]);
    });

    it("refuses an author that is no profile and too many tags, writing nothing", async () => {
      const before = (await listForStaff(h.db, "news")).counts.all;
      const unknown = await createItem(h.db, "news", news({ authors: [999_999] }), editor).catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(ValidationError);
      expect((unknown as ValidationError).fields).toEqual({ authors: "newsroom.v.authorNotFound" });
      const many = Array.from({ length: 21 }, (_, i) => `وسم ${i}`);
      const tooMany = await createItem(h.db, "news", news({ tags: many }), editor).catch((e: unknown) => e);
      expect((tooMany as ValidationError).fields).toEqual({ tags: "newsroom.v.tagsMax" });
      const notANumber = await createItem(h.db, "news", news({ authors: "x" }), editor).catch((e: unknown) => e);
      expect((notANumber as ValidationError).fields).toEqual({ authors: "newsroom.v.authors" });
      expect((await listForStaff(h.db, "news")).counts.all).toBe(before);
    });

    it("gives related cards and search results their bylines", async () => {
      const first = await createItem(h.db, "news", news({ title: "سباق الهجن في تجكجة يجمع القبائل", authors: [guest] }), editor);
      await createItem(h.db, "news", news({ title: "موسم التمور في تجكجة يبدأ مبكرا", authors: [guest, profile] }), editor);
      const related = await listRelated(h.db, "news", { id: first.id, categoryId });
      const dates = related.find((r) => r.title === "موسم التمور في تجكجة يبدأ مبكرا")!;
      expect(dates.bylines?.map((a) => a.name)).toEqual(["كاتب ضيف", "خديجة"]);
      // A type without categories reads its detail page from its table alone: its byline is still its own.
      const podcast = await createItem(
        h.db,
        "podcast",
        { title: "حلقة عن تجكجة", description: "وصف الحلقة", host_name: "مريم", status: "published", authors: [guest] },
        editor,
      );
      await h.db
        .insert(authors)
        .values({ slug: `filler-${podcast.id}`, name: "ملف آخر" })
        .onConflictDoNothing();
      const detail = await findPublishedItem(h.db, "podcast", { id: podcast.id });
      expect((detail!.bylines as unknown as { name: string }[]).map((a) => a.name)).toEqual(["كاتب ضيف"]);
      const found = await searchPublished(h.db, "تجكجة", { types: ["news"] });
      const hit = found.results.find((r) => r.id === first.id)!;
      expect(hit.bylines?.map((a) => a.name_fr)).toEqual(["Auteur invité"]);
    });

    it("forgets an item's authors and tags with the item, and keeps the tag itself", async () => {
      const item = await createItem(h.db, "news", news({ authors: [guest], tags: ["شنقيط"] }), editor);
      await deleteItem(h.db, "news", item.id);
      expect(await getForStaff(h.db, "news", item.id)).toBeNull();
      const where = (t: typeof itemAuthors | typeof itemTags) => and(eq(t.contentType, "news"), eq(t.itemId, item.id));
      expect(await h.db.select().from(itemAuthors).where(where(itemAuthors))).toEqual([]);
      expect(await h.db.select().from(itemTags).where(where(itemTags))).toEqual([]);
      expect((await h.db.select().from(tags).where(eq(tags.name, "شنقيط"))).length).toBe(1);
    });
  });
}
