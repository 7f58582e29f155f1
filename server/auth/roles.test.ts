/**
 * Roles and rights of issue 40 on a real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set), decision
 * 0137: migration 0019 gives today's writers the three new rights; ownership (an item one created or is credited on,
 * one's own author profile); the bulk actions' content.publish check and their narrowing to one's own items.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { authors, categories, profiles, user } from "#server/db/schema.server.ts";
import { migrationsFolder } from "#server/paths.server.ts";
import { AppError } from "#server/http/errors.server.ts";
import { getForStaff } from "#server/content/newsroom/read.server.ts";
import { createItem } from "#server/content/newsroom/write.server.ts";
import { createAuthor, defaultAuthorOf } from "#server/content/authors.server.ts";
import { authorizeBulk, idsMatching, parseBulkBody, runBulkAction } from "#server/content/bulk.server.ts";
import { assertMayEdit, assertMayEditAuthor, mayEdit, othersAmong } from "#server/content/ownership.server.ts";
import { ROLE_PRESETS } from "./permissions.server.ts";

/** A copy of the migrations folder whose journal stops at `lastIdx`. */
function migrationsUpTo(lastIdx: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));
  fs.cpSync(migrationsFolder(), dir, { recursive: true });
  const file = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(file, "utf8")) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx <= lastIdx);
  fs.writeFileSync(file, JSON.stringify(journal));
  return dir;
}

async function refusal(run: () => unknown): Promise<AppError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("not refused");
}

const body = "<p>نص الخبر الكامل الذي يتجاوز عشرين حرفًا بكثير.</p>";

for (const kind of testDatabaseKinds) {
  describe(`migration 0019_roles_and_rights (${kind})`, () => {
    let h: TestDatabase;
    afterAll(() => h?.drop());

    it("gives every account holding content.write the publish, others and tags rights, and nobody else anything", async () => {
      h = await createTestDatabase(kind, { migrate: false });
      const run = (folder: string) =>
        kind === "pglite" ? migratePglite(h.db as never, { migrationsFolder: folder }) : migratePg(h.db as never, { migrationsFolder: folder });
      await run(migrationsUpTo(18));
      const accounts = [
        ["u-writer", "editor", ["content.write"]],
        ["u-full", "editor", ["contacts.manage", "content.delete", "content.write", "users.manage"]],
        ["u-inbox", "editor", ["contacts.manage"]],
        ["u-reader", "reader", []],
        ["u-admin", "admin", []],
        ["u-already", "editor", ["content.publish", "content.write"]],
      ] as const;
      for (const [id, role, permissions] of accounts) {
        await h.db.execute(sql`insert into "user" (id, name, email) values (${id}, ${id}, ${`${id}@example.org`})`);
        await h.db.execute(sql`insert into profiles (id, role, permissions) values (${id}, ${role}, ${sql.param([...permissions])}::text[])`);
      }
      await run(migrationsUpTo(19));
      const rows = await h.db.select({ id: profiles.id, permissions: profiles.permissions }).from(profiles).orderBy(profiles.id);
      expect(Object.fromEntries(rows.map((r) => [r.id, r.permissions]))).toEqual({
        "u-admin": [],
        "u-already": ["content.others", "content.publish", "content.write", "tags.manage"],
        "u-full": ["contacts.manage", "content.delete", "content.others", "content.publish", "content.write", "tags.manage", "users.manage"],
        "u-inbox": ["contacts.manage"],
        "u-reader": [],
        "u-writer": ["content.others", "content.publish", "content.write", "tags.manage"],
      });
    });
  });

  describe(`ownership and bulk rights (${kind})`, () => {
    let h: TestDatabase;
    let politics: number;
    const staff = (id: string, role: string, permissions: readonly string[]) => ({
      id,
      email: `${id}@example.org`,
      profile: { role, isAdmin: false, permissions: [...permissions] },
    });
    const writer = staff("w-own", "writer", ROLE_PRESETS.writer);
    const other = staff("w-other", "writer", ROLE_PRESETS.writer);
    const editor = staff("e-desk", "editor", ROLE_PRESETS.editor);
    let own: number;
    let others: number;
    let credited: number;

    const news = (title: string, author: { id: string; email: string }, extra: Record<string, unknown> = {}) =>
      createItem(
        h.db,
        "news",
        { title, excerpt: "مقتطف الخبر التجريبي", content: body, category_id: politics, status: "draft", priority: "medium", ...extra },
        author,
      );

    beforeAll(async () => {
      h = await createTestDatabase(kind);
      [{ id: politics }] = await h.db.insert(categories).values({ name: "سياسة", slug: "politics", type: "news" }).returning({ id: categories.id });
      for (const a of [writer, other, editor]) {
        await h.db.insert(user).values({ id: a.id, name: a.id, email: a.email });
        await h.db.insert(profiles).values({ id: a.id, role: a.profile.role, permissions: a.profile.permissions, fullName: a.id });
      }
      own = (await news("خبر كتبه الكاتب نفسه", writer)).id;
      others = (await news("خبر كتبه كاتب آخر", other)).id;
      // Written by the other writer, with our writer credited beside them (item_authors → the profile linked to the account).
      const mine = (await defaultAuthorOf(h.db, writer.id))!;
      const theirs = (await defaultAuthorOf(h.db, other.id))!;
      credited = (await news("خبر مشترك بين كاتبين", other, { authors: [String(theirs), String(mine)] })).id;
    });
    afterAll(() => h?.drop());

    it("lets a writer edit what they wrote or are credited on, refuses another's with 403 NOT_YOUR_ITEM; an editor edits all", async () => {
      expect(await Promise.all([own, others, credited].map((id) => mayEdit(h.db, writer, "news", id)))).toEqual([true, false, true]);
      expect(await Promise.all([own, others, credited].map((id) => mayEdit(h.db, editor, "news", id)))).toEqual([true, true, true]);
      const refused = await refusal(() => assertMayEdit(h.db, writer, "news", others));
      expect([refused.status, refused.code]).toEqual([403, "NOT_YOUR_ITEM"]);
      await assertMayEdit(h.db, writer, "news", own);
      // No such item: not refused here (the caller's 404 follows).
      await assertMayEdit(h.db, writer, "news", 999_999);
      expect(await othersAmong(h.db, writer, "news", [own, others, credited])).toEqual([others]);
      expect(await othersAmong(h.db, editor, "news", [own, others, credited])).toEqual([]);
    });

    it("refuses a writer's bulk publish, unpublish and schedule with 403 PUBLISH_PERMISSION, and lets an editor's through", async () => {
      for (const action of ["publish", "unpublish", "schedule"]) {
        const bulk = parseBulkBody({ action, ids: [own], ...(action === "schedule" ? { publish_date: "2031-01-01T10:00" } : {}) });
        const refused = await refusal(() => authorizeBulk(bulk, writer));
        expect([refused.status, refused.code]).toEqual([403, "PUBLISH_PERMISSION"]);
        expect(authorizeBulk(bulk, editor).ownedBy).toBeUndefined();
      }
      expect((await getForStaff(h.db, "news", own))?.status).toBe("draft");
    });

    it("keeps a writer's bulk change to their own items: named ids of another's refuse the whole action, a filter selects only theirs", async () => {
      const named = authorizeBulk(parseBulkBody({ action: "tag", ids: [own, others], tag: "وسم-مشترك" }), writer);
      const refused = await refusal(() => runBulkAction(h.db, "news", named, writer));
      expect([refused.status, refused.code]).toEqual([403, "NOT_YOUR_ITEM"]);
      expect((await getForStaff(h.db, "news", own))?.tags ?? []).toEqual([]);
      const filtered = authorizeBulk(parseBulkBody({ action: "tag", filter: {}, tag: "وسم-الكاتب" }), writer);
      expect(filtered.ownedBy).toBe(writer.id);
      expect((await idsMatching(h.db, "news", { ownedBy: writer.id })).sort()).toEqual([own, credited].sort());
      const done = await runBulkAction(h.db, "news", filtered, writer);
      expect(done.ids.sort()).toEqual([own, credited].sort());
      expect((await runBulkAction(h.db, "news", authorizeBulk(parseBulkBody({ action: "tag", filter: {}, tag: "وسم-المحرر" }), editor), editor)).count).toBe(3);
    });

    it("lets a writer edit only the author profile linked to their account", async () => {
      const mine = (await defaultAuthorOf(h.db, writer.id))!;
      const theirs = (await defaultAuthorOf(h.db, other.id))!;
      const guest = await createAuthor(h.db, { name: "كاتب ضيف" });
      await assertMayEditAuthor(h.db, writer, mine);
      for (const id of [theirs, guest.id]) {
        const refused = await refusal(() => assertMayEditAuthor(h.db, writer, id));
        expect([refused.status, refused.code]).toEqual([403, "NOT_YOUR_PROFILE"]);
        await assertMayEditAuthor(h.db, editor, id);
      }
      expect((await h.db.select({ userId: authors.userId }).from(authors).where(eq(authors.id, mine)))[0].userId).toBe(writer.id);
    });
  });
}
