/**
 * Live coverage's entries (issue 44) on a real database (PGlite, and PostgreSQL with TEST_DATABASE_URL): starting
 * and ending, posting (with its checks of every field), editing, pinning, deleting as a tombstone, the cursor of
 * changes, idempotent posts by client key, permissions and ownership, audit rows, cache invalidation and the bus.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { validInput } from "#tests/helpers/content.ts";
import { auditLog, categories, coverageEntries, libraryFiles, profiles, user, videos } from "#server/db/schema.server.ts";
import { setDatabaseHandle } from "#server/db/client.server.ts";
import { AppError } from "#server/http/errors.server.ts";
import { onInvalidate, type CacheTag } from "../cache.server.ts";
import { createItem } from "../newsroom/write.server.ts";
import type { LiveChange } from "#domain/live.ts";
import { onLiveChange } from "./bus.server.ts";
import { deleteEntry, editEntry, embedUrlOf, findEntry, keyEventsOf, listEntries, liveStateOf, postEntry, setLive, type LiveActor } from "./entries.server.ts";

const editor: LiveActor = {
  id: "live-editor",
  email: "mariem@live.test",
  name: "مريم بنت أحمد",
  profile: { role: "editor", isAdmin: false, permissions: ["content.write", "content.publish", "content.others"] },
};
const reporter: LiveActor = {
  id: "live-reporter",
  email: "sidi@live.test",
  name: "سيدي محمد",
  profile: { role: "writer", isAdmin: false, permissions: ["content.write", "content.publish"] },
};
const writer: LiveActor = {
  id: "live-writer",
  email: "aicha@live.test",
  name: "عائشة",
  profile: { role: "writer", isAdmin: false, permissions: ["content.write"] },
};

const VIDEO = "3f2a3a6e-8a55-4f7b-9a53-0c5b1a7d2e10";

/** The error a promise fails with (an AppError: its status, code and fields). */
async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

for (const kind of testDatabaseKinds) {
  describe(`live coverage entries (${kind})`, () => {
    let h: TestDatabase;
    let categoryId: number;
    const changes: LiveChange[] = [];
    const tags: CacheTag[] = [];
    const offs: (() => void)[] = [];

    const newCoverage = async (title: string, by: LiveActor = editor, status = "published") =>
      (await createItem(h.db, "coverage", { ...validInput("coverage", categoryId, title), status }, by)).id;

    beforeAll(async () => {
      h = await createTestDatabase(kind);
      setDatabaseHandle(h);
      await h.db.insert(user).values([editor, reporter, writer].map((a) => ({ id: a.id, name: a.name, email: a.email })));
      await h.db.insert(profiles).values([editor, reporter, writer].map((a) => ({ id: a.id, role: a.profile.role, fullName: a.name })));
      [{ id: categoryId }] = await h.db.insert(categories).values({ name: "سياسة", slug: "politics", type: "news" }).returning({ id: categories.id });
      await h.db.insert(libraryFiles).values([
        { url: "/uploads/coverage/images/ballot.jpg", kind: "image", altAr: "صناديق الاقتراع في نواكشوط" },
        { url: "/uploads/coverage/images/no-alt.jpg", kind: "image" },
      ]);
      await h.db.insert(videos).values({ guid: VIDEO, title: "فرز الأصوات", status: 4 });
      offs.push(onLiveChange((c) => changes.push(c)));
      offs.push(onInvalidate((t, origin) => origin === "local" && tags.push(...t)));
    });
    afterEach(() => {
      changes.length = 0;
      tags.length = 0;
    });
    afterAll(async () => {
      for (const off of offs) off();
      setDatabaseHandle(undefined);
      await h?.drop();
    });

    it("starts and ends a coverage, idempotently; starting again begins a new live period", async () => {
      const id = await newCoverage("ليلة الانتخابات الرئاسية");
      expect(await liveStateOf(h.db, id)).toEqual({ started_at: null, ended_at: null });
      expect(await liveStateOf(h.db, 999_999)).toBeNull();

      const started = await setLive(h.db, id, true, editor);
      expect(started.started_at).not.toBeNull();
      expect(started.ended_at).toBeNull();
      expect(changes).toEqual([expect.objectContaining({ coverageId: id, kind: "status", entryId: null })]);
      expect(tags).toEqual(expect.arrayContaining(["live", "coverage", "entries"]));
      // Starting a live coverage keeps its start, and tells nobody.
      changes.length = 0;
      expect(await setLive(h.db, id, true, editor)).toEqual(started);
      expect(changes).toEqual([]);

      const ended = await setLive(h.db, id, false, editor);
      expect(ended.started_at).toBe(started.started_at);
      expect(ended.ended_at).not.toBeNull();
      expect(await setLive(h.db, id, false, editor)).toEqual(ended);

      const again = await setLive(h.db, id, true, editor);
      expect(again.ended_at).toBeNull();
      expect(Date.parse(again.started_at!)).toBeGreaterThanOrEqual(Date.parse(ended.ended_at!));

      const audit = await h.db.select({ action: auditLog.action, ids: auditLog.itemIds }).from(auditLog).where(eq(auditLog.contentType, "coverage"));
      expect(audit.filter((a) => a.ids.includes(id)).map((a) => a.action)).toEqual(expect.arrayContaining(["live_start", "live_end"]));
      expect((await failure(setLive(h.db, 999_999, true, editor))).status).toBe(404);
    });

    it("posts entries newest first with their byline, and lists the changes after a cursor, deletions included", async () => {
      const id = await newCoverage("قمة نواكشوط", reporter);
      await setLive(h.db, id, true, editor);
      const first = await postEntry(h.db, id, { body: "<p>افتتاح القمة في قصر المؤتمرات.</p><script>alert(1)</script>" }, editor);
      expect(first.created).toBe(true);
      expect(first.entry).toMatchObject({ author: "مريم بنت أحمد", body: "<p>افتتاح القمة في قصر المؤتمرات.</p>", key_event: false, pinned: false });
      expect(first.entry.url).toMatch(new RegExp(`^/coverage/[^/]+/entries/${first.entry.id}$`));
      expect(first.entry.version).toBe(first.entry.id);
      expect(changes.at(-1)).toEqual({ coverageId: id, kind: "entry", entryId: first.entry.id, version: first.entry.version });
      expect(tags).toContain("entries");

      const second = await postEntry(h.db, id, { body: "<p>كلمة الرئيس.</p>", key_event: true }, reporter);
      const third = await postEntry(h.db, id, { body: "<p>صورة جماعية للقادة.</p>", image: "/uploads/coverage/images/ballot.jpg" }, editor);
      expect(third.entry.image).toEqual({ url: "/uploads/coverage/images/ballot.jpg", alt: "صناديق الاقتراع في نواكشوط" });

      const all = await listEntries(h.db, id);
      expect(all.entries.map((e) => e.id)).toEqual([third.entry.id, second.entry.id, first.entry.id]);
      expect(all.deleted).toEqual([]);
      expect(all.cursor).toBe(third.entry.version);
      expect((await keyEventsOf(h.db, id, 10)).map((e) => e.id)).toEqual([second.entry.id]);

      const cursor = all.cursor;
      expect(await listEntries(h.db, id, { after: cursor })).toEqual({ entries: [], deleted: [], cursor });
      const edited = await editEntry(h.db, id, first.entry.id, { body: "<p>افتتاح القمة رسميًا في قصر المؤتمرات.</p>" }, reporter);
      expect(edited.edited_at).not.toBeNull();
      expect(edited.version).toBeGreaterThan(cursor);
      await deleteEntry(h.db, id, second.entry.id, editor);
      expect(changes.at(-1)).toMatchObject({ kind: "delete", entryId: second.entry.id });
      const since = await listEntries(h.db, id, { after: cursor });
      expect(since.entries.map((e) => e.id)).toEqual([first.entry.id]);
      expect(since.deleted).toEqual([second.entry.id]);
      expect(since.cursor).toBeGreaterThan(edited.version);
      // The deleted entry is gone from lists, its page and the key events, kept only as a tombstone.
      expect((await listEntries(h.db, id)).entries.map((e) => e.id)).toEqual([third.entry.id, first.entry.id]);
      expect(await findEntry(h.db, id, second.entry.id)).toBeNull();
      expect(await keyEventsOf(h.db, id, 10)).toEqual([]);
      const [tomb] = await h.db.select().from(coverageEntries).where(eq(coverageEntries.id, second.entry.id));
      expect(tomb).toMatchObject({ body: "", keyEvent: false });
      expect(tomb.deletedAt).not.toBeNull();
      expect((await failure(deleteEntry(h.db, id, second.entry.id, editor))).status).toBe(404);
      expect((await failure(editEntry(h.db, id, second.entry.id, { body: "<p>نص</p>" }, editor))).status).toBe(404);

      // A small limit pages through the changes oldest first: none is skipped.
      const paged = await listEntries(h.db, id, { after: 0, limit: 1 });
      expect(paged.entries.map((e) => e.id)).toEqual([third.entry.id]);
      expect(paged.cursor).toBe(third.entry.version);
      const rest = await listEntries(h.db, id, { after: paged.cursor, limit: 2 });
      expect(rest.entries.map((e) => e.id)).toEqual([first.entry.id]);
      expect(rest.deleted).toEqual([second.entry.id]);
      const older = await listEntries(h.db, id, { before: third.entry.id });
      expect(older.entries.map((e) => e.id)).toEqual([first.entry.id]);

      const audit = await h.db.select({ action: auditLog.action, details: auditLog.details }).from(auditLog).where(eq(auditLog.contentType, "coverage"));
      const of = (action: string) => audit.filter((a) => a.action === action).map((a) => (a.details as { entry_id: number }).entry_id);
      expect(of("entry_create")).toEqual(expect.arrayContaining([first.entry.id, second.entry.id, third.entry.id]));
      expect(of("entry_edit")).toContain(first.entry.id);
      expect(of("entry_delete")).toContain(second.entry.id);
    });

    it("keeps one pinned entry: pinning another unpins the first, and readers are told of both", async () => {
      const id = await newCoverage("مباراة المرابطون");
      await setLive(h.db, id, true, editor);
      const a = await postEntry(h.db, id, { body: "<p>التشكيلة الرسمية.</p>", pinned: true }, editor);
      const b = await postEntry(h.db, id, { body: "<p>هدف أول!</p>" }, editor);
      changes.length = 0;
      const pinned = await editEntry(h.db, id, b.entry.id, { pinned: true }, editor);
      expect(pinned.pinned).toBe(true);
      // A pin is not an edit of the text.
      expect(pinned.edited_at).toBeNull();
      expect((await findEntry(h.db, id, a.entry.id))?.pinned).toBe(false);
      expect(changes.map((c) => [c.kind, c.entryId])).toEqual([
        ["edit", a.entry.id],
        ["edit", b.entry.id],
      ]);
      const c = await postEntry(h.db, id, { body: "<p>نهاية الشوط الأول.</p>", pinned: true }, editor);
      const pins = (await listEntries(h.db, id)).entries.filter((e) => e.pinned).map((e) => e.id);
      expect(pins).toEqual([c.entry.id]);
      // Two editors pinning two entries at the same moment: one stays pinned.
      const [x, y] = [await postEntry(h.db, id, { body: "<p>ركلة جزاء.</p>" }, editor), await postEntry(h.db, id, { body: "<p>بطاقة حمراء.</p>" }, editor)];
      await Promise.all([editEntry(h.db, id, x.entry.id, { pinned: true }, editor), editEntry(h.db, id, y.entry.id, { pinned: true }, editor)]);
      expect((await listEntries(h.db, id)).entries.filter((e) => e.pinned)).toHaveLength(1);
      await editEntry(h.db, id, c.entry.id, { pinned: true }, editor);
      // Editing nothing changes nothing.
      const pinnedAgain = (await findEntry(h.db, id, c.entry.id))!;
      const same = await editEntry(h.db, id, c.entry.id, { pinned: true }, editor);
      expect(same.version).toBe(pinnedAgain.version);
    });

    it("answers a resent post (same client key) with the entry it made, created: false", async () => {
      const id = await newCoverage("عاصفة رملية في أطار", reporter);
      await setLive(h.db, id, true, editor);
      const body = { body: "<p>انقطاع الطريق بين أطار وشنقيط.</p>", client_key: "composer-7f3a-1" };
      const [one, two] = await Promise.all([postEntry(h.db, id, body, reporter), postEntry(h.db, id, body, reporter)]);
      expect([one.created, two.created].sort()).toEqual([false, true]);
      expect(one.entry.id).toBe(two.entry.id);
      const three = await postEntry(h.db, id, body, reporter);
      expect(three).toEqual({ entry: expect.objectContaining({ id: one.entry.id }) as unknown, created: false });
      expect((await listEntries(h.db, id)).entries).toHaveLength(1);
      // The same key on another coverage is another post.
      const other = await newCoverage("تغطية أخرى", reporter);
      await setLive(h.db, other, true, editor);
      expect((await postEntry(h.db, other, body, reporter)).created).toBe(true);
    });

    it("refuses a post to a coverage that is not live (409), and edits after the end are allowed", async () => {
      const id = await newCoverage("مؤتمر صحفي");
      const refused = await failure(postEntry(h.db, id, { body: "<p>نص</p>" }, editor));
      expect(refused.status).toBe(409);
      expect(refused.code).toBe("NOT_LIVE");
      expect(refused.message).toMatch(/مباشرة/);
      await setLive(h.db, id, true, editor);
      const { entry } = await postEntry(h.db, id, { body: "<p>بدأ المؤتمر.</p>" }, editor);
      await setLive(h.db, id, false, editor);
      expect((await failure(postEntry(h.db, id, { body: "<p>نص</p>" }, editor))).status).toBe(409);
      expect((await editEntry(h.db, id, entry.id, { body: "<p>بدأ المؤتمر متأخرًا.</p>" }, editor)).body).toBe("<p>بدأ المؤتمر متأخرًا.</p>");
    });

    it("refuses bad input of every field with 400 INVALID_ENTRY and a message for the field", async () => {
      const id = await newCoverage("تغطية للحقول المرفوضة");
      await setLive(h.db, id, true, editor);
      const cases: [Record<string, unknown>, string][] = [
        [{}, "body"],
        [{ body: "" }, "body"],
        [{ body: "<p>   </p>" }, "body"],
        [{ body: "<script>x</script>" }, "body"],
        [{ body: 42 }, "body"],
        [{ body: `<p>${"ن".repeat(5001)}</p>` }, "body"],
        [{ body: "<p>نص</p>", key_event: "yes" }, "key_event"],
        [{ body: "<p>نص</p>", pinned: 1 }, "pinned"],
        [{ body: "<p>نص</p>", image: "https://elsewhere.example/a.jpg" }, "image"],
        [{ body: "<p>نص</p>", image: 7 }, "image"],
        [{ body: "<p>نص</p>", image: "/uploads/coverage/images/no-alt.jpg" }, "image_alt"],
        [{ body: "<p>نص</p>", image: "/uploads/coverage/images/ballot.jpg", image_alt: 5 }, "image_alt"],
        [{ body: "<p>نص</p>", video_id: "not-a-video" }, "video_id"],
        [{ body: "<p>نص</p>", video_id: "00000000-0000-4000-8000-000000000000" }, "video_id"],
        [{ body: "<p>نص</p>", embed_url: "http://x.com/a/status/1" }, "embed_url"],
        [{ body: "<p>نص</p>", embed_url: "https://evil.example/x.com" }, "embed_url"],
        [{ body: "<p>نص</p>", embed_url: "https://x.com/" }, "embed_url"],
        [{ body: "<p>نص</p>", embed_url: "javascript:alert(1)" }, "embed_url"],
        [{ body: "<p>نص</p>", client_key: "k".repeat(65) }, "client_key"],
        [{ body: "<p>نص</p>", client_key: 12 }, "client_key"],
        [{ body: "<p>نص</p>", push: "true" }, "push"],
        [{ body: "<p>نص</p>", push: true }, "push"],
        [{ body: "<p>نص</p>", colour: "red" }, "colour"],
      ];
      for (const [input, field] of cases) {
        const error = await failure(postEntry(h.db, id, input, editor));
        expect({ input, status: error.status, code: error.code }).toEqual({ input, status: 400, code: "INVALID_ENTRY" });
        expect(Object.keys(error.fields ?? {}), JSON.stringify(input)).toContain(field);
        expect(error.fields![field]).toMatch(/[\u0600-\u06FF]/);
      }
      expect((await failure(postEntry(h.db, id, "نص", editor))).status).toBe(400);
      expect((await listEntries(h.db, id)).entries).toEqual([]);
    });

    it("takes a library picture with its own alt text, a library video and a social post, and removes them by null", async () => {
      const id = await newCoverage("تغطية بالوسائط");
      await setLive(h.db, id, true, editor);
      const { entry } = await postEntry(
        h.db,
        id,
        {
          body: "<p>الفرز مستمر.</p>",
          image: "/uploads/coverage/images/no-alt.jpg",
          image_alt: "موظفو اللجنة يفرزون الأصوات",
          video_id: VIDEO.toUpperCase(),
          embed_url: "https://twitter.com/CENI_MR/status/1790000000000000000",
        },
        editor,
      );
      expect(entry).toMatchObject({
        image: { url: "/uploads/coverage/images/no-alt.jpg", alt: "موظفو اللجنة يفرزون الأصوات" },
        video_id: VIDEO,
        embed_url: "https://twitter.com/CENI_MR/status/1790000000000000000",
      });
      const bare = await editEntry(h.db, id, entry.id, { image: null, video_id: null, embed_url: null }, editor);
      expect(bare).toMatchObject({ image: null, video_id: null, embed_url: null });
      expect(bare.edited_at).not.toBeNull();
      expect((await failure(editEntry(h.db, id, entry.id, { image_alt: "وصف" }, editor))).fields).toHaveProperty("image_alt");
      for (const url of ["https://www.facebook.com/page/posts/1", "https://youtu.be/abc", "https://t.me/channel/12", "https://www.tiktok.com/@a/video/1"])
        expect(embedUrlOf(url)).toBe(new URL(url).toString());
    });

    it("lets only those who may publish write entries, and only on coverage they may edit", async () => {
      const own = await newCoverage("تغطية المراسل", reporter);
      const others = await newCoverage("تغطية المحررة", editor);
      await setLive(h.db, own, true, reporter);
      // Without content.publish: refused, even on one's own coverage.
      expect((await failure(setLive(h.db, own, false, writer))).status).toBe(403);
      expect((await failure(postEntry(h.db, own, { body: "<p>نص</p>" }, writer))).status).toBe(403);
      // With it but without content.others: only one's own coverage.
      expect((await failure(setLive(h.db, others, true, reporter))).code).toBe("NOT_YOUR_ITEM");
      await setLive(h.db, others, true, editor);
      expect((await failure(postEntry(h.db, others, { body: "<p>نص</p>" }, reporter))).code).toBe("NOT_YOUR_ITEM");
      const { entry } = await postEntry(h.db, own, { body: "<p>خبر من الميدان.</p>" }, reporter);
      // Several editors post to one coverage: the editor may write on the reporter's.
      expect((await editEntry(h.db, own, entry.id, { key_event: true }, editor)).key_event).toBe(true);
      // An entry is found only under its own coverage.
      expect((await failure(editEntry(h.db, others, entry.id, { pinned: true }, editor))).status).toBe(404);
      expect(
        await h.db
          .select({ id: coverageEntries.id })
          .from(coverageEntries)
          .where(and(eq(coverageEntries.coverageId, own), eq(coverageEntries.pinned, true))),
      ).toEqual([]);
    });

    it('tells the ticker (the "live" tag) when a breaking item is saved, deleted or bulk-changed, and not for others', async () => {
      const quiet = await createItem(h.db, "news", validInput("news", categoryId, "خبر عادي"), editor);
      expect(tags).not.toContain("live");
      const urgent = await createItem(h.db, "news", { ...validInput("news", categoryId, "عاجل: زلزال"), urgent: true }, editor);
      expect(tags).toContain("live");
      tags.length = 0;
      // No longer urgent: it leaves the ticker, which is told.
      const { updateItem, deleteItem } = await import("../newsroom/write.server.ts");
      await updateItem(h.db, "news", urgent.id, { urgent: false }, editor, { partial: true });
      expect(tags).toContain("live");
      tags.length = 0;
      await updateItem(h.db, "news", quiet.id, { title: "خبر عادي معدل" }, editor, { partial: true });
      expect(tags).not.toContain("live");
      const again = await createItem(h.db, "news", { ...validInput("news", categoryId, "عاجل: فيضان"), urgent: true }, editor);
      const { runBulkAction } = await import("../bulk.server.ts");
      tags.length = 0;
      await runBulkAction(h.db, "news", { action: "unpublish", selection: { ids: [again.id] } }, editor);
      expect(tags).toContain("live");
      tags.length = 0;
      await deleteItem(h.db, "news", again.id, editor);
      expect(tags).toContain("live");
    });

    it("keeps a draft's entries, and removes a coverage's entries with it", async () => {
      const id = await newCoverage("تغطية لم تنشر بعد", editor, "draft");
      await setLive(h.db, id, true, editor);
      const { entry } = await postEntry(h.db, id, { body: "<p>تجربة قبل النشر.</p>" }, editor);
      expect((await listEntries(h.db, id)).entries.map((e) => e.id)).toEqual([entry.id]);
      const { deleteItem } = await import("../newsroom/write.server.ts");
      await deleteItem(h.db, "coverage", id, editor);
      expect(await h.db.select().from(coverageEntries).where(eq(coverageEntries.coverageId, id))).toEqual([]);
    });
  });
}
