import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray, sql } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { setDatabaseHandle } from "#server/db/client.server.ts";
import { seedDemoContent } from "#server/db/seed.server.ts";
import { articles, coverages, news, podcasts, programs } from "#server/db/schema.server.ts";
import { parse as parseXml, validate as validateXml } from "fast-xml-parser";
import {
  countSitemapEntries,
  listFeedItems,
  listNewsSitemapItems,
  listSitemapEntries,
  NEWS_SITEMAP_MAX_URLS,
  newsSitemapTypes,
  SITEMAP_MAX_URLS,
  SITEMAP_PAGES_PER_FILE,
  SITEMAP_SECTIONS,
} from "./sitemap.server.ts";
import { listPodcastEpisodes } from "./types/podcast.server.ts";
import { invalidate } from "./cache.server.ts";
import { durationSeconds, escapeXml, newsSitemapXml, podcastRssXml, robotsTxt, rssXml, sitemapFiles, sitemapIndexXml, sitemapXml } from "./feeds.server.ts";
import { loader as sitemapLoader } from "#app/routes/feeds/sitemap-xml.ts";
import { loader as sitemapFileLoader } from "#app/routes/feeds/sitemap-file.ts";
import { loader as podcastFeedLoader } from "#app/routes/feeds/podcast-feed-xml.ts";
import { sharedCacheControl } from "#server/http/shared-cache.server.ts";

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

  it("lists an item's French address only when it has a French title, never an English one without English text", async () => {
    const [withFr, arabicOnly] = await t.db
      .insert(news)
      .values([
        {
          title: "خبر مترجم",
          titleFr: "Une nouvelle",
          content: "نص",
          pageSlug: "langs-with-fr",
          status: "published",
          publishDate: new Date(Date.now() - 60_000),
        },
        { title: "خبر عربي", titleFr: "  ", content: "نص", pageSlug: "langs-arabic-only", status: "published", publishDate: new Date(Date.now() - 60_000) },
      ])
      .returning({ id: news.id });
    try {
      const entries = await listSitemapEntries(t.db);
      expect(entries.find((e) => e.path === "/news/langs-with-fr")?.languages).toEqual(["ar", "fr"]);
      expect(entries.find((e) => e.path === "/news/langs-arabic-only")?.languages).toEqual(["ar"]);
      // Author and tag pages are lists in the interface's words: every language.
      const author = entries.find((e) => e.path.startsWith("/authors/"));
      if (author) expect(author.languages).toEqual(["ar", "fr", "en"]);
    } finally {
      await t.db.delete(news).where(inArray(news.id, [withFr.id, arabicOnly.id]));
    }
  });

  it("lists in the news sitemap the news-like items of the last 48 hours, newest first, and drops older ones", async () => {
    expect(new Set(newsSitemapTypes())).toEqual(new Set(["news", "article", "coverage"]));
    const minuteAgo = new Date(Date.now() - 60_000);
    const [fresh, stale, program] = await Promise.all([
      t.db
        .insert(news)
        .values({ title: "خبر الساعة", titleFr: "Nouvelle", content: "نص", pageSlug: "gn-fresh", status: "published", publishDate: minuteAgo })
        .returning({ id: news.id }),
      t.db
        .insert(articles)
        .values({ title: "مقال قديم", content: "نص", pageSlug: "gn-stale", status: "published", publishDate: new Date(Date.now() - 49 * 3_600_000) })
        .returning({ id: articles.id }),
      t.db
        .insert(programs)
        .values({ title: "برنامج", description: "وصف", pageSlug: "gn-program", status: "published", publishDate: minuteAgo })
        .returning({ id: programs.id }),
    ]);
    try {
      const items = await listNewsSitemapItems(t.db, new Date(Date.now() + 1_000));
      const paths = items.map((i) => i.path);
      expect(paths[0]).toBe("/news/gn-fresh");
      expect(items[0].titles).toEqual({ ar: "خبر الساعة", fr: "Nouvelle" });
      expect(paths).not.toContain("/articles/gn-stale");
      expect(paths).not.toContain("/programs/gn-program");
      const times = items.map((i) => i.publishDate.getTime());
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(times.every((time) => time >= Date.now() - 48 * 3_600_000)).toBe(true);
    } finally {
      await t.db.delete(news).where(eq(news.id, fresh[0].id));
      await t.db.delete(articles).where(eq(articles.id, stale[0].id));
      await t.db.delete(programs).where(eq(programs.id, program[0].id));
    }
  });

  it("lists a publish in the news sitemap at the next read: the newsroom's invalidation reaches its cached list", async () => {
    const now = new Date(Date.now() + 1_000);
    const before = await listNewsSitemapItems(t.db, now);
    const [row] = await t.db
      .insert(news)
      .values({ title: "خبر منشور للتو", content: "نص", pageSlug: "gn-just-published", status: "published", publishDate: new Date(Date.now() - 1_000) })
      .returning({ id: news.id });
    try {
      // Cached: the same minute's list until a write of the type says otherwise.
      expect((await listNewsSitemapItems(t.db, now)).map((i) => i.path)).toEqual(before.map((i) => i.path));
      invalidate("news");
      expect((await listNewsSitemapItems(t.db, now))[0].path).toBe("/news/gn-just-published");
    } finally {
      await t.db.delete(news).where(eq(news.id, row.id));
      invalidate("news");
    }
  });

  it("reads any window of the list in the same order, and counts what it lists", async () => {
    const all = await listSitemapEntries(t.db);
    expect(await countSitemapEntries(t.db)).toBe(all.length);
    expect(await listSitemapEntries(t.db, { offset: 5, limit: 7 })).toEqual(all.slice(5, 12));
    expect(await listSitemapEntries(t.db, { offset: all.length, limit: 10 })).toEqual([]);
  });

  it("gives the feed the latest 30 news items and articles together, newest first, published only", async () => {
    const items = await listFeedItems(t.db, 30);
    expect(items).toHaveLength(30);
    expect(new Set(items.map((i) => i.type))).toEqual(new Set(["news", "article"]));
    const times = items.map((i) => i.publishDate.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const draftNews = await t.db.select({ slug: news.pageSlug }).from(news).where(eq(news.status, "draft"));
    expect(draftNews.length).toBeGreaterThan(0);
    for (const d of draftNews) expect(items.map((i) => i.path)).not.toContain(`/news/${d.slug}`);
  });

  it("serves /podcasts/feed.xml with every field Apple Podcasts and Spotify require, published episodes with audio only", async () => {
    // A published episode without audio and a scheduled one: neither belongs in a podcast app.
    const [noAudio, scheduled] = await t.db
      .insert(podcasts)
      .values([
        { title: "حلقة بلا صوت", description: "وصف", pageSlug: "feed-no-audio", status: "published", audioUrl: null },
        {
          title: "حلقة قادمة",
          description: "وصف",
          pageSlug: "feed-scheduled",
          status: "published",
          audioUrl: "/uploads/x.mp3",
          publishDate: new Date(Date.now() + 86_400_000),
        },
      ])
      .returning({ id: podcasts.id });
    setDatabaseHandle(t);
    try {
      const res = await podcastFeedLoader({ params: {}, request: new Request("http://localhost/podcasts/feed.xml") } as never);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe(sharedCacheControl(300));
      const xml = await res.text();
      expect(validateXml(xml)).toBe(true);
      const doc = parseXml(xml, { ignoreAttributes: false, attributeNamePrefix: "@", parseNodeValue: false, arrayMode: (name: string) => name === "item" }) as {
        rss: Record<string, unknown>;
      };
      const rss = doc.rss;
      expect(rss["@version"]).toBe("2.0");
      expect(rss["@xmlns:itunes"]).toBe("http://www.itunes.com/dtds/podcast-1.0.dtd");
      const channel = rss.channel as Record<string, never>;
      expect(channel.title).toContain("بودكاست");
      expect(String(channel.description).length).toBeGreaterThan(10);
      expect(channel.language).toBe("ar");
      expect(channel.link).toMatch(/^https?:\/\/[^/]+\/programs$/);
      expect(channel["itunes:image"]["@href"]).toMatch(/^https?:\/\//);
      // fast-xml-parser 3 leaves entities as written: this is "Society & Culture".
      expect(channel["itunes:category"]["@text"]).toBe("Society &amp; Culture");
      expect(channel["itunes:explicit"]).toBe("false");
      expect(channel["itunes:author"]).toBeTruthy();
      expect(channel["itunes:owner"]["itunes:email"]).toMatch(/@/);

      const published = await listPodcastEpisodes(t.db);
      const rows = await t.db.select({ slug: podcasts.pageSlug, status: podcasts.status }).from(podcasts);
      const items = channel.item as Record<string, never>[];
      expect(items.length).toBe(published.length);
      expect(items.length).toBe(rows.filter((r) => r.status === "published").length - 2);
      const links = items.map((i) => String(i.link));
      for (const r of rows.filter((r) => r.status !== "published")) expect(links.some((l) => l.endsWith(`/podcasts/${r.slug}`))).toBe(false);
      expect(links.some((l) => /feed-(no-audio|scheduled)$/.test(l))).toBe(false);
      for (const item of items) {
        expect(String(item.title).length).toBeGreaterThan(0);
        expect(item.guid["#text"]).toBe(item.link);
        expect(String(item.pubDate)).toMatch(/^\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT$/);
        expect(item.enclosure["@url"]).toMatch(/^https?:\/\/.+\.wav$/);
        // The seeded files are in the media library with their size.
        expect(Number(item.enclosure["@length"])).toBeGreaterThan(1000);
        expect(item.enclosure["@type"]).toBe("audio/wav");
        expect(Number(item["itunes:duration"])).toBeGreaterThan(60);
        expect(Number(item["itunes:episode"])).toBeGreaterThan(0);
        expect(["1", "2"]).toContain(String(item["itunes:season"]));
        expect(item["itunes:image"]["@href"]).toMatch(/^https?:\/\//);
      }
      const first = items.find((i) => String(i.link).endsWith("/podcasts/tent-talk-s1e1-why-a-million-poets"))!;
      expect(first["itunes:duration"]).toBe("2538");
      expect(first["itunes:episode"]).toBe("1");
    } finally {
      setDatabaseHandle(undefined);
      await t.db.delete(podcasts).where(inArray(podcasts.id, [noAudio.id, scheduled.id]));
    }
  });

  it("serves each program's own podcast feed at /programs/:slug/feed.xml: its published episodes, its title and picture", async () => {
    const [show, hidden] = await t.db
      .insert(programs)
      .values([
        {
          title: "حكايات القوافل",
          description: "برنامج عن طرق القوافل وأهلها",
          pageSlug: "feed-caravan-tales",
          status: "published",
          imageUrl: "/uploads/caravan.jpg",
        },
        { title: "برنامج مسودة", description: "وصف", pageSlug: "feed-draft-program", status: "draft" },
      ])
      .returning({ id: programs.id });
    const base = { description: "وصف الحلقة", audioUrl: "/uploads/ep.mp3", duration: "12:30", season: "1" };
    const episodes = await t.db
      .insert(podcasts)
      .values([
        {
          ...base,
          title: "حلقة القوافل الأولى",
          pageSlug: "feed-caravan-1",
          status: "published",
          programId: show.id,
          episodeNumber: 1,
          publishDate: new Date(Date.now() - 7_200_000),
        },
        {
          ...base,
          title: "حلقة القوافل الثانية",
          pageSlug: "feed-caravan-2",
          status: "published",
          programId: show.id,
          episodeNumber: 2,
          publishDate: new Date(Date.now() - 3_600_000),
        },
        { ...base, title: "حلقة قوافل مسودة", pageSlug: "feed-caravan-draft", status: "draft", programId: show.id },
        { ...base, title: "حلقة برنامج آخر", pageSlug: "feed-other-program", status: "published", programId: hidden.id },
      ])
      .returning({ id: podcasts.id });
    setDatabaseHandle(t);
    const feedOf = (slug: string) => podcastFeedLoader({ params: { slug }, request: new Request(`http://localhost/programs/${slug}/feed.xml`) } as never);
    try {
      const res = await feedOf("feed-caravan-tales");
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
      const xml = await res.text();
      expect(validateXml(xml)).toBe(true);
      const channel = (
        parseXml(xml, { ignoreAttributes: false, attributeNamePrefix: "@", parseNodeValue: false, arrayMode: (name: string) => name === "item" }) as {
          rss: { channel: Record<string, never> };
        }
      ).rss.channel;
      expect(channel.title).toBe("بودكاست حكايات القوافل");
      expect(channel.description).toBe("برنامج عن طرق القوافل وأهلها");
      expect(channel.link).toMatch(/^https?:\/\/[^/]+\/programs\/feed-caravan-tales$/);
      expect(channel["atom:link"]["@href"]).toMatch(/\/programs\/feed-caravan-tales\/feed\.xml$/);
      expect(channel["itunes:image"]["@href"]).toMatch(/^https?:\/\/[^/]+\/uploads\/caravan\.jpg$/);
      expect(channel["itunes:category"]["@text"]).toBe("Society &amp; Culture");
      const items = channel.item as Record<string, never>[];
      // Newest first; the draft and the other program's episode are not in it.
      expect(items.map((i) => String(i.title))).toEqual(["حلقة القوافل الثانية", "حلقة القوافل الأولى"]);
      expect(items.map((i) => String(i["itunes:episode"]))).toEqual(["2", "1"]);
      expect(items[0]["itunes:duration"]).toBe("750");
      expect(items[0].enclosure["@type"]).toBe("audio/mpeg");
      // The site's feed still has every episode.
      const all = await (await podcastFeedLoader({ params: {}, request: new Request("http://localhost/podcasts/feed.xml") } as never)).text();
      expect(all).toContain("حلقة القوافل الثانية");
      expect(all).toContain("حلقة برنامج آخر");
      // A program that is not published, or none of that name: 404.
      expect((await feedOf("feed-draft-program")).status).toBe(404);
      expect((await feedOf("no-such-program")).status).toBe(404);
    } finally {
      setDatabaseHandle(undefined);
      await t.db.delete(podcasts).where(
        inArray(
          podcasts.id,
          episodes.map((e) => e.id),
        ),
      );
      await t.db.delete(programs).where(inArray(programs.id, [show.id, hidden.id]));
    }
  });
});

const urlsOf = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);

describe.each(testDatabaseKinds)("a sitemap past one file's pages on %s", (kind) => {
  let t: TestDatabase;
  // More pages than one file holds, a few more than the sections leave room for.
  const ITEMS = SITEMAP_PAGES_PER_FILE + 500;
  const call = async (loader: (args: never) => Promise<Response>, file?: string) => {
    const res = await loader({ request: new Request("http://localhost/"), params: { file }, context: {} } as never);
    return { status: res.status, type: res.headers.get("content-type"), body: await res.text() };
  };
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    setDatabaseHandle(t);
    // This throw-away database needs no search: the rows are not queued for indexing.
    await t.db.execute(sql`alter table news disable trigger news_search_write`);
    await t.db.execute(sql`
      insert into news (title, content, page_slug, status, publish_date, updated_at)
      select 'خبر ' || g, 'نص', 'bulk-' || g, 'published', now() - g * interval '1 minute', now() - g * interval '1 minute'
      from generate_series(1, ${ITEMS}) as g`);
    await t.db.execute(sql`insert into news (title, content, page_slug, status) values ('مسودة', 'نص', 'bulk-draft', 'draft')`);
  });
  afterAll(async () => {
    setDatabaseHandle(undefined);
    await t?.drop();
  });

  it("serves /sitemap.xml as an index of two files and the news sitemap; the files list every page once, in its languages", async () => {
    expect(await countSitemapEntries(t.db)).toBe(ITEMS);
    const index = await call(sitemapLoader);
    expect(index.status).toBe(200);
    expect(index.type).toContain("application/xml");
    expect(index.body).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const files = urlsOf(index.body);
    expect(files).toEqual(["http://localhost:3000/sitemaps/1.xml", "http://localhost:3000/sitemaps/2.xml", "http://localhost:3000/sitemaps/news.xml"]);

    const first = await call(sitemapFileLoader, "1.xml");
    const second = await call(sitemapFileLoader, "2.xml");
    expect(first.body).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">');
    const [a, b] = [urlsOf(first.body), urlsOf(second.body)];
    // The sections open the first file in the three languages; the bulk items have no French title: Arabic only.
    const sections = SITEMAP_SECTIONS.length * 3;
    expect(a).toHaveLength(sections + SITEMAP_PAGES_PER_FILE - SITEMAP_SECTIONS.length);
    expect(a.length).toBeLessThanOrEqual(SITEMAP_MAX_URLS);
    expect(b).toHaveLength(ITEMS - (SITEMAP_PAGES_PER_FILE - SITEMAP_SECTIONS.length));
    expect(a.slice(0, 3)).toEqual(["http://localhost:3000/", "http://localhost:3000/fr", "http://localhost:3000/en"]);
    const items = [...a.slice(sections), ...b];
    expect(new Set(items).size).toBe(ITEMS);
    expect(items[0]).toBe("http://localhost:3000/news/bulk-1");
    expect(items.at(-1)).toBe(`http://localhost:3000/news/bulk-${ITEMS}`);
    expect(items).not.toContain("http://localhost:3000/news/bulk-draft");
    expect(items.some((u) => /\/(fr|en)\/news\//.test(u))).toBe(false);
  });

  it("lists at most 1,000 URLs in the news sitemap, the newest", async () => {
    const res = await call(sitemapFileLoader, "news.xml");
    expect(res.status).toBe(200);
    expect(validateXml(res.body)).toBe(true);
    const urls = urlsOf(res.body);
    expect(urls).toHaveLength(NEWS_SITEMAP_MAX_URLS);
    expect(urls[0]).toBe("http://localhost:3000/news/bulk-1");
    expect(urls.at(-1)).toBe(`http://localhost:3000/news/bulk-${NEWS_SITEMAP_MAX_URLS}`);
  });

  it("answers 404 for a file past the last and for names that are not a file number", async () => {
    for (const file of ["3.xml", "0.xml", "01.xml", "1", "x.xml", "1.xml.gz"]) expect((await call(sitemapFileLoader, file)).status, file).toBe(404);
  });
});

describe("the site files", () => {
  it("name every public section, the video library included (it is outside the header's ten)", () => {
    for (const path of ["/", "/news", "/videos", "/media", "/opinion", "/privacy"]) expect(SITEMAP_SECTIONS).toContain(path);
    expect(new Set(SITEMAP_SECTIONS).size).toBe(SITEMAP_SECTIONS.length);
  });

  it("split URLs into files of at most the limit, the sections first", () => {
    expect(sitemapFiles(10, 0, 50_000).files).toBe(1);
    expect(sitemapFiles(10, 49_990, 50_000).files).toBe(1);
    const plan = sitemapFiles(10, 60_000, 50_000);
    expect(plan.files).toBe(2);
    expect(plan.itemWindow(1)).toEqual({ offset: 0, limit: 49_990 });
    expect(plan.itemWindow(2)).toEqual({ offset: 49_990, limit: 50_000 });
    expect(plan.itemWindow(3)).toBeNull();
    expect(plan.itemWindow(0)).toBeNull();
    expect(sitemapFiles(10, 200_000, 50_000).files).toBe(5);
  });

  it("builds a sitemap index with absolute file URLs, the Google News sitemap last", () => {
    const xml = sitemapIndexXml("https://sahara.example/", 2);
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
        "  <sitemap><loc>https://sahara.example/sitemaps/1.xml</loc></sitemap>\n  <sitemap><loc>https://sahara.example/sitemaps/2.xml</loc></sitemap>\n" +
        "  <sitemap><loc>https://sahara.example/sitemaps/news.xml</loc></sitemap>\n" +
        "</sitemapindex>\n",
    );
  });

  it("escapes XML and drops characters XML cannot carry", () => {
    expect(escapeXml(`<a href="x">&'</a>\u0001\uFFFE`)).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;");
  });

  it("builds a sitemap with absolute URLs, lastmod, and each page in its languages with reciprocal alternates", () => {
    const modified = new Date("2026-01-02T03:04:05Z");
    const xml = sitemapXml(
      "https://sahara.example/",
      ["/", "/news"],
      [
        { path: "/news/a-b", lastModified: modified, languages: ["ar", "fr"] },
        { path: "/news/c", lastModified: modified, languages: ["ar"] },
      ],
    );
    expect(validateXml(xml)).toBe(true);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">');
    const home =
      '<xhtml:link rel="alternate" hreflang="ar" href="https://sahara.example/"/><xhtml:link rel="alternate" hreflang="fr" href="https://sahara.example/fr"/>' +
      '<xhtml:link rel="alternate" hreflang="en" href="https://sahara.example/en"/><xhtml:link rel="alternate" hreflang="x-default" href="https://sahara.example/"/>';
    for (const loc of ["https://sahara.example/", "https://sahara.example/fr", "https://sahara.example/en"])
      expect(xml).toContain(`<url><loc>${loc}</loc>${home}</url>`);
    const item =
      '<lastmod>2026-01-02T03:04:05.000Z</lastmod><xhtml:link rel="alternate" hreflang="ar" href="https://sahara.example/news/a-b"/>' +
      '<xhtml:link rel="alternate" hreflang="fr" href="https://sahara.example/fr/news/a-b"/><xhtml:link rel="alternate" hreflang="x-default" href="https://sahara.example/news/a-b"/></url>';
    expect(xml).toContain(`<url><loc>https://sahara.example/news/a-b</loc>${item}`);
    expect(xml).toContain(`<url><loc>https://sahara.example/fr/news/a-b</loc>${item}`);
    // No French or English text of its own: only the Arabic address, with no alternates.
    expect(xml).toContain("<url><loc>https://sahara.example/news/c</loc><lastmod>2026-01-02T03:04:05.000Z</lastmod></url>");
    expect(xml).not.toContain("/en/news/");
    expect(xml).not.toContain("/fr/news/c");
  });

  it("keeps a file of pages with the longest slugs under 50 MB and 50,000 URLs", () => {
    const slug = "ص".repeat(120);
    const entries = Array.from({ length: SITEMAP_PAGES_PER_FILE }, (_, i) => ({
      path: `/coverage/${encodeURIComponent(`${slug}${i}`)}`,
      lastModified: new Date(),
      languages: ["ar", "fr", "en"] as const,
    }));
    const xml = sitemapXml("https://www.sahara-media.example", SITEMAP_SECTIONS, entries);
    expect(Buffer.byteLength(xml)).toBeLessThan(50 * 1024 * 1024);
    expect(urlsOf(xml).length).toBeLessThanOrEqual(SITEMAP_MAX_URLS);
  });

  it("allows everything in robots.txt but the back-office and sign-in in every language, and names both sitemaps", () => {
    const txt = robotsTxt("https://sahara.example");
    expect(txt).toMatch(/^User-agent: \*$/m);
    expect(txt).toMatch(/^Disallow: \/admin$/m);
    for (const path of ["/auth", "/fr/auth", "/en/auth"]) expect(txt).toContain(`\nDisallow: ${path}\n`);
    expect(txt).toMatch(/^Sitemap: https:\/\/sahara\.example\/sitemap\.xml$/m);
    expect(txt).toMatch(/^Sitemap: https:\/\/sahara\.example\/sitemaps\/news\.xml$/m);
  });

  it("builds the Google News sitemap: a URL per language with a text, its publication's name and language, date and title", () => {
    const xml = newsSitemapXml("https://sahara.example", { ar: "صحراء ميديا", fr: "Sahara Média", en: "Sahara Média" }, [
      { path: "/news/x", publishDate: new Date("2026-03-04T05:06:07Z"), titles: { ar: "عنوان & خبر", fr: "Titre" } },
    ]);
    expect(validateXml(xml)).toBe(true);
    expect(xml).toContain('xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"');
    expect(urlsOf(xml)).toEqual(["https://sahara.example/news/x", "https://sahara.example/fr/news/x"]);
    expect(xml).toContain(
      "<loc>https://sahara.example/fr/news/x</loc><news:news><news:publication><news:name>Sahara Média</news:name><news:language>fr</news:language></news:publication>" +
        "<news:publication_date>2026-03-04T05:06:07.000Z</news:publication_date><news:title>Titre</news:title></news:news>",
    );
    expect(xml).toContain("<news:name>صحراء ميديا</news:name><news:language>ar</news:language>");
    expect(xml).toContain("<news:title>عنوان &amp; خبر</news:title>");
  });

  it("feeds a language its own addresses and its titles where written", () => {
    const item = {
      type: "news" as const,
      path: "/news/x",
      title: "عنوان",
      titleFr: "Titre",
      excerpt: "ملخص",
      excerptFr: null,
      author: null,
      category: null,
      publishDate: new Date(),
    };
    const fr = rssXml(
      { title: "Sahara Média", description: "d", language: "fr", publicUrl: "https://sahara.example", path: "/tags/t/feed.xml", link: "/tags/t" },
      [item],
    );
    expect(fr).toContain("<language>fr</language>");
    expect(fr).toContain("<link>https://sahara.example/fr/tags/t</link>");
    expect(fr).toContain('<atom:link href="https://sahara.example/fr/tags/t/feed.xml" rel="self"');
    expect(fr).toContain("<title>Titre</title>");
    expect(fr).toContain("<link>https://sahara.example/fr/news/x</link>");
    // No French summary: the Arabic one.
    expect(fr).toContain("<description>ملخص</description>");
    const en = rssXml({ title: "Sahara Média", description: "d", language: "en", publicUrl: "https://sahara.example" }, [item]);
    expect(en).toContain("<link>https://sahara.example/en</link>");
    expect(en).toContain('<atom:link href="https://sahara.example/en/rss.xml" rel="self"');
    expect(en).toContain("<title>عنوان</title>");
    expect(en).toContain('<guid isPermaLink="true">https://sahara.example/en/news/x</guid>');
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

  it("builds the podcast feed with an honest enclosure size, escaped text and durations in seconds", () => {
    const channel = {
      title: "بودكاست <صحراء>",
      description: "d",
      language: "ar" as const,
      publicUrl: "https://sahara.example",
      path: "/podcasts/feed.xml",
      link: "/programs",
      author: "صحراء ميديا",
      owner: null,
      image: "/social/cover.svg",
      category: "Society & Culture",
      explicit: false,
    };
    const episode = {
      path: "/podcasts/x",
      title: "حلقة & ضيف",
      description: "وصف",
      author: null,
      episodeNumber: null,
      season: "خاص",
      duration: "1:02:03",
      imageUrl: null,
      audioUrl: "https://cdn.example/a.m4a",
      audioBytes: null,
      audioMime: null,
      publishDate: new Date("2026-03-04T05:06:07Z"),
    };
    const xml = podcastRssXml(channel, [episode]);
    expect(validateXml(xml)).toBe(true);
    expect(xml).toContain("<title>بودكاست &lt;صحراء&gt;</title>");
    expect(xml).toContain('<itunes:category text="Society &amp; Culture"/>');
    expect(xml).toContain('<atom:link href="https://sahara.example/podcasts/feed.xml" rel="self" type="application/rss+xml"/>');
    expect(xml).toContain('<enclosure url="https://cdn.example/a.m4a" length="0" type="audio/x-m4a"/>');
    expect(xml).toContain("<itunes:duration>3723</itunes:duration>");
    expect(xml).not.toContain("<itunes:episode>");
    expect(xml).not.toContain("<itunes:season>");
    expect(xml).not.toContain("<itunes:owner>");
    expect(xml.endsWith("</rss>\n")).toBe(true);
    expect([durationSeconds("42:18"), durationSeconds("90"), durationSeconds(""), durationSeconds("ساعة"), durationSeconds(null)]).toEqual([
      2538,
      90,
      null,
      null,
      null,
    ]);
  });
});
