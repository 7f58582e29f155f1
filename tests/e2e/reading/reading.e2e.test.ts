import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import type { Browser } from "playwright-core";
import { DESKTOP, hasChromium, hydrated, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";

const base = sharedServer().baseUrl;
const html = async (path: string, init?: RequestInit) => {
  const res = await fetch(base + path, { redirect: "manual", ...init });
  return { status: res.status, location: res.headers.get("location"), body: await res.text() };
};
const firstHref = (body: string, prefix: string) => new RegExp(`href="(${prefix}/[a-z0-9-]+)"`).exec(body)?.[1];

describe("reading pages over HTTP", () => {
  it("home renders its sections in order with cards that link to detail pages", async () => {
    const { status, body } = await html("/");
    expect(status).toBe(200);
    const order = ["home-hero", "home-featured", "home-shows", "home-latest", "home-culture", "home-literature", "home-contribute", "home-join"];
    const positions = order.map((id) => body.indexOf(`data-testid="${id}"`));
    for (const [i, p] of positions.entries()) expect(p, order[i]).toBeGreaterThan(-1);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect((body.match(/data-testid="home-featured"[\s\S]*?data-testid="home-shows"/)?.[0].match(/data-testid="article-card"/g) ?? []).length).toBe(3);
    expect(firstHref(body, "/articles")).toBeTruthy();
    expect(firstHref(body, "/programs") ?? firstHref(body, "/podcasts")).toBeTruthy();
  });

  it("a detail page has its title, canonical URL, Open Graph, Twitter card and JSON-LD", async () => {
    const list = await html("/news");
    const href = firstHref(list.body, "/news")!;
    const { status, body } = await html(href);
    expect(status).toBe(200);
    expect(body).toContain(`<link rel="canonical" href="${base}${href}"/>`);
    for (const p of ["og:title", "og:description", "og:url", "og:image", "og:type"]) expect(body).toMatch(new RegExp(`<meta property="${p}" content="[^"]+"`));
    expect(body).toMatch(/<meta name="twitter:card" content="summary_large_image"/);
    const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(body)![1]) as Record<string, unknown>;
    expect(ld["@type"]).toBe("NewsArticle");
    expect(ld.headline).toBeTruthy();
    expect(ld.datePublished).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(body).toContain('data-testid="related"');
    expect((body.match(/data-testid="related-card"/g) ?? []).length).toBeLessThanOrEqual(4);
  });

  it("every detail type opens, and an id redirects to the slug URL", async () => {
    const programs = await html("/programs");
    for (const prefix of ["/programs", "/podcasts"]) {
      const href = firstHref(programs.body, prefix)!;
      expect((await html(href)).status, href).toBe(200);
    }
    const podcast = await html(firstHref(programs.body, "/podcasts")!);
    expect(podcast.body).toContain('data-testid="podcast-audio"');
    expect(podcast.body).toMatch(/"@type":"PodcastEpisode"/);
    const article = await html("/articles/1");
    expect(article.status).toBe(301);
    expect(article.location).toMatch(/^\/articles\/[a-z0-9-]+$/);
  });

  it("answers 404 for drafts, unknown slugs, malformed keys and unknown ids", async () => {
    for (const path of [
      "/articles/ouadane-visitor-guide-draft",
      "/news/draft-weather-bulletin-update",
      "/programs/maqal-salt-of-ijil-draft",
      "/podcasts/tent-talk-s2e5-draft",
      "/coverage/no-such-coverage",
      "/articles/999999",
      "/news/12abc!",
      `/articles/${"x".repeat(300)}`,
      "/articles/%3Cscript%3E",
    ]) {
      const { status, body } = await html(path);
      expect(status, path).toBe(404);
      expect(body).toContain('data-testid="not-found"');
    }
  });

  it("the news listing pages without JavaScript and refuses a bad page number", async () => {
    const one = await html("/news");
    const two = await html("/news?page=2");
    const count = (b: string) => (b.match(/data-testid="news-card"/g) ?? []).length;
    expect(count(one.body)).toBe(12);
    expect(count(two.body)).toBe(24);
    // The load-more button is a GET form for the next page.
    expect(one.body).toMatch(/<form action="\/news" method="get"><input type="hidden" name="page" value="2"\/>/);
    expect((await html("/news?page=0")).status).toBe(400);
    expect((await html("/news?page=abc")).status).toBe(400);
    expect((await html(`/news?page=${"9".repeat(50)}`)).status).toBe(400);
    const api = await fetch(base + "/api/news?page=-1");
    expect(api.status).toBe(400);
    const { error } = (await api.json()) as { error: { code: string; fields: Record<string, string> } };
    expect(error.code).toBe("INVALID_QUERY");
    expect(Object.keys(error.fields)).toEqual(["page"]);
  });

  it("programs and podcasts are listed 12 at most each, with cards to their pages", async () => {
    const { body } = await html("/programs");
    expect((body.match(/data-testid="program-card"/g) ?? []).length).toBe(8);
    expect((body.match(/data-testid="podcast-card"/g) ?? []).length).toBe(8);
    expect(body).not.toContain("maqal-salt-of-ijil-draft");
  });
});

describe.skipIf(!hasChromium)("reading in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it("home cards open their article", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/");
    await hydrated(page);
    const card = page.getByTestId("home-featured").getByTestId("article-card").first();
    const title = (await card.locator("h3").textContent())!.trim();
    await card.locator("h3 a").click();
    await page.waitForURL(/\/articles\/[a-z0-9-]+$/);
    expect((await page.getByTestId("detail-title").textContent())!.trim()).toBe(title);
    await page.getByTestId("related").waitFor();
    expect(await page.getByTestId("related-card").count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shares by copying the link where the Web Share API is missing", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
    const href = firstHref((await html("/news")).body, "/news")!;
    await page.goto(base + href);
    await hydrated(page);
    await page.evaluate(() => Object.defineProperty(navigator, "share", { value: undefined, configurable: true }));
    await page.getByTestId("share-button").click();
    await page.getByTestId("toast").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(base + href);
    await context.close();
  });

  it("offers WhatsApp and Telegram as plain links carrying the title and the page's address, tagged with the app (issue 45)", async () => {
    const href = firstHref((await html("/news")).body, "/news")!;
    const { body } = await html(href);
    const { page, context } = await newPage(browser, { viewport: PHONE });
    await page.goto(base + href);
    const title = (await page.getByTestId("detail-title").textContent())!.trim();
    const whatsapp = new URL((await page.getByTestId("share-whatsapp").getAttribute("href"))!);
    expect(whatsapp.origin + whatsapp.pathname).toBe("https://wa.me/");
    expect(whatsapp.searchParams.get("text")).toBe(`${title}\n${base}${href}?utm_source=whatsapp`);
    const telegram = new URL((await page.getByTestId("share-telegram").getAttribute("href"))!);
    expect(telegram.origin + telegram.pathname).toBe("https://t.me/share/url");
    expect(telegram.searchParams.get("url")).toBe(`${base}${href}?utm_source=telegram`);
    expect(telegram.searchParams.get("text")).toBe(title);
    expect(await page.getByTestId("share-whatsapp").textContent()).toBe("واتساب");
    // Links, not scripts: nothing of either app is loaded with the page.
    expect(body).not.toMatch(/<script[^>]+(wa\.me|whatsapp|telegram\.org)/i);
    await context.close();
  });

  it("a failed detail load lands on home with the error toast", async () => {
    const { page, context } = await newPage(browser, { viewport: PHONE });
    await page.goto(base + "/?notice=load-failed");
    await hydrated(page);
    const toast = page.getByTestId("toast");
    await toast.waitFor();
    expect(await toast.getAttribute("data-variant")).toBe("destructive");
    expect(await toast.textContent()).toContain("فشل تحميل المحتوى");
    await page.waitForURL(base + "/");
    await context.close();
  });
});
