import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import type { Browser, Page } from "playwright-core";
import { DESKTOP, hasChromium, hydrated, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import { horizontalOverflow, seriousA11yViolations } from "#tests/e2e/support/a11y.ts";
import { localizedPath } from "#domain/addresses.ts";

const base = sharedServer().baseUrl;
/** The seeded article "إمارة آدرار: النخيل والقوافل وسلطة الأمراء", written with hamza and madda. */
const ARTICLE_HREF = "/articles/adrar-emirate-palms-and-caravans";
/** The same two words typed without hamza or madda, as on most phone keyboards. */
const QUERY = "امارة ادرار";
const search = (q: string, extra = "") => `${base}/search?q=${encodeURIComponent(q)}${extra}`;

describe("the search page as the server renders it", () => {
  it("finds the article written with hamza and marks the words, without any JavaScript", async () => {
    const res = await fetch(search(QUERY));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`href="${ARTICLE_HREF}"`);
    expect(html).toMatch(/<mark[^>]*>إمارة<\/mark>/);
    expect(html).toMatch(/<mark[^>]*>آدرار<\/mark>/);
    expect(html).toContain('data-testid="search-count"');
    expect(html).toMatch(/<meta name="robots" content="noindex/);
  });

  it("shows the empty state without a query and the no-result state for a word that is nowhere", async () => {
    const empty = await fetch(`${base}/search`);
    expect(empty.status).toBe(200);
    expect(await empty.text()).toContain('data-testid="search-empty"');
    const none = await fetch(search("كلمةغيرموجودةابدا"));
    expect(none.status).toBe(200);
    const html = await none.text();
    expect(html).toContain('data-testid="search-no-results"');
    expect(html).not.toContain('data-testid="search-result"');
  });

  it("answers 400 with the message for a query of 500 characters, one character, broken UTF-8 or an unknown type", async () => {
    const long = await fetch(search("ا".repeat(500)));
    expect(long.status).toBe(400);
    const html = await long.text();
    expect(html).toContain('data-testid="search-error"');
    expect(html).toContain("يجب ألا يتجاوز نص البحث 200 حرف");
    expect(html).toContain('data-testid="site-header"');
    expect(html).not.toContain('data-testid="error-screen"');

    const short = await fetch(search("ا"));
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("يجب أن يتكون نص البحث من حرفين على الأقل");

    const broken = await fetch(`${base}/search?q=%D8%A7%E0%A4%A`);
    expect(broken.status).toBe(400);
    expect(await broken.text()).toContain("نص البحث يحتوي على رموز غير صالحة");

    const type = await fetch(search("نواكشوط", "&type=media"));
    expect(type.status).toBe(400);
    expect(await type.text()).toContain('data-testid="search-error"');
  });

  it("gives the message in French to a French reader", async () => {
    const res = await fetch(search("ا".repeat(500)).replace(base, base + "/fr"));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("La recherche ne peut pas dépasser 200 caractères");
  });

  it("finds words with attached particles in bodies, and marks them in the snippet", async () => {
    const res = await fetch(search("ثقافة"));
    expect(res.status).toBe(200);
    const html = await res.text();
    const cards = html.split('data-testid="search-result"').slice(1);
    expect(cards.length).toBeGreaterThan(2);
    // Some card shows where its text has the word, with whatever particles or endings it carries there.
    const marked = [...html.matchAll(/<mark[^>]*>([^<]+)<\/mark>/g)].map((m) => m[1]);
    expect(marked.some((w) => /^(و|ف|ب|ك|ل)*(ال)?ثقاف/.test(w) && w !== "ثقافة")).toBe(true);
  });

  it("reads a misspelt word as the written one: near results under their heading, marked, and did you mean", async () => {
    const html = await (await fetch(search("موريتانبا"))).text();
    expect(html).not.toContain('data-testid="search-no-results"');
    expect(html).not.toContain('data-testid="search-group-full"');
    expect(html).toContain('data-testid="search-heading-near"');
    expect(html).toContain("نتائج قريبة");
    expect(html).toMatch(/<mark[^>]*>موريتانيا<\/mark>/);
    expect(html).toMatch(/data-testid="search-suggestion"[\s\S]*?href="\/search\?q=[^"]+"[^>]*>موريتانيا</);
  });

  it("finds a place typed in Latin letters in the Arabic texts, after the French ones, and says so in the JSON", async () => {
    const html = await (await fetch(search("Atar"))).text();
    expect(html).toContain('data-testid="search-heading-near"');
    // Marked where it is written, with whatever particle it carries there (بأطار، لأطار).
    expect(html).toMatch(/<mark[^>]*>[^<]*أطار[^<]*<\/mark>/);
    const json = (await (await fetch(`${base}/api/search?q=Atar`)).json()) as {
      results: { closeness: string; match: string }[];
      alternatives: { word: string; forms: string[]; kind: string }[];
    };
    const order = json.results.map((r) => ["full", "near", "partial"].indexOf(r.closeness));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(json.results.some((r) => r.closeness === "near")).toBe(true);
    expect(json.alternatives).toContainEqual({ word: "atar", forms: ["أطار"], kind: "latin" });
  });

  it("pages through many results", async () => {
    const first = await (await fetch(search("في"))).text();
    expect(first.split('data-testid="search-result"').length - 1).toBe(20);
    const next = /data-testid="search-next"[^>]*href="([^"]+)"|href="([^"]+)"[^>]*data-testid="search-next"/.exec(first);
    const href = (next?.[1] ?? next?.[2] ?? "").replaceAll("&amp;", "&");
    expect(href).toContain("page=2");
    const second = await fetch(base + href);
    expect(second.status).toBe(200);
    const html = await second.text();
    expect(html).toContain('rel="prev"');
    expect(html.split('data-testid="search-result"').length - 1).toBeGreaterThan(0);
    expect((await fetch(search("في", "&page=51"))).status).toBe(400);
  });

  it("answers the JSON search with the same results and the same errors", async () => {
    const res = await fetch(`${base}/api/search?q=${encodeURIComponent(QUERY)}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { page: number; hasMore: boolean; results: { url: string; match: string; title: string }[] };
    expect(body.page).toBe(1);
    expect(body.results[0]).toMatchObject({ url: ARTICLE_HREF, match: "title" });
    const bad = await fetch(`${base}/api/search?q=${encodeURIComponent("ا")}`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("QUERY_TOO_SHORT");
    expect((await fetch(`${base}/api/search?q=abc&type=media`)).status).toBe(400);
    expect((await fetch(`${base}/api/search?q=abc&sort=new`)).status).toBe(400);
    // The limits, per reader and per address, have a server of their own: tests/e2e/search/limits.e2e.test.ts.
  });

  it("filters by type", async () => {
    const html = await (await fetch(search("نواكشوط", "&type=news"))).text();
    const hrefs = [...html.matchAll(/data-testid="search-result"[\s\S]*?href="([^"]+)"/g)].map((m) => m[1]);
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(href).toMatch(/^\/news\//);
  });
});

describe.skipIf(!hasChromium)("search in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it("opens from the header button, finds the article typed without hamza and highlights it", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/");
    await hydrated(page);
    await page.getByTestId("search-button").click();
    const input = page.getByTestId("search-input");
    await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
    await input.fill(QUERY);
    await input.press("Enter");
    await page.waitForURL((url) => url.pathname === "/search" && url.searchParams.get("q") === QUERY);
    const result = page.locator(`[data-testid="search-result"]:has(a[href="${ARTICLE_HREF}"])`);
    await result.waitFor();
    expect(await result.locator("h3 mark").allTextContents()).toEqual(["إمارة", "آدرار"]);
    expect(await page.getByTestId("search-count").textContent()).toMatch(/\d/);
    expect(await page.getByTestId("search-page-input").inputValue()).toBe(QUERY);
    await result.locator(`a[href="${ARTICLE_HREF}"]`).click();
    await page.waitForURL(base + ARTICLE_HREF);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the no-result state, and a new search from the page replaces it", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: PHONE });
    await page.goto(search("كلمةغيرموجودةابدا"));
    await hydrated(page);
    await page.getByTestId("search-no-results").waitFor();
    expect(await page.getByTestId("search-result").count()).toBe(0);
    const input = page.getByTestId("search-page-input");
    await input.fill("شنقيط");
    await input.press("Enter");
    await page.getByTestId("search-result").first().waitFor();
    expect(await page.getByTestId("search-no-results").count()).toBe(0);
    expect(await page.locator('[data-testid="search-result"] mark').count()).toBeGreaterThan(0);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("works without JavaScript", async () => {
    const { page, context } = await newPage(browser, { javaScriptEnabled: false });
    await page.goto(`${base}/search`);
    await page.getByTestId("search-empty").waitFor();
    await page.getByTestId("search-page-input").fill(QUERY);
    await page.getByTestId("search-page-input").press("Enter");
    await page.waitForURL((url) => url.pathname === "/search" && url.searchParams.get("q") === QUERY);
    expect(await page.locator(`[data-testid="search-result"] a[href="${ARTICLE_HREF}"]`).count()).toBe(1);
    await context.close();
  });

  it("has no serious accessibility problems in the search page, in Arabic and in French", async () => {
    /** Violations with a node inside the search page (the shared header and footer have their own test). */
    async function inSearchPage(page: Page) {
      const violations = await seriousA11yViolations(page);
      const inside = await page.evaluate(
        (targets) => targets.map((t) => t.some((sel) => Boolean(document.querySelector(sel)?.closest('[data-testid="search-page"]')))),
        violations.map((v) => v.nodes.map((n) => n.target[0])),
      );
      return violations.filter((_, i) => inside[i]);
    }
    for (const lang of ["ar", "fr"] as const) {
      const { page, context } = await newPage(browser, { viewport: PHONE });
      for (const url of [search(QUERY), search("ا".repeat(500)), `${base}/search`, search("كلمةغيرموجودةابدا")]) {
        await page.goto(base + localizedPath(lang, url.slice(base.length)));
        await hydrated(page);
        expect(await inSearchPage(page), `${lang} ${url}`).toEqual([]);
      }
      await context.close();
    }
  });
});
