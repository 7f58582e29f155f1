/**
 * The schedule's data on a real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set): items of
 * every type in a range, drafts left out, scheduled and published told apart, the category in the language
 * asked for, the types the account may write; and moving an item through the newsroom's one save, with its
 * revision, its new status, and the 409 of an item saved meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { CONTENT_TYPES, type ContentType } from "#domain/content-types/index.ts";
import { calendarRange } from "#domain/calendar.ts";
import { validInput } from "#tests/helpers/content.ts";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { categories } from "#server/db/schema.server.ts";
import { NotFoundError, ValidationError } from "#server/http/errors.server.ts";
import { tableOf } from "./registry.server.ts";
import { ContentConflictError, createItem, updateItem } from "./newsroom/write.server.ts";
import { listRevisions } from "./newsroom/revisions.server.ts";
import { listCalendarItems, moveItem } from "./calendar.server.ts";

const editor = { id: "user-cal", email: "khadijetou.desk@example.org" };

for (const kind of testDatabaseKinds) {
  describe(`the schedule's data (${kind})`, () => {
    let h: TestDatabase;
    let categoryId: number;
    const ids = {} as Record<ContentType, number>;

    /** Sets an item's stored publish date (and status) directly, as a past save would have left it. */
    const place = (type: ContentType, id: number, at: string, status = "published") =>
      h.db
        .update(tableOf(type))
        .set({ publishDate: new Date(at), status } as never)
        .where(eq(tableOf(type).id, id));

    beforeAll(async () => {
      h = await createTestDatabase(kind);
      const [c] = await h.db.insert(categories).values({ name: "سياسة", nameFr: "Politique", slug: "politics", type: "news" }).returning({ id: categories.id });
      categoryId = c.id;
      for (const type of CONTENT_TYPES) ids[type] = (await createItem(h.db, type, validInput(type, categoryId, `عنوان ${type} في الجدول`), editor)).id;
    });
    afterAll(() => h?.drop());

    it("lists the items of every type in a Nouakchott week, in time order, drafts and other weeks left out", async () => {
      // The week of Monday 2026-11-23: one item a day, the news item on Sunday's last minute, the coverage a
      // minute past the week, the podcast a draft.
      await place("article", ids.article, "2026-11-23T00:00:00Z");
      await place("media", ids.media, "2026-11-24T08:30:00Z");
      await place("program", ids.program, "2026-11-26T21:15:00Z");
      await place("news", ids.news, "2026-11-29T23:59:00Z");
      await place("coverage", ids.coverage, "2026-11-30T00:00:00Z");
      await place("podcast", ids.podcast, "2026-11-25T10:00:00Z", "draft");
      const { from, to } = calendarRange("week", "2026-11-26");
      const now = new Date("2026-11-26T12:00:00Z");
      const { items, truncated } = await listCalendarItems(h.db, { from, to, types: CONTENT_TYPES, lang: "ar", now });
      expect(truncated).toBe(false);
      expect(items.map((i) => [i.type, i.publish_date, i.status])).toEqual([
        ["article", "2026-11-23T00:00:00.000Z", "published"],
        ["media", "2026-11-24T08:30:00.000Z", "published"],
        ["program", "2026-11-26T21:15:00.000Z", "scheduled"],
        ["news", "2026-11-29T23:59:00.000Z", "scheduled"],
      ]);
      const news = items.find((i) => i.type === "news")!;
      expect(news).toMatchObject({ id: ids.news, title: "عنوان news في الجدول", category_name: "سياسة", edit_url: `/admin/news/${ids.news}` });
      expect(news.url).toMatch(/^\/news\//);
      expect(items.find((i) => i.type === "media")!.url).toBe(`/media#media-${ids.media}`);
      expect(items.find((i) => i.type === "program")!.category_name).toBeNull();
      // The coverage item is in the next week.
      const next = calendarRange("week", "2026-11-30");
      expect((await listCalendarItems(h.db, { ...next, types: CONTENT_TYPES, now })).items.map((i) => i.type)).toEqual(["coverage"]);
    });

    it("names the category in French for the French back-office, and shows only the types asked for", async () => {
      const { from, to } = calendarRange("week", "2026-11-26");
      const fr = await listCalendarItems(h.db, { from, to, types: CONTENT_TYPES, lang: "fr" });
      expect(fr.items.find((i) => i.type === "news")!.category_name).toBe("Politique");
      const some = await listCalendarItems(h.db, { from, to, types: ["media", "news"] });
      expect(some.items.map((i) => i.type)).toEqual(["media", "news"]);
      expect((await listCalendarItems(h.db, { from, to, types: [] })).items).toEqual([]);
    });

    it("moves an item through the one save: a time to come schedules it, a time gone publishes it, with a revision each", async () => {
      const revisions = (await listRevisions(h.db, "article", ids.article)).length;
      const read = (await listCalendarItems(h.db, { ...calendarRange("week", "2026-11-23"), types: ["article"] })).items[0];
      expect(read.status).toBe("published");
      const later = new Date(Date.now() + 3 * 24 * 3600_000);
      const moved = await moveItem(h.db, "article", ids.article, { publishDate: later, expectedUpdatedAt: read.updated_at }, editor);
      expect(moved.status).toBe("scheduled");
      expect(moved.publish_date).toBe(later.toISOString());
      // Back into the past: published at once (the form's "scheduled needs a time to come" is not in the way).
      const earlier = new Date("2026-11-20T07:00:00Z");
      const back = await moveItem(h.db, "article", ids.article, { publishDate: earlier, expectedUpdatedAt: moved.updated_at }, editor);
      expect(back.status).toBe("published");
      expect(back.publish_date).toBe(earlier.toISOString());
      expect((await listRevisions(h.db, "article", ids.article)).length).toBe(revisions + 2);
      // The other fields are as they were.
      expect(back.title).toBe("عنوان article في الجدول");
      expect(back.category_id).toBe(String(categoryId));
    });

    it("refuses a move of an item saved since the calendar was read (409), of a draft (422) and of nothing (404)", async () => {
      const read = (await listCalendarItems(h.db, { ...calendarRange("day", "2026-11-24"), types: ["media"] })).items[0];
      // Someone edits the title meanwhile.
      await updateItem(h.db, "media", ids.media, { title: "عنوان عدّله زميل" }, editor, { partial: true });
      const conflict = await moveItem(
        h.db,
        "media",
        ids.media,
        { publishDate: new Date("2026-11-25T09:00:00Z"), expectedUpdatedAt: read.updated_at },
        editor,
      ).catch((e: unknown) => e);
      expect(conflict).toBeInstanceOf(ContentConflictError);
      expect((conflict as ContentConflictError).status).toBe(409);
      expect((conflict as ContentConflictError).current.publish_date).toBe("2026-11-24T08:30:00.000Z");
      const draft = await moveItem(h.db, "podcast", ids.podcast, { publishDate: new Date("2026-11-25T09:00:00Z"), expectedUpdatedAt: null }, editor).catch(
        (e: unknown) => e,
      );
      expect(draft).toBeInstanceOf(ValidationError);
      expect((draft as ValidationError).fields).toEqual({ publish_date: "calendar.draftNotMoved" });
      const missing = await moveItem(h.db, "news", 999_999, { publishDate: new Date(), expectedUpdatedAt: null }, editor).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(NotFoundError);
      const bad = await moveItem(h.db, "news", ids.news, { publishDate: new Date("nope"), expectedUpdatedAt: null }, editor).catch((e: unknown) => e);
      expect(bad).toBeInstanceOf(ValidationError);
    });
  });
}
