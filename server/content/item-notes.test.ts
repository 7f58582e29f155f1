/**
 * Notes on an item (issue 40, decision 0139) on a real database: a thread per item, oldest first, each with its
 * author (their profile's name) and time; the text checked (trimmed, 1 to 2,000 characters, 400 INVALID_NOTE);
 * 404 for an item that does not exist; kept when a revision is restored; removed with the item.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { categories, itemNotes, profiles, user } from "#server/db/schema.server.ts";
import { NotFoundError, ValidationError } from "#server/http/errors.server.ts";
import { createItem, deleteItem, updateItem } from "./newsroom/write.server.ts";
import { listRevisions, restoreRevision } from "./newsroom/revisions.server.ts";
import { addNote, listNotes, MAX_NOTE_LENGTH } from "./item-notes.server.ts";

const editor = { id: "notes-editor", email: "khadija@notes.test" };
const writer = { id: "notes-writer", email: "moussa.ba@notes.test" };

for (const kind of testDatabaseKinds) {
  describe(`notes on an item (${kind})`, () => {
    let h: TestDatabase;
    let input: Record<string, unknown>;

    const newArticle = async (title: string) => (await createItem(h.db, "article", { ...input, title }, writer)).id;

    beforeAll(async () => {
      h = await createTestDatabase(kind);
      await h.db.insert(user).values([
        { id: editor.id, name: "Khadija", email: editor.email },
        { id: writer.id, name: "", email: writer.email },
      ]);
      await h.db.insert(profiles).values([{ id: editor.id, role: "editor", fullName: "خديجة" }, { id: writer.id }]);
      const [c] = await h.db.insert(categories).values({ name: "ثقافة", slug: "culture", type: "culture" }).returning({ id: categories.id });
      input = {
        excerpt: "مقتطف المقال التجريبي",
        content: "<p>نص المقال الكامل الذي يتجاوز عشرين حرفًا بكثير.</p>",
        category_id: String(c.id),
        status: "draft",
      };
    });
    afterAll(() => h?.drop());

    it("keeps a thread per item, oldest first, with each note's author and time", async () => {
      const id = await newArticle("مقال عليه ملاحظات");
      const other = await newArticle("مقال آخر");
      const first = await addNote(h.db, "article", id, editor, "  الفقرة الثانية تحتاج مصدرًا.  ");
      expect(first.author).toEqual({ id: editor.id, name: "خديجة" });
      expect(first.text).toBe("الفقرة الثانية تحتاج مصدرًا.");
      expect(Object.keys(first).sort()).toEqual(["at", "author", "id", "text"]);
      expect(Date.parse(first.at)).not.toBeNaN();
      const second = await addNote(h.db, "article", id, writer, "أضفت المصدر.\nراجعيه من فضلك.");
      expect(second.author).toEqual({ id: writer.id, name: "moussa.ba" });
      await addNote(h.db, "article", other, writer, "ملاحظة على مقال آخر");
      expect(await listNotes(h.db, "article", id)).toEqual([first, second]);
    });

    it("refuses an empty note, one that is not text, and one over 2,000 characters with 400 INVALID_NOTE", async () => {
      const id = await newArticle("مقال لملاحظات مرفوضة");
      for (const bad of ["", "   \n ", undefined, 42, ["نص"], "ن".repeat(MAX_NOTE_LENGTH + 1)]) {
        const error = await addNote(h.db, "article", id, editor, bad).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ValidationError);
        expect(error).toMatchObject({ status: 400, code: "INVALID_NOTE" });
        expect(Object.keys((error as ValidationError).fields ?? {})).toEqual(["text"]);
      }
      expect((await addNote(h.db, "article", id, editor, "ن".repeat(MAX_NOTE_LENGTH))).text).toHaveLength(MAX_NOTE_LENGTH);
      expect(await listNotes(h.db, "article", id)).toHaveLength(1);
    });

    it("answers 404 for an item that does not exist (or of another type)", async () => {
      await expect(addNote(h.db, "article", 999_999, editor, "ملاحظة")).rejects.toBeInstanceOf(NotFoundError);
      await expect(listNotes(h.db, "news", 999_999)).rejects.toBeInstanceOf(NotFoundError);
    });

    it("keeps the thread when an earlier revision is restored, and removes it with the item", async () => {
      const id = await newArticle("العنوان الأول");
      await addNote(h.db, "article", id, editor, "غيّر العنوان.");
      await updateItem(h.db, "article", id, { ...input, title: "العنوان الثاني" }, writer);
      const oldest = (await listRevisions(h.db, "article", id)).at(-1)!;
      await restoreRevision(h.db, "article", id, oldest.id, editor);
      expect((await listNotes(h.db, "article", id)).map((n) => n.text)).toEqual(["غيّر العنوان."]);

      await deleteItem(h.db, "article", id);
      expect(
        await h.db
          .select()
          .from(itemNotes)
          .where(and(eq(itemNotes.contentType, "article"), eq(itemNotes.itemId, id))),
      ).toEqual([]);
    });
  });
}
