/**
 * The media, video library and emirates pages in Arabic (RTL) and French (LTR), on a phone (375 px) and a
 * desktop (1280 px): nothing wider than the screen, no serious axe-core violation in the page's content —
 * also with the video modal open and with an inline player playing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import type { Browser } from "playwright-core";
import { hasChromium, hydrated, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import { checkPagesInEveryLayout, horizontalOverflow } from "#tests/e2e/support/a11y.ts";
import { localizedPath } from "#domain/addresses.ts";
import { contentA11yViolations } from "./helpers.ts";

const base = sharedServer().baseUrl;
// /media, /videos and /emirates as first opened are in the full-site walk (walk.ts); here, their filtered states.
const PAGES = ["/media?type=documents", "/emirates?emirate=trarza"];

describe.skipIf(!hasChromium)("media pages: layout and accessibility", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  checkPagesInEveryLayout(() => browser, base, PAGES, contentA11yViolations);

  it("the open video modal and an inline player pass too", async () => {
    for (const lang of ["ar", "fr"] as const) {
      const { page, context } = await newPage(browser, { viewport: PHONE, locale: lang });
      await page.goto(base + localizedPath(lang, "/videos"));
      await hydrated(page);
      await page.getByTestId("video-open").first().click();
      await page.getByTestId("video-modal").waitFor();
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      expect(await contentA11yViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");

      await page.goto(base + localizedPath(lang, "/emirates"));
      await hydrated(page);
      await page.getByTestId("emirate-video-toggle").first().click();
      await page.getByTestId("video-player").first().waitFor();
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      expect(await contentA11yViolations(page)).toEqual([]);
      await context.close();
    }
  });
});
