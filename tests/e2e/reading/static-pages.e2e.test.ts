/**
 * Reading pages without hydration (docs/decisions/0115-reading-pages-without-hydration.md): home, detail pages
 * without a video, the legal pages and the sitemap are HTML plus the one reading script — no route modules, no
 * loader data, no translation file — within the article page's 20 KB budget of JavaScript (files plus inline
 * scripts, gzip); a detail page with a video adds the player's script (decision 0132). In Chromium the script does on an
 * article what React does elsewhere: the header's search field, Escape on the menu, share with its toast.
 */
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import { hasChromium, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import ar from "#domain/locales/ar/common.json" with { type: "json" };

const base = sharedServer().baseUrl;
const PROGRAM_WITH_VIDEO = "/programs/khutwa-caravan-trail-ouadane-tichitt";
const BUDGET_BYTES = 20 * 1024;

const page = async (path: string) => (await fetch(base + path, { headers: { "accept-encoding": "gzip" } })).text();
const scriptSources = (html: string) => [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]);
/** Inline scripts that run (JSON-LD is data). */
const inlineScripts = (html: string) =>
  [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attrs, body]) => !/src=|application\/ld\+json/.test(attrs) && body.trim())
    .map((m) => m[2]);

/** What the browser downloads as JavaScript for a page, compressed as the server sends it (gzip level 9 for inline). */
async function javaScriptBytes(html: string): Promise<number> {
  let bytes = gzipSync(inlineScripts(html).join("\n"), { level: 9 }).length;
  const preloads = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]);
  for (const url of new Set([...scriptSources(html), ...preloads])) {
    bytes += gzipSync(Buffer.from(await (await fetch(base + url)).arrayBuffer()), { level: 9 }).length;
  }
  return bytes;
}

let article = "";
beforeAll(async () => {
  article = /href="(\/articles\/[^"]+)"/.exec(await page("/"))?.[1] ?? "";
  expect(article).not.toBe("");
});

/**
 * The header ticker's script, on every reading page while something is live or breaking on the shared server (issue
 * 44, its own budget in js-budget.e2e.test.ts): not one of the page's own.
 */
const withoutTicker = (sources: string[]) => sources.filter((src) => !/^\/assets\/ticker-[\w-]+\.js$/.test(src));

describe("pages that do not hydrate", () => {
  it("send the reading script only: no route modules, no loader data, no translations", async () => {
    for (const path of ["/", article, "/privacy", "/terms", "/sitemap"]) {
      const html = await page(path);
      expect(withoutTicker(scriptSources(html)), path).toEqual([expect.stringMatching(/^\/assets\/reading-[\w-]+\.js$/)]);
      expect(html, path).not.toContain("modulepreload");
      expect(html, path).not.toContain("__reactRouterContext");
      // A string of the translation file that the page itself does not show.
      expect(html, path).not.toContain(ar.errors.loadFailed);
    }
  });

  it("keep the article page's JavaScript within 20 KB (gzip), where a hydrated page sends several times that", async () => {
    const articleBytes = await javaScriptBytes(await page(article));
    expect(articleBytes).toBeLessThanOrEqual(BUDGET_BYTES);
    // The account pages stay React applications (issue 30; every public page's budget: js-budget.e2e.test.ts).
    const appBytes = await javaScriptBytes(await page("/auth"));
    expect(appBytes).toBeGreaterThan(3 * articleBytes);
  });

  it("a detail page that plays a video adds the player's script only (decision 0132)", async () => {
    const html = await page(PROGRAM_WITH_VIDEO);
    expect(withoutTicker(scriptSources(html))).toEqual([
      expect.stringMatching(/^\/assets\/reading-[\w-]+\.js$/),
      expect.stringMatching(/^\/assets\/player-[\w-]+\.js$/),
    ]);
    expect(html).not.toContain("modulepreload");
    expect(html).not.toContain("__reactRouterContext");
  });

  it("hydrate the account pages, which load the same reading.js for the shared behaviours (decision 0133)", async () => {
    // The listings, /search and /contact (decision 0131) and the players' pages (decision 0132) no longer hydrate.
    for (const path of ["/auth"]) {
      const html = await page(path);
      expect(html, path).toContain("modulepreload");
      expect(html, path).toContain("__reactRouterContext");
      expect(scriptSources(html).filter((s) => /reading-/.test(s)).length, path).toBe(1);
      expect(html, path).not.toContain("speculationrules");
    }
  });

  it("say a failed detail load on home (?notice=load-failed) from the server's HTML", async () => {
    const html = await page("/?notice=load-failed");
    expect(html).toMatch(/data-notice="load-failed"[^>]*data-toast-title="[^"]+"/);
  });
});

describe.skipIf(!hasChromium)("the reading script in Chromium, on an article", () => {
  it("opens the search field, closes the menu with Escape, and shares with the copied-link toast", async () => {
    const browser = await launchBrowser();
    try {
      const { page: tab, context, errors } = await newPage(browser, { viewport: PHONE, locale: "ar" });
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      await tab.goto(base + article);
      await tab.waitForSelector("html[data-hydrated]", { state: "attached" });

      const search = tab.getByTestId("search-button");
      expect(await search.getAttribute("aria-expanded")).toBe("false");
      await search.click();
      await tab.getByTestId("search-input").waitFor({ state: "visible" });
      expect(await search.getAttribute("aria-expanded")).toBe("true");
      expect(tab.url()).toBe(new URL(base + article).toString());
      await expect.poll(() => tab.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("search-input");

      const menu = tab.getByTestId("menu-button");
      await menu.click();
      await tab.getByTestId("mobile-menu").waitFor({ state: "visible" });
      await expect.poll(() => menu.getAttribute("aria-expanded")).toBe("true");
      expect(await menu.getAttribute("aria-label")).toBe(ar.nav.closeMenu);
      await tab.keyboard.press("Escape");
      await tab.getByTestId("mobile-menu").waitFor({ state: "hidden" });
      await expect.poll(() => menu.getAttribute("aria-expanded")).toBe("false");
      expect(await menu.getAttribute("aria-label")).toBe(ar.nav.openMenu);

      await tab.getByTestId("share-button").click();
      const toast = tab.getByTestId("toast");
      await toast.waitFor();
      expect(await toast.textContent()).toContain(ar.detail.linkCopied);
      expect(await toast.getAttribute("data-variant")).toBe("success");
      expect(await tab.evaluate(() => navigator.clipboard.readText())).toBe(new URL(base + article).toString());
      await toast.waitFor({ state: "detached", timeout: 10_000 });
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
    }
  });
});
