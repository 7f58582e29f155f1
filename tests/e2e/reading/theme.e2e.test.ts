/**
 * Night reading and text size (issue 46, docs/decisions/0149-night-reading-and-text-size.md): the footer's form
 * without JavaScript (a post, back to the page) and with it (applied at once, no reload); the choice in the first
 * byte of every page after it (no flash: the HTML already says it, nothing has to run), the system's dark theme by
 * its media query alone, and axe clean in both themes on home, a detail page and a list, in Arabic, French and
 * English, at 375 and 1280 px. The JavaScript budgets are js-budget.e2e.test.ts's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import { DESKTOP, hasChromium, launchBrowser, newPage, PHONE, skipReason } from "#tests/e2e/support/browser.ts";
import { horizontalOverflow, seriousA11yViolations } from "#tests/e2e/support/a11y.ts";
import { localizedPath } from "#domain/addresses.ts";
import type { Language } from "#domain/language.ts";

const base = sharedServer().baseUrl;
/** The page's background in each theme (app/app.css: sand-50). */
const LIGHT_PAGE = "rgb(251, 248, 242)";
const DARK_PAGE = "rgb(20, 17, 13)";

const get = (path: string, cookie?: string) => fetch(base + path, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
/** The opening <html> tag of a page as the server sends it. */
const htmlTag = async (path: string, cookie?: string) => /<html\b[^>]*>/.exec(await (await get(path, cookie)).text())?.[0] ?? "";

let browser: Browser;
let detail = "";

beforeAll(async () => {
  detail = /href="(\/articles\/[^"/?#]+)"/.exec(await (await get("/")).text())?.[1] ?? "";
  expect(detail, "an article linked from the home page").not.toBe("");
  if (hasChromium) browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Home, a detail page and a list, in a language. */
const pagesOf = (lang: Language) => [localizedPath(lang, "/"), localizedPath(lang, detail), localizedPath(lang, "/news")];

const pageBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const bodyTextSize = (page: Page) => page.evaluate(() => parseFloat(getComputedStyle(document.querySelector(".prose-article")!).fontSize));
const choice = (page: Page, name: "theme" | "size", value: string) =>
  page.locator(`form[data-reading-preferences] label:has(input[name="${name}"][value="${value}"])`);

async function expectAxeClean(page: Page, what: string) {
  expect(await seriousA11yViolations(page), what).toEqual([]);
}

describe("the choice in the first byte (no flash)", () => {
  it("renders the reader's theme and text size on <html>, from the cache too, and nothing for readers without a choice", async () => {
    for (const path of ["/", "/fr/news", detail, `/en${detail}`]) {
      for (let i = 0; i < 2; i++) {
        // The second time from the page cache: the copy of this choice, not another reader's.
        const chosen = await get(path, "sahara_reading=dark.large");
        const tag = /<html\b[^>]*>/.exec(await chosen.text())?.[0];
        expect(tag, path).toMatch(/data-theme="dark"/);
        expect(tag, path).toMatch(/data-text-size="large"/);
        expect(chosen.headers.get("cache-control"), path).toMatch(/^private/);
        expect(chosen.headers.get("vary"), path).toMatch(/Cookie/);
      }
      expect(await htmlTag(path, "sahara_reading=light.normal"), path).toMatch(/data-theme="light"/);
      const common = await get(path);
      const tag = /<html\b[^>]*>/.exec(await common.text())?.[0];
      expect(tag, path).not.toMatch(/data-theme|data-text-size/);
      expect(common.headers.get("cache-control"), path).toMatch(/^public/);
      // A value that names nothing is no choice at all.
      expect(await htmlTag(path, "sahara_reading=%3Cb%3E"), path).not.toMatch(/data-theme|data-text-size/);
    }
  });

  it("refuses a choice that names nothing with a 400 and a post from another site with a 403", async () => {
    const post = (body: string, origin = base) =>
      fetch(base + "/preferences", {
        method: "POST",
        redirect: "manual",
        headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
        body,
      });
    const refused = await post("theme=purple&size=normal&redirectTo=/");
    expect(refused.status).toBe(400);
    expect(refused.headers.get("set-cookie")).toBeNull();
    expect((await post("theme=dark&size=normal&redirectTo=/", "https://evil.example")).status).toBe(403);
    const kept = await post("theme=dark&size=large&redirectTo=/fr/news");
    expect(kept.status).toBe(302);
    expect(kept.headers.get("location")).toBe("/fr/news#reading-preferences");
    expect(kept.headers.get("set-cookie")).toMatch(/^sahara_reading=dark\.large;/);
  });
});

const LANGUAGES: Language[] = ["ar", "fr", "en"];
const VIEWPORTS = [
  ["375", PHONE],
  ["1280", DESKTOP],
] as const;

/** Axe on a machine shared by many browsers: a few pages per test, each test with room for them. */
const AXE_TIMEOUT = 300_000;

describe.skipIf(!hasChromium)(`the form without JavaScript, and axe in both themes${hasChromium ? "" : ` (skipped: ${skipReason})`}`, () => {
  for (const lang of LANGUAGES)
    for (const [width, viewport] of VIEWPORTS) {
      it(`${lang} at ${width} px: night reading and a larger text chosen by the form, kept on every page, then undone`, async () => {
        const { context, page } = await newPage(browser, { viewport, locale: lang, javaScriptEnabled: false });
        try {
          const [home, article, list] = pagesOf(lang);
          await page.goto(base + article);
          expect(await pageBackground(page)).toBe(LIGHT_PAGE);
          const normalSize = await bodyTextSize(page);

          await choice(page, "theme", "dark").click();
          await choice(page, "size", "large").click();
          await Promise.all([
            page.waitForURL((url) => url.pathname === article && url.hash === "#reading-preferences"),
            page.locator('[data-testid="reading-apply"]').click(),
          ]);
          // Back on the same page, with the choice: no script ran, so the server's HTML carried it.
          expect(await page.evaluate(() => [document.documentElement.dataset.theme, document.documentElement.dataset.textSize])).toEqual(["dark", "large"]);
          expect(await pageBackground(page)).toBe(DARK_PAGE);
          expect(await bodyTextSize(page)).toBeGreaterThan(normalSize);
          expect(await page.locator('input[name="theme"][value="dark"]').isChecked()).toBe(true);
          expect(await page.locator('input[name="size"][value="large"]').isChecked()).toBe(true);
          expect(await horizontalOverflow(page)).toBe(0);

          for (const path of [home, list]) {
            await page.goto(base + path);
            expect(await pageBackground(page), path).toBe(DARK_PAGE);
            expect(await page.evaluate(() => document.documentElement.dataset.textSize), path).toBe("large");
            expect(await horizontalOverflow(page), path).toBe(0);
          }

          // Back to the light theme and the normal size: the reader shares the common page again.
          await choice(page, "theme", "light").click();
          await choice(page, "size", "normal").click();
          await Promise.all([
            page.waitForURL((url) => url.pathname === list && url.hash === "#reading-preferences"),
            page.locator('[data-testid="reading-apply"]').click(),
          ]);
          expect(await pageBackground(page)).toBe(LIGHT_PAGE);
          expect(await page.evaluate(() => document.documentElement.dataset.textSize)).toBeUndefined();
          expect((await context.cookies(base)).find((c) => c.name === "sahara_reading")?.value).toBe("light.normal");
        } finally {
          await context.close();
        }
      });

      for (const theme of ["dark", "light"] as const)
        it(
          `${lang} at ${width} px: axe clean in the ${theme} theme on home, an article and a list`,
          async () => {
            // With JavaScript: axe runs in the page (the theme is the server's either way: the first paint has it).
            const { context, page } = await newPage(browser, { viewport, locale: lang });
            try {
              await context.addCookies([{ name: "sahara_reading", value: `${theme}.normal`, url: base }]);
              for (const path of pagesOf(lang)) {
                await page.goto(base + path);
                expect(await pageBackground(page), path).toBe(theme === "dark" ? DARK_PAGE : LIGHT_PAGE);
                await expectAxeClean(page, `${path} ${theme}`);
              }
            } finally {
              await context.close();
            }
          },
          AXE_TIMEOUT,
        );
    }
});

describe.skipIf(!hasChromium)(`the system's dark theme${hasChromium ? "" : ` (skipped: ${skipReason})`}`, () => {
  for (const lang of LANGUAGES)
    it(`${lang}: followed without a choice and without a script, overridden by a choice of the light theme`, { timeout: AXE_TIMEOUT }, async () => {
      const { context, page } = await newPage(browser, { viewport: PHONE, locale: lang, javaScriptEnabled: false });
      try {
        await page.emulateMedia({ colorScheme: "dark" });
        const [home] = pagesOf(lang);
        await page.goto(base + home);
        expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
        expect(await pageBackground(page)).toBe(DARK_PAGE);
        await context.addCookies([{ name: "sahara_reading", value: "light.normal", url: base }]);
        await page.goto(base + home);
        expect(await pageBackground(page)).toBe(LIGHT_PAGE);
        await page.emulateMedia({ colorScheme: "light" });
        await context.addCookies([{ name: "sahara_reading", value: "dark.normal", url: base }]);
        await page.goto(base + home);
        expect(await pageBackground(page)).toBe(DARK_PAGE);
      } finally {
        await context.close();
      }
      // axe runs in the page, so with JavaScript; the system's dark theme is CSS alone either way.
      const checked = await newPage(browser, { viewport: PHONE, locale: lang });
      try {
        await checked.page.emulateMedia({ colorScheme: "dark" });
        await checked.page.goto(base + pagesOf(lang)[0]);
        expect(await pageBackground(checked.page)).toBe(DARK_PAGE);
        await expectAxeClean(checked.page, `${pagesOf(lang)[0]} system dark`);
      } finally {
        await checked.context.close();
      }
    });
});

describe.skipIf(!hasChromium)(`with JavaScript${hasChromium ? "" : ` (skipped: ${skipReason})`}`, () => {
  for (const lang of ["ar", "fr"] as const)
    for (const [width, viewport] of VIEWPORTS)
      it(`${lang} at ${width} px: a choice applies at once, without a reload, and the next page is rendered with it`, async () => {
        const { context, page, errors } = await newPage(browser, { viewport, locale: lang });
        try {
          const article = localizedPath(lang, detail);
          await page.goto(base + article);
          await page.waitForSelector("html[data-hydrated]", { state: "attached" });
          const normalSize = await bodyTextSize(page);
          // Marks this document: a reload or a navigation would lose it.
          await page.evaluate(() => ((window as unknown as { stay: boolean }).stay = true));
          await choice(page, "theme", "dark").click();
          await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
          expect(await pageBackground(page)).toBe(DARK_PAGE);
          await choice(page, "size", "larger").click();
          await page.waitForFunction(() => document.documentElement.dataset.textSize === "larger");
          expect(await bodyTextSize(page)).toBeGreaterThan(normalSize * 1.2);
          // The apply button too changes nothing but the page.
          await page.locator('[data-testid="reading-apply"]').click();
          expect(await page.evaluate(() => (window as unknown as { stay?: boolean }).stay)).toBe(true);
          expect(new URL(page.url()).pathname).toBe(article);
          // The page writes the cookie at once, but the browser stores it a moment later: Chromium's cookie store is in
          // another process, which `context.cookies()` may ask first (a CI run saw the old value so).
          const reading = async () => (await context.cookies(base)).find((c) => c.name === "sahara_reading")?.value;
          await expect.poll(reading).toBe("dark.larger");

          // The next page load: the server's first byte has the choice.
          const answer = await page.goto(base + localizedPath(lang, "/news"));
          expect(/<html\b[^>]*>/.exec((await answer?.text()) ?? "")?.[0]).toMatch(/data-theme="dark"[^>]*data-text-size="larger"/);
          expect(await pageBackground(page)).toBe(DARK_PAGE);

          // Back to the system's theme and the normal size: the cookie goes, and so do the attributes.
          await page.waitForSelector("html[data-hydrated]", { state: "attached" });
          await choice(page, "theme", "system").click();
          await choice(page, "size", "normal").click();
          await page.waitForFunction(() => !document.documentElement.dataset.theme && !document.documentElement.dataset.textSize);
          await expect.poll(reading).toBeUndefined();
          expect(await pageBackground(page)).toBe(LIGHT_PAGE);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      });
});
