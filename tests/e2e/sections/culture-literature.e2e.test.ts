/**
 * Culture and literature in Chromium: every chip changes what is listed (with and without JavaScript),
 * excerpts go through the 120-character cut, poems preview 4 lines when featured and 2 in the list. (The demo
 * excerpts are all shorter than the cut; section-pages.render.test.ts checks the cut on long texts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import type { Browser, Page } from "playwright-core";
import { DESKTOP, hasChromium, hydrated, launchBrowser, newPage } from "#tests/e2e/support/browser.ts";
import { CULTURE_ARTICLES } from "#server/db/seed-data/articles-culture.ts";
import { excerpt } from "#domain/format.ts";

const base = sharedServer().baseUrl;

/** Titles of the cards with this test id, in page order. */
const titles = (page: Page, testId: string) => page.getByTestId(testId).locator("h3").allTextContents();

describe.skipIf(!hasChromium)("culture and literature pages", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it("culture: each chip lists only its category, and 'all' brings everything back", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/culture");
    await hydrated(page);
    const all = await titles(page, "culture-card");
    expect(all.length).toBeGreaterThan(8);
    expect(await page.getByTestId("culture-chip-all").getAttribute("aria-current")).toBe("true");
    const chips = await page
      .getByTestId("culture-chip")
      .locator("a")
      .evaluateAll((links) => links.map((a) => a.getAttribute("data-testid")!.replace("culture-chip-", "")));
    expect(chips).toEqual(["all", "music", "crafts", "manuscripts", "architecture"]);
    for (const chip of chips.slice(1)) {
      const link = page.getByTestId(`culture-chip-${chip}`);
      const label = (await link.textContent())!.trim();
      await link.click();
      await page.waitForURL(`${base}/culture?category=${chip}`);
      await expect.poll(() => link.getAttribute("aria-current")).toBe("true");
      const shown = await titles(page, "culture-card");
      expect(shown.length, chip).toBeGreaterThan(0);
      expect(shown.length, chip).toBeLessThan(all.length);
      // Every card carries the chip's category name.
      const categories = await page.getByTestId("culture-card").locator("span.text-desert-700").allTextContents();
      expect(new Set(categories), chip).toEqual(new Set([label]));
    }
    await page.getByTestId("culture-chip-all").click();
    await page.waitForURL(`${base}/culture`);
    await expect.poll(() => titles(page, "culture-card")).toEqual(all);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("culture: every card shows its excerpt through the 120-character cut", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/culture");
    const cards = await page
      .getByTestId("culture-card")
      .evaluateAll((els) => els.map((c) => ({ title: c.querySelector("h3")?.textContent ?? "", excerpt: c.querySelector("h3 + p")?.textContent ?? "" })));
    expect(cards.length).toBeGreaterThan(8);
    for (const card of cards) {
      const seed = CULTURE_ARTICLES.find((a) => a.title === card.title)!;
      expect(seed, card.title).toBeDefined();
      expect(card.excerpt).toBe(excerpt(seed.excerpt, 120));
    }
    await context.close();
  });

  it("culture chips work without JavaScript", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP, javaScriptEnabled: false });
    await page.goto(base + "/culture");
    const before = await titles(page, "culture-card");
    await page.getByTestId("culture-chip-crafts").click();
    await page.waitForURL(`${base}/culture?category=crafts`);
    const after = await titles(page, "culture-card");
    expect(after.length).toBeGreaterThan(0);
    expect(after).not.toEqual(before);
    await context.close();
  });

  it("literature: each type lists only that type, featured and full lists follow", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/literature");
    await hydrated(page);
    const allTypes = new Set(await page.getByTestId("literature-item").evaluateAll((items) => items.map((i) => i.getAttribute("data-type"))));
    expect(allTypes.size).toBeGreaterThanOrEqual(4);
    for (const type of ["poetry", "prose", "folktales", "translations"]) {
      await page.getByTestId(`literature-type-${type}`).click();
      await page.waitForURL(`${base}/literature?type=${type}`);
      await expect.poll(() => page.getByTestId(`literature-type-${type}`).getAttribute("aria-current")).toBe("true");
      const types = await page
        .locator('[data-testid="literature-item"], [data-testid="literature-featured-item"]')
        .evaluateAll((items) => items.map((i) => i.getAttribute("data-type")));
      expect(types.length, type).toBeGreaterThan(0);
      expect(new Set(types), type).toEqual(new Set([type]));
    }
    await page.getByTestId("literature-type-all").click();
    await page.waitForURL(`${base}/literature`);
    await expect
      .poll(async () => new Set(await page.getByTestId("literature-item").evaluateAll((items) => items.map((i) => i.getAttribute("data-type")))).size)
      .toBe(allTypes.size);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("literature: a featured poem shows 4 verse lines, a listed one 2; other excerpts stop at 120", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/literature");
    const featuredPoem = page.locator('[data-testid="literature-featured-item"][data-type="poetry"]').first();
    await expect.poll(() => featuredPoem.getByTestId("verse-line").count()).toBe(4);
    const listedPoems = page.locator('[data-testid="literature-item"][data-type="poetry"]');
    const n = await listedPoems.count();
    expect(n).toBeGreaterThan(1);
    for (let i = 0; i < n; i++) expect(await listedPoems.nth(i).getByTestId("verse-line").count()).toBe(2);
    for (const text of await page.getByTestId("literature-excerpt").allTextContents()) expect(text.length, text).toBeLessThanOrEqual(121);
    await context.close();
  });
});
