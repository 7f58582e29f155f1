/**
 * Embeds that ask first (issue 46, decision 0150): an article whose body holds a YouTube video and a Facebook post
 * (each pasted as its address alone in a paragraph) shows a placeholder naming each service, and the page sends no
 * request to their hosts until the reader presses its button; then the service's player is framed. Without
 * JavaScript the button stays hidden and the link to the post is there. With EMBEDS_ALLOWED=youtube the video is
 * framed at once and the post still asks. Every request that would leave the machine is answered by a local stub
 * (context.route) and recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { DESKTOP, hasChromium, hydrated, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import { allA11yViolations, horizontalOverflow } from "#tests/e2e/support/a11y.ts";
import { E2E_SECRET, startAuthServer, type AuthServer } from "#tests/e2e/auth/support.ts";
import { startServer, type RunningServer } from "#tests/e2e/support/server.ts";
import { validInput } from "#tests/helpers/content.ts";
import { categories } from "#server/db/schema.server.ts";

const YOUTUBE = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";
const FACEBOOK = "https://www.facebook.com/saharamedias/posts/pfbid0abcdef";
const THIRD_PARTY = /youtube|ytimg|googlevideo|facebook|fbcdn|twitter|instagram|tiktok|vimeo|dailymotion|t\.me/;

/** Answers every request for another host with a blank page, and records it. */
async function stubThirdParties(context: BrowserContext, base: string): Promise<string[]> {
  const seen: string[] = [];
  const ours = new URL(base).origin;
  await context.route(
    (url) => url.origin !== ours,
    (route) => {
      seen.push(route.request().url());
      return route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>stub</title><p>stub player</p>" });
    },
  );
  return seen;
}

const LABELS = {
  ar: { youtube: "محتوى من YouTube", load: "تحميل المحتوى من YouTube", open: "مشاهدته على Facebook" },
  fr: { youtube: "Contenu de YouTube", load: "Charger le contenu de YouTube", open: "Voir sur Facebook" },
  en: { youtube: "Content from YouTube", load: "Load the YouTube content", open: "View on Facebook" },
} as const;

describe.skipIf(!hasChromium)("embeds that ask first", () => {
  let browser: Browser;
  let server: AuthServer<"chief">;
  let allowed: RunningServer | null = null;
  let articlePath = "";

  beforeAll(async () => {
    let categoryId = 0;
    server = await startAuthServer({
      personas: { chief: { email: "chief@embeds.test", password: "Passw0rdA", role: "admin", name: "مريم" } },
      prepare: async (db) => {
        const [c] = await db.insert(categories).values({ name: "ثقافة", nameFr: "Culture", slug: "culture", type: "culture" }).returning({ id: categories.id });
        categoryId = c.id;
      },
    });
    const content = [
      "<p>مقدمة المقال قبل الفيديو والمنشور المضمنين فيه.</p>",
      `<p><a href="${YOUTUBE}">${YOUTUBE}</a></p>`,
      "<p>فقرة بين المضمَّنين.</p>",
      `<p><a href="${FACEBOOK}">${FACEBOOK}</a></p>`,
    ].join("");
    const res = await fetch(`${server.url}/api/admin/articles`, {
      method: "POST",
      headers: { origin: server.url, cookie: server.personas.chief.cookie, "content-type": "application/json" },
      body: JSON.stringify({ ...validInput("article", categoryId, "مقال بفيديو ومنشور مضمنين"), content }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    articlePath = ((await res.json()) as { url: string }).url;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await allowed?.stop();
    await server?.stop();
  });

  async function open(base: string, path: string, opts: Parameters<typeof newPage>[1] = {}) {
    const made = await newPage(browser, opts);
    const requests = await stubThirdParties(made.context, base);
    await made.page.goto(base + path);
    if (opts.javaScriptEnabled !== false) await hydrated(made.page);
    return { ...made, requests };
  }

  const embed = (page: Page, service: string) => page.locator(`[data-testid="embed"][data-embed="${service}"]`);

  for (const [lang, viewport, label] of [
    ["ar", PHONE, "375"],
    ["ar", DESKTOP, "1280"],
    ["fr", PHONE, "375"],
    ["fr", DESKTOP, "1280"],
    ["en", PHONE, "375"],
  ] as const) {
    it(`${lang} at ${label} px: nothing of YouTube's or Facebook's loads before the click; the click frames the player`, async () => {
      const path = lang === "ar" ? articlePath : `/${lang}${articlePath}`;
      const { context, page, requests, errors } = await open(server.url, path, { viewport });
      const youtube = embed(page, "youtube");
      const facebook = embed(page, "facebook");
      expect(await youtube.getAttribute("data-state")).toBe("asking");
      expect(await facebook.getAttribute("data-state")).toBe("asking");
      expect(await youtube.getByTestId("embed-placeholder").locator("p").first().textContent()).toBe(LABELS[lang].youtube);
      expect(await facebook.getByTestId("embed-link").textContent()).toBe(LABELS[lang].open);
      expect(await facebook.getByTestId("embed-link").getAttribute("href")).toBe(FACEBOOK);
      // The page has loaded everything it loads by itself: nothing went to the services, no frame is there.
      await page.waitForLoadState("load");
      expect(requests.filter((u) => THIRD_PARTY.test(u))).toEqual([]);
      expect(await page.locator("iframe").count()).toBe(0);
      expect(await horizontalOverflow(page)).toBe(0);
      expect(await allA11yViolations(page, '[data-testid="article-body"]')).toEqual([]);

      const button = youtube.getByTestId("embed-load");
      expect(await button.textContent()).toBe(LABELS[lang].load);
      const framed = page.waitForRequest((r) => r.url().startsWith("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"));
      await button.click();
      await framed;
      await youtube.locator('iframe[src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"]').waitFor();
      expect(await youtube.getAttribute("data-state")).toBe("loaded");
      expect(await youtube.locator("iframe").getAttribute("title")).toContain("YouTube");
      // Only the service asked for: the Facebook post still waits.
      expect(requests.filter((u) => /facebook|fbcdn/.test(u))).toEqual([]);
      expect(await facebook.getAttribute("data-state")).toBe("asking");

      const post = page.waitForRequest((r) => r.url().startsWith("https://www.facebook.com/plugins/post.php?href="));
      await facebook.getByTestId("embed-load").click();
      await post;
      await facebook.locator("iframe").waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("without JavaScript: no button, the link to each post, and no request to their hosts", async () => {
    const { context, page, requests } = await open(server.url, `/fr${articlePath}`, { viewport: PHONE, javaScriptEnabled: false });
    await page.waitForLoadState("load");
    expect(await page.getByTestId("embed-load").first().isVisible()).toBe(false);
    expect(await embed(page, "youtube").getByTestId("embed-link").getAttribute("href")).toBe(YOUTUBE);
    expect(await embed(page, "youtube").getByTestId("embed-link").isVisible()).toBe(true);
    expect(requests.filter((u) => THIRD_PARTY.test(u))).toEqual([]);
    expect(await page.locator("iframe").count()).toBe(0);
    await context.close();
  });

  it("with EMBEDS_ALLOWED=youtube the video is framed at once and the Facebook post still asks", async () => {
    await server.stop();
    allowed = await startServer({ DATA_DIR: server.dataDir, BETTER_AUTH_SECRET: E2E_SECRET, SEED_DEMO: "false", EMBEDS_ALLOWED: "youtube" });
    const { context, page, requests } = await open(allowed.url, articlePath, { viewport: DESKTOP });
    const youtube = embed(page, "youtube");
    expect(await youtube.getAttribute("data-state")).toBe("loaded");
    expect(await youtube.locator("iframe").getAttribute("src")).toBe("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ");
    expect(await embed(page, "facebook").getAttribute("data-state")).toBe("asking");
    await youtube.locator("iframe").scrollIntoViewIfNeeded();
    await expect.poll(() => requests.some((u) => u.startsWith("https://www.youtube-nocookie.com/embed/"))).toBe(true);
    expect(requests.filter((u) => /facebook|fbcdn/.test(u))).toEqual([]);
    await context.close();
  });
});
