/**
 * The section pages in Arabic (RTL) and French (LTR), on a phone (375 px) and a desktop (1280 px): nothing
 * wider than the screen and no serious axe-core violation — with the filters applied, in the timeline view,
 * with the politics video modal open, and on the newsletter confirmation page.
 */
import { localizedPath } from "#domain/addresses.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import type { Browser } from "playwright-core";
import { hasChromium, hydrated, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import { checkPagesInEveryLayout, horizontalOverflow, seriousA11yViolations } from "#tests/e2e/support/a11y.ts";

const base = sharedServer().baseUrl;
// The sections as first opened are in the full-site walk (walk.ts), at every width and in the three languages;
// here are the states it does not reach: filtered, the timeline, the newsletter confirmation.
const PAGES = [
  "/culture?category=manuscripts",
  "/politics?type=videos&region=mali",
  "/politics?view=timeline",
  "/literature?type=poetry",
  "/newsletter/confirm?token=not-a-real-token-at-all",
];

describe.skipIf(!hasChromium)("section pages: layout and accessibility", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  checkPagesInEveryLayout(() => browser, base, PAGES);

  it("the politics video modal and the form messages pass too", async () => {
    for (const lang of ["ar", "fr"] as const) {
      const { page, context } = await newPage(browser, { viewport: PHONE, locale: lang });
      await page.goto(base + localizedPath(lang, "/politics?type=videos"));
      await hydrated(page);
      await page.getByTestId("play-video").first().click();
      await page.getByTestId("video-modal").waitFor();
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");
      await page.getByTestId("video-modal").waitFor({ state: "detached" });

      await page.goto(base + localizedPath(lang, "/opinion"));
      await hydrated(page);
      await page.getByTestId("proposal-submit").click();
      await page.getByTestId("proposal-error-name").waitFor();
      await page.getByTestId("newsletter-submit").click();
      await page.getByTestId("newsletter-error").waitFor();
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await context.close();
    }
  });
});
