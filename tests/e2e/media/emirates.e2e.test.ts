/**
 * The emirates page (/emirates): the filter all, adrar, brakna, taganit, trarza with the founding notes,
 * and the cards whose video plays inline, toggles off, and turns itself off when it ends.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localizedPath } from "#domain/addresses.ts";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import type { Browser } from "playwright-core";
import { DESKTOP, hasChromium, hydrated, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import { expectVideoPlays, isActiveChip, sampleAvailable, SAMPLE_MISSING } from "./helpers.ts";

const base = sharedServer().baseUrl;
const NOTES = {
  adrar: "تأسست نحو سنة 1740",
  brakna: "تأسست قبل سنة 1600",
  taganit: "تأسست نحو سنة 1580",
  trarza: "تأسست نحو سنة 1640",
} as const;
const CHIP_NOTES = { adrar: "نحو 1740", brakna: "قبل 1600", taganit: "نحو 1580", trarza: "نحو 1640" } as const;
const NOTES_FR = { adrar: "Fondé vers 1740", brakna: "Fondé avant 1600", taganit: "Fondé vers 1580", trarza: "Fondé vers 1640" } as const;

describe("the emirates page as the server renders it", () => {
  it("offers all and the four emirates, each chip with its founding note", async () => {
    const html = await (await fetch(base + "/emirates")).text();
    expect(isActiveChip(html, "emirates-filter-all")).toBe(true);
    for (const [slug, note] of Object.entries(CHIP_NOTES)) {
      const chip = new RegExp(`data-testid="emirates-filter-${slug}"[^>]*>([^<]+)<`).exec(html);
      expect(chip?.[1], slug).toContain(note);
    }
    for (const note of Object.values(NOTES)) expect(html.includes(note), note).toBe(true);
  });

  it("each filter lists only that emirate's cards, each with its note, and excerpts of at most 120 characters", async () => {
    for (const [slug, note] of Object.entries(NOTES)) {
      const res = await fetch(`${base}/emirates?emirate=${slug}`);
      expect(res.status).toBe(200);
      const html = await res.text();
      const articles = html.slice(html.indexOf('data-testid="emirates-articles"'), html.indexOf('data-testid="emirates-videos"'));
      const notes = [...articles.matchAll(/data-testid="emirate-founded">([^<]+)</g)].map((m) => m[1]);
      expect(notes.length, slug).toBeGreaterThanOrEqual(2);
      expect(new Set(notes), slug).toEqual(new Set([note]));
    }
    const fr = await (await fetch(base + localizedPath("fr", "/emirates?emirate=brakna"))).text();
    expect(fr.includes(NOTES_FR.brakna)).toBe(true);
    expect(isActiveChip(fr, "emirates-filter-brakna")).toBe(true);
  });

  it("answers an unknown emirate with 404", async () => {
    expect((await fetch(base + "/emirates?emirate=hodh")).status).toBe(404);
  });
});

describe.skipIf(!hasChromium)("the emirates page in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it("every filter changes what is listed", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/emirates");
    await hydrated(page);
    const notes = () => page.locator('[data-testid="emirates-articles"] [data-testid="emirate-founded"]').allTextContents();
    expect(new Set(await notes())).toEqual(new Set(Object.values(NOTES)));
    for (const [slug, note] of Object.entries(NOTES)) {
      await page.getByTestId(`emirates-filter-${slug}`).click();
      await page.waitForURL(`${base}/emirates?emirate=${slug}`);
      await expect.poll(async () => [...new Set(await notes())], { timeout: 10_000 }).toEqual([note]);
    }
    await page.getByTestId("emirates-filter-all").click();
    await expect.poll(async () => new Set(await notes()).size).toBe(4);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("plays a card's video inline, toggles it off, and turns it off when the video ends", async (ctx) => {
    if (!(await sampleAvailable(base))) ctx.skip(SAMPLE_MISSING);
    const { page, context, errors } = await newPage(browser, { viewport: PHONE });
    await page.goto(base + "/emirates?emirate=adrar");
    await hydrated(page);
    const card = page.locator('[data-testid="emirate-card"]:has([data-testid="emirate-video-toggle"])').first();
    const toggle = card.getByTestId("emirate-video-toggle");
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await card.locator("video").count()).toBe(0);

    await toggle.click();
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    expect(await card.getAttribute("data-playing")).toBe("true");
    await expectVideoPlays(card);

    // Off by the same button.
    await toggle.click();
    await expect.poll(() => card.locator("video").count()).toBe(0);
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");

    // On again, then to the end: the card turns playback off by itself.
    await toggle.click();
    const video = await expectVideoPlays(card);
    await video.evaluate((v: HTMLVideoElement) => {
      v.currentTime = Math.max(0, v.duration - 0.3);
      return v.play();
    });
    await expect.poll(() => card.getAttribute("data-playing"), { timeout: 15_000 }).toBe("false");
    expect(await card.locator("video").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
