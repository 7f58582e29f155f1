/**
 * Contact messages in the database: what a visitor's message stores (sanitised, checked), and the
 * back-office inbox's reads and writes (filters and counts in SQL, paging, previews, open marks read,
 * status changes, deletion). The /contact page's action is tested beside it (app/routes/public/contact.test.ts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { count, desc, eq } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import ar from "#domain/locales/ar/common.json" with { type: "json" };
import { contacts } from "#server/db/schema.server.ts";
import { CONTACTS_PAGE_SIZE, contactIdOf } from "#domain/contacts.ts";
import { NotFoundError, ValidationError } from "#server/http/errors.server.ts";
import {
  ContactInputError,
  createArticleProposal,
  createContactMessage,
  deleteContact,
  getContact,
  listContacts,
  openContact,
  setContactStatus,
  updateContact,
} from "./contacts.server.ts";

const PAYLOAD = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">';
const valid = { name: "أحمد ولد محمد", email: "ahmed@example.mr", subject: "اقتراح برنامج", message: "السلام عليكم،\nأقترح حلقة عن المحاظر." };

describe("the inbox's words", () => {
  it("are back-office.md's Arabic, verbatim (§2, §4, §5, §8)", () => {
    const c = ar.contacts;
    expect([c.status.new, c.status.read, c.status.replied, c.status.unknown]).toEqual(["جديدة", "مقروءة", "تم الرد", "غير محدد"]);
    expect([c.markReplied, c.unmarkReplied]).toEqual(["تم الرد", "إلغاء الرد"]);
    expect([c.empty, c.nothingSelected, c.confirmDelete]).toEqual(["لا توجد رسائل", "اختر رسالة لعرض التفاصيل", "هل أنت متأكد من حذف هذه الرسالة؟"]);
    expect([c.updatedTitle, c.updated, c.updateFailed]).toEqual(["تم التحديث", "تم تحديث حالة الرسالة بنجاح", "فشل في تحديث حالة الرسالة"]);
    expect([c.deletedTitle, c.deleted, c.deleteFailed]).toEqual(["تم الحذف", "تم حذف الرسالة بنجاح", "فشل في حذف الرسالة"]);
    expect([c.errorTitle, c.loadFailed]).toEqual(["خطأ", "فشل في تحميل الرسائل"]);
  });
});

describe.each(testDatabaseKinds)("contact messages on %s", (kind) => {
  let t: TestDatabase;
  const stored = async () => Number((await t.db.select({ n: count() }).from(contacts))[0].n);
  const latest = async () => (await t.db.select().from(contacts).orderBy(desc(contacts.id)).limit(1))[0];

  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await t?.drop();
  });

  describe("createContactMessage", () => {
    it("stores a message with status new and kind message", async () => {
      const row = await createContactMessage(t.db, valid);
      expect(row.id).toBeGreaterThan(0);
      const saved = await latest();
      expect(saved).toMatchObject({ ...valid, status: "new", kind: "message" });
    });

    it("stores every field as typed (trimmed, control characters removed): plain text, never HTML", async () => {
      const row = await createContactMessage(t.db, {
        name: `سالم ${PAYLOAD}`,
        email: "  Salem@Example.MR ",
        subject: `5 < 6 & "علامات"، «اقتباس» ؟`,
        message: `سطر أول\r\n${PAYLOAD}\nسطر\u0000 ثالث\u202E`,
      });
      const [saved] = await t.db.select().from(contacts).where(eq(contacts.id, row.id));
      expect(saved.name).toBe(`سالم ${PAYLOAD}`);
      expect(saved.email).toBe("salem@example.mr");
      expect(saved.subject).toBe(`5 < 6 & "علامات"، «اقتباس» ؟`);
      expect(saved.message).toBe(`سطر أول\n${PAYLOAD}\nسطر ثالث`);
    });

    it("refuses a message whose fields are blank or only control characters, and stores nothing", async () => {
      const before = await stored();
      const attempt = createContactMessage(t.db, { name: " ", email: "\u0000", subject: "\u202E\t", message: "\n\r\n " });
      await expect(attempt).rejects.toBeInstanceOf(ContactInputError);
      await attempt.catch((e: ContactInputError) => {
        expect(e.code).toBe("INVALID_CONTACT_MESSAGE");
        expect(e.fieldErrors).toEqual({
          name: "contact.requiredText",
          email: "contact.requiredText",
          subject: "contact.requiredText",
          message: "contact.requiredText",
        });
      });
      expect(await stored()).toBe(before);
    });

    it("refuses over-long fields and a bad e-mail", async () => {
      const before = await stored();
      await expect(createContactMessage(t.db, { ...valid, message: "x".repeat(5001) })).rejects.toBeInstanceOf(ContactInputError);
      await expect(createContactMessage(t.db, { ...valid, email: "nobody" })).rejects.toBeInstanceOf(ContactInputError);
      expect(await stored()).toBe(before);
    });
  });

  describe("the back-office inbox", () => {
    const at = (minutesAgo: number) => new Date(Date.UTC(2025, 0, 15, 12, 0) - minutesAgo * 60_000);
    /** Inserts messages, the first one newest; returns their ids in that order. */
    async function given(rows: { status?: "new" | "read" | "replied"; minutesAgo: number; message?: string; subject?: string }[]) {
      const made = await t.db
        .insert(contacts)
        .values(
          rows.map((r, i) => ({
            name: `مرسل ${i}`,
            email: `sender${i}@example.mr`,
            subject: r.subject ?? `موضوع ${i}`,
            message: r.message ?? `نص الرسالة ${i}`,
            status: r.status ?? "new",
            createdAt: at(r.minutesAgo),
          })),
        )
        .returning({ id: contacts.id });
      return made.map((m) => m.id);
    }

    beforeEach(async () => {
      await t.db.delete(contacts);
    });

    it("lists newest first with the count of every filter, and filters by status", async () => {
      const ids = await given([
        { minutesAgo: 1, status: "new" },
        { minutesAgo: 2, status: "read" },
        { minutesAgo: 3, status: "replied" },
        { minutesAgo: 4, status: "new" },
        { minutesAgo: 5, status: "read" },
      ]);
      const all = await listContacts(t.db);
      expect(all.items.map((m) => m.id)).toEqual(ids);
      expect(all.counts).toEqual({ all: 5, new: 2, read: 2, replied: 1 });
      expect(all).toMatchObject({ total: 5, page: 1, perPage: CONTACTS_PAGE_SIZE, pages: 1 });
      expect(all.items[0]).toEqual({
        id: ids[0],
        name: "مرسل 0",
        email: "sender0@example.mr",
        subject: "موضوع 0",
        preview: "نص الرسالة 0",
        status: "new",
        kind: "message",
        created_at: at(1).toISOString(),
      });

      const fresh = await listContacts(t.db, { status: "new" });
      expect(fresh.items.map((m) => m.id)).toEqual([ids[0], ids[3]]);
      expect(fresh.total).toBe(2);
      // The counts do not depend on the filter: the buttons show them all the time.
      expect(fresh.counts).toEqual(all.counts);
      expect((await listContacts(t.db, { status: "replied" })).items.map((m) => m.id)).toEqual([ids[2]]);
      expect((await listContacts(t.db, { status: "read" })).items.map((m) => m.id)).toEqual([ids[1], ids[4]]);
    });

    it("orders messages of the same instant by id, newest first, so pages never repeat or skip one", async () => {
      const ids = await given([{ minutesAgo: 0 }, { minutesAgo: 0 }, { minutesAgo: 0 }]);
      const pages = [];
      for (let page = 1; page <= 3; page++) pages.push(...(await listContacts(t.db, { page, perPage: 1 })).items.map((m) => m.id));
      expect(pages).toEqual([...ids].reverse());
    });

    it("pages thousands of messages on the server: 50 a page, counts and filter computed by the database", async () => {
      // 3,000 messages in one statement; every third one replied, every seventh read, the rest new.
      await t.db.execute(
        `insert into contacts (name, email, subject, message, status, created_at)
         select 'مرسل ' || n, 'm' || n || '@example.mr', 'موضوع ' || n, repeat('م', 70),
                case when n % 3 = 0 then 'replied' when n % 7 = 0 then 'read' else 'new' end,
                timestamptz '2025-01-01' + n * interval '1 minute'
         from generate_series(1, 3000) as n`,
      );
      const replied = 1000;
      const read = [...Array(3000).keys()].map((i) => i + 1).filter((n) => n % 3 !== 0 && n % 7 === 0).length;
      const first = await listContacts(t.db);
      expect(first.counts).toEqual({ all: 3000, new: 3000 - replied - read, read, replied });
      expect(first.items).toHaveLength(CONTACTS_PAGE_SIZE);
      expect(first.pages).toBe(60);
      expect(first.items[0].subject).toBe("موضوع 3000");
      const page7 = await listContacts(t.db, { status: "replied", page: 7 });
      expect(page7.total).toBe(replied);
      expect(page7.pages).toBe(20);
      // Replied ones are the multiples of 3, newest first: page 7 starts at the 301st, n = 3000 - 300 * 3.
      expect(page7.items[0].subject).toBe("موضوع 2100");
      expect(page7.items.every((m) => m.status === "replied")).toBe(true);
      const past = await listContacts(t.db, { page: 61 });
      expect(past.items).toEqual([]);
      expect(past.total).toBe(3000);
    });

    it("previews the first 60 characters of a message, with an ellipsis only when there is more", async () => {
      const sixty = "ب".repeat(60);
      await given([
        { minutesAgo: 1, message: `${sixty}ج والمزيد` },
        { minutesAgo: 2, message: sixty },
      ]);
      const { items } = await listContacts(t.db);
      expect(items[0].preview).toBe(`${sixty}…`);
      expect(items[1].preview).toBe(sixty);
    });

    it("lists an article proposal from the opinion page as a message of its own kind", async () => {
      await createArticleProposal(t.db, { name: "كاتب", email: "writer@example.mr", title: "مقترح عن التعليم", summary: "ملخص المقال المقترح عن التعليم." });
      const { items } = await listContacts(t.db);
      expect(items[0]).toMatchObject({ kind: "article_proposal", subject: "مقترح عن التعليم", status: "new" });
    });

    it("marks a new message read when it is opened, once, and leaves read and replied ones alone", async () => {
      const [fresh, read, replied] = await given([
        { minutesAgo: 1, status: "new" },
        { minutesAgo: 2, status: "read" },
        { minutesAgo: 3, status: "replied" },
      ]);
      // A plain read changes nothing.
      expect((await getContact(t.db, fresh))?.status).toBe("new");
      const both = await Promise.all([openContact(t.db, fresh), openContact(t.db, fresh)]);
      expect(both.map((o) => o?.message.status)).toEqual(["read", "read"]);
      // Only one of the two changed it.
      expect(both.map((o) => o?.markedRead).sort()).toEqual([false, true]);
      expect(both[0]?.message).toMatchObject({ id: fresh, message: "نص الرسالة 0", subject: "موضوع 0", name: "مرسل 0", email: "sender0@example.mr" });
      expect(await openContact(t.db, read)).toMatchObject({ message: { status: "read" }, markedRead: false });
      expect(await openContact(t.db, replied)).toMatchObject({ message: { status: "replied" }, markedRead: false });
      expect((await listContacts(t.db)).counts).toEqual({ all: 3, new: 0, read: 2, replied: 1 });
      expect(await openContact(t.db, 999_999)).toBeNull();
    });

    it("sets replied, read and back to new, and refuses another status or an unknown id without changing anything", async () => {
      const [id] = await given([{ minutesAgo: 1, status: "read" }]);
      expect((await setContactStatus(t.db, id, "replied")).status).toBe("replied");
      expect((await setContactStatus(t.db, id, "read")).status).toBe("read");
      expect((await setContactStatus(t.db, id, "new")).status).toBe("new");
      for (const bad of ["archived", "", null, 3, "NEW"]) {
        const attempt = setContactStatus(t.db, id, bad);
        await expect(attempt).rejects.toBeInstanceOf(ValidationError);
        await attempt.catch((e: ValidationError) => {
          expect(e.code).toBe("VALIDATION");
          expect(e.fields).toEqual({ status: "contacts.invalidStatus" });
        });
      }
      expect((await getContact(t.db, id))?.status).toBe("new");
      await expect(setContactStatus(t.db, id + 1000, "read")).rejects.toBeInstanceOf(NotFoundError);
      await expect(setContactStatus(t.db, id + 1000, "read")).rejects.toMatchObject({ code: "NOT_FOUND" });
    });

    it("deletes a message for good, and answers not found for an unknown one", async () => {
      const [keep, gone] = await given([{ minutesAgo: 1 }, { minutesAgo: 2 }]);
      await deleteContact(t.db, gone);
      expect(await getContact(t.db, gone)).toBeNull();
      expect((await listContacts(t.db)).items.map((m) => m.id)).toEqual([keep]);
      await expect(deleteContact(t.db, gone)).rejects.toBeInstanceOf(NotFoundError);
      expect(Number((await t.db.select({ n: count() }).from(contacts).where(eq(contacts.id, keep)))[0].n)).toBe(1);
    });

    it("takes only a status from the API, refusing any other field by name, and changes nothing", async () => {
      const [id] = await given([{ minutesAgo: 1, status: "new" }]);
      await expect(updateContact(t.db, id, { status: "replied", message: "نص آخر", name: "x" })).rejects.toMatchObject({
        code: "VALIDATION",
        fields: { message: "contacts.readOnlyField", name: "contacts.readOnlyField" },
      });
      await expect(updateContact(t.db, id, {})).rejects.toMatchObject({ fields: { status: "contacts.invalidStatus" } });
      expect((await getContact(t.db, id))?.status).toBe("new");
      expect((await updateContact(t.db, id, { status: "replied" })).status).toBe("replied");
    });

    it("reads ids from URLs and forms strictly", () => {
      expect(contactIdOf("42")).toBe(42);
      expect(contactIdOf(7)).toBe(7);
      for (const bad of ["0", "-1", "1.5", "abc", "", " 1", "1e3", "9".repeat(20), 0, -3, 1.5, null, undefined]) expect(contactIdOf(bad)).toBeNull();
    });
  });
});
