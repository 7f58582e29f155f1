/**
 * Moved addresses written by the changes that move a page (decision 0144): a tag renamed (its slug) or merged, a
 * published item's slug changed; a deleted tag's old addresses forgotten. On PGlite, and PostgreSQL when
 * TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { categories } from "#server/db/schema.server.ts";
import { createItem, updateItem } from "./newsroom/write.server.ts";
import { canonicalPath, movedAddressResponse, movedTo } from "./moved-addresses.server.ts";
import { deleteTag, mergeTags, renameTag, tagBySlug } from "./tags.server.ts";

const editor = { id: "user-moves", email: "moves.desk@example.org" };
const body = "<p>نص كامل يتجاوز عشرين حرفًا بكثير كما يكتبه المحرر.</p>";

describe.each(testDatabaseKinds)("moved addresses on %s", (kind) => {
  let h: TestDatabase;
  let categoryId: number;
  const article = (title: string, tags: string, status = "published") =>
    createItem(h.db, "article", { title, status, excerpt: "مقتطف المقال التجريبي", content: body, category_id: String(categoryId), tags }, editor);

  beforeAll(async () => {
    h = await createTestDatabase(kind);
    const [c] = await h.db.insert(categories).values({ name: "ثقافة", nameFr: "Culture", slug: "culture", type: "culture" }).returning({ id: categories.id });
    categoryId = c.id;
  });
  afterAll(() => h?.drop());

  it("a renamed tag's old address leads to its new one, and a merged tag's to the tag it went into", async () => {
    await article("مقال عن مدينة أطار القديمة", "أطار، شنقيط، وادان");
    const atar = (await tagBySlug(h.db, "أطار"))!;
    await renameTag(h.db, atar.id, { slug: "atar" });
    expect(await movedTo(h.db, canonicalPath("/tags/أطار"))).toBe("/tags/atar");
    await renameTag(h.db, atar.id, { slug: "atar-city" });
    // Collapsed: the first address leads straight to the latest.
    expect(await movedTo(h.db, canonicalPath("/tags/أطار"))).toBe("/tags/atar-city");
    expect(await movedTo(h.db, "/tags/atar")).toBe("/tags/atar-city");
    const [chinguetti, ouadane] = [(await tagBySlug(h.db, "شنقيط"))!, (await tagBySlug(h.db, "وادان"))!];
    await mergeTags(h.db, { into: chinguetti.id, from: [ouadane.id] });
    expect(await movedTo(h.db, canonicalPath("/tags/وادان"))).toBe(canonicalPath("/tags/شنقيط"));
    // The tag is deleted: its old addresses answer their 404 again rather than a 301 to one.
    await deleteTag(h.db, atar.id);
    expect(await movedTo(h.db, "/tags/atar")).toBeNull();
  });

  it("a published item's changed slug is a moved address; a draft's is not", async () => {
    const item = await article("مقال منشور بعنوان أول", "");
    await updateItem(h.db, "article", item.id, { ...item, category_id: String(categoryId), page_slug: "second-title" }, editor, { partial: true });
    expect(await movedTo(h.db, `/articles/${encodeURIComponent(item.page_slug)}`)).toBe("/articles/second-title");
    const draft = await article("مسودة لم تنشر بعد", "", "draft");
    await updateItem(h.db, "article", draft.id, { page_slug: "draft-renamed" }, editor, { partial: true });
    expect(await movedTo(h.db, `/articles/${encodeURIComponent(draft.page_slug)}`)).toBeNull();
  });

  it("answers the move with a 301 while the item is published, and not once it is a draft again", async () => {
    const item = await article("مقال ينقل ثم يعاد مسودة", "");
    await updateItem(h.db, "article", item.id, { ...item, category_id: String(categoryId), page_slug: "moved-then-drafted" }, editor, { partial: true });
    const oldAddress = (lang: string) => new Request(`http://site.test${lang}/articles/${encodeURIComponent(item.page_slug)}?from=share`);
    const moved = await movedAddressResponse(h.db, oldAddress("/fr"));
    expect([moved?.status, moved?.headers.get("location")]).toEqual([301, "/fr/articles/moved-then-drafted?from=share"]);
    await updateItem(h.db, "article", item.id, { status: "draft" }, editor, { partial: true });
    // The row stays (the item may be published again); the answer is the page's own 404, not a 301 to one.
    expect(await movedTo(h.db, `/articles/${encodeURIComponent(item.page_slug)}`)).toBe("/articles/moved-then-drafted");
    expect(await movedAddressResponse(h.db, oldAddress(""))).toBeNull();
  });
});
