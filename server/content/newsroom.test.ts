/**
 * The newsroom's data layer on a real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set):
 * the spec's validation messages for every type, slugs (Arabic kept, unique, 301 records), optimistic
 * concurrency, revisions, scheduled items, deletes, and what the public reader sees after each write.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { CONTENT_TYPES, slugify, type ContentType } from "#domain/content-types/index.ts";
import { formSchemaOf } from "#domain/content-types/schema.ts";
import { translate } from "#server/http/i18n.server.ts";
import { validInput } from "#tests/helpers/content.ts";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { categories, contentRevisions, slugRedirects } from "#server/db/schema.server.ts";
import { isPublished } from "./published.server.ts";
import { tableOf } from "./registry.server.ts";
import { NotFoundError, ValidationError } from "#server/http/errors.server.ts";
import { getForStaff, listForStaff } from "./newsroom/read.server.ts";
import { ContentConflictError, createItem, deleteItem, updateItem } from "./newsroom/write.server.ts";
import { getRevision, listRevisions, restoreRevision } from "./newsroom/revisions.server.ts";

const editor = { id: "user-1", email: "amina.editor@example.org" };

/** The spec's Arabic message behind a field's error key. */
const ar = (key: string | undefined) => (key ? translate("ar", key) : undefined);

for (const kind of testDatabaseKinds) {
  describe(`newsroom data layer (${kind})`, () => {
    let h: TestDatabase;
    let categoryId: number;

    beforeAll(async () => {
      h = await createTestDatabase(kind);
      const [c] = await h.db.insert(categories).values({ name: "سياسة", slug: "politics", type: "news" }).returning({ id: categories.id });
      categoryId = c.id;
    });
    afterAll(() => h?.drop());

    it("creates an item of every type, with its public URL, author and a first revision", async () => {
      for (const type of CONTENT_TYPES) {
        const item = await createItem(h.db, type, validInput(type, categoryId), editor);
        expect(item.id).toBeGreaterThan(0);
        expect(item.status).toBe("published");
        expect(item.author_name).toBe("amina.editor");
        expect(item.page_slug).toBe(slugify(`عنوان ${type} تجريبي`));
        expect(item.url).toMatch(/^\/(articles|news|coverage|podcasts|programs|media)/);
        expect(await listRevisions(h.db, type, item.id)).toHaveLength(1);
      }
    });

    it("keeps Arabic letters in slugs and makes them unique per type", async () => {
      expect(slugify("  الثقافة الحسانية: أيام التراث!  ")).toBe("الثقافة-الحسانية-أيام-التراث");
      expect(slugify("Festival de Chinguetti 2026")).toBe("festival-de-chinguetti-2026");
      const input = { ...validInput("news", categoryId), title: "مهرجان المدن القديمة" };
      const first = await createItem(h.db, "news", input, editor);
      const second = await createItem(h.db, "news", input, editor);
      expect(first.page_slug).toBe("مهرجان-المدن-القديمة");
      expect(second.page_slug).toBe("مهرجان-المدن-القديمة-2");
      // Another type may use the same slug.
      const article = await createItem(h.db, "article", { ...validInput("article", categoryId), title: "مهرجان المدن القديمة" }, editor);
      expect(article.page_slug).toBe("مهرجان-المدن-القديمة");
    });

    it("refuses invalid items with the spec's messages, writing nothing", async () => {
      const before = (await listForStaff(h.db, "news")).counts.all;
      const error = await createItem(h.db, "news", { title: "قصير", content: "قصير", excerpt: "قصير", priority: "" }, editor).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      const errors = (error as ValidationError).fields!;
      expect(ar(errors.title)).toBe("العنوان يجب أن يكون 5 أحرف على الأقل");
      expect(ar(errors.content)).toBe("المحتوى يجب أن يكون 20 حرفًا على الأقل");
      expect(ar(errors.excerpt)).toBe("المقتطف يجب أن يكون 10 أحرف على الأقل");
      expect(ar(errors.category_id)).toBe("الرجاء اختيار فئة");
      expect(ar(errors.priority)).toBe("الرجاء اختيار الأولوية");
      expect((await listForStaff(h.db, "news")).counts.all).toBe(before);

      const missingCategory = await createItem(h.db, "news", { ...validInput("news", categoryId), category_id: 999999 }, editor).catch((e: unknown) => e);
      expect(ar((missingCategory as ValidationError).fields!.category_id)).toBe("لم يتم العثور على الفئة المحددة");
    });

    it("refuses a category the type's form does not offer (an article's section for a news item)", async () => {
      const [poetry] = await h.db.insert(categories).values({ name: "الشعر", slug: "poetry", type: "literature" }).returning({ id: categories.id });
      const before = (await listForStaff(h.db, "news")).counts.all;
      const refused = await createItem(h.db, "news", { ...validInput("news", poetry.id), title: "خبر في فئة الشعر" }, editor).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ValidationError);
      expect(ar((refused as ValidationError).fields!.category_id)).toBe("الرجاء اختيار فئة");
      expect((await listForStaff(h.db, "news")).counts.all).toBe(before);
      // The same category is an article's, and a media item may take any.
      const article = await createItem(h.db, "article", { ...validInput("article", poetry.id), title: "قصيدة في مدح شنقيط" }, editor);
      expect(article.category_id).toBe(String(poetry.id));
      const news = await createItem(h.db, "news", { ...validInput("news", categoryId), title: "خبر سياسي جديد" }, editor);
      const update = await updateItem(h.db, "news", news.id, validInput("news", poetry.id), editor).catch((e: unknown) => e);
      expect(ar((update as ValidationError).fields!.category_id)).toBe("الرجاء اختيار فئة");
    });

    it("lists each item's category name in Arabic and French", async () => {
      const [sports] = await h.db.insert(categories).values({ name: "رياضة", nameFr: "Sports", slug: "sports", type: "news" }).returning({ id: categories.id });
      const item = await createItem(h.db, "news", { ...validInput("news", sports.id), title: "نتائج الدوري الوطني" }, editor);
      const listed = (await listForStaff(h.db, "news", { q: "الدوري الوطني" })).items.find((i) => i.id === item.id);
      expect(listed).toMatchObject({ category_name: "رياضة", category_name_fr: "Sports" });
    });

    it("uses each type's messages (coverage, podcast, program, media)", () => {
      const messages = (type: ContentType, input: Record<string, unknown>) => {
        const result = formSchemaOf(type).safeParse(input);
        expect(result.success).toBe(false);
        const out: Record<string, string | undefined> = {};
        for (const issue of result.error!.issues) out[String(issue.path[0])] ??= ar(issue.message);
        return out;
      };
      expect(messages("coverage", { title: "عنوان التغطية" })).toMatchObject({
        coverage_type: "نوع التغطية مطلوب",
        event_location: "موقع الحدث مطلوب",
        event_date: "تاريخ الحدث مطلوب",
        reporter_name: "اسم المراسل مطلوب",
      });
      expect(messages("podcast", {})).toMatchObject({ title: "العنوان مطلوب", description: "الوصف مطلوب", host_name: "اسم المقدم مطلوب" });
      expect(messages("program", { title: "برنامج", description: "قصير" })).toMatchObject({
        description: "الوصف يجب أن يكون 20 حرفًا على الأقل",
        program_type: "نوع البرنامج مطلوب",
        host_name: "اسم المقدم مطلوب",
      });
      expect(messages("media", { title: "أب", description: "قصير", category_id: "abc", media_type: "pdf" })).toMatchObject({
        title: "العنوان يجب أن يكون 3 أحرف على الأقل",
        description: "الوصف يجب أن يكون 10 أحرف على الأقل",
        category_id: "معرف الفئة غير صحيح",
        media_type: "نوع الوسائط غير صحيح",
      });
      expect(messages("media", { title: "<b></b>ab", description: "x".repeat(1001) })).toMatchObject({
        title: "العنوان غير صحيح",
        description: "الوصف يجب أن يكون أقل من 1000 حرف",
      });
      expect(messages("media", { title: "x".repeat(201) }).title).toBe("العنوان يجب أن يكون أقل من 200 حرف");
    });

    it("sanitises rich text bodies before storing them", async () => {
      const item = await createItem(
        h.db,
        "article",
        { ...validInput("article", categoryId), content: `<p dir="rtl" onclick="alert(1)">فقرة آمنة طويلة بما يكفي للحفظ</p><script>alert(1)</script>` },
        editor,
      );
      expect(item.content).toContain("فقرة آمنة طويلة");
      expect(item.content).not.toMatch(/script|onclick/);
    });

    it("refuses the later of two saves of the same version, and keeps both revisions apart", async () => {
      const item = await createItem(h.db, "news", { ...validInput("news", categoryId), title: "خبر يحرره اثنان" }, editor);
      const opened = item.updated_at;
      const saved = await updateItem(h.db, "news", item.id, { ...item, title: "خبر يحرره الأول" }, editor, { expectedUpdatedAt: opened });
      expect(saved.title).toBe("خبر يحرره الأول");
      const late = await updateItem(h.db, "news", item.id, { ...item, title: "خبر يحرره الثاني" }, editor, { expectedUpdatedAt: opened }).catch(
        (e: unknown) => e,
      );
      expect(late).toBeInstanceOf(ContentConflictError);
      expect((late as ContentConflictError).current.title).toBe("خبر يحرره الأول");
      expect((await getForStaff(h.db, "news", item.id))!.title).toBe("خبر يحرره الأول");
      expect(await listRevisions(h.db, "news", item.id)).toHaveLength(2);
    });

    it("records a changed slug so the old URL can redirect, and frees it for a new item", async () => {
      const item = await createItem(h.db, "news", { ...validInput("news", categoryId), title: "عنوان أول للخبر" }, editor);
      const renamed = await updateItem(h.db, "news", item.id, { page_slug: "عنوان-جديد" }, editor, { partial: true });
      expect(renamed.page_slug).toBe("عنوان-جديد");
      const [redirect] = await h.db
        .select()
        .from(slugRedirects)
        .where(and(eq(slugRedirects.contentType, "news"), eq(slugRedirects.oldSlug, "عنوان-أول-للخبر")));
      expect(redirect?.itemId).toBe(item.id);
      // A new item may take the old slug; the redirect then gives way to it.
      const taker = await createItem(h.db, "news", { ...validInput("news", categoryId), title: "عنوان أول للخبر" }, editor);
      expect(taker.page_slug).toBe("عنوان-أول-للخبر");
      expect(await h.db.select().from(slugRedirects).where(eq(slugRedirects.oldSlug, "عنوان-أول-للخبر"))).toHaveLength(0);
    });

    it("hides drafts and scheduled items from the public reader until their time", async () => {
      const t = tableOf("news");
      const publicCount = async (id: number) =>
        (
          await h.db
            .select({ id: t.id })
            .from(t)
            .where(isPublished(t, eq(t.id, id)))
        ).length;
      const draft = await createItem(h.db, "news", { ...validInput("news", categoryId), title: "خبر في المسودة", status: "draft" }, editor);
      expect(draft.status).toBe("draft");
      expect(await publicCount(draft.id)).toBe(0);

      // An hour ahead: hidden however long the set-up took. Its time arriving is then played by moving the stored
      // time into the past (the reads compare it with the database's now()), not by waiting.
      const soon = new Date(Date.now() + 3600_000).toISOString();
      const scheduled = await createItem(
        h.db,
        "news",
        { ...validInput("news", categoryId), title: "خبر مجدول", status: "scheduled", publish_date: soon },
        editor,
      );
      expect(scheduled.status).toBe("scheduled");
      expect(await publicCount(scheduled.id)).toBe(0);
      expect((await listForStaff(h.db, "news", { status: "scheduled" })).items.map((i) => i.id)).toContain(scheduled.id);
      await h.db
        .update(t)
        .set({ publishDate: new Date(Date.now() - 1000) })
        .where(eq(t.id, scheduled.id));
      expect(await publicCount(scheduled.id)).toBe(1);
      expect((await getForStaff(h.db, "news", scheduled.id))!.status).toBe("published");

      const past = await createItem(h.db, "news", { ...validInput("news", categoryId), status: "scheduled", publish_date: "2020-01-01T10:00" }, editor).catch(
        (e: unknown) => e,
      );
      expect(ar((past as ValidationError).fields!.publish_date)).toBe("اختر موعد نشر في المستقبل للجدولة");
    });

    it("lists for staff newest first, pages, filters by status and text", async () => {
      for (let i = 0; i < 25; i++) await createItem(h.db, "program", { ...validInput("program", categoryId), title: `برنامج رقم ${i} للاختبار` }, editor);
      const first = await listForStaff(h.db, "program", { perPage: 10 });
      expect(first.items).toHaveLength(10);
      expect(first.total).toBeGreaterThanOrEqual(26);
      const created = first.items.map((i) => Date.parse(i.created_at));
      expect(created).toEqual([...created].sort((a, b) => b - a));
      const third = await listForStaff(h.db, "program", { perPage: 10, page: 3 });
      expect(third.items.length).toBeGreaterThan(0);
      expect(third.items.some((i) => first.items.some((f) => f.id === i.id))).toBe(false);
      const found = await listForStaff(h.db, "program", { q: "رقم 7 " });
      expect(found.items.map((i) => i.title)).toEqual(["برنامج رقم 7 للاختبار"]);
      expect((await listForStaff(h.db, "program", { status: "draft" })).total).toBe(0);
    });

    it("restores an earlier revision as a new save", async () => {
      const item = await createItem(h.db, "podcast", validInput("podcast", categoryId), editor);
      await updateItem(h.db, "podcast", item.id, { host_name: "مقدم آخر" }, editor, { partial: true });
      const [latest, original] = await listRevisions(h.db, "podcast", item.id);
      expect((await getRevision(h.db, "podcast", item.id, latest.id))!.data.host_name).toBe("مقدم آخر");
      const restored = await restoreRevision(h.db, "podcast", item.id, original.id, editor);
      expect(restored.host_name).toBe("مريم");
      expect(await listRevisions(h.db, "podcast", item.id)).toHaveLength(3);
    });

    it("deletes an item with its revisions and redirects", async () => {
      const item = await createItem(h.db, "coverage", validInput("coverage", categoryId), editor);
      await updateItem(h.db, "coverage", item.id, { page_slug: "تغطية-أخرى" }, editor, { partial: true });
      await deleteItem(h.db, "coverage", item.id);
      expect(await getForStaff(h.db, "coverage", item.id)).toBeNull();
      expect(
        await h.db
          .select()
          .from(contentRevisions)
          .where(and(eq(contentRevisions.contentType, "coverage"), eq(contentRevisions.itemId, item.id))),
      ).toHaveLength(0);
      expect(await h.db.select().from(slugRedirects).where(eq(slugRedirects.itemId, item.id))).toHaveLength(0);
      await expect(deleteItem(h.db, "coverage", item.id)).rejects.toBeInstanceOf(NotFoundError);
    });
  });
}
