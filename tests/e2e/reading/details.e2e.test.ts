/**
 * The reading experience's details (issue 14), in Arabic (RTL), French and English: the 404 page has a real
 * title; the breadcrumb's chevron points towards the end of the line (left in Arabic); Escape closes the mobile
 * menu and gives focus back to its button; counted facts read in their plural form; /news, the 404 page (with a
 * toast showing) and an article have no axe finding of any impact, every rule included, on a phone and on a
 * desktop. One browser context per language, each page loaded once.
 */
import { localizedPath } from "#domain/addresses.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AxeBuilder } from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import { DESKTOP, hasChromium, hydrated, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import ar from "#domain/locales/ar/common.json";
import fr from "#domain/locales/fr/common.json";
import en from "#domain/locales/en/common.json";
import { formatCount } from "#domain/plural.ts";

const base = sharedServer().baseUrl;
const STRINGS = { ar, fr, en } as const;
const LANGS = ["ar", "fr", "en"] as const;
const ARTICLE = "/articles/poem-testament-of-the-dune";

/** Every axe finding, whatever its impact or rule set (best practices such as heading-order and region too). */
async function axeFindings(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .options({ resultTypes: ["violations"] })
    .setLegacyMode(true)
    .analyze();
  return violations.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** axe on a phone, then on a desktop, without loading the page again. */
async function axeAtBothWidths(page: Page): Promise<{ phone: string[]; desktop: string[] }> {
  await page.setViewportSize(PHONE);
  const phone = await axeFindings(page);
  await page.setViewportSize(DESKTOP);
  const desktop = await axeFindings(page);
  await page.setViewportSize(PHONE);
  return { phone, desktop };
}

describe("a missing page's title", () => {
  it("is the 404 page's, in the reader's language, for an unknown URL and for an unknown article alike", async () => {
    for (const lang of LANGS) {
      for (const path of ["/no-such-page", "/articles/no-such-article"]) {
        // The address decides the language (issue 42): a cookie saying another changes nothing.
        const res = await fetch(base + localizedPath(lang, path), { headers: { cookie: "i18nextLng=ar" } });
        expect(res.status, `${lang} ${path}`).toBe(404);
        const title = /<title>([^<]*)<\/title>/.exec(await res.text())?.[1];
        expect(title, `${lang} ${path}`).toMatch(new RegExp(`^${STRINGS[lang].errors.notFoundTitle} \\| .+`));
      }
    }
  });
});

describe.skipIf(!hasChromium)("reading details in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  for (const lang of LANGS) {
    it(`${lang}: 404 title, breadcrumb direction, counted facts, Escape on the menu, no axe finding`, async () => {
      const { context, page, errors } = await newPage(browser, { viewport: PHONE, locale: lang });
      const strings = STRINGS[lang];
      try {
        // /news: headings in order, nothing outside a landmark.
        await page.goto(base + localizedPath(lang, "/news"));
        await hydrated(page);
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
        expect(await axeAtBothWidths(page), "/news").toEqual({ phone: [], desktop: [] });

        // The 404 page: a real title and heading; with a toast up, its region is a landmark and a live region.
        await page.goto(base + localizedPath(lang, "/no-such-page"));
        await hydrated(page);
        expect(await page.title()).toMatch(new RegExp(`^${strings.errors.notFoundTitle} \\| .+`));
        expect((await page.locator("h1").textContent())?.trim()).toBe(strings.errors.notFoundTitle);
        // The browser reports the page's own 404 status in the console; nothing else may be there.
        expect(errors.splice(0)).toEqual(["Failed to load resource: the server responded with a status of 404 (Not Found)"]);
        const region = page.getByTestId("toast-region");
        expect(await region.getAttribute("aria-label")).toBe(strings.common.notifications);
        expect(await region.evaluate((el) => el.tagName)).toBe("SECTION");
        await page.locator('footer button[data-testid^="social-"]').first().click();
        const toast = page.getByTestId("toast");
        await toast.waitFor();
        // A pointer over the toast holds it (spec: paused while hovered), so both axe runs see it.
        await toast.hover();
        expect(await toast.evaluate((el) => el.closest("[aria-live]")?.getAttribute("aria-live"))).toBe("polite");
        expect(await axeAtBothWidths(page), "404 with a toast").toEqual({ phone: [], desktop: [] });

        // An article: the breadcrumb runs in reading order with the chevron pointing to its end.
        await page.goto(base + localizedPath(lang, ARTICLE));
        await hydrated(page);
        const trail = await page.evaluate(() => {
          const x = (id: string) => {
            const r = document.querySelector(`[data-testid="${id}"]`)!.getBoundingClientRect();
            return r.left + r.width / 2;
          };
          const chevron = document.querySelector('[data-testid="breadcrumb-separator"]')!;
          const scale = getComputedStyle(chevron).scale;
          // The drawn chevron's tip is at x=11 of 16 and its tails at x=6: it points right unless mirrored.
          const mirrored = scale !== "none" && Number.parseFloat(scale) < 0;
          return { home: x("breadcrumb-home"), chevron: x("breadcrumb-separator"), next: x("detail-category"), pointsLeft: mirrored };
        });
        if (lang === "ar") {
          expect(trail.home).toBeGreaterThan(trail.chevron);
          expect(trail.chevron).toBeGreaterThan(trail.next);
          expect(trail.pointsLeft).toBe(true);
        } else {
          expect(trail.home).toBeLessThan(trail.chevron);
          expect(trail.chevron).toBeLessThan(trail.next);
          expect(trail.pointsLeft).toBe(false);
        }
        expect(await page.getByTestId("breadcrumbs").getAttribute("aria-label")).toBe(strings.common.breadcrumb);

        // Counted facts read as the one formatter writes them for their number (domain/plural.ts).
        for (const [testId, key] of [
          ["detail-read-time", "detail.readTime"],
          ["detail-views", "detail.views"],
        ] as const) {
          const fact = page.getByTestId(testId);
          const n = Number(await fact.getAttribute("data-count"));
          expect(n, testId).toBeGreaterThan(0);
          expect((await fact.locator("dd").textContent())?.trim(), testId).toBe(formatCount(strings, lang, key, n));
        }

        // Escape closes the mobile menu and puts focus back on the button that opened it.
        const menuButton = page.getByTestId("menu-button");
        await menuButton.click();
        await page.getByTestId("mobile-menu").waitFor({ state: "visible" });
        await page.getByTestId("mobile-nav-link-news").focus();
        await page.keyboard.press("Escape");
        await page.getByTestId("mobile-menu").waitFor({ state: "hidden" });
        expect(await menuButton.getAttribute("aria-expanded")).toBe("false");
        expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("menu-button");
        expect(await axeAtBothWidths(page), ARTICLE).toEqual({ phone: [], desktop: [] });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
