/**
 * The one detail loader for every type and the staff preview loader, on a seeded database: slug and id URLs,
 * Arabic slugs, 301s from ids, other cases and old slugs, 404s, bodies (plain text and sanitised HTML),
 * related items with their URLs, and the preview of drafts and scheduled items.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { seedDemoContent } from "#server/db/seed.server.ts";
import { articles, news, podcasts, programs, slugRedirects } from "#server/db/schema.server.ts";
import { clearCache, invalidate, setCacheEnabled } from "./cache.server.ts";
import { detailTypeOfPath, loadDetailPage, loadPreviewPage } from "./detail-page.server.ts";

/** What a loader threw: a redirect Response or a data() 404. */
async function thrown(run: () => Promise<unknown>): Promise<{ status: number; location: string | null }> {
  try {
    await run();
  } catch (error) {
    if (error instanceof Response) return { status: error.status, location: error.headers.get("location") };
    const init = (error as { init?: { status?: number } }).init;
    if (init?.status) return { status: init.status, location: null };
    throw error;
  }
  throw new Error("the loader did not throw");
}

describe.each(testDatabaseKinds)("detail and preview loaders on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    await seedDemoContent(t.db, { uploadsDir: fs.mkdtempSync(path.join(os.tmpdir(), "detail-page-")) });
  });
  afterAll(async () => t?.drop());

  it("knows the type by the URL's public path, and nothing else", () => {
    expect(detailTypeOfPath("/articles/x")).toBe("article");
    expect(detailTypeOfPath("/news/x")).toBe("news");
    expect(detailTypeOfPath("/coverage/x")).toBe("coverage");
    expect(detailTypeOfPath("/podcasts/x")).toBe("podcast");
    expect(detailTypeOfPath("/programs/x")).toBe("program");
    // Media items open in /media: no detail page of their own.
    expect(() => detailTypeOfPath("/media/x")).toThrow("Invalid content type");
    expect(() => detailTypeOfPath("/newsletter/confirm")).toThrow("Invalid content type");
  });

  it("loads a published item by its slug with its URL, summary, plain-text body and related items with theirs", async () => {
    const [row] = await t.db.select({ id: news.id, slug: news.pageSlug, categoryId: news.categoryId }).from(news).where(eq(news.status, "published")).limit(1);
    const page = await loadDetailPage(t.db, "news", row.slug);
    expect(page.type).toBe("news");
    expect(page.url).toBe(`/news/${row.slug}`);
    expect(page.item.id).toBe(row.id);
    expect(page.summary).toBeTruthy();
    expect(page.body && "text" in page.body).toBe(true);
    // The summary and body columns are not sent twice.
    expect(page.item).not.toHaveProperty("content");
    expect(page.item).not.toHaveProperty("excerpt");
    for (const r of page.related) expect(r.url).toBe(`/news/${r.pageSlug}`);
  });

  it("answers an id, another case of the slug and an old slug with a 301 to the item's URL", async () => {
    const [row] = await t.db.select({ id: programs.id, slug: programs.pageSlug }).from(programs).where(eq(programs.status, "published")).limit(1);
    expect(await thrown(() => loadDetailPage(t.db, "program", String(row.id)))).toEqual({ status: 301, location: `/programs/${row.slug}` });
    expect(await thrown(() => loadDetailPage(t.db, "program", row.slug.toUpperCase()))).toEqual({ status: 301, location: `/programs/${row.slug}` });
    await t.db.insert(slugRedirects).values({ contentType: "program", oldSlug: "old-program-slug", itemId: row.id });
    expect(await thrown(() => loadDetailPage(t.db, "program", "old-program-slug"))).toEqual({ status: 301, location: `/programs/${row.slug}` });
    // The old slug belongs to programs: another type does not follow it.
    expect(await thrown(() => loadDetailPage(t.db, "podcast", "old-program-slug"))).toEqual({ status: 404, location: null });
  });

  it("serves an Arabic slug, redirects to it percent-encoded, and follows an old Arabic slug", async () => {
    const slug = "مخطوطات-شنقيط-الثمينة";
    const [row] = await t.db
      .insert(articles)
      .values({ title: "مخطوطات شنقيط الثمينة", content: "نص المقال الأول.\n\nالفقرة الثانية.", excerpt: "ملخص المقال", pageSlug: slug, status: "published" })
      .returning({ id: articles.id });
    const encoded = `/articles/${encodeURIComponent(slug)}`;
    const page = await loadDetailPage(t.db, "article", slug);
    expect(page.url).toBe(encoded);
    expect(page.body).toEqual({ text: "نص المقال الأول.\n\nالفقرة الثانية." });
    expect(await thrown(() => loadDetailPage(t.db, "article", String(row.id)))).toEqual({ status: 301, location: encoded });
    await t.db.insert(slugRedirects).values({ contentType: "article", oldSlug: "مخطوطات-قديمة", itemId: row.id });
    expect(await thrown(() => loadDetailPage(t.db, "article", "مخطوطات-قديمة"))).toEqual({ status: 301, location: encoded });
  });

  it("answers 404 for drafts, scheduled items, unknown and malformed keys, and an old slug of an unpublished item", async () => {
    const [draft] = await t.db.select({ id: podcasts.id }).from(podcasts).where(eq(podcasts.pageSlug, "tent-talk-s2e5-draft"));
    await t.db.insert(slugRedirects).values({ contentType: "podcast", oldSlug: "tent-talk-old", itemId: draft.id });
    const [scheduled] = await t.db
      .insert(news)
      .values({ title: "خبر مجدول", content: "نص", pageSlug: "scheduled-news", status: "published", publishDate: new Date(Date.now() + 86_400_000) })
      .returning({ id: news.id });
    for (const [type, key] of [
      ["podcast", "tent-talk-s2e5-draft"],
      ["podcast", String(draft.id)],
      ["podcast", "tent-talk-old"],
      ["news", "scheduled-news"],
      ["news", String(scheduled.id)],
      ["article", "no-such-article"],
      ["article", "999999"],
      ["article", "<script>"],
      ["article", undefined],
    ] as const) {
      expect(await thrown(() => loadDetailPage(t.db, type, key)), `${type} ${key}`).toEqual({ status: 404, location: null });
    }
  });

  it("renders a rich-text body as HTML sanitised again on the way out", async () => {
    const [row] = await t.db
      .insert(news)
      .values({
        title: "خبر من المحرر",
        // Written straight to the table, as an old import or a bug could: the page must not trust it.
        content: '<p dir="rtl" onclick="alert(1)">فقرة <strong>مهمة</strong></p><script>alert(2)</script><p><a href="javascript:alert(3)">رابط</a></p>',
        excerpt: "ملخص",
        pageSlug: "rich-text-news",
        status: "published",
      })
      .returning({ id: news.id });
    const page = await loadDetailPage(t.db, "news", "rich-text-news");
    expect(page.body).toEqual({ html: '<p dir="rtl">فقرة <strong>مهمة</strong></p><p><a>رابط</a></p>' });
    await t.db.delete(news).where(eq(news.id, row.id));
  });

  it("previews a draft and a scheduled item as readers will see them, with their status", async () => {
    const [draft] = await t.db.select({ id: programs.id }).from(programs).where(eq(programs.pageSlug, "maqal-salt-of-ijil-draft"));
    const page = await loadPreviewPage(t.db, "program", draft.id);
    expect(page.preview).toEqual({ status: "draft" });
    expect(page.url).toBe("/programs/maqal-salt-of-ijil-draft");
    expect(page.item.programType).toBeTruthy();
    const [scheduled] = await t.db
      .insert(news)
      .values({ title: "خبر سيأتي", content: "نص", pageSlug: "coming-news", status: "published", publishDate: new Date(Date.now() + 3_600_000) })
      .returning({ id: news.id });
    expect((await loadPreviewPage(t.db, "news", scheduled.id)).preview).toEqual({ status: "scheduled" });
    const [media] = await t.db.execute<{ id: number }>("select id from media limit 1").then((r) => r.rows);
    expect((await loadPreviewPage(t.db, "media", media.id)).url).toMatch(/^\/media#media-\d+$/);
    expect(await thrown(() => loadPreviewPage(t.db, "news", 999_999))).toEqual({ status: 404, location: null });
    expect(await thrown(() => loadPreviewPage(t.db, "news", Number.NaN))).toEqual({ status: 404, location: null });
  });

  it("keeps the detail read cached until a write to its type invalidates it", async () => {
    setCacheEnabled(true);
    try {
      const [row] = await t.db.select({ id: programs.id, slug: programs.pageSlug }).from(programs).where(eq(programs.status, "published")).limit(1);
      await loadDetailPage(t.db, "program", row.slug);
      await t.db.update(programs).set({ status: "draft" }).where(eq(programs.id, row.id));
      // A write outside the data layer does not invalidate: the cached page is still served...
      expect((await loadDetailPage(t.db, "program", row.slug)).item.id).toBe(row.id);
      // ...until the type's tag is invalidated, as every newsroom write does.
      invalidate("program");
      expect(await thrown(() => loadDetailPage(t.db, "program", row.slug))).toEqual({ status: 404, location: null });
      await t.db.update(programs).set({ status: "published" }).where(eq(programs.id, row.id));
    } finally {
      clearCache();
      setCacheEnabled(false);
    }
  });
});
