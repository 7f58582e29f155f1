/**
 * Directions, the header's width and the site without JavaScript (issue 14): on French and English pages the
 * Arabic content (titles, excerpts, bodies, names) carries lang="ar" and a right-to-left direction while the
 * interface stays left to right; the desktop navigation fits at 1024, 1280 and 1440 px in every language, the
 * entries that do not fit being in its "more" menu; on a phone without JavaScript the menu opens, its links,
 * the search and the videos work. One browser context per language (resized, not recreated), pages loaded once.
 */
import { localizedPath } from "#domain/addresses.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import { hasChromium, hydrated, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import { NAV_ITEMS } from "#domain/navigation.ts";

const base = sharedServer().baseUrl;
const LANGS = ["ar", "fr", "en"] as const;
const WIDTHS = [1024, 1280, 1440] as const;
const ARTICLE = "/articles/poem-testament-of-the-dune";

/** Elements showing content text; each is checked when its text starts with an Arabic letter. */
const CONTENT = [
  '[data-testid="detail-title"]',
  '[data-testid="detail-lead"]',
  '[data-testid="article-body"]',
  '[data-testid="detail-category"]',
  "article h2",
  "article h3",
  "article h3 + p",
  "article h2 + p",
  '[data-testid="byline"] bdi',
].join(", ");

/**
 * The content elements whose text starts with an Arabic letter, each with the language and direction it ends
 * up with (its own or its nearest ancestor's attribute) and the direction the browser computed.
 */
async function arabicContent(page: Page) {
  return page.evaluate((selector) => {
    const firstLetterIsArabic = (text: string) => {
      const m = /\p{L}/u.exec(text);
      return !!m && /\p{Script=Arabic}/u.test(m[0]);
    };
    return [...document.querySelectorAll<HTMLElement>(selector)]
      .filter((el) => el.offsetParent !== null || el.getClientRects().length > 0)
      .filter((el) => firstLetterIsArabic(el.textContent ?? ""))
      .map((el) => ({
        text: (el.textContent ?? "").trim().slice(0, 40),
        lang: el.closest("[lang]")?.getAttribute("lang") ?? null,
        dir: el.closest("[dir]")?.getAttribute("dir") ?? null,
        computed: getComputedStyle(el).direction,
      }));
  }, CONTENT);
}

describe.skipIf(!hasChromium)("directions, header widths and the site without JavaScript", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  for (const lang of ["fr", "en"] as const) {
    it(`marks Arabic content lang="ar" right to left on ${lang} pages, the interface staying left to right`, async () => {
      const { page, context, errors } = await newPage(browser, { viewport: { width: 1280, height: 900 }, locale: lang });
      try {
        let checked = 0;
        for (const path of ["/", "/news", "/culture", ARTICLE]) {
          await page.goto(base + localizedPath(lang, path));
          expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]), path).toEqual([lang, "ltr"]);
          expect(await page.getByTestId("site-header").evaluate((el) => getComputedStyle(el).direction), path).toBe("ltr");
          const found = await arabicContent(page);
          for (const f of found) {
            expect(f.lang, `${path}: ${f.text}`).toBe("ar");
            expect(["rtl", "auto"], `${path}: ${f.text}`).toContain(f.dir);
            expect(f.computed, `${path}: ${f.text}`).toBe("rtl");
          }
          checked += found.length;
        }
        // In English every text is the Arabic original; in French those without a French version are.
        expect(checked).toBeGreaterThan(lang === "en" ? 20 : 0);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it("keeps the desktop navigation inside the page at 1024, 1280 and 1440 px in every language, every entry reachable", async () => {
    for (const lang of LANGS) {
      const { page, context, errors } = await newPage(browser, { viewport: { width: WIDTHS[0], height: 900 }, locale: lang });
      try {
        await page.goto(base + localizedPath(lang, "/news"));
        await hydrated(page);
        // The narrowest phone first: the bar's buttons all on screen, the page no wider than it.
        await page.setViewportSize({ width: 320, height: 700 });
        const phone = await page.evaluate(() => ({
          overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          menuRight: Math.round(document.querySelector('[data-testid="menu-button"]')!.getBoundingClientRect().right),
        }));
        expect(phone.overflow, `${lang} 320px`).toBe(0);
        expect(phone.menuRight, `${lang} 320px`).toBeLessThanOrEqual(320);
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 900 });
          const where = `${lang} ${width}px`;
          const layout = await page.evaluate(() => {
            const nav = document.querySelector<HTMLElement>('[data-testid="desktop-nav"] > ul')!;
            const box = nav.getBoundingClientRect();
            const header = document.querySelector<HTMLElement>('[data-testid="site-header"]')!;
            const cut = [...header.querySelectorAll<HTMLElement>("a, button, summary")]
              // Shown ones only: not the skip link until it has focus (1px), not the closed menus' contents.
              .filter((el) => el.getBoundingClientRect().width > 1 && !el.closest("details:not([open]) > :not(summary)"))
              .filter((el) => {
                const r = el.getBoundingClientRect();
                return (
                  r.left < 0 || r.right > document.documentElement.clientWidth || (nav.contains(el) && (r.left < box.left - 0.5 || r.right > box.right + 0.5))
                );
              })
              .map((el) => el.dataset.testid ?? el.textContent);
            return {
              pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
              navOverflow: nav.scrollWidth - nav.clientWidth,
              cut,
            };
          });
          expect(layout, where).toEqual({ pageOverflow: 0, navOverflow: 0, cut: [] });

          // Each entry is in the bar, or in the "more" menu once it is open.
          const more = page.getByTestId("nav-more");
          const moreShown = await more.isVisible();
          if (moreShown) await more.locator("summary").click();
          for (const item of NAV_ITEMS) {
            const inBar = await page.getByTestId(`nav-link-${item.slug}`).isVisible();
            const inMore = moreShown && (await page.getByTestId(`nav-more-link-${item.slug}`).isVisible());
            expect(inBar !== inMore, `${where} ${item.slug}: in the bar ${inBar}, in "more" ${inMore}`).toBe(true);
          }
          if (moreShown) {
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
            expect(overflow, `${where} with "more" open`).toBe(0);
            await more.locator("summary").click();
          }
        }
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  it("works on a phone without JavaScript: the menu, its links, the search and the videos", async () => {
    const { page, context } = await newPage(browser, { viewport: PHONE, javaScriptEnabled: false });
    try {
      await page.goto(base + "/");
      const menu = page.getByTestId("mobile-menu");
      expect(await menu.isVisible()).toBe(false);
      await page.getByTestId("menu-button").click();
      await menu.waitFor({ state: "visible" });
      await page.getByTestId("mobile-nav-link-programs").click();
      await page.waitForURL(base + "/programs");

      // A program's page plays its video with the browser's own player (or links to the file).
      const programHref = await page.locator('[data-testid="program-card"] a, main article a[href^="/programs/"]').first().getAttribute("href");
      expect(programHref).toBeTruthy();
      await page.goto(base + programHref);
      await expectPlayableVideo(page, programHref!);

      // A coverage video: the politics page's play link leads to the article with the player.
      await page.goto(base + "/politics?type=videos");
      const coverageHref = await page.getByTestId("play-video").first().getAttribute("href");
      expect(coverageHref).toBeTruthy();
      await page.goto(base + coverageHref);
      await expectPlayableVideo(page, coverageHref!);

      // The emirates' videos: a link to the file in place of the inline player's toggle.
      await page.goto(base + "/emirates");
      const emirateVideo = page.getByTestId("emirate-video-link").first();
      expect(await emirateVideo.isVisible()).toBe(true);
      expect(await page.getByTestId("emirate-video-toggle").first().isVisible()).toBe(false);
      const fileHref = (await emirateVideo.getAttribute("href"))!;
      expect((await fetch(new URL(fileHref, base), { method: "HEAD" })).status).toBe(200);

      // Search: the header's button is a link to the search page, whose form submits there.
      await page.getByTestId("search-button").click();
      await page.waitForURL(base + "/search");
      await page.getByTestId("search-page-input").fill("الشعر");
      await page.getByTestId("search-page-input").press("Enter");
      await page.waitForURL((url) => url.pathname === "/search" && url.searchParams.get("q") === "الشعر");
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    } finally {
      await context.close();
    }
  });
});

/** A <video> with a source the server serves, or a link to the file. */
async function expectPlayableVideo(page: Page, where: string) {
  const src = await page.evaluate(() => {
    const video = [...document.querySelectorAll("video")].find((v) => v.getAttribute("src"));
    return video?.getAttribute("src") ?? document.querySelector<HTMLAnchorElement>('[data-testid="video-fallback-link"]')?.getAttribute("href") ?? null;
  });
  expect(src, where).toBeTruthy();
  expect((await fetch(new URL(src!, base), { method: "HEAD" })).status, `${where}: ${src}`).toBe(200);
}
