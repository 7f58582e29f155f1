/**
 * Corrections and the audit log (issue 40, decision 0140) on a real database (PGlite, and PostgreSQL when
 * TEST_DATABASE_URL is set): a correction on a published item (refused on a draft), its page, JSON-LD data and
 * RSS item; one audit row per publish, schedule, unpublish, delete, restore, bulk action, correction and permission
 * change, with the request id; a change that fails writes no row; the log's filters and shape; the CSV's escaping;
 * retention pruning; bulk "publish now" keeping an earlier publish date unless asked for today's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray, sql } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { auditLog, categories, news, user } from "#server/db/schema.server.ts";
import { AppError } from "#server/http/errors.server.ts";
import { runWithRequest } from "#server/ops/request-context.server.ts";
import { setAccess, setDisabled } from "#server/auth/accounts.server.ts";
import { getForStaff } from "./newsroom/read.server.ts";
import { createItem, deleteItem, updateItem } from "./newsroom/write.server.ts";
import { listRevisions, restoreRevision } from "./newsroom/revisions.server.ts";
import { parseBulkBody, runBulkAction } from "./bulk.server.ts";
import { addCorrection, correctionsOf, parseCorrectionBody } from "./corrections.server.ts";
import { auditCsv, auditFilterOf, csvCell, listAudit, pruneAudit, recordAudit, type AuditEntry } from "./audit.server.ts";
import { loadDetailPage } from "./detail-page.server.ts";
import { listFeedItems } from "./sitemap.server.ts";
import { rssXml } from "./feeds.server.ts";

const editor = { id: "user-audit-editor", email: "audit.editor@example.org" };
const other = { id: "user-audit-other", email: "other.editor@example.org" };
const body = "<p>نص الخبر الكامل الذي يتجاوز عشرين حرفًا بكثير.</p>";

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
  describe(`corrections and the audit log (${kind})`, () => {
    let h: TestDatabase;
    let politics: number;

    beforeAll(async () => {
      h = await createTestDatabase(kind);
      const [row] = await h.db.insert(categories).values({ name: "سياسة", slug: "politics", type: "news" }).returning({ id: categories.id });
      politics = row.id;
      await h.db.insert(user).values([
        { id: editor.id, name: "محررة", email: editor.email },
        { id: other.id, name: "محرر", email: other.email },
        { id: "user-audit-target", name: "صحفي", email: "target@example.org" },
      ]);
    });
    afterAll(async () => {
      await h?.drop();
    });

    const input = (title: string, status: string, extra: Record<string, unknown> = {}) => ({
      title,
      excerpt: "مقتطف الخبر التجريبي",
      content: body,
      category_id: politics,
      status,
      priority: "medium",
      ...extra,
    });
    const rowsFor = async (id: number) => (await listAudit(h.db, { type: "news", id })).entries;

    it("records a publish, a schedule, an unpublish, a restore and a delete, each with its actor and request id", async () => {
      const item = await runWithRequest({ id: "REQPUBLISH" }, () => createItem(h.db, "news", input("خبر للسجل", "published"), editor));
      let entries = await rowsFor(item.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ actor: editor.id, actor_email: editor.email, action: "publish", type: "news", id: item.id, request_id: "REQPUBLISH" });
      expect(typeof entries[0].at).toBe("string");

      // A save that changes nothing readers see is no row.
      const saved = await updateItem(h.db, "news", item.id, { title: "خبر للسجل معدل" }, editor, { partial: true });
      expect(await rowsFor(item.id)).toHaveLength(1);

      const soon = new Date(Date.now() + 86_400_000).toISOString();
      await updateItem(h.db, "news", item.id, { status: "scheduled", publish_date: soon }, other, { partial: true, expectedUpdatedAt: saved.updated_at });
      await updateItem(h.db, "news", item.id, { status: "draft" }, other, { partial: true });
      entries = await rowsFor(item.id);
      expect(entries.map((e) => e.action)).toEqual(["unpublish", "schedule", "publish"]);
      expect(entries[0].actor).toBe(other.id);

      const first = (await listRevisions(h.db, "news", item.id)).at(-1)!;
      await restoreRevision(h.db, "news", item.id, first.id, editor);
      entries = await rowsFor(item.id);
      expect(entries[0]).toMatchObject({ action: "restore", actor: editor.id });
      expect(entries[0].details).toMatchObject({ revision_id: first.id });

      await deleteItem(h.db, "news", item.id, other);
      entries = await rowsFor(item.id);
      expect(entries[0]).toMatchObject({ action: "delete", actor: other.id, ids: [item.id] });
    });

    it("adds a correction to a published item: stored, dated, the item modified, audited; refused on a draft", async () => {
      const item = await createItem(h.db, "news", input("خبر يحتاج تصحيحًا", "published"), editor);
      await new Promise((r) => setTimeout(r, 5));
      const correction = await addCorrection(
        h.db,
        "news",
        item.id,
        parseCorrectionBody({ text: "صُحّح اسم الوزير.", text_fr: "Le nom du ministre a été corrigé." }),
        editor,
      );
      expect(correction).toMatchObject({ text: "صُحّح اسم الوزير.", text_fr: "Le nom du ministre a été corrigé.", author_id: editor.id });
      const after = (await getForStaff(h.db, "news", item.id))!;
      expect(Date.parse(after.updated_at)).toBe(Date.parse(correction.created_at));
      expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(item.updated_at));
      expect(await correctionsOf(h.db, "news", item.id)).toHaveLength(1);
      expect((await rowsFor(item.id))[0]).toMatchObject({ action: "correction", actor: editor.id });

      // The public page, its JSON-LD's data and the RSS item carry it.
      const page = await loadDetailPage(h.db, "news", after.page_slug);
      expect(page.corrections).toEqual([{ text: "صُحّح اسم الوزير.", textFr: "Le nom du ministre a été corrigé.", at: correction.created_at }]);
      expect(String(page.item.updatedAt instanceof Date ? page.item.updatedAt.toISOString() : page.item.updatedAt)).toBe(correction.created_at);
      const feed = (await listFeedItems(h.db)).find((f) => f.path.includes(encodeURIComponent(after.page_slug)) || f.title === after.title)!;
      expect(feed.correction?.text).toBe("صُحّح اسم الوزير.");
      const xml = rssXml({ title: "t", description: "d", language: "ar", publicUrl: "https://example.org" }, [feed]);
      expect(xml).toContain("تصحيح (");
      expect(xml).toContain(`<atom:updated>${correction.created_at}</atom:updated>`);

      const draft = await createItem(h.db, "news", input("مسودة لا تُصحّح", "draft"), editor);
      const refused = await refusal(() => addCorrection(h.db, "news", draft.id, { text: "تصحيح", textFr: null }, editor));
      expect(refused.status).toBe(409);
      expect(refused.code).toBe("NOT_PUBLISHED");
      expect(await rowsFor(draft.id)).toEqual([]);
      const missing = await refusal(() => addCorrection(h.db, "news", 987_654, { text: "تصحيح", textFr: null }, editor));
      expect(missing.status).toBe(404);
    });

    it("checks a correction's body", () => {
      expect(parseCorrectionBody({ text: "  نص  " })).toEqual({ text: "نص", textFr: null });
      expect(refusalSync(() => parseCorrectionBody({ text: "" })).fields).toEqual({ text: "corrections.v.text" });
      expect(refusalSync(() => parseCorrectionBody({ text: "x".repeat(2001) })).fields).toEqual({ text: "corrections.v.tooLong" });
      expect(refusalSync(() => parseCorrectionBody({ text: "نص", text_fr: 3 })).fields).toEqual({ text_fr: "corrections.v.textFr" });
      expect(refusalSync(() => parseCorrectionBody({ text: "نص", author: "x" })).fields).toEqual({ author: "corrections.v.unknownKey" });
    });

    it("writes one row per bulk action, in its transaction: a refused action leaves none", async () => {
      const ids: number[] = [];
      for (let i = 1; i <= 4; i++) ids.push((await createItem(h.db, "news", input(`خبر جماعي ${i}`, "draft"), editor)).id);
      const before = (await listAudit(h.db, { action: "bulk" })).entries.length;

      // A trigger refuses one item: nothing changes, no audit row.
      const victim = ids[1];
      await h.db.execute(
        sql.raw(`create function audit_test_refuse() returns trigger language plpgsql as $$ begin
          if new.id = ${victim} then raise exception 'refused for the test'; end if; return new; end $$`),
      );
      await h.db.execute(sql`create trigger audit_test_refuse before update on news for each row execute function audit_test_refuse()`);
      try {
        await expect(runBulkAction(h.db, "news", { action: "publish", selection: { ids } }, editor)).rejects.toThrow();
      } finally {
        await h.db.execute(sql`drop trigger audit_test_refuse on news`);
        await h.db.execute(sql`drop function audit_test_refuse()`);
      }
      expect((await listAudit(h.db, { action: "bulk" })).entries).toHaveLength(before);

      const done = await runWithRequest({ id: "REQBULK" }, () => runBulkAction(h.db, "news", { action: "publish", selection: { ids } }, editor));
      expect(done.count).toBe(4);
      const bulk = (await listAudit(h.db, { action: "bulk" })).entries;
      expect(bulk).toHaveLength(before + 1);
      expect(bulk[0]).toMatchObject({ actor: editor.id, type: "news", request_id: "REQBULK" });
      expect([...bulk[0].ids].sort()).toEqual([...ids].sort());
      expect(bulk[0].details).toMatchObject({ bulk_action: "publish", selection: "ids", use_today: false });
      // Filtered by one of its items, the entry names that item.
      expect((await listAudit(h.db, { id: ids[2], action: "bulk" })).entries[0].id).toBe(ids[2]);
    });

    it("bulk 'publish now' keeps an earlier publish date unless today's is asked for", async () => {
      const keep = (await createItem(h.db, "news", input("خبر قديم يبقى بتاريخه", "draft"), editor)).id;
      const today = (await createItem(h.db, "news", input("خبر قديم بتاريخ اليوم", "draft"), editor)).id;
      const future = (await createItem(h.db, "news", input("خبر بتاريخ قادم", "draft"), editor)).id;
      const old = new Date("2026-11-26T08:00:00Z");
      await h.db
        .update(news)
        .set({ publishDate: old })
        .where(inArray(news.id, [keep, today]));
      await h.db
        .update(news)
        .set({ publishDate: new Date(Date.now() + 7 * 86_400_000) })
        .where(eq(news.id, future));
      const start = Date.now();
      await runBulkAction(h.db, "news", parseBulkBody({ action: "publish", ids: [keep, future] }), editor);
      await runBulkAction(h.db, "news", parseBulkBody({ action: "publish", ids: [today], use_today: true }), editor);
      const dates = new Map(
        (
          await h.db
            .select({ id: news.id, at: news.publishDate })
            .from(news)
            .where(inArray(news.id, [keep, today, future]))
        ).map((r) => [r.id, r.at]),
      );
      expect(dates.get(keep)!.toISOString()).toBe(old.toISOString());
      expect(dates.get(today)!.getTime()).toBeGreaterThanOrEqual(start - 1000);
      expect(dates.get(future)!.getTime()).toBeLessThanOrEqual(Date.now());
      expect((await getForStaff(h.db, "news", keep))!.status).toBe("published");
      // use_today is for publish only, and a boolean.
      expect(refusalSync(() => parseBulkBody({ action: "unpublish", ids: [keep], use_today: true })).fields).toEqual({ use_today: "bulkConfirm.v.useToday" });
      expect(refusalSync(() => parseBulkBody({ action: "publish", ids: [keep], use_today: "yes" })).fields).toEqual({ use_today: "bulkConfirm.v.useToday" });
    });

    it("records a permission change with the account changed, in the change's transaction", async () => {
      await setAccess(h.db, "user-audit-target", { role: "editor", permissions: ["content.write", "content.publish"] }, editor);
      const [row] = (await listAudit(h.db, { action: "permissions" })).entries;
      expect(row).toMatchObject({ actor: editor.id, action: "permissions", type: null, id: null });
      expect(row.details).toEqual({ account_id: "user-audit-target", role: "editor", permissions: ["content.publish", "content.write"] });
    });

    it("records disabling and enabling an account, in the change's transaction", async () => {
      await setDisabled(h.db, "user-audit-target", true, editor);
      await setDisabled(h.db, "user-audit-target", false, editor);
      const rows = (await listAudit(h.db, {}, { limit: 500 })).entries.filter((e) => e.action === "account_disabled" || e.action === "account_enabled");
      expect(rows.map((r) => [r.action, r.actor, r.details])).toEqual([
        ["account_enabled", editor.id, { account_id: "user-audit-target" }],
        ["account_disabled", editor.id, { account_id: "user-audit-target" }],
      ]);
    });

    it("filters by type, id, actor (id or e-mail), action and dates, newest first, paged", async () => {
      const all = (await listAudit(h.db, {}, { limit: 500 })).entries;
      expect(all.length).toBeGreaterThan(5);
      for (const e of all) for (const key of ["actor", "action", "type", "id", "at", "request_id"]) expect(e).toHaveProperty(key);
      expect([...all.map((e) => e.at)]).toEqual([...all.map((e) => e.at)].sort().reverse());
      expect((await listAudit(h.db, { actor: other.id })).entries.every((e) => e.actor === other.id)).toBe(true);
      expect((await listAudit(h.db, { actor: "other.editor" })).entries.every((e) => e.actor === other.id)).toBe(true);
      expect((await listAudit(h.db, { action: "publish" })).entries.every((e) => e.action === "publish")).toBe(true);
      expect((await listAudit(h.db, { type: "articles" })).entries).toEqual([]);
      expect((await listAudit(h.db, { from: new Date(Date.now() + 60_000) })).entries).toEqual([]);
      expect((await listAudit(h.db, { to: new Date(Date.now() - 86_400_000) })).entries).toEqual([]);
      const page = await listAudit(h.db, {}, { limit: 2 });
      expect(page.entries).toHaveLength(2);
      expect(page.more).toBe(true);
      expect((await listAudit(h.db, {}, { limit: 2, offset: 2 })).entries[0].entry_id).toBe(all[2].entry_id);

      const parsed = auditFilterOf({ type: "news", id: "12", actor: "x", action: "publish", from: "2026-11-01", to: "2026-11-27" });
      expect(parsed.invalid).toEqual([]);
      expect(parsed.filter.to!.toISOString()).toBe("2026-11-27T23:59:59.999Z");
      expect(auditFilterOf({ id: "abc", action: "drop", from: "yesterday" }).invalid).toEqual(["id", "action", "from"]);
    });

    it("prunes rows older than the retention", async () => {
      await h.db.insert(auditLog).values({ actorId: "old", action: "publish", at: new Date(Date.now() - 400 * 86_400_000) });
      await recordAudit(h.db, { actor: null, action: "sign_in_lockout", details: { email: "x@example.org" } });
      const removed = await pruneAudit(h.db, 365);
      expect(removed).toBe(1);
      expect((await listAudit(h.db, { actor: "old" })).entries).toEqual([]);
      expect((await listAudit(h.db, { action: "sign_in_lockout" })).entries).toHaveLength(1);
    });
  });
}

function refusalSync(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("not refused");
}

describe("the audit CSV", () => {
  it("quotes as RFC 4180 asks and defuses formulas", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('say "hi", then')).toBe('"say ""hi"", then"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-2")).toBe("'-2");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell(null)).toBe("");
  });

  it("is UTF-8 with a byte-order mark, CRLF lines and a header, Arabic kept", () => {
    const entry: AuditEntry = {
      actor: "u1",
      actor_email: "=cmd@example.org",
      action: "bulk",
      type: "news",
      id: 1,
      ids: [1, 2],
      at: "2026-11-27T10:00:00.000Z",
      request_id: "REQ",
      details: { tag: "انتخابات, 2026" },
      entry_id: 1,
    };
    const csv = auditCsv([entry]);
    expect(csv.startsWith("\uFEFFat,actor,actor_email,action,type,ids,request_id,details\r\n")).toBe(true);
    expect(csv).toContain("'=cmd@example.org");
    expect(csv).toContain('"{""tag"":""انتخابات, 2026""}"');
    expect(csv.endsWith("\r\n")).toBe(true);
    expect(Buffer.from(csv, "utf8").subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });
});
