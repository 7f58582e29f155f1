/**
 * The one detail page in Arabic (RTL) and French (LTR), on a phone (375 px) and a desktop (1280 px): nothing
 * wider than the screen, no serious axe-core violation.
 */
import { afterAll, beforeAll, describe } from "vitest";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import type { Browser } from "playwright-core";
import { hasChromium, launchBrowser } from "#tests/e2e/support/browser.ts";
import { checkPagesInEveryLayout } from "#tests/e2e/support/a11y.ts";

const base = sharedServer().baseUrl;
// One page of each presentation: verse with its author's facts and bio, a video player, an audio player.
const PAGES = ["/articles/poem-testament-of-the-dune", "/coverage/live-ancient-cities-festival-ouadane", "/podcasts/tent-talk-s2e1-nouakchott-stories"];

describe.skipIf(!hasChromium)("detail pages: layout and accessibility", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  checkPagesInEveryLayout(() => browser, base, PAGES);
});
