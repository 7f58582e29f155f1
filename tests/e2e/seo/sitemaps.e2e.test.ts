/**
 * The sitemaps as a crawler reads them (issue 42, docs/decisions/0143-language-addresses.md): the index, every file
 * it names, each page in its languages with reciprocal hreflang alternates, each URL a page in the language it is
 * listed as; and the Google News sitemap, which lists what was published a minute ago and not what is 49 hours old.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { parse as parseXml, validate as validateXml } from "fast-xml-parser";
import { openDatabase } from "#server/db/client.server.ts";
import { languageOfAddress } from "#domain/addresses.ts";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import { startServer, type RunningServer } from "#tests/e2e/support/server.ts";
import { createScratchDatabase } from "#tests/helpers/db.ts";
import { tcpAnswers } from "#tests/helpers/services.ts";

const base = sharedServer().baseUrl;

type Link = { "@rel": string; "@hreflang": string; "@href": string };
type Url = { loc: string; "xhtml:link"?: Link[]; "news:news"?: Record<string, unknown> };

const parse = (xml: string) =>
  parseXml(xml, {
    ignoreAttributes: false,
    attributeNamePrefix: "@",
    parseNodeValue: false,
    arrayMode: (name: string) => ["url", "sitemap", "xhtml:link"].includes(name),
  }) as { urlset?: { url?: Url[]; "@xmlns": string; "@xmlns:xhtml"?: string; "@xmlns:news"?: string }; sitemapindex?: { sitemap: { loc: string }[] } };

async function xmlAt(url: string) {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  expect(res.headers.get("content-type"), url).toContain("application/xml");
  const body = await res.text();
  expect(validateXml(body), url).toBe(true);
  return parse(body);
}

/** The language an URL is listed as: its own hreflang among its alternates, else its address's (an Arabic-only page). */
const listedLanguage = (url: Url) =>
  url["xhtml:link"]?.find((l) => l["@href"] === url.loc && l["@hreflang"] !== "x-default")?.["@hreflang"] ?? languageOfAddress(new URL(url.loc).pathname);

describe("the sitemap index and its files", () => {
  const urls: Url[] = [];
  let files: string[] = [];

  beforeAll(async () => {
    const index = await xmlAt(`${base}/sitemap.xml`);
    files = index.sitemapindex!.sitemap.map((s) => s.loc);
    for (const file of files.filter((f) => !f.endsWith("/news.xml"))) urls.push(...((await xmlAt(file)).urlset!.url ?? []));
  });

  it("names the files of pages and the Google News sitemap", () => {
    expect(files[0]).toBe(`${base}/sitemaps/1.xml`);
    expect(files).toContain(`${base}/sitemaps/news.xml`);
  });

  it("lists each page once per language it has, with alternates that name it back", () => {
    const byLoc = new Map(urls.map((u) => [u.loc, u]));
    expect(byLoc.size).toBe(urls.length);
    for (const lang of ["", "/fr", "/en"]) expect(byLoc.has(`${base}${lang || "/"}`), lang).toBe(true);
    expect([...byLoc.keys()].some((loc) => loc.startsWith(`${base}/fr/news/`))).toBe(true);
    let checked = 0;
    for (const url of urls) {
      const links = url["xhtml:link"] ?? [];
      if (!links.length) continue;
      const own = listedLanguage(url);
      expect(
        links.some((l) => l["@hreflang"] === own && l["@href"] === url.loc),
        url.loc,
      ).toBe(true);
      expect(links.find((l) => l["@hreflang"] === "x-default")?.["@href"], url.loc).toBe(links.find((l) => l["@hreflang"] === "ar")?.["@href"]);
      for (const link of links.filter((l) => l["@hreflang"] !== "x-default")) {
        const other = byLoc.get(link["@href"]);
        // Every alternate is itself listed, and names this URL in this URL's language.
        expect(other, `${url.loc} → ${link["@href"]}`).toBeDefined();
        expect(
          other!["xhtml:link"]?.some((l) => l["@hreflang"] === own && l["@href"] === url.loc),
          `${link["@href"]} ↛ ${url.loc}`,
        ).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("never lists an English item address: items have no English text", () => {
    expect(urls.some((u) => /\/en\/(news|articles|coverage|programs|podcasts|media)\//.test(u.loc))).toBe(false);
  });

  it("answers 200 at every URL listed, a page whose <html lang> is the language it is listed as", async () => {
    const queue = [...urls];
    const failures: string[] = [];
    const worker = async () => {
      for (let url = queue.shift(); url; url = queue.shift()) {
        const res = await fetch(url.loc);
        const html = await res.text();
        const lang = /<html[^>]*\slang="([^"]+)"/.exec(html)?.[1];
        if (res.status !== 200 || lang !== listedLanguage(url)) failures.push(`${url.loc}: ${res.status} lang=${lang} listed ${listedLanguage(url)}`);
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    expect(failures).toEqual([]);
  }, 600_000);
});

describe("the Google News sitemap of the seeded site", () => {
  it("is valid, announced by robots.txt, and lists news-like items with their publication in each language", async () => {
    const robots = await (await fetch(`${base}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: ${base}/sitemap.xml`);
    expect(robots).toContain(`Sitemap: ${base}/sitemaps/news.xml`);
    const doc = await xmlAt(`${base}/sitemaps/news.xml`);
    expect(doc.urlset!["@xmlns"]).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
    expect(doc.urlset!["@xmlns:news"]).toBe("http://www.google.com/schemas/sitemap-news/0.9");
    const urls = doc.urlset!.url ?? [];
    expect(urls.length).toBeLessThanOrEqual(1000);
    for (const url of urls) {
      expect(url.loc).toMatch(new RegExp(`^${base}(/fr)?/(news|articles|coverage)/`));
      const news = url["news:news"] as {
        "news:publication": { "news:name": string; "news:language": string };
        "news:publication_date": string;
        "news:title": string;
      };
      expect(news["news:publication"]["news:language"]).toBe(languageOfAddress(new URL(url.loc).pathname));
      expect(news["news:publication"]["news:name"]).toBe(news["news:publication"]["news:language"] === "ar" ? "صحراء ميديا" : "Sahara Média");
      expect(Date.now() - Date.parse(news["news:publication_date"])).toBeLessThan(48 * 3_600_000);
      expect(news["news:title"].length).toBeGreaterThan(0);
    }
  });
});

// A second process cannot write to the embedded database of a running server: the dates are set on PostgreSQL.
const DATABASE_URL = process.env.TEST_DATABASE_URL;
const postgresUp = await tcpAnswers(DATABASE_URL, 5432);
if (!postgresUp) console.warn("news sitemap dates test skipped: no PostgreSQL (set TEST_DATABASE_URL)");

describe.skipIf(!postgresUp)("the Google News sitemap over two days", () => {
  let server: RunningServer;
  let url = "";
  let dropDatabase = async () => {};

  beforeAll(async () => {
    const database = await createScratchDatabase("newsmap");
    url = database.url;
    dropDatabase = database.drop;
    const handle = openDatabase({ url });
    await handle.migrate();
    await handle.close();
    server = await startServer({ DATABASE_URL: url, SEED_DEMO: "false", BETTER_AUTH_SECRET: "newsmap-e2e-secret-5c1a7e3b9d2f4a6c8e0b1d3f5a7c9e2b" });
  });
  afterAll(async () => {
    await server?.stop();
    await dropDatabase();
  });

  it("lists an item published a minute ago in Arabic and French, and drops one published 49 hours ago", async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(
        `insert into news (title, title_fr, content, page_slug, status, publish_date) values
           ('خبر قبل دقيقة', 'Nouvelle d''il y a une minute', 'نص', 'minute-ago', 'published', now() - interval '1 minute'),
           ('خبر قديم', 'Vieille nouvelle', 'نص', 'two-days-ago', 'published', now() - interval '49 hours')`,
      );
    } finally {
      await client.end();
    }
    const doc = await xmlAt(`${server.url}/sitemaps/news.xml`);
    const urls = (doc.urlset!.url ?? []).map((u) => u.loc);
    expect(urls).toEqual([`${server.url}/news/minute-ago`, `${server.url}/fr/news/minute-ago`]);
    const french = doc.urlset!.url![1]["news:news"] as { "news:title": string; "news:publication": { "news:language": string } };
    expect(french["news:title"]).toBe("Nouvelle d&apos;il y a une minute");
    expect(french["news:publication"]["news:language"]).toBe("fr");
  });
});
