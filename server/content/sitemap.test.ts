import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../../tests/helpers/db.ts";
import { seedDemoContent } from "../db/seed.ts";
import { articles, coverages, news, podcasts, programs } from "../db/schema.ts";
import { listFeedItems, listSitemapEntries } from "./sitemap.ts";
import { escapeXml, robotsTxt, rssXml, sitemapXml } from "../feeds.ts";

describe.each(testDatabaseKinds)("sitemap and feed queries on %s", (kind) => {
  let t: TestDatabase;
  const uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), "sitemap-"));
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    await seedDemoContent(t.db, { uploadsDir });
  });
  afterAll(async () => {
    await t?.drop();
    fs.rmSync(uploadsDir, { recursive: true, force: true });
  });

  it("lists every published news item, article, program, podcast and coverage, and no draft", async () => {
    const entries = await listSitemapEntries(t.db);
    const paths = new Set(entries.map((e) => e.path));
    const tables = [
      [news, "/news/"],
      [articles, "/articles/"],
      [programs, "/programs/"],
      [podcasts, "/podcasts/"],
      [coverages, "/coverage/"],
    ] as const;
    for (const [table, prefix] of tables) {
      const rows = await t.db.select({ slug: table.pageSlug, status: table.status }).from(table as typeof news);
      const published = rows.filter((r) => r.status === "published");
      const drafts = rows.filter((r) => r.status === "draft");
      expect(published.length, prefix).toBeGreaterThan(0);
      // The seed has drafts for every type but coverage, which is enough to prove the filter.
      if (prefix !== "/coverage/") expect(drafts.length, prefix).toBeGreaterThan(0);
      for (const r of published) expect(paths.has(prefix + r.slug), prefix + r.slug).toBe(true);
      for (const r of drafts) expect(paths.has(prefix + r.slug), prefix + r.slug).toBe(false);
    }
    expect(entries.every((e) => e.lastModified instanceof Date && !Number.isNaN(e.lastModified.getTime()))).toBe(true);
  });

  it("gives the feed the latest 30 news items and articles together, newest first, published only", async () => {
    const items = await listFeedItems(t.db, 30);
    expect(items).toHaveLength(30);
    expect(new Set(items.map((i) => i.type))).toEqual(new Set(["news", "articles"]));
    const times = items.map((i) => i.publishDate.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const draftNews = await t.db.select({ slug: news.pageSlug }).from(news).where(eq(news.status, "draft"));
    expect(draftNews.length).toBeGreaterThan(0);
    for (const d of draftNews) expect(items.map((i) => i.path)).not.toContain(`/news/${d.slug}`);
  });
});

describe("the site files", () => {
  it("escapes XML and drops characters XML cannot carry", () => {
    expect(escapeXml(`<a href="x">&'</a>\u0001\uFFFE`)).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;");
  });

  it("builds a sitemap with absolute URLs and lastmod", () => {
    const xml = sitemapXml("https://sahara.example/", ["/", "/news"], [{ path: "/news/a-b", lastModified: new Date("2026-01-02T03:04:05Z") }]);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(xml).toContain("<url><loc>https://sahara.example/</loc></url>");
    expect(xml).toContain("<url><loc>https://sahara.example/news/a-b</loc><lastmod>2026-01-02T03:04:05.000Z</lastmod></url>");
  });

  it("allows everything in robots.txt but the back-office and sign-in, and names the sitemap", () => {
    const txt = robotsTxt("https://sahara.example");
    expect(txt).toMatch(/^User-agent: \*$/m);
    expect(txt).toMatch(/^Disallow: \/admin$/m);
    expect(txt).toMatch(/^Disallow: \/auth$/m);
    expect(txt).toMatch(/^Sitemap: https:\/\/sahara\.example\/sitemap\.xml$/m);
  });

  it("builds RSS 2.0 items with escaped text and absolute links", () => {
    const xml = rssXml({ title: "صحراء & ميديا", description: "d", language: "ar", publicUrl: "https://sahara.example" }, [
      { type: "news", path: "/news/x", title: "<b>عنوان</b>", excerpt: "a & b", author: null, category: "عاجل", publishDate: new Date("2026-03-04T05:06:07Z") },
    ]);
    expect(xml).toContain('<rss version="2.0"');
    expect(xml).toContain("<title>صحراء &amp; ميديا</title>");
    expect(xml).toContain("<title>&lt;b&gt;عنوان&lt;/b&gt;</title>");
    expect(xml).toContain("<link>https://sahara.example/news/x</link>");
    expect(xml).toContain("<pubDate>Wed, 04 Mar 2026 05:06:07 GMT</pubDate>");
    expect(xml).not.toContain("<dc:creator>");
  });
});
