/**
 * The archive by date and the lists beyond page 20 (issue 42, decision 0144) on the built server, with 260 news items
 * of March 2024 added to the demo: the archive's year, month and day pages in Arabic and French, their counts, keyset
 * pages walked by their `rel="next"` links to the end, their 404s and 400s; the footer's and a detail page's date
 * links in Chromium; /news followed past its 20th page by its older links to the oldest item. A renamed or merged
 * tag's 301 is in tests/e2e/newsroom/tags.e2e.test.ts.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localizedPath } from "#domain/addresses.ts";
import { openDatabase } from "#server/db/client.server.ts";
import { news } from "#server/db/schema.server.ts";
import { E2E_SECRET } from "#tests/e2e/auth/support.ts";
import { DESKTOP, hasChromium, launchBrowser, newPage } from "#tests/e2e/support/browser.ts";
import { newDataDir, startServer, type RunningServer } from "#tests/e2e/support/server.ts";

const ADDED = 260;
/** Added item i: published on 10–14 March 2024 (52 a day), created long before the demo's news (the listing's oldest). */
const added = (i: number) => ({
  title: `خبر من الأرشيف رقم ${i}`,
  titleFr: `Nouvelle d’archive numéro ${i}`,
  content: "نص الخبر",
  excerpt: "مقتطف خبر من الأرشيف",
  pageSlug: `archive-news-${i}`,
  status: "published",
  publishDate: new Date(Date.UTC(2024, 2, 10 + (i % 5), 8, Math.floor(i / 5))),
  createdAt: new Date(Date.UTC(2020, 0, 1, 0, i)),
});

const attr = (html: string, re: RegExp) => re.exec(html)?.[1]?.replace(/&amp;/g, "&") ?? null;
const linkRel = (html: string, rel: string) => attr(html, new RegExp(`<link[^>]*rel="${rel}"[^>]*href="([^"]+)"`));
/** The news cards' item paths, language prefix left out (the links are the page's language's). */
const cardPaths = (html: string) => [...html.matchAll(/data-testid="news-card"[\s\S]*?href="(?:\/fr)?(\/news\/[^"?#]+)"/g)].map((m) => m[1]);
const archiveSlugs = (html: string) => [...html.matchAll(/href="(?:\/fr)?\/news\/(archive-news-\d+)"/g)].map((m) => m[1]);

describe("the archive and the news beyond page 20", () => {
  let server: RunningServer;
  let base = "";
  let dataDir = "";

  beforeAll(async () => {
    dataDir = newDataDir({ seeded: true });
    const handle = openDatabase({ dataDir });
    try {
      await handle.migrate();
      await handle.db.insert(news).values(Array.from({ length: ADDED }, (_, i) => added(i)) as never);
    } finally {
      await handle.close();
    }
    server = await startServer({ BETTER_AUTH_SECRET: E2E_SECRET, DATA_DIR: dataDir });
    base = server.url;
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("lists a month by day and type, in Arabic and in French, walked to its end by rel=next", async () => {
    for (const lang of ["ar", "fr"] as const) {
      const path = localizedPath(lang, "/archive/2024/03");
      const res = await fetch(base + path);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain(`<html lang="${lang}"`);
      expect(html).toContain(lang === "ar" ? "أرشيف مارس 2024" : "Archives : mars 2024");
      // Its days with their counts, each a link in the page's language.
      const days = [...html.matchAll(/href="([^"]+)"[^>]*data-testid="archive-unit" data-count="(\d+)"/g)].map((m) => [m[1], Number(m[2])]);
      for (const d of [10, 11, 12, 13, 14]) expect(days).toContainEqual([localizedPath(lang, `/archive/2024/03/${d}`), 52]);
      expect(html).toContain(`data-testid="archive-group" data-type="news"`);
      expect(html).toContain(lang === "ar" ? ">أخبار</h2>" : ">Actualités</h2>");
      // Every page by its rel=next, each item once, oldest first; the last page has no next.
      const seen: string[] = archiveSlugs(html);
      let next = linkRel(html, "next");
      let pages = 1;
      while (next) {
        expect(next.startsWith(`${path}?after=`)).toBe(true);
        const page = await fetch(base + next);
        expect(page.status).toBe(200);
        const text = await page.text();
        expect(linkRel(text, "prev")).toMatch(/\?before=/);
        seen.push(...archiveSlugs(text));
        next = linkRel(text, "next");
        pages++;
      }
      const total = days.reduce((sum, [, n]) => sum + Number(n), 0);
      expect(pages).toBe(Math.ceil(total / 30));
      expect(new Set(seen).size).toBe(ADDED);
      // Oldest first: day 10's first minutes.
      expect(seen.slice(0, 3)).toEqual(["archive-news-0", "archive-news-5", "archive-news-10"]);
    }
  });

  it("names a year's months, shows an empty day, and answers 404 for what is not a past date, 400 for a bad cursor", async () => {
    const year = await (await fetch(`${base}/fr/archive/2024`)).text();
    expect(year).toMatch(/href="\/fr\/archive\/2024\/03"[^>]*data-count="26\d"/);
    const empty = await fetch(`${base}/archive/2024/03/20`);
    expect(empty.status).toBe(200);
    expect(await empty.text()).toContain("لم يُنشر شيء في هذه الفترة.");
    const nextYear = new Date().getUTCFullYear() + 1;
    for (const path of ["/archive/2024/02/30", "/archive/2024/13", "/archive/1200", `/archive/${nextYear}`, "/archive/24", "/fr/archive/2024/3"]) {
      expect([path, (await fetch(base + path)).status]).toEqual([path, 404]);
    }
    for (const query of ["after=nope", "after=eyJ4IjoxfQ", "before=W10"]) {
      expect([query, (await fetch(`${base}/archive/2024/03?${query}`)).status]).toEqual([query, 400]);
    }
  });

  it("follows /news past its 20th page to the oldest item, by links only", async () => {
    const total = ((await (await fetch(`${base}/api/news?page=1`)).json()) as { total: number }).total;
    const twenty = await (await fetch(`${base}/fr/news?page=20`)).text();
    expect(linkRel(twenty, "prev")).toBe("/fr/news?page=19");
    let next = linkRel(twenty, "next");
    expect(next).toMatch(/^\/fr\/news\?before=/);
    const shown = new Set(cardPaths(twenty));
    expect(shown.size).toBe(240);
    let last = "";
    while (next) {
      const res = await fetch(base + next);
      expect(res.status).toBe(200);
      last = await res.text();
      // The visible link says the same as the head's.
      const older = attr(last, /href="([^"]+)"[^>]*data-testid="news-older"/);
      expect(older).toBe(linkRel(last, "next"));
      for (const path of cardPaths(last)) {
        expect(shown.has(path), path).toBe(false);
        shown.add(path);
      }
      next = older;
    }
    expect(shown.size).toBe(total);
    expect(cardPaths(last)).toContain("/news/archive-news-0");
    // A newer link leads back.
    expect(attr(last, /href="([^"]+)"[^>]*data-testid="news-newer"/)).toMatch(/^\/fr\/news\?after=/);
    expect((await fetch(`${base}/news?before=garbage`)).status).toBe(400);
    expect((await fetch(`${base}/news?page=21`)).status).toBe(400);
  });

  it.skipIf(!hasChromium)("is reached from the footer and from a story's date", async () => {
    const browser = await launchBrowser();
    try {
      const { page, context } = await newPage(browser, { viewport: DESKTOP, javaScriptEnabled: false });
      await page.goto(`${base}/fr/news/archive-news-7`);
      await page.locator(`footer a[href="/fr/archive/${new Date().getUTCFullYear()}"]`).waitFor();
      await page.getByTestId("detail-date-link").click();
      await page.waitForURL((url) => url.pathname === "/fr/archive/2024/03/12");
      expect(await page.locator('[data-testid="archive-item"] a[href="/fr/news/archive-news-7"]').count()).toBe(1);
      await page.getByTestId("archive-up").click();
      await page.waitForURL((url) => url.pathname === "/fr/archive/2024/03");
      await page.goto(`${base}/news/archive-news-7`);
      await page.getByTestId("detail-date-link").click();
      await page.waitForURL((url) => url.pathname === "/archive/2024/03/12");
      expect(await page.locator("html").getAttribute("lang")).toBe("ar");
      await context.close();
    } finally {
      await browser.close();
    }
  });
});
