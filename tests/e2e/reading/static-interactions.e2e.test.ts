/**
 * The public pages that stopped hydrating in issue 30 (decision 0131), each interaction with JavaScript on and
 * off, in Chromium: the page is the server's HTML plus its enhancement modules, and what a reader does works
 * the same both ways. The listing's load-more, the contact form, the opinion forms and the culture chips have
 * their own files (news-list, failures, contact, opinion, culture-literature); these are the rest: the search
 * page's form and paging, the literature filters, the programs list, and the forms' in-page checks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import { DESKTOP, hasChromium, hydrated, launchBrowser, newPage, PHONE, recordFormPosts } from "#tests/e2e/support/browser.ts";
import ar from "#domain/locales/ar/common.json" with { type: "json" };

const base = sharedServer().baseUrl;

describe.skipIf(!hasChromium)("public pages without React, with JavaScript and without", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  for (const javaScriptEnabled of [true, false]) {
    const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";
    const open = async (path: string, viewport = DESKTOP) => {
      const opened = await newPage(browser, { viewport, javaScriptEnabled });
      await opened.page.goto(base + path);
      if (javaScriptEnabled) await hydrated(opened.page);
      // No React: no router context in the HTML, none on the page (the page runs scripts only with JavaScript on).
      expect(await opened.page.content()).not.toContain("__reactRouterContext");
      if (javaScriptEnabled) expect(await opened.page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
      return opened;
    };

    it(`search (${mode}): a new search from the page's form, then the next page of results and back`, async () => {
      const { page, context, errors } = await open("/search");
      await page.getByTestId("search-page-input").fill("في");
      await page.getByTestId("search-page-input").press("Enter");
      await page.waitForURL(/\/search\?q=/);
      await page.getByTestId("search-result").first().waitFor();
      expect(await page.getByTestId("search-result").count()).toBe(20);
      const firstPage = await page.getByTestId("search-result").first().textContent();
      await page.getByTestId("search-next").click();
      await page.waitForURL(/page=2/);
      await page.getByTestId("search-result").first().waitFor();
      expect(await page.getByTestId("search-result").first().textContent()).not.toBe(firstPage);
      await page.locator('[rel="prev"]').first().click();
      await page.waitForURL((url) => !url.search.includes("page="));
      expect(await page.getByTestId("search-result").first().textContent()).toBe(firstPage);
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`literature (${mode}): a type chip lists only that type, and 'all' brings every type back`, async () => {
      const { page, context, errors } = await open("/literature");
      await page.getByTestId("literature-type-poetry").click();
      await page.waitForURL(`${base}/literature?type=poetry`);
      expect(await page.getByTestId("literature-type-poetry").getAttribute("aria-current")).toBe("true");
      const types = await page.getByTestId("literature-item").evaluateAll((items) => items.map((i) => i.getAttribute("data-type")));
      expect(new Set(types)).toEqual(new Set(["poetry"]));
      await page.getByTestId("literature-type-all").click();
      await page.waitForURL(`${base}/literature`);
      const all = await page.getByTestId("literature-item").evaluateAll((items) => items.map((i) => i.getAttribute("data-type")));
      expect(new Set(all).size).toBeGreaterThan(1);
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`programs (${mode}): the list of programs and podcasts leads to each one's page`, async () => {
      const { page, context, errors } = await open("/programs", PHONE);
      const programs = page.getByTestId("programs-section").locator('a[href^="/programs/"]');
      const podcasts = page.getByTestId("podcasts-section").locator('a[href^="/podcasts/"]');
      expect(await programs.count()).toBeGreaterThan(0);
      expect(await podcasts.count()).toBeGreaterThan(0);
      const href = (await podcasts.first().getAttribute("href"))!;
      await podcasts.first().click();
      await page.waitForURL(base + href);
      await page.getByTestId("detail-title").waitFor();
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("the forms' checks in the page: the server's messages, cleared as the reader corrects, nothing sent until right", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: PHONE });
    const posts = recordFormPosts(page);
    await page.goto(base + "/opinion");
    await hydrated(page);
    // Newsletter: an empty address, then a wrong one, each with the server's message in Arabic.
    await page.getByTestId("newsletter-submit").click();
    expect(await page.getByTestId("newsletter-error").textContent()).toBe(ar.newsletter.errors.emailRequired);
    await page.fill("#newsletter-email", "not-an-address");
    expect(await page.getByTestId("newsletter-error").textContent()).toBe(ar.newsletter.errors.email);
    expect(await page.locator("#newsletter-email").getAttribute("aria-invalid")).toBe("true");
    // The write-article box: a summary under 30 characters, with the hint kept under its message.
    await page.fill("#proposal-name", "مريم");
    await page.fill("#proposal-email", "mariem@example.mr");
    await page.fill("#proposal-title", "عنوان");
    await page.fill("#proposal-summary", "قصير");
    await page.getByTestId("proposal-submit").click();
    expect(await page.getByTestId("proposal-error-summary").textContent()).toBe(ar.proposal.errors.summaryTooShort);
    expect(await page.locator("#proposal-summary-hint").isVisible()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("proposal-summary");
    await page.fill("#proposal-summary", "فكرة مقال عن المحاظر في شنقيط وتاريخها الطويل");
    expect(await page.getByTestId("proposal-error-summary").count()).toBe(0);
    expect(await page.locator("#proposal-summary").getAttribute("aria-invalid")).toBeNull();
    expect(posts).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("from the React application, a public page is a document load with its own modules, not a React render", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: DESKTOP });
    const markDocument = () => page.evaluate(() => ((window as unknown as { documentMark: boolean }).documentMark = true));
    const sameDocument = () => page.evaluate(() => "documentMark" in window);
    await page.goto(`${base}/auth`);
    await hydrated(page);
    expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(true);
    // A mark on this document: a client-side navigation keeps it, a document load does not.
    await markDocument();
    await page.getByTestId("nav-link-news").click();
    await page.waitForURL(`${base}/news`);
    await hydrated(page);
    expect(await sameDocument()).toBe(false);
    expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
    // The listing's own module is on the page, so load-more is the script's, not a plain link.
    expect(await page.locator('script[type="module"][src*="/assets/news"]').count()).toBe(1);
    // The header's search form too: the results page comes from the server.
    await page.goto(`${base}/auth`);
    await hydrated(page);
    await markDocument();
    await page.getByTestId("search-button").click();
    await page.getByTestId("search-input").fill("شنقيط");
    await page.getByTestId("search-input").press("Enter");
    await page.waitForURL(/\/search\?q=/);
    await hydrated(page);
    expect(await sameDocument()).toBe(false);
    // An account page stays in the application: no document load between them.
    await page.goto(`${base}/auth`);
    await hydrated(page);
    await markDocument();
    await page.getByTestId("forgot-link").click();
    await page.waitForURL(`${base}/auth/forgot`);
    expect(await sameDocument()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
