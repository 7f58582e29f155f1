import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import type { Browser } from "playwright-core";
import { DESKTOP, hasChromium, hydrated, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import { NAV_ITEMS } from "#domain/navigation.ts";

const base = sharedServer().baseUrl;
const slugs = NAV_ITEMS.map((i) => i.slug);

describe("the document as the server renders it", () => {
  it("serves / in Arabic, right to left, with the header, all ten links, the footer and demo content", async () => {
    const res = await fetch(base + "/");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<html lang="ar" dir="rtl">/);
    for (const slug of slugs) expect(html).toContain(`data-testid="nav-link-${slug}"`);
    for (const slug of slugs) expect(html).toContain(`data-testid="mobile-nav-link-${slug}"`);
    expect(html).toContain('data-testid="site-footer"');
    expect(html).toContain('data-testid="article-card"');
    expect(html).toContain('href="/auth"');
  });

  it("renders the language of the address whatever the cookie and Accept-Language say (issue 42)", async () => {
    const other = { Cookie: "i18nextLng=ar", "Accept-Language": "ar" };
    const french = await (await fetch(base + "/fr/news", { headers: other })).text();
    expect(french).toMatch(/<html lang="fr" dir="ltr">/);
    // Its links stay in French: the header's, the sign-in link, the search form.
    expect(french).toContain('href="/fr/auth"');
    expect(french).toContain('action="/fr/search"');
    const english = await (await fetch(base + "/en/news", { headers: { Cookie: "i18nextLng=fr" } })).text();
    expect(english).toMatch(/<html lang="en" dir="ltr">/);
    const arabic = await (await fetch(base + "/news", { headers: { Cookie: "i18nextLng=fr", "Accept-Language": "fr-FR,fr;q=0.9" } })).text();
    expect(arabic).toMatch(/<html lang="ar" dir="rtl">/);
    expect(arabic).toContain('href="/auth"');
    const injected = await (await fetch(base + "/news", { headers: { Cookie: "i18nextLng=%22%3E%3Cscript%3E" } })).text();
    expect(injected).toMatch(/<html lang="ar" dir="rtl">/);
  });

  it("names each page's versions in <head>: hreflang for ar, fr, en and x-default, reciprocal, and its own canonical", async () => {
    const headOf = async (path: string) => {
      const html = await (await fetch(base + path)).text();
      const alternates = [...html.matchAll(/<link rel="alternate" hrefLang="([^"]+)" href="([^"]+)"\/>/g)].map((m) => [m[1], m[2]]);
      return { canonical: /<link rel="canonical" href="([^"]+)"\/>/.exec(html)?.[1], alternates: Object.fromEntries(alternates) as Record<string, string> };
    };
    const expected = { ar: "/culture?page=2", fr: "/fr/culture?page=2", en: "/en/culture?page=2", "x-default": "/culture?page=2" };
    for (const [lang, path] of Object.entries(expected).slice(0, 3)) {
      const head = await headOf(path);
      expect(head.canonical, lang).toMatch(new RegExp(`${path.replace("?", "\\?")}$`));
      expect(Object.keys(head.alternates).sort(), lang).toEqual(["ar", "en", "fr", "x-default"]);
      for (const [hreflang, href] of Object.entries(expected))
        expect(head.alternates[hreflang], `${lang} → ${hreflang}`).toMatch(new RegExp(`^https?://[^/]+${href.replace("?", "\\?")}$`));
    }
    // The 404 page is no page of the site's: neither versions nor a canonical.
    const missing = await headOf("/fr/no-such-page");
    expect(missing).toEqual({ canonical: undefined, alternates: {} });
  });

  it("answers unknown URLs and /404 with HTTP 404 and the 404 page", async () => {
    for (const path of ["/no-such-page", "/404", "/news/does/not/exist/deeply"]) {
      const res = await fetch(base + path);
      expect(res.status, path).toBe(404);
      const html = await res.text();
      expect(html).toContain('data-testid="not-found"');
      expect(html).toContain('data-testid="site-header"');
    }
  });

  it("sends security headers with a fresh CSP nonce per request", async () => {
    // Pages outside the page cache (here sign-in) carry a nonce; cached public pages list script hashes
    // instead (tests/e2e/reading/page-cache.e2e.test.ts).
    const [a, b] = await Promise.all([fetch(base + "/auth"), fetch(base + "/auth")]);
    const csp = a.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toBe(b.headers.get("content-security-policy"));
    expect(a.headers.get("x-frame-options")).toBe("DENY");
    expect(a.headers.get("x-content-type-options")).toBe("nosniff");
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    const html = await a.text();
    // Every inline script carries the nonce.
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it("compresses pages", async () => {
    const res = await fetch(base + "/", { headers: { "Accept-Encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBe("gzip");
  });

  it("reports liveness and readiness", async () => {
    const live = await fetch(base + "/healthz");
    expect(live.status).toBe(200);
    expect(((await live.json()) as { status: string }).status).toBe("ok");
    const ready = await fetch(base + "/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready", database: "pglite" });
  });

  it("refuses a language that is not supported, a post from another site, and an open redirect", async () => {
    const headers = { Origin: base };
    const res = await fetch(base + "/language", {
      method: "POST",
      headers,
      body: new URLSearchParams({ lang: "<script>", redirectTo: "/" }),
      redirect: "manual",
    });
    expect(res.status).toBe(400);
    const foreign = await fetch(base + "/language", {
      method: "POST",
      headers: { Origin: "https://evil.example" },
      body: new URLSearchParams({ lang: "fr", redirectTo: "/" }),
      redirect: "manual",
    });
    expect(foreign.status).toBe(403);
    const open = await fetch(base + "/language", {
      method: "POST",
      headers,
      body: new URLSearchParams({ lang: "fr", redirectTo: "//evil.example" }),
      redirect: "manual",
    });
    expect(open.status).toBe(302);
    // Back to the home page in the language chosen (its address, issue 42).
    expect(open.headers.get("location")).toBe("/fr");
  });
});

describe.skipIf(!hasChromium)("the header and footer in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it("shows every navigation link on desktop and highlights the active one", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/");
    await hydrated(page);
    for (const slug of slugs) await expect(page.getByTestId(`nav-link-${slug}`).isVisible()).resolves.toBe(true);
    expect(await page.getByTestId("menu-button").isVisible()).toBe(false);
    expect(await page.getByTestId("nav-link-home").getAttribute("aria-current")).toBe("page");
    await page.getByTestId("nav-link-news").click();
    await page.waitForURL(base + "/news");
    await expect.poll(() => page.getByTestId("nav-link-news").getAttribute("aria-current")).toBe("page");
    await expect.poll(() => page.getByTestId("nav-link-home").getAttribute("aria-current")).toBeNull();
    // The header stays on screen while reading.
    await page.goto(base + "/");
    // After hydration: React Router's scroll restoration would otherwise put an early scroll back to the top.
    // The wheel turns over the page's content: over the navigation list it scrolls that list (it overflows by a
    // few pixels vertically), not the page.
    await hydrated(page);
    await page.mouse.move(DESKTOP.width / 2, DESKTOP.height / 2);
    await page.mouse.wheel(0, 1500);
    await page.waitForFunction(() => window.scrollY > 0);
    const box = await page.getByTestId("site-header").boundingBox();
    expect(box?.y).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("opens the hamburger menu on a phone and closes it when a link is chosen", async () => {
    const { page, context } = await newPage(browser, { viewport: PHONE });
    await page.goto(base + "/");
    await hydrated(page);
    expect(await page.getByTestId("nav-link-news").isVisible()).toBe(false);
    expect(await page.getByTestId("mobile-menu").isVisible()).toBe(false);
    await page.getByTestId("menu-button").click();
    // The menu is a <details>: it opens at once; its toggle event, which the button's state follows, comes a task later.
    await expect.poll(() => page.getByTestId("menu-button").getAttribute("aria-expanded")).toBe("true");
    for (const slug of slugs) expect(await page.getByTestId(`mobile-nav-link-${slug}`).isVisible()).toBe(true);
    await page.getByTestId("mobile-nav-link-contact").click();
    await page.waitForURL(base + "/contact");
    await expect.poll(() => page.getByTestId("mobile-menu").isVisible()).toBe(false);
    // Toggles closed again with the same button.
    await page.getByTestId("menu-button").click();
    await expect.poll(() => page.getByTestId("menu-button").getAttribute("aria-expanded")).toBe("true");
    await page.getByTestId("menu-button").click();
    await expect.poll(() => page.getByTestId("mobile-menu").isVisible()).toBe(false);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await context.close();
  });

  /** The address of a news item, as the news list links to it (language-neutral: the Arabic address). */
  async function newsItem(): Promise<string> {
    const html = await (await fetch(base + "/news")).text();
    return /href="(\/news\/[^"?#]+)"/.exec(html)![1];
  }

  it("the toggle leads from an item to the same item in French and back, with JavaScript, and keeps the choice", async () => {
    const item = await newsItem();
    const { page, context } = await newPage(browser, { viewport: PHONE });
    await page.goto(base + item);
    await hydrated(page);
    const toggle = page.getByTestId("language-toggle");
    expect((await toggle.textContent())?.trim()).toBe("FR");
    expect(await toggle.getAttribute("hreflang")).toBe("fr");
    await toggle.click();
    await page.waitForURL(base + "/fr" + item);
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(["fr", "ltr"]);
    expect(await page.getByTestId("nav-link-news").textContent()).toBe("Dernières nouvelles");
    // Kept for the bare entry `/`: in the cookie (a year, SameSite=Lax) and in the browser's storage.
    const cookie = (await context.cookies()).find((c) => c.name === "i18nextLng");
    expect(cookie).toMatchObject({ value: "fr", sameSite: "Lax" });
    expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(360 * 86_400_000);
    expect(await page.evaluate(() => localStorage.getItem("i18nextLng"))).toBe("fr");
    // A deep link in another language is not sent elsewhere by the stored choice: the address decides.
    await page.goto(base + item);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("ar");
    await page.goto(base + "/fr" + item);
    await hydrated(page);
    expect((await page.getByTestId("language-toggle").textContent())?.trim()).toBe("ع");
    await page.getByTestId("language-toggle").click();
    await page.waitForURL(base + item);
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(["ar", "rtl"]);
    expect((await context.cookies()).find((c) => c.name === "i18nextLng")?.value).toBe("ar");
    await context.close();
  });

  it("works without JavaScript: the toggle is a plain link to the item's French address, and back; nothing is stored", async () => {
    const item = await newsItem();
    const { page, context } = await newPage(browser, { javaScriptEnabled: false });
    await page.goto(`${base}${item}?from=test&utm_source=test`);
    await page.getByTestId("language-toggle").click();
    // The query goes along: the same page, in the other language; not the link's tracking tags, which the page was
    // rendered without (the first page's beacon counted them, issue 45).
    await page.waitForURL(`${base}/fr${item}?from=test`);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("fr");
    await page.getByTestId("language-toggle").click();
    await page.waitForURL(`${base}${item}?from=test`);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("ar");
    expect((await context.cookies()).find((c) => c.name === "i18nextLng")).toBeUndefined();
    await context.close();
  });

  it("shows a toast for a social network without a URL, and the current year", async () => {
    const { page, context } = await newPage(browser, { viewport: PHONE });
    await page.goto(base + "/");
    await hydrated(page);
    expect(await page.getByTestId("copyright").textContent()).toContain(String(new Date().getFullYear()));
    await page.getByTestId("social-facebook").click();
    const toast = page.getByTestId("toast");
    await toast.waitFor();
    expect(await toast.textContent()).toContain("هذه الميزة غير متاحة بعد");
    // One at a time: a second click replaces it.
    await page.getByTestId("social-youtube").click();
    expect(await page.getByTestId("toast").count()).toBe(1);
    await toast.waitFor({ state: "detached", timeout: 10_000 });
    await context.close();
  });

  it("dismisses a toast with a 50 px swipe", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/");
    await hydrated(page);
    await page.getByTestId("social-twitter").click();
    const box = (await page.getByTestId("toast").boundingBox())!;
    const y = box.y + box.height / 2;
    const x = box.x + box.width / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    // RTL: towards the left.
    await page.mouse.move(x - 30, y, { steps: 3 });
    await page.mouse.move(x - 70, y, { steps: 3 });
    await page.mouse.up();
    await page.getByTestId("toast").waitFor({ state: "detached", timeout: 2000 });
    await context.close();
  });

  it("falls back to the alternative logo, then hides it, keeping the name", async () => {
    const { page, context } = await newPage(browser);
    await page.route("**/brand/logo.svg", (r) => r.fulfill({ status: 404, body: "" }));
    await page.goto(base + "/");
    await hydrated(page);
    const img = page.getByTestId("site-logo").first().locator("img");
    await expect.poll(() => img.getAttribute("src")).toBe("/brand/logo-alt.svg");
    await page.route("**/brand/logo-alt.svg", (r) => r.fulfill({ status: 404, body: "" }));
    await page.reload();
    await hydrated(page);
    await expect.poll(() => page.getByTestId("site-logo").first().locator("img").isHidden()).toBe(true);
    expect(await page.getByTestId("site-logo").first().textContent()).toContain("صحراء ميديا");
    await context.close();
  });

  it("on an account page, which React hydrates, the header, the toasts, the logo and the stored language are reading.js's, as on a static page", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: PHONE });
    await page.route("**/brand/logo.svg", (r) => r.fulfill({ status: 404, body: "" }));
    await page.goto(base + "/auth");
    await hydrated(page);
    // An application page: React Router is there, and so is the one script of the shared behaviours.
    expect(await page.evaluate(() => "__reactRouterContext" in window && document.body.hasAttribute("data-app"))).toBe(true);
    expect(await page.locator('script[src*="/assets/reading-"]').count()).toBe(1);
    await expect.poll(() => page.getByTestId("site-logo").first().locator("img").getAttribute("src")).toBe("/brand/logo-alt.svg");

    // The search link opens the field here, and closes it again; the address does not change.
    const search = page.getByTestId("search-button");
    await search.click();
    await expect.poll(() => page.getByTestId("search-input").isVisible()).toBe(true);
    expect(await search.getAttribute("aria-expanded")).toBe("true");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("site-search-q");
    await search.click();
    await expect.poll(() => page.getByTestId("search-input").isVisible()).toBe(false);
    expect(new URL(page.url()).pathname).toBe("/auth");

    // The phone menu: its button says its state, Escape closes it and gives the focus back.
    await page.getByTestId("menu-button").click();
    await expect.poll(() => page.getByTestId("menu-button").getAttribute("aria-expanded")).toBe("true");
    expect(await page.getByTestId("menu-button").getAttribute("aria-label")).toBe("إغلاق القائمة");
    await page.keyboard.press("Escape");
    await expect.poll(() => page.getByTestId("mobile-menu").isVisible()).toBe(false);
    expect(await page.getByTestId("menu-button").getAttribute("aria-expanded")).toBe("false");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("menu-button");

    // A footer toast, one at a time; F8 reaches it and Escape dismisses it.
    await page.getByTestId("social-facebook").click();
    await page.getByTestId("social-youtube").click();
    await page.getByTestId("toast").waitFor();
    expect(await page.getByTestId("toast").count()).toBe(1);
    await page.keyboard.press("F8");
    await page.keyboard.press("Escape");
    await page.getByTestId("toast").waitFor({ state: "detached" });

    // A toast the application says (a refused sign-in) appears in the same region, by the same script.
    await page.getByTestId("input-email").fill("nobody-here@example.com");
    await page.getByTestId("input-password").fill("not-the-password-1");
    await page.getByTestId("auth-submit").click();
    await page.getByTestId("auth-error").waitFor();
    await page.getByTestId("toast").waitFor();

    // The toggle of a hydrated page is the same plain link: a whole document in the other language.
    await page.getByTestId("language-toggle").click();
    await page.waitForURL(base + "/fr/auth");
    await hydrated(page);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("fr");
    expect(await page.getByTestId("sign-in-link").first().getAttribute("href")).toBe("/fr/auth");
    expect(errors.filter((e) => !/404|Failed to load resource/.test(e))).toEqual([]);
    await context.close();
  });

  it("asks the browser to prefetch the listings a reading page links to, never a detail page or an account page", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/");
    await hydrated(page);
    // The rules are data, allowed by their hash in the CSP (refused, they would log a CSP error).
    expect(await page.evaluate(() => HTMLScriptElement.supports?.("speculationrules"))).toBe(true);
    type Rule = { eagerness: string; where: { and: [{ selector_matches: string }, { not: { href_matches: string[] } }] } };
    const rules = JSON.parse((await page.locator('script[type="speculationrules"]').textContent()) ?? "{}") as { prefetch: Rule[] };
    const [rule] = rules.prefetch;
    expect(rule.eagerness).toBe("moderate");
    // Which of the page's links the rule names, as the browser reads it: the selector, less the excluded patterns.
    const named: string[] = await page.evaluate(
      ({ selector, excluded }) =>
        [...document.querySelectorAll<HTMLAnchorElement>(selector)]
          .filter((a) => !excluded.some((pattern) => new URLPattern(pattern, location.origin).test(a.href)))
          .map((a) => new URL(a.href).pathname),
      { selector: rule.where.and[0].selector_matches, excluded: rule.where.and[1].not.href_matches },
    );
    for (const listing of ["/news", "/culture", "/politics", "/contact"]) expect(named).toContain(listing);
    expect(named.filter((path) => /^\/(articles|news|podcasts|programs)\/./.test(path))).toEqual([]);
    expect(named.filter((path) => /^\/(auth|admin|search)/.test(path))).toEqual([]);
    const links: string[] = await page.locator("main a[href]").evaluateAll((all) => all.map((a) => (a as HTMLAnchorElement).pathname));
    expect(links.some((path) => path.startsWith("/articles/"))).toBe(true);
    expect(errors).toEqual([]);
    const delivery = () =>
      page.evaluate(() => (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming & { deliveryType: string }).deliveryType);
    // What the browser prefetched, as DevTools reports it.
    const cdp = await context.newCDPSession(page);
    const ready: string[] = [];
    cdp.on("Preload.prefetchStatusUpdated", (e) => {
      if (e.status === "Ready") ready.push(new URL(e.prefetchUrl).pathname);
    });
    await cdp.send("Preload.enable");
    // Resting on a listing's link fetches it; following the link opens what was fetched.
    await page.getByTestId("nav-link-culture").hover();
    await expect.poll(() => ready).toContain("/culture");
    await page.getByTestId("nav-link-culture").click();
    await page.waitForURL(base + "/culture");
    await hydrated(page);
    expect(await delivery()).toBe("navigational-prefetch");
    // A detail page's link, rested on while a listing's is prefetched, is fetched only when followed.
    await page.goto(base + "/");
    await hydrated(page);
    await page.locator('main a[href^="/articles/"]:visible').first().hover();
    await page.getByTestId("nav-link-politics").hover();
    await expect.poll(() => ready).toContain("/politics");
    expect(ready.filter((path) => path.startsWith("/articles/"))).toEqual([]);
    await page.locator('main a[href^="/articles/"]:visible').first().click();
    await page.waitForURL(/\/articles\//);
    await hydrated(page);
    expect(await delivery()).toBe("");
    // The application's pages have no rules: their links are the router's or document loads of their own.
    await page.goto(base + "/auth");
    await hydrated(page);
    expect(await page.locator('script[type="speculationrules"]').count()).toBe(0);
    await context.close();
  });

  it("shows the 404 page for an unknown URL", async () => {
    const { page, context } = await newPage(browser, { viewport: PHONE });
    const res = await page.goto(base + "/nothing-here");
    expect(res?.status()).toBe(404);
    await page.getByTestId("not-found").waitFor();
    await context.close();
  });

  it("shows the error screen with a 9-character error number, reload and home buttons", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    // Between the pages that hydrate, the account pages (a public page is a document load from them, decisions
    // 0115 and 0131): the server fails while loading the next page's data.
    await page.goto(base + "/auth");
    await hydrated(page);
    await page.route("**/auth/forgot.data*", (r) => r.fulfill({ status: 500, contentType: "text/plain", body: "boom" }));
    await page.getByTestId("forgot-link").click();
    await page.getByTestId("error-screen").waitFor();
    const number = (await page.getByTestId("error-number").textContent())!.trim();
    expect(number).toMatch(/^[A-Z0-9]{9}$/);
    expect(await page.getByTestId("reload-button").isVisible()).toBe(true);
    await page.unroute("**/auth/forgot.data*");
    await page.getByTestId("home-button").click();
    await page.waitForURL(base + "/");
    await page.getByTestId("home-hero").waitFor();
    await context.close();
  });
});

// The shell's accessibility and fit (/, /news, /programs, an article, the 404 page) are the full-site walk's
// (reading/walk.ts): every public page, three languages, six widths, axe findings of any impact.
