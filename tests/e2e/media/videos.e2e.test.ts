/**
 * The video library (/videos): search and sort without JavaScript (a GET form) and instantly with it, the
 * no-match state, durations as minutes:seconds, the modal player; and hls.js staying off the pages that
 * never play HLS.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import type { Browser } from "playwright-core";
import { DESKTOP, hasChromium, hydrated, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import { expectVideoPlays, HLS_CHUNK, sampleAvailable, SAMPLE_MISSING, scriptUrlsOf } from "./helpers.ts";

const base = sharedServer().baseUrl;
/** The cards shown: those the query leaves out wait in a <template> for the filter script (decision 0132). */
const shownCards = (html: string) => html.replace(/<template data-video-rest[\s\S]*?<\/template>/, "");
const cardTitles = (html: string) => [...shownCards(html).matchAll(/data-testid="video-open"[^>]*>([^<]+)</g)].map((m) => m[1]);
const durations = (html: string) => [...shownCards(html).matchAll(/data-testid="video-duration"[^>]*>([^<]+)</g)].map((m) => m[1]);
const seconds = (d: string) => d.split(":").reduce((acc, part) => acc * 60 + Number(part), 0);

describe("the video library as the server renders it", () => {
  it("lists the ready demo videos with minutes:seconds durations", async () => {
    const res = await fetch(base + "/videos");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(cardTitles(html)).toHaveLength(12);
    for (const d of durations(html)) expect(d).toMatch(/^\d+:[0-5]\d$/);
    // With ffmpeg each demo video plays a clip of its own (6, 12 or 25 s) and states its true length; without
    // it they all play nothing and keep their nominal lengths (the tidinit lesson's 1260 s).
    expect(durations(html)).toContain((await sampleAvailable(base)) ? "0:25" : "21:00");
  });

  it("searches and sorts from the query string, so the form works without JavaScript", async () => {
    const byDuration = await (await fetch(base + "/videos?sort=duration")).text();
    const secs = durations(byDuration).map(seconds);
    expect(secs).toEqual([...secs].sort((a, b) => b - a));

    const search = await (await fetch(base + "/videos?q=" + encodeURIComponent("شنقيط"))).text();
    expect(cardTitles(search)).toEqual(["جولة في شنقيط القديمة"]);

    const none = await (await fetch(base + "/videos?q=zzzzqqq")).text();
    expect(cardTitles(none)).toEqual([]);
    expect(none.includes('data-testid="videos-no-match"')).toBe(true);
    expect(none.includes("لا توجد فيديوهات تطابق بحثك")).toBe(true);
  });

  it("answers an unknown sort with 400 and a notice, still listing the videos newest first", async () => {
    const res = await fetch(base + "/videos?sort=random");
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html.includes('data-testid="videos-unknown-sort"')).toBe(true);
    expect(cardTitles(html)).toHaveLength(12);
  });

  it("serves playback URLs for a hosted id, and refuses a malformed or unknown one", async () => {
    const html = await (await fetch(base + "/videos")).text();
    const guid = /data-guid="([0-9a-f-]{36})"/.exec(html)![1];
    const ok = await fetch(`${base}/api/videos/${guid}/playback`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("private, max-age=60");
    const { playback } = (await ok.json()) as { playback: { hls?: string; mp4?: string; thumbnail?: string } };
    expect(playback.thumbnail).toBeTruthy();
    if (await sampleAvailable(base)) {
      expect(playback.hls).toBe(`/video-files/${guid}/playlist.m3u8`);
      expect(playback.mp4).toBe(`/video-files/${guid}/play_720p.mp4`);
    }
    expect((await fetch(`${base}/api/videos/not-a-uuid/playback`)).status).toBe(400);
    expect((await fetch(`${base}/api/videos/00000000-0000-4000-8000-00000000abcd/playback`)).status).toBe(404);
  });

  it("keeps hls.js (and the player) off pages that do not play video", async () => {
    const home = await scriptUrlsOf(base, "/");
    const articleSlug = /href="\/articles\/([a-z0-9-]+)"/.exec(await (await fetch(base + "/")).text())?.[1];
    const article = articleSlug ? await scriptUrlsOf(base, `/articles/${articleSlug}`) : [];
    expect(home.length).toBeGreaterThan(0);
    for (const url of [...home, ...article]) {
      expect(url).not.toMatch(HLS_CHUNK);
      expect(url).not.toMatch(/video-player/);
    }
    // Even pages with the player only name hls.js as a lazy import: it is never preloaded.
    for (const path of ["/videos", "/media", "/emirates"]) for (const url of await scriptUrlsOf(base, path)) expect(url, path).not.toMatch(HLS_CHUNK);
  });
});

describe.skipIf(!hasChromium)("the video library in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it("filters as the reader types and sorts as the select changes, keeping the URL in step", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/videos");
    await hydrated(page);
    const titles = () => page.getByTestId("video-open").allTextContents();
    expect(await titles()).toHaveLength(12);
    // The submit button is for readers without JavaScript only.
    expect(await page.locator('[data-testid="videos-form"] button[type="submit"]').isVisible()).toBe(false);

    await page.getByTestId("videos-search").fill("تجكجة");
    await expect.poll(titles).toEqual(["نخيل تجكجة"]);
    await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe("تجكجة");

    await page.getByTestId("videos-search").fill("zzzzqqq");
    await page.getByTestId("videos-no-match").waitFor();
    await page.getByTestId("videos-search").fill("");
    await expect.poll(async () => (await titles()).length).toBe(12);

    const secondsShown = async () => (await page.getByTestId("video-duration").allTextContents()).map(seconds);
    await page.getByTestId("videos-sort").selectOption("duration");
    await expect.poll(secondsShown).toEqual([...(await secondsShown())].sort((a, b) => b - a));
    expect(new URL(page.url()).searchParams.get("sort")).toBe("duration");
    const longestFirst = await titles();

    await page.getByTestId("videos-sort").selectOption("views");
    await expect.poll(titles).not.toEqual(longestFirst);
    const views = (await page.getByTestId("video-views").allTextContents()).map((v) => Number(v.replace(/\D/g, "")));
    expect(views).toEqual([...views].sort((a, b) => b - a));

    await page.getByTestId("videos-sort").selectOption("title");
    const byTitle = await titles();
    expect(byTitle).toEqual([...byTitle].sort(new Intl.Collator("ar").compare));
    expect(errors).toEqual([]);
    await context.close();
  });

  it("plays a video from the grid in the modal, and closes it with Escape", async (ctx) => {
    if (!(await sampleAvailable(base))) ctx.skip(SAMPLE_MISSING);
    const { page, context, errors } = await newPage(browser, { viewport: PHONE });
    await page.goto(base + "/videos");
    await hydrated(page);
    await page.getByTestId("video-open").first().click();
    const modal = page.getByTestId("video-modal");
    await modal.waitFor();
    await expectVideoPlays(modal);
    await page.keyboard.press("Escape");
    await modal.waitFor({ state: "detached" });
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("video-open");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("works without JavaScript: the form submits and the results follow", async () => {
    const { page, context } = await newPage(browser, { viewport: PHONE, javaScriptEnabled: false });
    await page.goto(base + "/videos");
    await page.getByTestId("videos-search").fill("شنقيط");
    await page.getByTestId("videos-sort").selectOption("title");
    await page.locator('[data-testid="videos-form"] button[type="submit"]').click();
    await page.waitForURL((url) => url.searchParams.get("q") === "شنقيط");
    expect(new URL(page.url()).searchParams.get("sort")).toBe("title");
    expect(await page.getByTestId("video-open").allTextContents()).toEqual(["جولة في شنقيط القديمة"]);
    await context.close();
  });
});
