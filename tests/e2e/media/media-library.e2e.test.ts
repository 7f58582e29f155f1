/**
 * The media library (/media) in Chromium: its filters, the featured block, the video modal (opens, plays,
 * closes by Escape and by its button, gives focus back), and the new-window behaviour of other media.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import type { Browser } from "playwright-core";
import { DESKTOP, hasChromium, hydrated, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import { expectVideoPlays, HLS_CHUNK, isActiveChip, sampleAvailable, SAMPLE_MISSING } from "./helpers.ts";

const base = sharedServer().baseUrl;
const FILTERS = [
  { filter: "video", type: "video" },
  { filter: "audio", type: "audio" },
  { filter: "images", type: "image" },
  { filter: "documents", type: "document" },
] as const;

const typesIn = (html: string) => [...html.matchAll(/data-testid="media-card" data-media-type="(\w+)"/g)].map((m) => m[1]);

/** Every page of a listing, following its "older" link as a reader without JavaScript would. */
async function allPages(path: string): Promise<string[]> {
  const pages: string[] = [];
  for (let next: string | null = path; next;) {
    const res: Response = await fetch(base + next);
    expect(res.status, next).toBe(200);
    const html: string = await res.text();
    pages.push(html);
    expect(pages.length).toBeLessThan(10);
    const tag = /<a\b[^>]*data-testid="pager-older"[^>]*>/.exec(html)?.[0];
    const href = tag ? /\bhref="([^"]+)"/.exec(tag)?.[1] : undefined;
    next = href ? href.replace(/&amp;/g, "&") : null;
  }
  return pages;
}

describe("the media library as the server renders it (no JavaScript needed)", () => {
  it("lists everything under 'all' a page at a time, with a featured block of at most 4 on the first", async () => {
    const pages = await allPages("/media");
    expect(pages.length).toBeGreaterThan(1);
    const html = pages[0];
    const types = pages.flatMap(typesIn);
    expect(types).toHaveLength(48);
    for (const later of pages.slice(1)) expect(later).not.toContain('data-testid="media-featured"');
    expect(new Set(types)).toEqual(new Set(["video", "audio", "image", "document"]));
    const featured = html.slice(html.indexOf('data-testid="media-featured"'), html.indexOf('data-testid="media-list"'));
    expect(typesIn(featured).length).toBeGreaterThan(0);
    expect(typesIn(featured).length).toBeLessThanOrEqual(4);
    expect(isActiveChip(html, "media-filter-all")).toBe(true);
    expect(isActiveChip(html, "media-filter-video")).toBe(false);
  });

  it("each filter link lists its type only", async () => {
    for (const { filter, type } of FILTERS) {
      const res = await fetch(`${base}/media?type=${filter}`);
      expect(res.status, filter).toBe(200);
      const html = await res.text();
      expect(isActiveChip(html, `media-filter-${filter}`), filter).toBe(true);
      const types = typesIn(html);
      expect(types.length, filter).toBe(12);
      expect(new Set(types), filter).toEqual(new Set([type]));
    }
  });

  it("cuts descriptions at 100 characters and fills the spec's defaults", async () => {
    const html = (await allPages("/media")).join("");
    const descriptions = [...html.matchAll(/data-testid="media-description">([^<]*)</g)].map((m) => m[1]);
    expect(descriptions.length).toBe(48);
    for (const d of descriptions) expect([...d.replace(/&[a-z#0-9]+;/g, "x")].length).toBeLessThanOrEqual(101);
  });

  it("answers an unknown filter with 404", async () => {
    expect((await fetch(base + "/media?type=podcasts")).status).toBe(404);
  });
});

describe.skipIf(!hasChromium)("the media library in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it("every filter changes what is listed", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/media");
    await hydrated(page);
    const cards = page.getByTestId("media-card");
    const before = await cards.count();
    for (const { filter, type } of FILTERS) {
      await page.getByTestId(`media-filter-${filter}`).click();
      await page.waitForURL(`${base}/media?type=${filter}`);
      await expect.poll(() => page.getByTestId("media-page").getAttribute("data-filter")).toBe(filter);
      const types = await cards.evaluateAll((els) => els.map((e) => e.getAttribute("data-media-type")));
      expect(types.length, filter).toBe(12);
      expect(new Set(types), filter).toEqual(new Set([type]));
      expect(await page.getByTestId(`media-filter-${filter}`).getAttribute("aria-current")).toBe("true");
    }
    await page.getByTestId("media-filter-all").click();
    await page.waitForURL((url) => url.pathname === "/media" && !url.searchParams.has("type"));
    await expect.poll(() => cards.count()).toBe(before);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("opens a video in the modal, plays it, and closes with Escape and with the close button, giving focus back", async (ctx) => {
    if (!(await sampleAvailable(base))) ctx.skip(SAMPLE_MISSING);
    const { page, context, errors } = await newPage(browser, { viewport: PHONE });
    const hlsRequests: string[] = [];
    page.on("request", (r) => HLS_CHUNK.test(r.url()) && hlsRequests.push(r.url()));
    await page.goto(base + "/media?type=video");
    await hydrated(page);
    const opener = page.locator('[data-testid="media-card"][data-media-type="video"] [data-testid="media-open"]').first();
    const title = (await opener.textContent())!.trim();
    await opener.click();

    const modal = page.getByTestId("video-modal");
    await modal.waitFor();
    expect(await modal.getAttribute("aria-modal")).toBe("true");
    const labelId = await modal.getAttribute("aria-labelledby");
    expect(await page.locator(`[id="${labelId}"]`).textContent()).toBe(title);
    // Focus moved into the dialog.
    expect(await page.evaluate(() => document.activeElement?.closest("dialog") !== null)).toBe(true);
    await expectVideoPlays(modal);
    // The direct file played: hls.js was never fetched.
    expect(hlsRequests).toEqual([]);

    await page.keyboard.press("Escape");
    await modal.waitFor({ state: "detached" });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("media-open");
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe(title);

    await opener.click();
    await modal.waitFor();
    await page.getByTestId("video-modal-close").click();
    await modal.waitFor({ state: "detached" });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("opens other media in a new window with the 'opened in new window' toast", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/media?type=documents");
    await hydrated(page);
    const link = page.getByTestId("media-open").first();
    const href = await link.getAttribute("href");
    expect(href).toMatch(/\.pdf$/);
    expect(await link.getAttribute("target")).toBe("_blank");
    const [popup] = await Promise.all([context.waitForEvent("page"), link.click()]);
    await popup.waitForLoadState("domcontentloaded").catch(() => {});
    expect(popup.url()).toBe(base + href);
    const toast = page.getByTestId("toast");
    await toast.waitFor();
    expect(await toast.textContent()).toContain("فُتح في نافذة جديدة");
    expect(await page.getByTestId("video-modal").count()).toBe(0);
    await context.close();
  });
});
