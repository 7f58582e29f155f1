/**
 * Author profiles on a real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set), decision 0121:
 * the migration that turns today's author names into profiles, the profiles' rules (slugs, the linked account,
 * the library photo, deleting one in use), the account's default byline made on the fly, and what readers get:
 * bylines on cards and detail pages, dc:creator in the feed, the author page and its sitemap entry.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { authors, categories, itemAuthors, libraryFiles, profiles, user } from "#server/db/schema.server.ts";
import { migrationsFolder } from "#server/paths.server.ts";
import type { ValidationError } from "#server/http/errors.server.ts";
import { createItem, deleteItem, updateItem } from "./newsroom/write.server.ts";
import {
  AuthorInUseError,
  authorItems,
  createAuthor,
  defaultAuthorOf,
  deleteAuthor,
  findAuthorBySlug,
  getAuthor,
  listAuthors,
  updateAuthor,
} from "./authors.server.ts";
import { listFeaturedArticles } from "./articles.server.ts";
import { findPublishedItem } from "./detail.server.ts";
import { listFeedItems, listSitemapEntries, countSitemapEntries } from "./sitemap.server.ts";
import { rssXml } from "./feeds.server.ts";

const editor = { id: "user-author-1", email: "sidi.editor@example.org" };
const newcomer = { id: "user-author-2", email: "x7@example.org" };

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

for (const kind of testDatabaseKinds) {
  describe(`the authors migration (${kind})`, () => {
    let h: TestDatabase;
    afterAll(() => h?.drop());

    it("turns each distinct author name into a profile, linked to its account and to every item", async () => {
      h = await createTestDatabase(kind, { migrate: false });
      const run = (folder: string) =>
        kind === "pglite" ? migratePglite(h.db as never, { migrationsFolder: folder }) : migratePg(h.db as never, { migrationsFolder: folder });
      await run(migrationsUpTo(10));
      await h.db.execute(sql`insert into "user" (id, name, email) values ('u-old', 'Old', 'amina@example.org')`);
      await h.db.execute(sql`insert into articles (title, content, page_slug, status, author_name, author_name_fr, author_bio, author_image_url)
        values ('مقال قديم', 'نص', 'old-1', 'published', 'amina', 'Amina', 'نبذة قديمة', '/uploads/amina.jpg'),
               ('مقال ثان', 'نص', 'old-2', 'published', ' مريم بنت أحمد ', null, null, null)`);
      await h.db.execute(sql`insert into news (title, content, page_slug, status, author_name) values ('خبر قديم', 'نص', 'old-news', 'published', 'amina')`);
      await run(migrationsUpTo(11));
      const rows = await h.db.select().from(authors).orderBy(authors.name);
      expect(rows.map((r) => [r.name, r.slug, r.nameFr, r.bio, r.photoUrl, r.userId])).toEqual([
        ["amina", "amina", "Amina", "نبذة قديمة", "/uploads/amina.jpg", "u-old"],
        ["مريم بنت أحمد", "مريم-بنت-أحمد", null, null, null, null],
      ]);
      const links = await h.db.select().from(itemAuthors).orderBy(itemAuthors.contentType, itemAuthors.itemId);
      const amina = rows[0].id;
      expect(links.map((l) => [l.contentType, l.authorId, l.position])).toEqual([
        ["article", amina, 0],
        ["article", rows[1].id, 0],
        ["news", amina, 0],
      ]);
    });
  });

  describe(`author profiles (${kind})`, () => {
    let h: TestDatabase;
    let categoryId: number;
    const article = (extra: Record<string, unknown> = {}) => ({
      title: "مقال عن مدينة شنقيط القديمة",
      excerpt: "مقتطف المقال التجريبي عن شنقيط",
      content: "<p>نص المقال الكامل الذي يتجاوز عشرين حرفًا بكثير.</p>",
      category_id: String(categoryId),
      status: "published",
      ...extra,
    });

    beforeAll(async () => {
      h = await createTestDatabase(kind);
      [{ id: categoryId }] = await h.db.insert(categories).values({ name: "ثقافة", slug: "culture", type: "culture" }).returning({ id: categories.id });
      await h.db.insert(user).values([
        { id: editor.id, name: "sidi", email: editor.email },
        { id: newcomer.id, name: "x7", email: newcomer.email },
      ]);
      await h.db.insert(profiles).values([
        { id: editor.id, role: "editor", permissions: ["content.write"], fullName: "سيدي محمد" },
        { id: newcomer.id, role: "editor", permissions: ["content.write"], fullName: "فاطمة الزهراء" },
      ]);
      await h.db.insert(libraryFiles).values({ url: "/uploads/library/portrait.jpg", kind: "image", mime: "image/jpeg", bytes: 100 } as never);
    });
    afterAll(() => h?.drop());

    it("makes a slug from the name, numbers a second one, and refuses a typed slug that is taken", async () => {
      const a = await createAuthor(h.db, { name: "أحمد سالم", slug: "أحمد-سالم" });
      expect(a.slug).toBe("أحمد-سالم");
      expect(a.url).toBe(`/authors/${encodeURIComponent("أحمد-سالم")}`);
      const b = await createAuthor(h.db, { name: "أحمد سالم" });
      expect(b.slug).toBe("أحمد-سالم-2");
      const taken = await createAuthor(h.db, { name: "آخر", slug: "أحمد-سالم" }).catch((e: unknown) => e);
      expect((taken as ValidationError).fields).toEqual({ slug: "authors.v.slugTaken" });
      const renamed = await updateAuthor(h.db, b.id, { slug: "ahmed-salem", name_fr: "Ahmed Salem" });
      expect([renamed.slug, renamed.name_fr]).toEqual(["ahmed-salem", "Ahmed Salem"]);
      expect((await listAuthors(h.db, { q: "salem" })).authors.map((x) => x.id)).toEqual([b.id]);
      expect((await listAuthors(h.db, { ids: [a.id] })).authors.map((x) => x.id)).toEqual([a.id]);
    });

    it("takes a photo from the media library only, and links a staff account to one profile at most", async () => {
      const refused = await createAuthor(h.db, { name: "صورة", photo_url: "/uploads/elsewhere.jpg" }).catch((e: unknown) => e);
      expect((refused as ValidationError).fields).toEqual({ photo_url: "authors.v.photoNotInLibrary" });
      const withPhoto = await createAuthor(h.db, { name: "صاحب صورة", photo_url: "/uploads/library/portrait.jpg", user_id: editor.id });
      expect([withPhoto.photo_url, withPhoto.user_id, withPhoto.user_email]).toEqual(["/uploads/library/portrait.jpg", editor.id, editor.email]);
      const twice = await createAuthor(h.db, { name: "ثان", user_id: editor.id }).catch((e: unknown) => e);
      expect((twice as ValidationError).fields).toEqual({ user_id: "authors.v.accountTaken" });
      const stranger = await createAuthor(h.db, { name: "ثالث", user_id: "nobody" }).catch((e: unknown) => e);
      expect((stranger as ValidationError).fields).toEqual({ user_id: "authors.v.account" });
      // The account's profile is its default byline.
      expect(await defaultAuthorOf(h.db, editor.id)).toBe(withPhoto.id);
      const item = await createItem(h.db, "article", article(), editor);
      expect((item.authors as { id: number }[]).map((x) => x.id)).toEqual([withPhoto.id]);
    });

    it("gives an account without a profile one named after its full name, not its e-mail, on its first item", async () => {
      const item = await createItem(h.db, "article", article({ title: "مقال أول لكاتبة جديدة" }), newcomer);
      const [mine] = item.authors as { id: number; name: string; slug: string }[];
      expect([mine.name, mine.slug]).toEqual(["فاطمة الزهراء", "فاطمة-الزهراء"]);
      expect((await getAuthor(h.db, mine.id))!.user_id).toBe(newcomer.id);
      // Her next item reuses it.
      const next = await createItem(h.db, "article", article({ title: "مقال ثان لكاتبة جديدة" }), newcomer);
      expect((next.authors as { id: number }[]).map((x) => x.id)).toEqual([mine.id]);
    });

    it("shows the byline on cards, the detail page and the feed, and lists the items on the author page", async () => {
      const guest = await createAuthor(h.db, { name: "كاتب ضيف", name_fr: "Auteur invité" });
      const host = (await findAuthorBySlug(h.db, "صاحب-صورة"))!;
      const item = await createItem(h.db, "article", article({ title: "مقال مشترك بين كاتبين", authors: [host.id, guest.id], is_featured: "on" }), editor);
      const card = (await listFeaturedArticles(h.db, 5)).find((a) => a.id === item.id)!;
      expect(card.bylines.map((b) => [b.name, b.name_fr])).toEqual([
        ["صاحب صورة", null],
        ["كاتب ضيف", "Auteur invité"],
      ]);
      const detail = (await findPublishedItem(h.db, "article", { id: item.id }))!;
      expect((detail.bylines as unknown as { slug: string }[]).map((b) => b.slug)).toEqual([host.slug, guest.slug]);
      const feed = (await listFeedItems(h.db)).find((f) => f.title === "مقال مشترك بين كاتبين")!;
      expect(feed.authors).toEqual(["صاحب صورة", "كاتب ضيف"]);
      const xml = rssXml({ title: "t", description: "d", language: "ar", publicUrl: "https://example.org" }, [feed]);
      expect(xml).toContain("<dc:creator>صاحب صورة</dc:creator>\n      <dc:creator>كاتب ضيف</dc:creator>");

      const page = await authorItems(h.db, guest.id, { page: 1, pageSize: 12 });
      expect(page.items.map((i) => i.url)).toEqual([item.url]);
      expect(page.total).toBe(1);
      // A draft is not on the page; newest first; paged.
      await createItem(h.db, "article", article({ title: "مسودة الكاتب الضيف", authors: [guest.id], status: "draft" }), editor);
      const later = await createItem(h.db, "article", article({ title: "مقال أحدث للكاتب الضيف", authors: [guest.id] }), editor);
      const first = await authorItems(h.db, guest.id, { page: 1, pageSize: 1 });
      expect([first.total, first.items[0].id]).toEqual([2, later.id]);
      expect((await authorItems(h.db, guest.id, { page: 2, pageSize: 1 })).items[0].id).toBe(item.id);

      const sitemap = await listSitemapEntries(h.db);
      expect(sitemap.map((e) => e.path)).toContain(`/authors/${encodeURIComponent(guest.slug)}`);
      expect(sitemap.length).toBe(await countSitemapEntries(h.db));
      // A profile with no published item is not in the sitemap.
      const idle = await createAuthor(h.db, { name: "بلا مواد" });
      expect((await listSitemapEntries(h.db)).map((e) => e.path)).not.toContain(idle.url);
    });

    it("refuses to delete a profile that items name, with their count, and deletes it once they no longer do", async () => {
      const guest = (await findAuthorBySlug(h.db, "كاتب-ضيف"))!;
      const inUse = await deleteAuthor(h.db, guest.id).catch((e: unknown) => e);
      expect(inUse).toBeInstanceOf(AuthorInUseError);
      expect([(inUse as AuthorInUseError).status, (inUse as AuthorInUseError).itemCount]).toEqual([409, 3]);
      const named = await h.db.select({ id: itemAuthors.itemId }).from(itemAuthors).where(eq(itemAuthors.authorId, guest.id));
      await updateItem(h.db, "article", named[0].id, { authors: [] }, editor, { partial: true });
      for (const { id } of named.slice(1)) await deleteItem(h.db, "article", id);
      await deleteAuthor(h.db, guest.id);
      expect(await getAuthor(h.db, guest.id)).toBeNull();
    });
  });
}
