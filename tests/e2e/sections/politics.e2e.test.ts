/**
 * Politics and history in Chromium: the content-type and region filters change what is listed, the sidebars
 * link into the filters, the timeline view groups the items by month in date order, and a video item opens
 * and closes the player modal.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import type { Browser, Page } from "playwright-core";
import { DESKTOP, hasChromium, hydrated, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";

const base = sharedServer().baseUrl;

const items = (page: Page) =>
  page
    .getByTestId("politics-item")
    .evaluateAll((els) =>
      els.map((e) => ({ type: e.getAttribute("data-type"), region: e.getAttribute("data-region"), title: e.querySelector("h3")?.textContent ?? "" })),
    );

describe.skipIf(!hasChromium)("politics and history page", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it("the content-type filter: videos only, articles only, then all again", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/politics");
    await hydrated(page);
    const all = await items(page);
    expect(new Set(all.map((i) => i.type))).toEqual(new Set(["article", "video"]));
    await page.getByTestId("politics-type-videos").click();
    await page.waitForURL(`${base}/politics?type=videos`);
    await expect.poll(async () => new Set((await items(page)).map((i) => i.type))).toEqual(new Set(["video"]));
    await page.getByTestId("politics-type-articles").click();
    await page.waitForURL(`${base}/politics?type=articles`);
    await expect.poll(async () => new Set((await items(page)).map((i) => i.type))).toEqual(new Set(["article"]));
    await page.getByTestId("politics-type-all").click();
    await page.waitForURL(`${base}/politics`);
    await expect.poll(async () => (await items(page)).length).toBe(all.length);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the region filter: every region lists only its items, and the sidebar count matches", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/politics");
    await hydrated(page);
    for (const region of ["uae", "morocco", "mauritania", "sahara", "mali"]) {
      const count = Number(await page.getByTestId(`region-count-${region}`).getByTestId("region-count").textContent());
      await page.getByTestId(`politics-region-${region}`).click();
      await page.waitForURL(`${base}/politics?region=${region}`);
      await expect.poll(async () => new Set((await items(page)).map((i) => i.region)), { message: region }).toEqual(new Set([region]));
      expect((await items(page)).length, region).toBe(count);
    }
    // Filters combine: the region sidebar keeps the type.
    await page.getByTestId("politics-type-videos").click();
    await page.waitForURL(`${base}/politics?region=mali&type=videos`);
    await expect.poll(async () => (await items(page)).every((i) => i.type === "video" && i.region === "mali")).toBe(true);
    await page.getByTestId("region-count-mauritania").click();
    await page.waitForURL(`${base}/politics?region=mauritania&type=videos`);
    await expect.poll(async () => (await items(page)).every((i) => i.type === "video" && i.region === "mauritania")).toBe(true);
    await context.close();
  });

  it("the trending sidebar lists flagged items that link to their article", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/politics");
    const trending = page.getByTestId("trending-item");
    expect(await trending.count()).toBeGreaterThan(0);
    expect(await trending.count()).toBeLessThanOrEqual(5);
    expect(await trending.first().locator("a").getAttribute("href")).toMatch(/^\/articles\/[a-z0-9-]+$/);
    await context.close();
  });

  it("the timeline view groups the items by month, newest first, and honours the filters", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: PHONE });
    await page.goto(base + "/politics");
    await hydrated(page);
    const listed = (await items(page)).length;
    await page.getByTestId("politics-view-timeline").click();
    await page.waitForURL(`${base}/politics?view=timeline`);
    await page.getByTestId("politics-timeline").waitFor();
    expect(await page.getByTestId("politics-list").count()).toBe(0);
    const entries = await page.getByTestId("timeline-item").evaluateAll((els) =>
      els.map((e) => ({
        date: e.getAttribute("data-date")!,
        month: Number(e.closest('[data-testid="timeline-month"]')!.getAttribute("data-month")),
        year: Number(e.closest('[data-testid="timeline-year"]')!.getAttribute("data-year")),
      })),
    );
    expect(entries.length).toBe(listed);
    const times = entries.map((e) => new Date(e.date).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const e of entries) expect([new Date(e.date).getUTCFullYear(), new Date(e.date).getUTCMonth() + 1]).toEqual([e.year, e.month]);
    expect(await page.getByTestId("timeline-month").count()).toBeGreaterThan(1);

    await page.getByTestId("politics-region-morocco").click();
    await page.waitForURL(`${base}/politics?view=timeline&region=morocco`);
    await expect
      .poll(() => page.getByTestId("timeline-item").evaluateAll((els) => els.map((e) => e.getAttribute("data-region"))))
      .toEqual(["morocco", "morocco"]);
    await page.getByTestId("politics-view-list").click();
    await page.waitForURL(`${base}/politics?region=morocco`);
    await page.getByTestId("politics-list").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a video item opens the player in a modal, which closes with its button and with Escape", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/politics?type=videos");
    await hydrated(page);
    const play = page.getByTestId("play-video");
    expect(await play.count()).toBeGreaterThan(1);
    expect(await page.getByTestId("video-modal").count()).toBe(0);
    const title = (await play.nth(1).getAttribute("aria-label"))!;
    await play.nth(1).click();
    const modal = page.getByTestId("video-modal");
    await modal.waitFor();
    expect(page.url()).toBe(`${base}/politics?type=videos`);
    expect(title).toContain((await modal.locator("h2").textContent())!.trim());
    await modal.locator("video").waitFor({ state: "attached" });
    await page.getByTestId("video-modal-close").click();
    await modal.waitFor({ state: "detached" });
    // Focus returns to the control that opened it.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("play-video");

    await play.first().click();
    await modal.waitFor();
    await page.keyboard.press("Escape");
    await modal.waitFor({ state: "detached" });

    // The timeline's watch buttons open it too.
    await page.goto(base + "/politics?view=timeline&type=videos");
    await hydrated(page);
    await page.getByTestId("play-video").first().click();
    await modal.waitFor();
    await page.getByTestId("video-modal-close").click();
    await modal.waitFor({ state: "detached" });
    await context.close();
  });

  it("without JavaScript the filters still work and a video links to its article", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP, javaScriptEnabled: false });
    await page.goto(base + "/politics");
    await page.getByTestId("politics-type-videos").click();
    await page.waitForURL(`${base}/politics?type=videos`);
    expect(new Set((await items(page)).map((i) => i.type))).toEqual(new Set(["video"]));
    expect(await page.getByTestId("play-video").first().getAttribute("href")).toMatch(/^\/articles\//);
    await page.getByTestId("politics-view-timeline").click();
    await page.waitForURL(`${base}/politics?type=videos&view=timeline`);
    expect(await page.getByTestId("timeline-item").count()).toBeGreaterThan(0);
    await context.close();
  });
});
