/**
 * Bulk actions (server/content/bulk.server.ts) on a real database (PGlite, and PostgreSQL when
 * TEST_DATABASE_URL is set): twenty items published in one action with one cache invalidation, all or nothing
 * (a database refusal on one item leaves every item as it was), the category a type does not offer refused,
 * a delete that takes revisions, slug redirects and search rows with it, selection by the list's filter, and
 * the body's refusals.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray, sql } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { categories, contentRevisions, slugRedirects } from "#server/db/schema.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { AppError } from "#server/http/errors.server.ts";
import { onInvalidate, type CacheTag } from "./cache.server.ts";
import { getForStaff } from "./newsroom/read.server.ts";
import { createItem, updateItem } from "./newsroom/write.server.ts";
import { addTagToItems, tagsOfItems } from "./tags.server.ts";
import { idsMatching, MAX_BULK_ITEMS, parseBulkBody, runBulkAction, type BulkRequest } from "./bulk.server.ts";

const editor = { id: "user-bulk", email: "bulk.editor@example.org" };
const body = "<p>نص الخبر الكامل الذي يتجاوز عشرين حرفًا بكثير.</p>";

/** The AppError a promise (or a call) is refused with. */
async function refusal(run: () => unknown): Promise<AppError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("not refused");
}

for (const kind of testDatabaseKinds) {
  describe(`bulk actions (${kind})`, () => {
    let h: TestDatabase;
    let politics: number;
    let sports: number;
    let heritage: number;
    const heard: (readonly CacheTag[])[] = [];
    let stop: () => void;

    beforeAll(async () => {
      h = await createTestDatabase(kind);
      const rows = await h.db
        .insert(categories)
        .values([
          { name: "سياسة", slug: "politics", type: "news" },
          { name: "رياضة", slug: "sports", type: "news" },
          { name: "تراث", slug: "heritage", type: "culture" },
        ])
        .returning({ id: categories.id, slug: categories.slug });
      politics = rows.find((r) => r.slug === "politics")!.id;
      sports = rows.find((r) => r.slug === "sports")!.id;
      heritage = rows.find((r) => r.slug === "heritage")!.id;
      stop = onInvalidate((tags, origin) => {
        if (origin === "local") heard.push(tags);
      });
    });
    afterAll(async () => {
      stop?.();
      await h?.drop();
    });
    afterEach(() => {
      heard.length = 0;
    });

    /** `n` news drafts whose titles start with `prefix`. */
    async function drafts(n: number, prefix: string): Promise<number[]> {
      const ids: number[] = [];
      for (let i = 1; i <= n; i++) {
        const item = await createItem(
          h.db,
          "news",
          { title: `${prefix} رقم ${i}`, excerpt: "مقتطف الخبر التجريبي", content: body, category_id: politics, status: "draft", priority: "medium" },
          editor,
        );
        ids.push(item.id);
      }
      heard.length = 0;
      return ids;
    }

    const revisionsOf = async (ids: number[]) =>
      (
        await h.db
          .select({ id: contentRevisions.id })
          .from(contentRevisions)
          .where(and(eq(contentRevisions.contentType, "news"), inArray(contentRevisions.itemId, ids)))
      ).length;
    const searchRows = async (ids: number[]) =>
      rowsOf<{ item_id: number; status: string }>(
        await h.db.execute(sql`select item_id, status from search_items where type = 'news' and item_id = any(${sql.param(ids)}::int[])`),
      );
    const statuses = async (ids: number[]) => Promise.all(ids.map(async (id) => (await getForStaff(h.db, "news", id))?.status));
    const run = (request: BulkRequest) => runBulkAction(h.db, "news", request, editor);

    it("publishes twenty drafts in one action: one invalidation, a revision and the search row of each", async () => {
      const ids = await drafts(20, "خبر للنشر الجماعي");
      expect(await revisionsOf(ids)).toBe(20);
      const result = await run({ action: "publish", selection: { ids } });
      expect(result.action).toBe("publish");
      expect(result.count).toBe(20);
      expect([...result.ids].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(await statuses(ids))).toEqual(new Set(["published"]));
      expect(heard).toEqual([["news"]]);
      expect(await revisionsOf(ids)).toBe(40);
      const search = await searchRows(ids);
      expect(search).toHaveLength(20);
      expect(new Set(search.map((r) => r.status))).toEqual(new Set(["published"]));

      // Published again: nothing changes, nothing is invalidated, no revision kept.
      const again = await run({ action: "publish", selection: { ids } });
      expect(again.count).toBe(0);
      expect(heard).toEqual([["news"]]);
      expect(await revisionsOf(ids)).toBe(40);
    });

    it("is one transaction: a refusal on one item leaves every item as it was, and invalidates nothing", async () => {
      const ids = await drafts(5, "خبر يفشل أحدها");
      const victim = ids[2];
      await h.db.execute(
        sql.raw(`create function bulk_test_refuse() returns trigger language plpgsql as $$ begin
          if new.id = ${victim} then raise exception 'refused for the test'; end if; return new; end $$`),
      );
      await h.db.execute(sql`create trigger bulk_test_refuse before update on news for each row execute function bulk_test_refuse()`);
      try {
        await expect(run({ action: "publish", selection: { ids } })).rejects.toThrow();
      } finally {
        await h.db.execute(sql`drop trigger bulk_test_refuse on news`);
        await h.db.execute(sql`drop function bulk_test_refuse()`);
      }
      expect(new Set(await statuses(ids))).toEqual(new Set(["draft"]));
      expect(await revisionsOf(ids)).toBe(5);
      expect(heard).toEqual([]);
      // An id that names nothing refuses the whole action too.
      const missing = await refusal(() => run({ action: "publish", selection: { ids: [...ids, 999_999] } }));
      expect(missing.status).toBe(404);
      expect(new Set(await statuses(ids))).toEqual(new Set(["draft"]));
    });

    it("changes the category to one the type offers, and refuses one it does not", async () => {
      const ids = await drafts(3, "خبر لتغيير التصنيف");
      const refused = await refusal(() => run({ action: "category", selection: { ids }, categoryId: heritage }));
      expect(refused.status).toBe(422);
      expect(refused.fields).toEqual({ category_id: "newsroom.bulk.v.categoryNotOffered" });
      const unknown = await refusal(() => run({ action: "category", selection: { ids }, categoryId: 987_654 }));
      expect(unknown.fields).toEqual({ category_id: "newsroom.bulk.v.categoryNotFound" });
      expect(heard).toEqual([]);
      const done = await run({ action: "category", selection: { ids }, categoryId: sports });
      expect(done.count).toBe(3);
      for (const id of ids) expect((await getForStaff(h.db, "news", id))?.category_id).toBe(String(sports));
      expect(heard).toEqual([["news"]]);
      // A type without a category refuses the action.
      const podcast = await refusal(() => runBulkAction(h.db, "podcast", { action: "category", selection: { ids: [1] }, categoryId: sports }, editor));
      expect(podcast.fields).toEqual({ category_id: "newsroom.bulk.v.noCategories" });
    });

    it("schedules at a future time only, and unpublishes back to drafts", async () => {
      const ids = await drafts(4, "خبر للجدولة");
      const past = await refusal(() => run({ action: "schedule", selection: { ids }, publishDate: "2020-01-01T10:00" }));
      expect(past.fields).toEqual({ publish_date: "newsroom.bulk.v.dateFuture" });
      const bad = await refusal(() => run({ action: "schedule", selection: { ids }, publishDate: "tomorrow" }));
      expect(bad.fields).toEqual({ publish_date: "newsroom.bulk.v.date" });
      const at = new Date(Date.now() + 3 * 86_400_000);
      const local = at.toISOString().slice(0, 16); // the editor's datetime-local, in the site's time (UTC)
      const scheduled = await run({ action: "schedule", selection: { ids }, publishDate: local });
      expect(scheduled.count).toBe(4);
      for (const id of ids) {
        const item = (await getForStaff(h.db, "news", id))!;
        expect(item.status).toBe("scheduled");
        expect(item.publish_date).toBe(`${local}:00.000Z`);
      }
      const unpublished = await run({ action: "unpublish", selection: { ids } });
      expect(unpublished.count).toBe(4);
      expect(new Set(await statuses(ids))).toEqual(new Set(["draft"]));
      expect(heard).toEqual([["news"], ["news"]]);
    });

    it("deletes items with their revisions, slug redirects and search rows, in one invalidation", async () => {
      const ids = await drafts(3, "خبر للحذف الجماعي");
      const renamed = await getForStaff(h.db, "news", ids[0]);
      await updateItem(h.db, "news", ids[0], { page_slug: `${renamed!.page_slug}-new` }, editor, { partial: true });
      heard.length = 0;
      expect((await h.db.select().from(slugRedirects).where(eq(slugRedirects.itemId, ids[0]))).length).toBe(1);
      expect(await searchRows(ids)).toHaveLength(3);
      const done = await run({ action: "delete", selection: { ids } });
      expect(done.count).toBe(3);
      for (const id of ids) expect(await getForStaff(h.db, "news", id)).toBeNull();
      expect(await revisionsOf(ids)).toBe(0);
      expect((await h.db.select().from(slugRedirects).where(inArray(slugRedirects.itemId, ids))).length).toBe(0);
      expect(await searchRows(ids)).toHaveLength(0);
      expect(heard).toEqual([["news"]]);
    });

    it("adds a tag to the items that do not have it yet, in one invalidation", async () => {
      const ids = await drafts(3, "خبر للوسم الجماعي");
      await h.db.transaction((tx) => addTagToItems(tx as unknown as typeof h.db, "news", [ids[0]], "نواكشوط"));
      const before = await revisionsOf(ids);
      const done = await run({ action: "tag", selection: { ids }, tag: "نواكشوط" });
      expect(done.count).toBe(2);
      expect([...done.ids].sort()).toEqual(ids.slice(1).sort());
      const tagged = await tagsOfItems(h.db, "news", ids);
      for (const id of ids) expect(tagged.get(id)?.map((t) => t.name)).toEqual(["نواكشوط"]);
      expect(await revisionsOf(ids)).toBe(before + 2);
      expect(heard).toEqual([["news"]]);
      expect((await refusal(() => parseBulkBody({ action: "tag", ids, tag: "x".repeat(61) }))).fields).toEqual({ tag: "newsroom.bulk.v.tagLong" });
    });

    it("selects by the list's filter (text and status), computed on the server", async () => {
      const ids = await drafts(6, "مرشح الاختيار الكلي");
      await run({ action: "publish", selection: { ids: ids.slice(0, 2) } });
      expect((await idsMatching(h.db, "news", { q: "مرشح الاختيار" })).sort()).toEqual([...ids].sort());
      expect((await idsMatching(h.db, "news", { q: "مرشح الاختيار", status: "draft" })).sort()).toEqual(ids.slice(2).sort());
      heard.length = 0;
      const done = await run({ action: "publish", selection: { filter: { q: "مرشح الاختيار", status: "draft" } } });
      expect(done.count).toBe(4);
      expect(new Set(await statuses(ids))).toEqual(new Set(["published"]));
      expect(heard).toEqual([["news"]]);
      const none = await run({ action: "unpublish", selection: { filter: { q: "لا شيء يطابق هذا النص" } } });
      expect(none).toEqual({ action: "unpublish", count: 0, ids: [] });
      expect(heard).toEqual([["news"]]);
    });

    it("refuses a body it cannot act on with 4xx and a message per field", async () => {
      const of = async (input: Record<string, unknown>) => {
        const error = await refusal(() => parseBulkBody(input));
        return { status: error.status, code: error.code, fields: error.fields };
      };
      expect(await of({ action: "archive", ids: [1] })).toEqual({ status: 400, code: "INVALID_BULK", fields: { action: "newsroom.bulk.v.action" } });
      expect(await of({ action: "publish" })).toEqual({ status: 400, code: "INVALID_BULK", fields: { ids: "newsroom.bulk.v.ids" } });
      expect((await of({ action: "publish", ids: [] })).fields).toEqual({ ids: "newsroom.bulk.v.ids" });
      expect((await of({ action: "publish", ids: ["1"] })).fields).toEqual({ ids: "newsroom.bulk.v.idsNumbers" });
      expect((await of({ action: "publish", ids: [1], filter: {} })).fields).toEqual({ ids: "newsroom.bulk.v.idsOrFilter" });
      expect((await of({ action: "publish", filter: { status: "gone" } })).fields).toEqual({ filter: "newsroom.bulk.v.filterStatus" });
      expect((await of({ action: "publish", ids: [1], extra: 1 })).fields).toEqual({ extra: "newsroom.bulk.v.unknownKey" });
      expect((await of({ action: "schedule", ids: [1] })).fields).toEqual({ publish_date: "newsroom.bulk.v.dateMissing" });
      expect((await of({ action: "category", ids: [1] })).fields).toEqual({ category_id: "newsroom.bulk.v.categoryMissing" });
      expect((await of({ action: "tag", ids: [1], tag: "  " })).fields).toEqual({ tag: "newsroom.bulk.v.tagMissing" });
      const tooMany = await of({ action: "publish", ids: Array.from({ length: MAX_BULK_ITEMS + 1 }, (_, i) => i + 1) });
      expect(tooMany).toEqual({ status: 422, code: "TOO_MANY_ITEMS", fields: { ids: "newsroom.bulk.v.tooMany" } });
      expect(parseBulkBody({ action: "publish", ids: [3, 3, 4] })).toEqual({ action: "publish", selection: { ids: [3, 4] } });
      expect(parseBulkBody({ action: "category", filter: { q: "x" }, category_id: "7" })).toMatchObject({ categoryId: 7, selection: { filter: { q: "x" } } });
      // Past the integer column's range (issue 39: 2147483648 reached PostgreSQL, a 500): refused before any query.
      for (const categoryId of [2147483648, "2147483648", 0, -1, 1.5, "1.5", "0x10", Number.POSITIVE_INFINITY, "1e3"]) {
        expect(await of({ action: "category", ids: [1], category_id: categoryId }), String(categoryId)).toEqual({
          status: 400,
          code: "INVALID_BULK",
          fields: { category_id: "newsroom.bulk.v.categoryMissing" },
        });
      }
      for (const id of [2147483648, 0, -1, 1.5, Number.POSITIVE_INFINITY])
        expect((await of({ action: "publish", ids: [id] })).fields).toEqual({ ids: "newsroom.bulk.v.idsNumbers" });
      expect(parseBulkBody({ action: "category", ids: [2147483647], category_id: 2147483647 })).toMatchObject({
        categoryId: 2147483647,
        selection: { ids: [2147483647] },
      });
    });

    it("answers a category action naming 2147483648 with 400, the database never asked (issue 39)", async () => {
      const error = await refusal(async () => runBulkAction(h.db, "news", parseBulkBody({ action: "category", ids: [1], category_id: 2147483648 }), editor));
      expect(error.status).toBe(400);
    });
  });
}
