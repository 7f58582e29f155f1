/**
 * The machine-readable site files (sitemap.xml, rss.xml, the podcast feed, robots.txt), the public JSON endpoints, and the
 * human pages beside them (/sitemap, /privacy, /terms), against the seeded server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import type { Browser } from "playwright-core";
import { hasChromium, launchBrowser, newPage } from "#tests/e2e/support/browser.ts";
import { NEWS } from "#server/db/seed-data/news.ts";
import { DEMO_ARTICLES } from "#server/db/seed.server.ts";
import { PROGRAMS } from "#server/db/seed-data/programs.ts";
import { PODCASTS } from "#server/db/seed-data/podcasts.ts";
import { parse as parseXml, validate as validateXml } from "fast-xml-parser";
import { localizedPath } from "#domain/addresses.ts";
import type { Language } from "#domain/language.ts";

const base = sharedServer().baseUrl;
const published = (items: { slug: string; draft?: boolean }[]) => items.filter((i) => !i.draft).map((i) => i.slug);
const drafts = (items: { slug: string; draft?: boolean }[]) => items.filter((i) => i.draft).map((i) => i.slug);
const DRAFTS = [...drafts(NEWS), ...drafts(DEMO_ARTICLES), ...drafts(PROGRAMS), ...drafts(PODCASTS)];

async function text(path: string) {
  const res = await fetch(base + path);
  return { status: res.status, type: res.headers.get("content-type") ?? "", cache: res.headers.get("cache-control"), body: await res.text() };
}

describe("sitemap.xml, rss.xml and robots.txt", () => {
  it("has drafts in the seed to prove the filter", () => {
    expect(DRAFTS.length).toBeGreaterThanOrEqual(4);
  });

  it("lists sections and every published item with lastmod, and no draft, in the sitemap's first file", async () => {
    const index = await text("/sitemap.xml");
    expect(index.status).toBe(200);
    expect(index.type).toContain("application/xml");
    expect(index.body).toContain(`<sitemap><loc>${base}/sitemaps/1.xml</loc></sitemap>`);
    const { status, type, body } = await text("/sitemaps/1.xml");
    expect(status).toBe(200);
    expect(type).toContain("application/xml");
    expect(body.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(body).toContain(`<url><loc>${base}/</loc><xhtml:link`);
    expect(body).toContain(`<url><loc>${base}/fr</loc><xhtml:link`);
    expect(body).toContain(`<loc>${base}/contact</loc>`);
    expect(body).toContain(`<loc>${base}/en/contact</loc>`);
    expect(body).toContain(`<loc>${base}/news/${published(NEWS)[0]}</loc><lastmod>`);
    expect(body).toContain(`<loc>${base}/articles/${published(DEMO_ARTICLES)[0]}</loc>`);
    expect(body).toContain(`<loc>${base}/programs/${published(PROGRAMS)[0]}</loc>`);
    expect(body).toContain(`<loc>${base}/podcasts/${published(PODCASTS)[0]}</loc>`);
    expect(body).toMatch(new RegExp(`<loc>${base}/coverage/[a-z0-9-]+</loc>`));
    for (const slug of DRAFTS) expect(body).not.toContain(`/${slug}<`);
    for (const lastmod of body.match(/<lastmod>[^<]+<\/lastmod>/g) ?? []) expect(lastmod).toMatch(/<lastmod>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z<\/lastmod>/);
  });

  it("serves the latest 30 news items and articles as RSS 2.0 with absolute links, and no draft", async () => {
    const { status, type, body } = await text("/rss.xml");
    expect(status).toBe(200);
    expect(type).toContain("application/rss+xml");
    expect(body).toContain('<rss version="2.0"');
    const items = body.match(/<item>[\s\S]*?<\/item>/g) ?? [];
    expect(items).toHaveLength(30);
    for (const item of items) {
      expect(item).toMatch(new RegExp(`<link>${base}/(news|articles)/[a-z0-9-]+</link>`));
      expect(item).toMatch(/<pubDate>\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT<\/pubDate>/);
    }
    expect(items.some((i) => i.includes("/news/"))).toBe(true);
    expect(items.some((i) => i.includes("/articles/"))).toBe(true);
    for (const slug of DRAFTS) expect(body).not.toContain(`/${slug}<`);
    const dates = items.map((i) => Date.parse(/<pubDate>([^<]+)</.exec(i)![1]));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect(body).toContain(`<atom:link href="${base}/rss.xml" rel="self"`);
    expect(body).toContain("<language>ar</language>");
  });

  it.each([
    ["fr", "/fr/rss.xml"],
    ["en", "/en/rss.xml"],
  ])("serves the %s feed at %s: the same items at that language's addresses", async (lang, path) => {
    const { status, type, body } = await text(path);
    expect(status).toBe(200);
    expect(type).toContain("application/rss+xml");
    expect(validateXml(body)).toBe(true);
    expect(body).toContain(`<language>${lang}</language>`);
    expect(body).toContain(`<link>${base}/${lang}</link>`);
    expect(body).toContain(`<atom:link href="${base}/${lang}/rss.xml" rel="self"`);
    const items = body.match(/<item>[\s\S]*?<\/item>/g) ?? [];
    expect(items).toHaveLength(30);
    for (const item of items) expect(item).toMatch(new RegExp(`<link>${base}/${lang}/(news|articles)/[a-z0-9-]+</link>`));
    const arabic = (await text("/rss.xml")).body;
    expect(arabic).not.toContain(`${base}/${lang}/`);
    const french = NEWS.find((n) => !n.draft && n.titleFr)!;
    if (lang === "fr" && body.includes(`/fr/news/${french.slug}<`)) expect(body).toContain(`<title>${french.titleFr!.replace(/'/g, "&apos;")}</title>`);
  });

  it.each(["/fr/podcasts/feed.xml", "/en/tags/does-not-exist/feed.xml"])("serves the other languages' podcast and tag feeds at %s", async (path) => {
    const { status, body } = await text(path);
    if (path.includes("does-not-exist")) return expect(status).toBe(404);
    expect(status).toBe(200);
    expect(body).toContain("<language>fr</language>");
    expect(body).toContain(`<atom:link href="${base}/fr/podcasts/feed.xml" rel="self"`);
    for (const link of body.match(/<link>[^<]+<\/link>/g) ?? []) expect(link).toMatch(new RegExp(`^<link>${base}/fr/`));
  });

  it("serves /podcasts/feed.xml with what Apple Podcasts and Spotify require, every published episode and no draft", async () => {
    const { status, type, cache, body } = await text("/podcasts/feed.xml");
    expect(status).toBe(200);
    expect(type).toContain("application/rss+xml");
    expect(cache).toBe("public, max-age=300, s-maxage=60, stale-while-revalidate=600, stale-if-error=86400");
    expect(validateXml(body)).toBe(true);
    const doc = parseXml(body, { ignoreAttributes: false, attributeNamePrefix: "@", parseNodeValue: false, arrayMode: (name: string) => name === "item" }) as {
      rss: Record<string, unknown>;
    };
    const channel = doc.rss.channel as Record<string, never>;
    expect(doc.rss["@xmlns:itunes"]).toBe("http://www.itunes.com/dtds/podcast-1.0.dtd");
    for (const field of ["title", "description", "language", "link", "itunes:author", "itunes:explicit"])
      expect(String(channel[field] ?? "").length, field).toBeGreaterThan(0);
    expect(channel.language).toBe("ar");
    expect(channel["itunes:image"]["@href"]).toMatch(new RegExp(`^${base}/`));
    expect(channel["itunes:category"]["@text"]).toBeTruthy();
    expect(channel["itunes:explicit"]).toBe("false");
    const items = channel.item as Record<string, never>[];
    expect(items.map((i) => String(i.link)).sort()).toEqual(
      published(PODCASTS)
        .map((slug) => `${base}/podcasts/${slug}`)
        .sort(),
    );
    for (const slug of DRAFTS) expect(body).not.toContain(`/${slug}<`);
    for (const item of items) {
      expect(String(item.title).length).toBeGreaterThan(0);
      expect(item.guid["#text"]).toBe(item.link);
      expect(String(item.pubDate)).toMatch(/^\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT$/);
      expect(item.enclosure["@url"]).toMatch(new RegExp(`^${base}/.+\\.wav$`));
      expect(Number(item.enclosure["@length"])).toBeGreaterThan(1000);
      expect(item.enclosure["@type"]).toMatch(/^audio\//);
      expect(Number(item["itunes:duration"])).toBeGreaterThan(0);
      expect(Number(item["itunes:episode"])).toBeGreaterThan(0);
      expect(Number(item["itunes:season"])).toBeGreaterThan(0);
      expect(item["itunes:image"]["@href"]).toMatch(new RegExp(`^${base}/`));
    }
    // The enclosure is the stored file: its length is the bytes the server sends for it.
    const audio = await fetch(items[0].enclosure["@url"]);
    expect(audio.status).toBe(200);
    expect((await audio.arrayBuffer()).byteLength).toBe(Number(items[0].enclosure["@length"]));
  });

  it("names the podcast feed on every podcast page with <link rel=alternate>, and not on a news page", async () => {
    const alternate = new RegExp(`<link rel="alternate" type="application/rss\\+xml" [^>]*href="${base}/podcasts/feed\\.xml"`);
    expect((await text(`/podcasts/${published(PODCASTS)[0]}`)).body).toMatch(alternate);
    expect((await text(`/news/${published(NEWS)[0]}`)).body).not.toContain("/podcasts/feed.xml");
  });

  it("allows everything but /admin and /auth in robots.txt and names both sitemaps", async () => {
    const { status, type, body } = await text("/robots.txt");
    expect(status).toBe(200);
    expect(type).toContain("text/plain");
    expect(body).toMatch(/^User-agent: \*$/m);
    expect(body).toMatch(/^Allow: \/$/m);
    expect(body).toMatch(/^Disallow: \/admin$/m);
    expect(body).toMatch(/^Disallow: \/auth$/m);
    expect(body).toMatch(/^Disallow: \/fr\/auth$/m);
    expect(body).toContain(`Sitemap: ${base}/sitemap.xml`);
    expect(body).toContain(`Sitemap: ${base}/sitemaps/news.xml`);
  });
});

describe("the public JSON endpoints", () => {
  it.each([
    "/api/articles?category=culture",
    "/api/articles?category=opinion",
    "/api/categories",
    "/api/categories?type=culture",
    "/api/literature",
    "/api/literature-types",
  ])("%s answers JSON with a short public cache", async (path) => {
    const res = await fetch(base + path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("cache-control")).toBe("public, max-age=60, s-maxage=60, stale-while-revalidate=600, stale-if-error=86400");
    const body = (await res.json()) as Partial<Record<"articles" | "categories" | "items" | "types", unknown>>;
    const list = body.articles ?? body.categories ?? body.items ?? body.types;
    expect(Array.isArray(list) && list.length > 0).toBe(true);
    expect(JSON.stringify(body)).not.toMatch(/-draft"/);
  });

  it.each([
    "/api/articles?category=nope",
    "/api/literature?type=%3Cscript%3E",
    "/api/categories?type=%3Cscript%3E",
    "/api/articles?limit=1000",
    "/api/articles?hack=1",
  ])("%s answers 400 with a JSON error", async (path) => {
    const res = await fetch(base + path);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toMatch(/^[A-Z_]+$/);
    expect(body.error.message.length).toBeGreaterThan(10);
    expect(body.error.message).not.toContain("<script>");
  });
});

describe("the human pages", () => {
  it("lists every section and the latest 10 news items and articles on /sitemap", async () => {
    const { status, body } = await text("/sitemap");
    expect(status).toBe(200);
    for (const path of ["/news", "/culture", "/politics", "/literature", "/emirates", "/programs", "/media", "/opinion", "/contact", "/privacy", "/terms"]) {
      expect(body).toContain(`href="${path}"`);
    }
    const news = /data-testid="sitemap-news"[\s\S]*?<\/section>/.exec(body)![0];
    expect(news.match(/<li/g)).toHaveLength(10);
    const articles = /data-testid="sitemap-articles"[\s\S]*?<\/section>/.exec(body)![0];
    expect(articles.match(/<li/g)).toHaveLength(10);
    for (const slug of DRAFTS) expect(body).not.toContain(`/${slug}"`);
  });

  it.each(["privacy", "terms"])("/%s is real content in Arabic, French and English", async (page) => {
    for (const [lang, title] of [
      ["ar", page === "privacy" ? "سياسة الخصوصية" : "شروط الاستخدام"],
      ["fr", page === "privacy" ? "Politique de confidentialité" : "Conditions d'utilisation"],
      ["en", page === "privacy" ? "Privacy policy" : "Terms of use"],
    ]) {
      const res = await fetch(base + localizedPath(lang as Language, `/${page}`));
      expect(res.status).toBe(200);
      const html = /data-testid="legal-[a-z]+"[\s\S]*?<\/article>/.exec(await res.text())?.[0] ?? "";
      expect(html).toContain(`<h1>${title}</h1>`);
      expect(html).toContain("contact@sahara-media.mr");
      expect(html).not.toContain("{{");
    }
  });
});

describe.skipIf(!hasChromium)("well-formed XML, as a browser's parser reads it", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it("/podcasts/feed.xml parses without error, with the iTunes tags in their namespace", async () => {
    const { page, context } = await newPage(browser);
    await page.goto(`${base}/robots.txt`);
    const xml = (await text("/podcasts/feed.xml")).body;
    const result = await page.evaluate((source) => {
      const doc = new DOMParser().parseFromString(source, "application/xml");
      const ns = "http://www.itunes.com/dtds/podcast-1.0.dtd";
      const items = [...doc.getElementsByTagName("item")];
      return {
        error: doc.getElementsByTagName("parsererror").length > 0,
        root: doc.documentElement.nodeName,
        image: doc.querySelector("channel")!.getElementsByTagNameNS(ns, "image")[0]?.getAttribute("href"),
        durations: items.map((i) => i.getElementsByTagNameNS(ns, "duration")[0]?.textContent),
        enclosures: items.map((i) => i.getElementsByTagName("enclosure")[0]?.getAttribute("length")),
      };
    }, xml);
    expect(result.error).toBe(false);
    expect(result.root).toBe("rss");
    expect(result.image).toMatch(/^https?:\/\//);
    expect(result.durations.length).toBe(published(PODCASTS).length);
    for (const d of result.durations) expect(d).toMatch(/^\d+$/);
    for (const l of result.enclosures) expect(Number(l)).toBeGreaterThan(0);
    await context.close();
  });

  it.each(["/sitemaps/1.xml", "/sitemaps/news.xml", "/rss.xml", "/fr/rss.xml"])("%s parses without error", async (path) => {
    const { page, context } = await newPage(browser);
    await page.goto(`${base}/robots.txt`);
    const xml = (await text(path)).body;
    const result = await page.evaluate((source) => {
      const doc = new DOMParser().parseFromString(source, "application/xml");
      return {
        error: doc.getElementsByTagName("parsererror").length > 0,
        root: doc.documentElement.nodeName,
        count: doc.getElementsByTagName("url").length + doc.getElementsByTagName("item").length,
      };
    }, xml);
    expect(result.error).toBe(false);
    expect(result.root).toBe(path.endsWith("rss.xml") ? "rss" : "urlset");
    if (!path.endsWith("news.xml")) expect(result.count).toBeGreaterThan(20);
    await context.close();
  });
});
