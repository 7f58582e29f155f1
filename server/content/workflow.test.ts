/**
 * Workflow states and review (issue 40, decision 0138) on a real database: a writer saves drafts and submits
 * them, and every other status is refused with 403 PUBLISH_PERMISSION; an editor approves, sends back (with a
 * required note), publishes, schedules and unpublishes; each step leaves its notices (to the editors when a
 * story is submitted, to its writer when it is sent back or published) and their e-mails, sent by the job queue
 * through a real SMTP receiver; the review queue lists what waits, oldest first; and an item in review, sent
 * back or approved is never public: not on its page, in the sitemap, the feeds, the section lists or search.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { startSmtpReceiver } from "#tests/helpers/smtp.ts";
import { checkConfig, type Config } from "#server/config.server.ts";
import { categories, itemWorkflow, jobs, profiles, staffNotices, user } from "#server/db/schema.server.ts";
import { startWorker } from "#server/jobs/queue.server.ts";
import { getForStaff, listForStaff } from "./newsroom/read.server.ts";
import { createItem, deleteItem, updateItem } from "./newsroom/write.server.ts";
import { markNoticesRead, noticesOf, reviewOf, reviewQueue, unreadNotices, WORKFLOW_MAIL_JOB, workflowMailHandler } from "./workflow.server.ts";
import { findPublishedItem } from "./detail.server.ts";
import { listFeedItems, listSitemapEntries } from "./sitemap.server.ts";
import { listPublishedNews } from "./news.server.ts";
import { searchPublished } from "#server/search/search.server.ts";
import { ForbiddenError } from "#server/http/errors.server.ts";
import { statusChoices, maySetStatus } from "#domain/workflow.ts";

const writerProfile = { role: "editor", isAdmin: false, permissions: ["content.write"], disabled: false };
const editorProfile = { role: "editor", isAdmin: false, permissions: ["content.write", "content.publish"], disabled: false };

describe("who may set which status (domain/workflow.ts)", () => {
  it("a writer sets draft and review on an item readers do not see, and keeps a sent-back item as it is", () => {
    expect(statusChoices(false, null)).toEqual(["draft", "review"]);
    expect(statusChoices(false, "changes_requested")).toEqual(["draft", "review", "changes_requested"]);
    expect(maySetStatus(false, "draft", "published")).toBe(false);
    expect(maySetStatus(false, "review", "approved")).toBe(false);
    expect(maySetStatus(false, "draft", "scheduled")).toBe(false);
    // Taking a live story back to draft or review is unpublishing it.
    expect(maySetStatus(false, "published", "draft")).toBe(false);
    expect(maySetStatus(false, "published", "review")).toBe(false);
    expect(maySetStatus(false, "published", "published")).toBe(false);
  });
  it("an editor sets every status", () => {
    expect(statusChoices(true, "review")).toEqual(["draft", "review", "changes_requested", "approved", "published", "scheduled"]);
  });
});

for (const kind of testDatabaseKinds) {
  describe(`workflow states (${kind})`, () => {
    let h: TestDatabase;
    let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
    let config: Config;
    let input: Record<string, unknown>;
    const writer = { id: `wf-writer-${kind}`, email: `aminetou.writer-${kind}@workflow.test`, profile: writerProfile };
    const editor = { id: `wf-editor-${kind}`, email: `sidi.editor-${kind}@workflow.test`, profile: editorProfile };
    const chief = { id: `wf-chief-${kind}`, email: `chief-${kind}@workflow.test`, profile: { ...editorProfile, role: "admin", permissions: [] } };

    /** Runs the queued mail jobs to the end (a real worker over the real queue). */
    async function drainMail() {
      const worker = startWorker(h.db, { [WORKFLOW_MAIL_JOB]: workflowMailHandler(config) }, { pollMs: 50 });
      try {
        await worker.drain();
      } finally {
        await worker.stop();
      }
    }
    const noticesTo = async (id: string) => (await h.db.select().from(staffNotices).where(eq(staffNotices.accountId, id))).map((n) => n.kind);

    /** Everything public a story could show up in, by its title. */
    async function publicly(id: number, title: string) {
      const [page, sitemap, feed, list, search] = await Promise.all([
        findPublishedItem(h.db, "news", { id }),
        listSitemapEntries(h.db),
        listFeedItems(h.db, 100),
        listPublishedNews(h.db, { limit: 100 }),
        searchPublished(h.db, title),
      ]);
      const item = await getForStaff(h.db, "news", id);
      return {
        page: page !== null,
        sitemap: sitemap.some((e) => e.path === item!.url),
        feed: feed.some((f) => f.title === title),
        list: list.some((n: { id: number }) => n.id === id),
        search: search.results.some((r) => r.id === id && r.type === "news"),
      };
    }
    const nowhere = { page: false, sitemap: false, feed: false, list: false, search: false };

    beforeAll(async () => {
      h = await createTestDatabase(kind);
      smtp = await startSmtpReceiver();
      config = checkConfig({ SMTP_URL: smtp.url, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "workflow-")), PUBLIC_URL: "https://sahara.test" }).config;
      await h.db.insert(user).values([
        { id: writer.id, name: "aminetou", email: writer.email },
        { id: editor.id, name: "sidi", email: editor.email },
        { id: chief.id, name: "chief", email: chief.email },
      ]);
      await h.db.insert(profiles).values([
        { id: writer.id, role: "editor", permissions: writerProfile.permissions, fullName: "أمينتو الكاتبة" },
        { id: editor.id, role: "editor", permissions: editorProfile.permissions, fullName: "سيدي المحرر" },
        { id: chief.id, role: "admin", fullName: "رئيسة التحرير" },
      ]);
      const [c] = await h.db.insert(categories).values({ name: "سياسة", slug: "politics", type: "news" }).returning({ id: categories.id });
      input = {
        excerpt: "مقتطف الخبر التجريبي عن سير العمل",
        content: "<p>نص الخبر الكامل الذي يتجاوز عشرين حرفًا بكثير عن القافلة.</p>",
        category_id: c.id,
        priority: "high",
        location: "نواكشوط",
      };
    });
    afterAll(async () => {
      await smtp?.close();
      await h?.drop();
    });

    it("a writer's new item is a draft; published, scheduled or approved is 403 PUBLISH_PERMISSION and nothing is saved", async () => {
      for (const status of ["published", "scheduled", "approved", "changes_requested"]) {
        const title = `خبر الكاتبة المرفوض ${status}`;
        const refused = await createItem(h.db, "news", { ...input, title, status, publish_date: "2031-01-01T10:00" }, writer).catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(ForbiddenError);
        expect(refused).toMatchObject({ status: 403, code: "PUBLISH_PERMISSION" });
      }
      expect((await listForStaff(h.db, "news", { q: "خبر الكاتبة المرفوض" })).total).toBe(0);
      const draft = await createItem(h.db, "news", { ...input, title: "مسودة الكاتبة الأولى" }, writer);
      expect(draft.status).toBe("draft");
    });

    it("walks draft → review → changes_requested (note required) → review → approved → published, with notices and e-mails", async () => {
      const title = `قافلة الملح تصل إلى تيشيت ${kind}`;
      const draft = await createItem(h.db, "news", { ...input, title, status: "draft" }, writer);
      expect(await publicly(draft.id, title)).toEqual(nowhere);

      // Submitted: in review, on the queue, a notice and an e-mail to each account that may publish.
      const submitted = await updateItem(h.db, "news", draft.id, { status: "review" }, writer, { partial: true });
      expect(submitted.status).toBe("review");
      expect(await publicly(draft.id, title)).toEqual(nowhere);
      const queue = await reviewQueue(h.db);
      expect(queue.find((q) => q.id === draft.id)).toMatchObject({ type: "news", title, writer: "أمينتو الكاتبة" });
      expect(await noticesTo(editor.id)).toContain("submitted");
      expect(await noticesTo(chief.id)).toContain("submitted");
      expect(await noticesTo(writer.id)).not.toContain("submitted");
      // A writer may not approve their own story, nor publish it.
      await expect(updateItem(h.db, "news", draft.id, { status: "approved" }, writer, { partial: true })).rejects.toMatchObject({
        status: 403,
        code: "PUBLISH_PERMISSION",
      });
      await expect(updateItem(h.db, "news", draft.id, { status: "published" }, writer, { partial: true })).rejects.toMatchObject({
        status: 403,
        code: "PUBLISH_PERMISSION",
      });

      // Sent back: only with a note; the writer is told, with the note.
      await expect(updateItem(h.db, "news", draft.id, { status: "changes_requested" }, editor, { partial: true })).rejects.toMatchObject({
        status: 422,
        fields: { review_note: "workflow.noteRequired" },
      });
      const note = "أضيفي مصدر الرقم في الفقرة الثانية";
      const back = await updateItem(h.db, "news", draft.id, { status: "changes_requested", review_note: note }, editor, { partial: true });
      expect(back.status).toBe("changes_requested");
      expect(await publicly(draft.id, title)).toEqual(nowhere);
      expect(await reviewOf(h.db, "news", draft.id)).toMatchObject({ note, by: "سيدي المحرر" });
      expect((await reviewQueue(h.db)).some((q) => q.id === draft.id)).toBe(false);
      const { notices } = await noticesOf(h.db, writer.id);
      expect(notices[0]).toMatchObject({ kind: "changes_requested", note, actor_name: "سيدي المحرر", item_id: draft.id, read: false });

      // The writer edits it (it stays sent back), then resubmits.
      const edited = await updateItem(h.db, "news", draft.id, { excerpt: "مقتطف معدّل بعد الملاحظة مع المصدر" }, writer, { partial: true });
      expect(edited.status).toBe("changes_requested");
      await updateItem(h.db, "news", draft.id, { status: "review" }, writer, { partial: true });
      expect((await reviewQueue(h.db)).some((q) => q.id === draft.id)).toBe(true);

      // Approved: still not public, off the queue.
      const approved = await updateItem(h.db, "news", draft.id, { status: "approved" }, editor, { partial: true });
      expect(approved.status).toBe("approved");
      expect(await publicly(draft.id, title)).toEqual(nowhere);
      expect((await reviewQueue(h.db)).some((q) => q.id === draft.id)).toBe(false);
      // Once approved, a writer's save over it (as approved) is an editor's call.
      await expect(updateItem(h.db, "news", draft.id, { excerpt: "تعديل بعد الاعتماد من الكاتبة" }, writer, { partial: true })).rejects.toMatchObject({
        code: "PUBLISH_PERMISSION",
      });

      // Published: public everywhere, and the writer is told.
      const published = await updateItem(h.db, "news", draft.id, { status: "published" }, editor, { partial: true });
      expect(published.status).toBe("published");
      expect(await publicly(draft.id, title)).toEqual({ page: true, sitemap: true, feed: true, list: true, search: true });
      expect((await noticesOf(h.db, writer.id)).notices[0]).toMatchObject({ kind: "published", item_id: draft.id });
      // A writer may not unpublish it.
      await expect(updateItem(h.db, "news", draft.id, { status: "draft" }, writer, { partial: true })).rejects.toMatchObject({ code: "PUBLISH_PERMISSION" });

      // The e-mails, sent by the queue's job through SMTP: to the editors on submission, to the writer after.
      await drainMail();
      const toWriter = smtp.messages.filter((m) => m.to.includes(writer.email));
      const toEditor = smtp.messages.filter((m) => m.to.includes(editor.email));
      expect(toEditor.some((m) => m.subject.includes(`للمراجعة: ${title}`) && m.text.includes("أمينتو الكاتبة"))).toBe(true);
      const sentBack = toWriter.find((m) => m.subject.includes(`مطلوب تعديل: ${title}`))!;
      expect(sentBack.text).toContain(note);
      expect(sentBack.text).toContain("renvoyé");
      expect(sentBack.links).toContain(`https://sahara.test/admin/news/${draft.id}`);
      expect(toWriter.some((m) => m.subject.includes(`نُشر: ${title}`))).toBe(true);
      expect(
        await h.db
          .select()
          .from(jobs)
          .where(and(eq(jobs.name, WORKFLOW_MAIL_JOB), eq(jobs.state, "queued"))),
      ).toEqual([]);

      // Unpublished by an editor: back to draft, gone from every public list.
      const unpublished = await updateItem(h.db, "news", draft.id, { status: "draft" }, editor, { partial: true });
      expect(unpublished.status).toBe("draft");
      expect(await publicly(draft.id, title)).toEqual(nowhere);
    });

    it("an editor schedules; the list filters by every state with counts", async () => {
      const mine = await createItem(h.db, "news", { ...input, title: "خبر مجدول من المحرر", status: "scheduled", publish_date: "2031-05-01T08:00" }, editor);
      expect(mine.status).toBe("scheduled");
      const waiting = await createItem(h.db, "news", { ...input, title: "خبر ينتظر المراجعة في القائمة", status: "review" }, writer);
      const list = await listForStaff(h.db, "news", { status: "review" });
      expect(list.items.map((i) => i.id)).toContain(waiting.id);
      expect(list.items.every((i) => i.status === "review")).toBe(true);
      expect(list.counts.review).toBeGreaterThanOrEqual(1);
      expect(list.counts.scheduled).toBeGreaterThanOrEqual(1);
      expect((await listForStaff(h.db, "news", { status: "scheduled" })).items.map((i) => i.id)).toContain(mine.id);
    });

    it("the review queue is oldest first; notices are marked read; a deleted item takes its review record and notices", async () => {
      const first = await createItem(h.db, "news", { ...input, title: "أقدم خبر في طابور المراجعة", status: "review" }, writer);
      const second = await createItem(h.db, "news", { ...input, title: "أحدث خبر في طابور المراجعة", status: "review" }, writer);
      const queued = (await reviewQueue(h.db)).map((q) => q.id);
      expect(queued.indexOf(first.id)).toBeLessThan(queued.indexOf(second.id));
      const before = await noticesOf(h.db, editor.id);
      expect(before.unread).toBeGreaterThan(0);
      expect(await unreadNotices(h.db, editor.id)).toBe(before.unread);
      await markNoticesRead(
        h.db,
        editor.id,
        before.notices.map((n) => n.id),
      );
      const after = await noticesOf(h.db, editor.id);
      expect(after.notices.every((n) => n.read)).toBe(true);
      expect(await unreadNotices(h.db, editor.id)).toBe(0);
      await deleteItem(h.db, "news", first.id);
      expect(
        await h.db
          .select()
          .from(itemWorkflow)
          .where(and(eq(itemWorkflow.contentType, "news"), eq(itemWorkflow.itemId, first.id))),
      ).toEqual([]);
      expect(
        await h.db
          .select()
          .from(staffNotices)
          .where(and(eq(staffNotices.contentType, "news"), eq(staffNotices.itemId, first.id))),
      ).toEqual([]);
    });
  });
}
