/**
 * Autosaves of drafts (drizzle/0009_revision_kind.sql) on a real database: kept as a revision of kind
 * 'autosave' without changing the item, one per item and author, only for drafts, refused on bad input,
 * offered while newer than the last save, discarded and pruned.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { categories, contentRevisions } from "#server/db/schema.server.ts";
import { ConflictError, NotFoundError, ValidationError } from "#server/http/errors.server.ts";
import { getForStaff } from "./newsroom/read.server.ts";
import { createItem, updateItem } from "./newsroom/write.server.ts";
import { autosaveDraft, discardAutosave, newerAutosave, pruneAutosaves } from "./newsroom/autosaves.server.ts";

const amina = { id: "user-a", email: "amina@example.org" };
const omar = { id: "user-o", email: "omar@example.org" };
const body = "<p>نص المقال الكامل الذي يتجاوز عشرين حرفًا بكثير.</p>";

for (const kind of testDatabaseKinds) {
  describe(`autosaves of drafts (${kind})`, () => {
    let h: TestDatabase;
    let draftId: number;
    let publishedId: number;
    let input: Record<string, unknown>;

    const revisions = (id: number) =>
      h.db
        .select({ kind: contentRevisions.kind, authorId: contentRevisions.authorId, data: contentRevisions.data })
        .from(contentRevisions)
        .where(and(eq(contentRevisions.contentType, "article"), eq(contentRevisions.itemId, id)));

    beforeAll(async () => {
      h = await createTestDatabase(kind);
      const [c] = await h.db.insert(categories).values({ name: "ثقافة", slug: "culture", type: "culture" }).returning({ id: categories.id });
      input = { title: "مسودة مقال عن التراث", excerpt: "مقتطف المقال التجريبي", content: body, category_id: String(c.id) };
      draftId = (await createItem(h.db, "article", { ...input, status: "draft" }, amina)).id;
      publishedId = (await createItem(h.db, "article", { ...input, title: "مقال منشور للتجربة", status: "published" }, amina)).id;
    });
    afterAll(() => h?.drop());

    it("keeps a draft's typing as the author's one autosave, the item unchanged, even half-typed", async () => {
      const before = await getForStaff(h.db, "article", draftId);
      const first = await autosaveDraft(
        h.db,
        "article",
        draftId,
        { values: { title: "مس", content: "<p>بداية</p><script>x()</script>", status: "draft" } },
        amina,
      );
      expect(first.data.title).toBe("مس");
      expect(first.data.content).not.toContain("script");
      const second = await autosaveDraft(
        h.db,
        "article",
        draftId,
        { values: { title: "مسودة أطول", publish_date: "2026-05-01T09:30" }, updated_at: before!.updated_at },
        amina,
      );
      expect(second.data.publish_date).toBe("2026-05-01T09:30:00.000Z");
      await autosaveDraft(h.db, "article", draftId, { values: { title: "نسخة عمر" } }, omar);
      const rows = await revisions(draftId);
      expect(
        rows
          .filter((r) => r.kind === "autosave")
          .map((r) => [r.authorId, r.data.title])
          .sort(),
      ).toEqual([
        ["user-a", "مسودة أطول"],
        ["user-o", "نسخة عمر"],
      ]);
      expect(rows.filter((r) => r.kind === "save")).toHaveLength(1);
      expect(await getForStaff(h.db, "article", draftId)).toEqual(before);
    });

    it("offers the autosave while it is newer than the last save, and not after one", async () => {
      expect((await newerAutosave(h.db, "article", draftId, amina.id))?.data.title).toBe("مسودة أطول");
      expect(await newerAutosave(h.db, "article", draftId, "nobody")).toBeNull();
      await updateItem(h.db, "article", draftId, { ...input, status: "draft", title: "مسودة محفوظة" }, omar);
      expect(await newerAutosave(h.db, "article", draftId, amina.id)).toBeNull();
    });

    it("refuses items that are not drafts, stale versions, unknown items and bad bodies, writing nothing", async () => {
      const count = async () => (await h.db.select({ n: sql<number>`count(*)::int` }).from(contentRevisions)).at(0)!.n;
      const before = await count();
      const refused = (id: number, b: Record<string, unknown>) => autosaveDraft(h.db, "article", id, b, amina).catch((e: unknown) => e);
      const notDraft = await refused(publishedId, { values: { title: "x" } });
      expect(notDraft).toBeInstanceOf(ConflictError);
      expect((notDraft as ConflictError).code).toBe("NOT_A_DRAFT");
      expect(((await refused(draftId, { values: { title: "x" }, updated_at: "2020-01-01T00:00:00.000Z" })) as ConflictError).code).toBe("STALE");
      expect(await refused(999999, { values: {} })).toBeInstanceOf(NotFoundError);
      for (const bad of [
        {},
        { values: "text" },
        { values: [] },
        { values: {}, extra: 1 },
        { values: { title: 5 } },
        { values: { password: "x" } },
        { values: {}, updated_at: 3 },
      ]) {
        const error = await refused(draftId, bad);
        expect(error).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).status).toBe(400);
      }
      const fields = ((await refused(draftId, { values: { title: 5, nope: "x" } })) as ValidationError).fields;
      expect(fields).toEqual({ title: "Must be text.", nope: "Not a field of article." });
      expect(await count()).toBe(before);
    });

    it("discards one author's autosave and prunes old ones", async () => {
      await autosaveDraft(h.db, "article", draftId, { values: { title: "جديد" } }, amina);
      await discardAutosave(h.db, "article", draftId, amina.id);
      const left = (await revisions(draftId)).filter((r) => r.kind === "autosave").map((r) => r.authorId);
      expect(left).toEqual(["user-o"]);
      await h.db
        .update(contentRevisions)
        .set({ createdAt: new Date(Date.now() - 31 * 24 * 3600 * 1000) })
        .where(eq(contentRevisions.kind, "autosave"));
      expect(await pruneAutosaves(h.db, 30)).toBe(1);
      expect((await revisions(draftId)).filter((r) => r.kind === "autosave")).toHaveLength(0);
      expect((await revisions(draftId)).filter((r) => r.kind === "save").length).toBeGreaterThan(0);
    });
  });
}
