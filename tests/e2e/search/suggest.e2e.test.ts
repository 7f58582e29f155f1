/**
 * Suggestions as you type in the header's search (decision 0128), in Chromium: the script is loaded on the
 * field's first focus and not before; the field is an ARIA 1.2 combobox (arrows move through the listbox and set
 * aria-activedescendant, Enter opens the one chosen or else searches, Escape closes); in Arabic (RTL) on a static
 * page (reading.js loads it) and in French (LTR) on a hydrated one (React loads it). Without JavaScript the
 * header's search still leads to a search that works.
 */
import { localizedPath } from "#domain/addresses.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import { DESKTOP, hasChromium, hydrated, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import { allA11yViolations, useLanguage } from "#tests/e2e/support/a11y.ts";

const base = sharedServer().baseUrl;
const ARTICLE = "/articles/adrar-emirate-palms-and-caravans";
const TITLE_AR = "إمارة آدرار: النخيل والقوافل وسلطة الأمراء";
const TITLE_FR = "L'émirat de l'Adrar : palmeraies, caravanes et pouvoir";

/** The requests for the suggestions' script and for suggestions a page made. */
function watchRequests(page: Page) {
  const seen = { script: 0, api: 0 };
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (/\/suggest[^/]*\.js$/.test(pathname)) seen.script++;
    if (pathname === "/api/search/suggest") seen.api++;
  });
  return seen;
}

const field = (page: Page) => page.getByTestId("search-input");
const listbox = (page: Page) => page.getByRole("listbox");
const attr = (page: Page, name: string) => field(page).getAttribute(name);

describe.skipIf(!hasChromium)("suggestions as you type", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it("in Arabic on a static page: loaded on focus, a combobox the keyboard drives, right to left", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: DESKTOP });
    await useLanguage(page, base, "ar");
    const seen = watchRequests(page);
    await page.goto(base + "/");
    await hydrated(page);
    // Not loaded with the page.
    expect(seen.script).toBe(0);
    expect(await page.locator("script[src*='suggest']").count()).toBe(0);

    await page.getByTestId("search-button").click();
    await expect.poll(() => field(page).evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(() => seen.script).toBe(1);
    await expect.poll(() => attr(page, "role")).toBe("combobox");
    expect(await attr(page, "aria-expanded")).toBe("false");
    expect(await attr(page, "aria-autocomplete")).toBe("list");
    const listId = await attr(page, "aria-controls");
    expect(listId).toBe("site-search-q-list");

    // Typed without hamza: every emirate's title.
    await page.keyboard.type("امارة");
    const options = listbox(page).getByRole("option");
    await expect.poll(() => options.count()).toBeGreaterThan(1);
    const count = await options.count();
    expect(await attr(page, "aria-expanded")).toBe("true");
    expect(await listbox(page).getAttribute("id")).toBe(listId);
    expect(await listbox(page).evaluate((el) => getComputedStyle(el).direction)).toBe("rtl");
    // The list lies under the field, inside the page.
    const [box, input] = [await listbox(page).boundingBox(), await field(page).boundingBox()];
    expect(box && input && box.y >= input.y + input.height - 1 && box.x >= 0 && box.x + box.width <= DESKTOP.width).toBe(true);
    expect(await allA11yViolations(page, "#site-search")).toEqual([]);

    // Arrows move the active option, round the ends; the field keeps the focus and names it.
    await page.keyboard.press("ArrowDown");
    expect(await attr(page, "aria-activedescendant")).toBe(`${listId}-0`);
    expect(await options.nth(0).getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("ArrowDown");
    expect(await attr(page, "aria-activedescendant")).toBe(`${listId}-1`);
    expect(await options.nth(0).getAttribute("aria-selected")).toBe("false");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    expect(await attr(page, "aria-activedescendant")).toBe(`${listId}-${count - 1}`);
    expect(await field(page).evaluate((el) => el === document.activeElement)).toBe(true);

    // Escape closes, the text stays; ArrowDown opens again.
    await page.keyboard.press("Escape");
    await expect.poll(() => listbox(page).isHidden()).toBe(true);
    expect(await attr(page, "aria-expanded")).toBe("false");
    expect(await attr(page, "aria-activedescendant")).toBeNull();
    expect(await field(page).inputValue()).toBe("امارة");
    await page.keyboard.press("ArrowDown");
    expect(await attr(page, "aria-expanded")).toBe("true");

    // A second word, unfinished and without madda, narrows the list to Adrar's; nothing is chosen yet.
    await page.keyboard.type(" ادر");
    await listbox(page).getByRole("option", { name: TITLE_AR }).waitFor();
    await expect.poll(() => attr(page, "aria-activedescendant")).toBeNull();

    // Enter on the chosen suggestion opens it.
    const index = await options.evaluateAll((els, title) => els.findIndex((el) => el.textContent === title), TITLE_AR);
    for (let i = 0; i <= index; i++) await page.keyboard.press("ArrowDown");
    expect(await attr(page, "aria-activedescendant")).toBe(`${listId}-${index}`);
    await page.keyboard.press("Enter");
    await page.waitForURL(base + ARTICLE);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("in Arabic, Enter with no suggestion chosen searches, as the form does", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: PHONE });
    await useLanguage(page, base, "ar");
    await page.goto(base + ARTICLE);
    await hydrated(page);
    await page.getByTestId("search-button").click();
    await expect.poll(() => attr(page, "role")).toBe("combobox");
    await page.keyboard.type("امارة ادرار");
    await listbox(page).getByRole("option").first().waitFor();
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname === "/search" && url.searchParams.get("q") === "امارة ادرار");
    await page.locator(`[data-testid="search-result"] a[href="${ARTICLE}"]`).first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("in French on a hydrated page: React loads it on focus, left to right, French titles", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: PHONE, locale: "fr" });
    const seen = watchRequests(page);
    await page.goto(base + "/fr/news");
    await hydrated(page);
    expect(seen.script).toBe(0);
    await page.getByTestId("search-button").click();
    await expect.poll(() => field(page).evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(() => attr(page, "role")).toBe("combobox");
    expect(seen.script).toBe(1);

    await page.keyboard.type("palmeraies car");
    const option = listbox(page).getByRole("option", { name: TITLE_FR });
    await option.waitFor();
    expect(await listbox(page).evaluate((el) => getComputedStyle(el).direction)).toBe("ltr");
    expect(await listbox(page).getAttribute("aria-label")).toBe("Suggestions de recherche");
    expect(await allA11yViolations(page, "#site-search")).toEqual([]);

    const options = listbox(page).getByRole("option");
    const index = await options.evaluateAll((els, title) => els.findIndex((el) => el.textContent === title), TITLE_FR);
    for (let i = 0; i <= index; i++) await page.keyboard.press("ArrowDown");
    expect(await options.nth(index).getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("Enter");
    // The suggestion leads to the item in the page's language.
    await page.waitForURL(base + localizedPath("fr", ARTICLE));
    // The suggestions were asked for in the page's language, not once per key.
    expect(seen.api).toBeGreaterThan(0);
    expect(seen.api).toBeLessThan("palmeraies car".length);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("without JavaScript the header's search leads to a search that works", async () => {
    const { page, context } = await newPage(browser, { javaScriptEnabled: false, viewport: PHONE });
    await page.goto(base + "/");
    const link = page.getByTestId("search-button");
    expect(await link.getAttribute("href")).toBe("/search");
    // The field is a plain field in the HTML: no combobox without the script that makes it one.
    expect(await page.locator("#site-search-q[role=combobox]").count()).toBe(0);
    await link.click();
    await page.waitForURL((url) => url.pathname === "/search");
    await page.getByTestId("search-page-input").fill("امارة ادرار");
    await page.getByTestId("search-page-input").press("Enter");
    await page.waitForURL((url) => url.pathname === "/search" && url.searchParams.get("q") === "امارة ادرار");
    expect(await page.locator(`[data-testid="search-result"] a[href="${ARTICLE}"]`).count()).toBe(1);
    await context.close();
  });
});
