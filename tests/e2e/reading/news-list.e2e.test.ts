/**
 * The news listing's two ways of loading more — the infinite scroll and the load-more button — working together
 * (issue 18), and its retries (issue 14). Every wait is on something the page shows: the card count, the list's
 * data-state and aria-busy, the error box; never on time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import type { Browser, Page, Route } from "playwright-core";
import { DESKTOP, hasChromium, hydrated, launchBrowser, newPage, renderedFrames } from "#tests/e2e/support/browser.ts";

const base = sharedServer().baseUrl;
/** The listing's requests for its next pages, in the page's language (these pages are Arabic: /news). */
const API = /\/api\/news\?page=\d+&lang=ar$/;

type ApiPage = { items: { id: number }[]; total: number | null; hasMore: boolean };
const apiTotal = async () => ((await (await fetch(`${base}/api/news?page=1`)).json()) as ApiPage).total!;

const pageOf = (route: Route) => Number(new URL(route.request().url()).searchParams.get("page"));
const list = (page: Page) => page.getByTestId("news-list");
const listIn = (page: Page, ...states: string[]) =>
  page.locator(states.map((s) => `[data-testid="news-list"][data-state="${s}"]`).join(", ")).waitFor({ state: "attached" });

/** Waits until the list is at rest (idle, end or error) with more than `shown` cards; returns the new count. */
async function settledAbove(page: Page, shown: number): Promise<number> {
  await page.waitForFunction((n) => {
    const el = document.querySelector('[data-testid="news-list"]');
    return el && el.getAttribute("data-state") !== "loading" && el.querySelectorAll('[data-testid="news-card"]').length > n;
  }, shown);
  return page.getByTestId("news-card").count();
}

/** The hrefs of the cards shown, in order. */
const cardHrefs = (page: Page) =>
  page
    .getByTestId("news-card")
    .locator("h2 a")
    .evaluateAll((links) => links.map((a) => a.getAttribute("href")));

/** Counts which pages the listing asks the API for; `hold` keeps answers back until `release()`. */
async function watchApi(page: Page, { hold = false } = {}) {
  const asked: number[] = [];
  let release = () => {};
  let gate = hold ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  await page.route(API, async (route) => {
    asked.push(pageOf(route));
    await gate;
    await route.continue();
  });
  return {
    asked,
    release: () => {
      release();
      gate = Promise.resolve();
    },
    timesAsked: (n: number) => asked.filter((p) => p === n).length,
  };
}

async function expectEveryItemOnce(page: Page) {
  const hrefs = await cardHrefs(page);
  expect(new Set(hrefs).size).toBe(hrefs.length);
  expect(hrefs.length).toBe(await apiTotal());
  expect(await page.getByTestId("news-end").isVisible()).toBe(true);
  expect(await page.getByTestId("news-load-more").count()).toBe(0);
  expect(await list(page).getAttribute("aria-busy")).toBe("false");
}

describe.skipIf(!hasChromium)("the news listing loads more", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it("by scrolling, page after page to the end, asking for each page once", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: DESKTOP });
    const api = await watchApi(page);
    await page.goto(base + "/news");
    await hydrated(page);
    let shown = await page.getByTestId("news-card").count();
    expect(shown).toBe(12);
    expect(await list(page).getAttribute("data-state")).toBe("idle");
    for (let round = 0; round < 10 && (await list(page).getAttribute("data-state")) !== "end"; round++) {
      await page.getByTestId("news-sentinel").scrollIntoViewIfNeeded();
      shown = await settledAbove(page, shown);
    }
    await listIn(page, "end");
    await expectEveryItemOnce(page);
    expect(api.asked).toEqual([...new Set(api.asked)].sort((a, b) => a - b));
    expect(api.asked[0]).toBe(2);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("with the button, which stays the same element, disabled and busy while a page loads", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: DESKTOP });
    // Without IntersectionObserver the button is the only way: what the button does is then all there is to see.
    await page.addInitScript(() => Reflect.deleteProperty(window, "IntersectionObserver"));
    const api = await watchApi(page, { hold: true });
    await page.goto(base + "/news");
    await hydrated(page);
    const button = page.getByTestId("news-load-more");
    const original = await button.elementHandle();
    await button.click();
    await listIn(page, "loading");
    expect(await list(page).getAttribute("aria-busy")).toBe("true");
    expect(await button.isDisabled()).toBe(true);
    expect(await button.getAttribute("aria-busy")).toBe("true");
    api.release();
    let shown = await settledAbove(page, 12);
    expect(shown).toBe(24);
    expect(await original!.evaluate((el) => el.isConnected)).toBe(true);
    expect(await button.isEnabled()).toBe(true);
    for (let round = 0; round < 10 && (await list(page).getAttribute("data-state")) !== "end"; round++) {
      await button.click();
      shown = await settledAbove(page, shown);
    }
    await expectEveryItemOnce(page);
    expect(api.asked).toEqual([...new Set(api.asked)].sort((a, b) => a - b));
    expect(errors).toEqual([]);
    await context.close();
  });

  it("when the reader taps the button as the scroll loads the same page: one request, every item once", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: DESKTOP });
    const api = await watchApi(page, { hold: true });
    await page.goto(base + "/news");
    await hydrated(page);

    // Scroll; at the moment the scroll asks for page 2 — before React has rendered the loading state — tap
    // the button, as a reader on a slow phone does.
    const tappedEnabledButton = await page.evaluate(
      () =>
        new Promise<boolean>((resolve) => {
          const button = document.querySelector<HTMLButtonElement>('[data-testid="news-load-more"]')!;
          const realFetch = window.fetch.bind(window);
          window.fetch = (input, init) => {
            window.fetch = realFetch;
            const answer = realFetch(input, init);
            resolve(!button.disabled);
            button.click();
            return answer;
          };
          document.querySelector('[data-testid="news-sentinel"]')!.scrollIntoView({ block: "end" });
        }),
    );
    expect(tappedEnabledButton).toBe(true);
    await listIn(page, "loading");
    api.release();
    let shown = await settledAbove(page, 12);
    expect(api.timesAsked(2)).toBe(1);

    // The other order: a tap, then the scroll, in one task.
    await page.evaluate(() => window.scrollTo(0, 0));
    if ((await list(page).getAttribute("data-state")) === "idle") {
      await page.evaluate(() => {
        document.querySelector<HTMLButtonElement>('[data-testid="news-load-more"]')!.click();
        document.querySelector('[data-testid="news-sentinel"]')!.scrollIntoView({ block: "end" });
      });
      shown = await settledAbove(page, shown);
    }
    for (let round = 0; round < 10 && (await list(page).getAttribute("data-state")) !== "end"; round++) {
      await page.getByTestId("news-sentinel").scrollIntoViewIfNeeded();
      shown = await settledAbove(page, shown);
    }
    await expectEveryItemOnce(page);
    expect(api.asked).toEqual([...new Set(api.asked)].sort((a, b) => a - b));
    expect(errors).toEqual([]);
    await context.close();
  });

  it("retries a failing page with back-off, and shows it when a later try answers", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    let failures = 0;
    await page.route(API, async (route) => {
      if (pageOf(route) === 2 && failures < 2) {
        failures++;
        return route.fulfill({ status: 503, body: "down" });
      }
      await route.continue();
    });
    await page.goto(base + "/news");
    await hydrated(page);
    await page.getByTestId("news-sentinel").scrollIntoViewIfNeeded();
    await listIn(page, "loading");
    expect(await settledAbove(page, 12)).toBe(24);
    expect(failures).toBe(2);
    expect(await list(page).getAttribute("data-state")).toBe("idle");
    expect(await page.getByTestId("news-error").count()).toBe(0);
    await context.close();
  });

  it("after three failed tries shows the retry button, stops the scroll, keeps the reader on the page, and retries on request", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    let down = true;
    const asked: number[] = [];
    await page.route(API, async (route) => {
      asked.push(pageOf(route));
      if (down) return route.fulfill({ status: 503, body: "down" });
      await route.continue();
    });
    await page.goto(base + "/news");
    await hydrated(page);
    await page.getByTestId("news-sentinel").scrollIntoViewIfNeeded();
    await page.getByTestId("news-error").waitFor();
    await listIn(page, "error");
    expect(await page.getByTestId("news-error").textContent()).toContain("HTTP 503");
    expect(asked).toEqual([2, 2, 2]);
    expect(await list(page).getAttribute("aria-busy")).toBe("false");
    expect(await page.getByTestId("news-load-more").count()).toBe(0);
    expect(await page.getByTestId("news-card").count()).toBe(12);
    expect(new URL(page.url()).pathname).toBe("/news");

    // The scroll does not start again on its own.
    await page.evaluate(() => window.scrollTo(0, 0));
    await renderedFrames(page);
    await page.getByTestId("news-sentinel").scrollIntoViewIfNeeded();
    await renderedFrames(page);
    expect(await list(page).getAttribute("data-state")).toBe("error");

    down = false;
    await page.getByTestId("news-retry").click();
    expect(await settledAbove(page, 12)).toBe(24);
    expect(asked).toEqual([2, 2, 2, 2]);
    expect(await page.getByTestId("news-error").count()).toBe(0);
    await context.close();
  });

  it("works without JavaScript: the button asks the server for the next pages", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP, javaScriptEnabled: false });
    await page.goto(base + "/news");
    expect(await page.getByTestId("news-card").count()).toBe(12);
    await page.getByTestId("news-load-more").click();
    await page.waitForURL(/\/news\?page=2$/);
    expect(await page.getByTestId("news-card").count()).toBe(24);
    const hrefs = await cardHrefs(page);
    expect(new Set(hrefs).size).toBe(24);
    await context.close();
  });
});
