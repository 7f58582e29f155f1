/**
 * The media library's queries on a real database: the migration's backfill of the content's files, recording
 * uploads, the Arabic-aware search, the filters and paging, usage from file columns and rich-text bodies, the
 * details the public pages read, editing, and deleting with the stored file.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { seedDemoContent } from "#server/db/seed.server.ts";
import { articles, libraryFiles, media, news, videos } from "#server/db/schema.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { clampFocal, focalPosition, parseLibraryPatch } from "#domain/library.ts";
import { LocalStorage, storeImageBytes } from "./storage/index.server.ts";
import {
  deleteLibraryFile,
  deleteLibraryFileAs,
  describeFilesWithoutAlt,
  getLibraryFile,
  libraryDetailsByUrl,
  listLibrary,
  recordLibraryFile,
  registerContentFiles,
  storageKeyOf,
  updateLibraryFile,
  usageOf,
} from "./library.server.ts";

describe("library rules (pure)", () => {
  it("keeps a focal point inside the picture and turns it into object-position", () => {
    expect(clampFocal({ x: -1, y: 2 })).toEqual({ x: 0, y: 1 });
    expect(clampFocal({ x: Number.NaN, y: 0.25 })).toEqual({ x: 0.5, y: 0.25 });
    expect(clampFocal(null)).toEqual({ x: 0.5, y: 0.5 });
    expect(focalPosition({ x: 0.2, y: 0.755 })).toBe("20% 75.5%");
  });

  it("checks a patch: known fields, {ar, fr} texts within their limits, a focal point between 0 and 1", () => {
    expect(parseLibraryPatch({ alt: { ar: "  صورة  ", fr: "photo" }, focal: { x: 0.3, y: 1 } })).toEqual({
      ok: true,
      value: { alt: { ar: "صورة", fr: "photo" }, focal: { x: 0.3, y: 1 } },
    });
    expect(parseLibraryPatch({ focal: { x: 1.5, y: 0 } })).toMatchObject({ ok: false, fields: { focal: "library.v.focal" } });
    expect(parseLibraryPatch({ credit: { ar: "x".repeat(201) } })).toMatchObject({ ok: false, fields: { "credit.ar": "library.v.creditTooLong" } });
    expect(parseLibraryPatch({ url: "/elsewhere" })).toMatchObject({ ok: false, fields: { url: "library.v.unknownField" } });
    expect(parseLibraryPatch([])).toMatchObject({ ok: false });
  });
});

describe.each(testDatabaseKinds)("media library on %s", (kind) => {
  let t: TestDatabase;
  let root: string;

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    root = fs.mkdtempSync(path.join(os.tmpdir(), "library-"));
    await seedDemoContent(t.db, { uploadsDir: root });
  });
  afterAll(async () => {
    await t.drop();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("the seed's files are in the library: every image, audio and PDF the demo content uses, with size and dimensions", async () => {
    const used = rowsOf<{ url: string }>(
      await t.db
        .execute(sql`select image_url as url from articles union select image_url from news union select audio_url from podcasts where audio_url is not null
        union select file_url from media where media_type in ('image', 'audio', 'document')`),
    ).map((r) => r.url);
    const known = new Set((await t.db.select({ url: libraryFiles.url }).from(libraryFiles)).map((r) => r.url));
    for (const url of used) expect(known, url).toContain(url);
    const [article] = await t.db.select({ url: articles.imageUrl }).from(articles).limit(1);
    const [row] = await t.db.select().from(libraryFiles).where(eq(libraryFiles.url, article.url!));
    expect(row).toMatchObject({ kind: "image", mime: "image/svg+xml", width: 1200, height: 675 });
    expect(row.bytes).toBeGreaterThan(100);
    const [pdf] = await t.db.select().from(libraryFiles).where(eq(libraryFiles.kind, "document")).limit(1);
    expect(pdf).toMatchObject({ mime: "application/pdf" });
    // Running it again adds nothing.
    expect(await registerContentFiles(t.db, { uploadsDir: root })).toBe(0);
  });

  it("the migration's backfill: rows for the content's files of its day, size from a sized name", async () => {
    // What migration 0010 ran, on content it did not see: its statement is the same one.
    const url = "/uploads/news/1700000000000-abcdef-old.1600x900.jpg";
    await t.db
      .update(news)
      .set({ imageUrl: url })
      .where(eq(news.id, (await t.db.select({ id: news.id }).from(news).limit(1))[0].id));
    const migration = fs.readFileSync(path.join(import.meta.dirname, "../../drizzle/0010_media_library.sql"), "utf8");
    const backfill = migration.split("--> statement-breakpoint").at(-1)!;
    await t.db.execute(sql.raw(backfill));
    const [row] = await t.db.select().from(libraryFiles).where(eq(libraryFiles.url, url));
    expect(row).toMatchObject({ kind: "image", mime: "image/jpeg", width: 1600, height: 900, originalName: "1700000000000-abcdef-old.1600x900.jpg" });
  });

  it("records an upload, once per URL, keeping its texts when recorded again", async () => {
    const url = "/uploads/library/1700000000001-aaaaaa-قافلة.800x600.jpg";
    const first = await recordLibraryFile(t.db, { url, kind: "image", mime: "image/jpeg", bytes: 1234, originalName: "قافلة.jpg", uploadedBy: "u1" });
    expect(first).toMatchObject({ url, width: 800, height: 600, bytes: 1234, name: "قافلة.jpg", focal: { x: 0.5, y: 0.5 } });
    await updateLibraryFile(t.db, first.id, { alt: { ar: "قافلة في الصحراء", fr: "Caravane" } });
    const again = await recordLibraryFile(t.db, { url, kind: "image", mime: "image/jpeg", bytes: 1300 });
    expect(again.id).toBe(first.id);
    expect(again.alt).toEqual({ ar: "قافلة في الصحراء", fr: "Caravane" });
    expect(again.bytes).toBe(1300);
  });

  it("searches names, alt texts, captions and credits, Arabic-aware (hamza forms, ta marbuta, harakat)", async () => {
    const file = await recordLibraryFile(t.db, { url: "/uploads/library/1700000000002-bbbbbb-x.jpg", kind: "image", originalName: "wadane.jpg" });
    await updateLibraryFile(t.db, file.id, { caption: { ar: "مدينةُ وادان القديمة", fr: "" }, credit: { ar: "", fr: "Photo : Aïcha Ould" } });
    for (const q of ["وادان", "مدينه", "الْقديمة", "aicha", "WADANE"]) {
      const found = await listLibrary(t.db, { q, page: 1, pageSize: 24 });
      expect(
        found.items.map((i) => i.id),
        q,
      ).toContain(file.id);
    }
    const missed = await listLibrary(t.db, { q: "تمبكتو", kind: "image", page: 1, pageSize: 24 });
    expect(missed.items.map((i) => i.id)).not.toContain(file.id);
    // A backfilled row (no search text yet) is found by its name.
    const found = await listLibrary(t.db, { q: "old 1600x900", page: 1, pageSize: 24 });
    expect(found.items.map((i) => i.url)).toContain("/uploads/news/1700000000000-abcdef-old.1600x900.jpg");
  });

  it("filters by kind, lists videos from the video library, pages newest first", async () => {
    const images = await listLibrary(t.db, { kind: "image", page: 1, pageSize: 5 });
    expect(images.items).toHaveLength(5);
    expect(images.items.every((i) => i.kind === "image")).toBe(true);
    expect(images.total).toBeGreaterThan(5);
    const dates = images.items.map((i) => Date.parse(i.createdAt));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    const second = await listLibrary(t.db, { kind: "image", page: 2, pageSize: 5 });
    expect(second.items.map((i) => i.id)).not.toContain(images.items[0].id);
    const past = await listLibrary(t.db, { kind: "image", page: 999, pageSize: 5 });
    expect(past).toMatchObject({ items: [], total: images.total, page: 999 });

    const audio = await listLibrary(t.db, { kind: "audio", page: 1, pageSize: 50 });
    expect(audio.items.length).toBeGreaterThan(0);
    expect(audio.items.every((i) => i.kind === "audio" && i.thumbnail === null)).toBe(true);

    const videoCount = (await t.db.select({ guid: videos.guid }).from(videos)).length;
    const vids = await listLibrary(t.db, { kind: "video", page: 1, pageSize: 100 });
    expect(vids.total).toBe(videoCount);
    expect(vids.items[0]).toMatchObject({ kind: "video", id: 0, href: "/admin/videos" });
    const [title] = await t.db.select({ title: videos.title }).from(videos).limit(1);
    const byTitle = await listLibrary(t.db, { kind: "video", q: title.title.split(" ")[0], page: 1, pageSize: 100 });
    expect(byTitle.items.length).toBeGreaterThan(0);

    const all = await listLibrary(t.db, { page: 1, pageSize: 10 });
    const files = (await t.db.select({ id: libraryFiles.id }).from(libraryFiles)).length;
    expect(all.total).toBe(files + videoCount);
  });

  it("usage: image columns, file columns and rich-text bodies, with the editor's address; the list counts it", async () => {
    const url = "/uploads/library/1700000000003-cccccc-tent.640x480.jpg";
    const file = await recordLibraryFile(t.db, { url, kind: "image" });
    expect(await usageOf(t.db, url)).toEqual([]);
    const [a] = await t.db.select({ id: articles.id, title: articles.title }).from(articles).limit(1);
    const [n] = await t.db.select({ id: news.id, title: news.title }).from(news).limit(1);
    const [m] = await t.db.select({ id: media.id }).from(media).limit(1);
    await t.db.update(articles).set({ imageUrl: url }).where(eq(articles.id, a.id));
    await t.db
      .update(news)
      .set({ content: `<p>نص</p><img src="${url}" alt="">` })
      .where(eq(news.id, n.id));
    // A longer address that begins the same is another file.
    await t.db
      .update(media)
      .set({ thumbnailUrl: `${url}.w640.jpg` })
      .where(eq(media.id, m.id));
    const usage = await usageOf(t.db, url);
    expect(usage).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "article", id: a.id, title: a.title, href: `/admin/articles/${a.id}` }),
        expect.objectContaining({ type: "news", id: n.id, title: n.title, href: `/admin/news/${n.id}` }),
      ]),
    );
    expect(usage).toHaveLength(2);
    expect((await getLibraryFile(t.db, file.id))?.usageCount).toBe(2);
    const listed = await listLibrary(t.db, { q: "tent", page: 1, pageSize: 5 });
    expect(listed.items.find((i) => i.id === file.id)?.usageCount).toBe(2);
  });

  it("details by URL for the public pages and pickers: texts, focal point and size", async () => {
    const url = "/uploads/library/1700000000004-dddddd-well.1000x500.jpg";
    const file = await recordLibraryFile(t.db, { url, kind: "image" });
    await updateLibraryFile(t.db, file.id, {
      alt: { ar: "بئر", fr: "Un puits" },
      caption: { ar: "بئر في أدرار", fr: "Un puits dans l'Adrar" },
      credit: { ar: "تصوير: سيدي", fr: "Photo : Sidi" },
      focal: { x: 0.2, y: 0.8 },
    });
    const details = await libraryDetailsByUrl(t.db, [url, "/uploads/none.jpg", ""]);
    expect(details.size).toBe(1);
    expect(details.get(url)).toEqual({
      kind: "image",
      alt: { ar: "بئر", fr: "Un puits" },
      caption: { ar: "بئر في أدرار", fr: "Un puits dans l'Adrar" },
      credit: { ar: "تصوير: سيدي", fr: "Photo : Sidi" },
      focal: { x: 0.2, y: 0.8 },
      width: 1000,
      height: 500,
    });
    // A partial patch keeps the rest.
    const changed = await updateLibraryFile(t.db, file.id, { focal: { x: 1, y: 0 } });
    expect(changed).toMatchObject({ alt: { ar: "بئر" }, focal: { x: 1, y: 0 } });
    expect(await updateLibraryFile(t.db, 999_999, { focal: { x: 0, y: 0 } })).toBeNull();
  });

  it("deletes the row and the stored image with its resized copies", async () => {
    const storage = new LocalStorage(path.join(root, "store"));
    const png = await sharp({ create: { width: 700, height: 400, channels: 3, background: "#c96" } })
      .png()
      .toBuffer();
    const stored = await storeImageBytes("بئر.png", new Uint8Array(png), "library", storage);
    expect(storageKeyOf(storage, stored.url)).toBe(stored.key);
    expect(storageKeyOf(storage, "https://elsewhere.example/x.jpg")).toBeNull();
    const file = await recordLibraryFile(t.db, { url: stored.url, kind: "image", mime: "image/png" });
    const before = await storage.list("library");
    expect(before.length).toBeGreaterThan(1);
    expect(await deleteLibraryFile(t.db, file.id, storage)).toMatchObject({ id: file.id });
    expect(await storage.list("library")).toEqual([]);
    expect(await getLibraryFile(t.db, file.id)).toBeNull();
    expect(await deleteLibraryFile(t.db, file.id, storage)).toBeNull();
  });

  it("deletes only for an account that may delete content; one in use when forced, saying which published items use it (issue 39)", async () => {
    const writer = { role: "editor", isAdmin: false, permissions: ["content.write"] };
    const deleter = { role: "editor", isAdmin: false, permissions: ["content.write", "content.delete"] };
    const url = "/uploads/library/1700000000009-iiiiii-caravan.800x600.jpg";
    const file = await recordLibraryFile(t.db, { url, kind: "image" });
    const [published] = await t.db.select({ id: articles.id, title: articles.title }).from(articles).where(eq(articles.status, "published")).limit(1);
    const [draft] = await t.db.select({ id: news.id, title: news.title }).from(news).where(eq(news.status, "draft")).limit(1);
    await t.db.update(articles).set({ imageUrl: url }).where(eq(articles.id, published.id));
    await t.db.update(news).set({ imageUrl: url }).where(eq(news.id, draft.id));

    // Refused whether forced or not, before anything is read: the row stays.
    expect(await deleteLibraryFileAs(t.db, writer, file.id, { force: true })).toEqual({ state: "forbidden" });
    expect(await deleteLibraryFileAs(t.db, null, file.id, { force: true })).toEqual({ state: "forbidden" });
    expect(await deleteLibraryFileAs(t.db, { ...deleter, disabled: true }, file.id, { force: true })).toEqual({ state: "forbidden" });
    expect(await getLibraryFile(t.db, file.id)).not.toBeNull();

    // In use, not forced: the uses, the published one first and marked so.
    const inUse = await deleteLibraryFileAs(t.db, deleter, file.id, { force: false });
    expect(inUse).toEqual({
      state: "in-use",
      usage: [
        { type: "article", id: published.id, title: published.title, href: `/admin/articles/${published.id}`, published: true },
        { type: "news", id: draft.id, title: draft.title, href: `/admin/news/${draft.id}`, published: false },
      ],
    });
    expect(await getLibraryFile(t.db, file.id)).not.toBeNull();

    // Forced by an account that may delete (an administrator holds every permission): gone, the uses in the answer.
    const done = await deleteLibraryFileAs(t.db, { role: "admin", isAdmin: true, permissions: [] }, file.id, { force: true });
    expect(done).toMatchObject({ state: "deleted", file: { id: file.id }, usage: [{ published: true }, { published: false }] });
    expect(await getLibraryFile(t.db, file.id)).toBeNull();
    expect(await deleteLibraryFileAs(t.db, deleter, file.id, { force: true })).toEqual({ state: "not-found" });
  });

  it("gives the demo pictures their alt text in Arabic and French, keeping any an editor wrote (issue 39)", async () => {
    const [article] = await t.db.select({ imageUrl: articles.imageUrl }).from(articles).where(eq(articles.status, "published")).limit(1);
    const seeded = (await libraryDetailsByUrl(t.db, [article.imageUrl!])).get(article.imageUrl!);
    expect(seeded?.alt.ar).toMatch(/^رسم ل/);
    expect(seeded?.alt.fr).toMatch(/^Illustration : /);
    const demo = rowsOf<{ n: number }>(
      await t.db.execute(
        sql`select count(*)::int as n from library_files where kind = 'image' and url like '/uploads/demo/%' and (alt_ar = '' or alt_fr = '')`,
      ),
    );
    expect(demo[0].n).toBe(0);
    // Found by its words, as any alt text is.
    expect((await listLibrary(t.db, { q: seeded!.alt.fr.split(" ").slice(-1)[0], page: 1, pageSize: 100 })).total).toBeGreaterThan(0);

    // An editor's own text, in one language only, is kept by a later run of the seed; the run changes nothing else.
    const [mine] = await t.db
      .update(libraryFiles)
      .set({ altAr: "نص المحرر", altFr: "" })
      .where(eq(libraryFiles.url, article.imageUrl!))
      .returning({ id: libraryFiles.id });
    await t.db.execute(sql`update library_files set alt_ar = '', alt_fr = '' where url like '/uploads/demo/images/news/%'`);
    await seedDemoContent(t.db, { uploadsDir: root });
    expect((await getLibraryFile(t.db, mine.id))?.alt).toEqual({ ar: "نص المحرر", fr: "" });
    const news = rowsOf<{ n: number }>(
      await t.db.execute(sql`select count(*)::int as n from library_files where url like '/uploads/demo/images/news/%' and alt_ar <> '' and alt_fr <> ''`),
    );
    expect(news[0].n).toBeGreaterThan(0);
    expect(await describeFilesWithoutAlt(t.db, new Map([[article.imageUrl!, { ar: "آخر", fr: "autre" }]]))).toBe(0);
  });
});
