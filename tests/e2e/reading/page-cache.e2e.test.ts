/**
 * The full-page cache on the built server (docs/decisions/0106-page-cache.md): anonymous pages come from it
 * with a hash-based CSP and an ETag; an edit in the back-office shows on the next anonymous request; a
 * signed-in reader never gets a cached page nor leaks into one. Each language has its own addresses (decision
 * 0143): the address alone names the language, the cache keeps each address apart, an anonymous reading page or
 * feed varies on Accept-Encoding only, and a stored French or English choice is honoured at the bare entry `/`
 * only. In Chromium: home and an article served from the cache hydrate and navigate, with no CSP violation in the
 * console, and the entry redirect follows where the reader comes from.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { categories } from "#server/db/schema.server.ts";
import { startAuthServer, type AuthServer } from "#tests/e2e/auth/support.ts";
import { hasChromium, hydrated, launchBrowser, newPage } from "#tests/e2e/support/browser.ts";

type Item = { id: number; page_slug: string; url: string; updated_at: string };

describe("full-page cache", () => {
  let server: AuthServer<"admin">;
  let article: Item;
  const admin = () => server.personas.admin;

  const api = async (method: string, path: string, body: Record<string, unknown>) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { cookie: admin().cookie, origin: server.url, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    return (await res.json()) as Item;
  };
  const anonymous = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(server.url + path, { headers });
    return { res, state: res.headers.get("x-page-cache"), body: await res.text() };
  };

  beforeAll(async () => {
    let categoryId = 0;
    server = await startAuthServer({
      personas: { admin: { email: "chief@cache.test", password: "Passw0rdA", role: "admin" } },
      prepare: async (db) => {
        const [c] = await db.insert(categories).values({ name: "ثقافة", nameFr: "Culture", slug: "culture", type: "culture" }).returning({ id: categories.id });
        categoryId = c.id;
      },
    });
    const fields = { status: "published", excerpt: "مقال عن مخطوطات شنقيط", content: "<p>نص المقال عن المخطوطات.</p>", category_id: categoryId };
    article = await api("POST", "/api/admin/articles", { title: "مخطوطات شنقيط الأولى", ...fields });
    await api("POST", "/api/admin/articles", { title: "مكتبات ودان العريقة", ...fields });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("serves anonymous pages from the cache with an ETag, s-maxage and a CSP of hashes, and answers 304", async () => {
    const first = await anonymous(article.url);
    const second = await anonymous(article.url);
    expect(first.res.status).toBe(200);
    expect(second.state).toBe("HIT");
    expect(second.body).toBe(first.body);
    expect(second.res.headers.get("cache-control")).toContain("s-maxage=");
    expect(second.res.headers.get("cache-control")).toContain("stale-while-revalidate=");
    const csp = second.res.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]{44}')+;/);
    expect(csp).not.toContain("nonce");
    expect(second.body).not.toMatch(/nonce="[^"]+"/);
    const etag = second.res.headers.get("etag")!;
    const revalidated = await fetch(server.url + article.url, { headers: { "If-None-Match": etag } });
    expect(revalidated.status).toBe(304);
  });

  it("shows an edit made in the back-office on the next anonymous request", async () => {
    expect((await anonymous("/")).body).toContain("مخطوطات شنقيط الأولى");
    expect((await anonymous("/")).state).toBe("HIT");
    article = await api("PATCH", `/api/admin/articles/${article.id}`, { title: "مخطوطات شنقيط المحققة", updated_at: article.updated_at });
    const home = await anonymous("/");
    expect(home.state).toBe("MISS");
    expect(home.body).toContain("مخطوطات شنقيط المحققة");
    expect(home.body).not.toContain("مخطوطات شنقيط الأولى");
    expect((await anonymous(article.url)).body).toContain("مخطوطات شنقيط المحققة");
  });

  const htmlLang = (body: string) => /<html[^>]*\blang="([a-z]+)"/.exec(body)?.[1];

  it("names the language by the address alone: /news Arabic, /fr/news French, whatever the cookie or Accept-Language", async () => {
    const readers: Record<string, string>[] = [
      {},
      { Cookie: "i18nextLng=fr" },
      { Cookie: "i18nextLng=en", "Accept-Language": "en" },
      { "Accept-Language": "fr-FR,fr;q=0.9" },
    ];
    for (const headers of readers) {
      for (const [path, lang] of [
        ["/news", "ar"],
        ["/fr/news", "fr"],
        ["/en/news", "en"],
      ]) {
        const { res, body } = await anonymous(path, headers);
        const what = `${path} ${JSON.stringify(headers)}`;
        expect(res.status, what).toBe(200);
        expect(htmlLang(body), what).toBe(lang);
        expect(res.headers.get("set-cookie"), what).toBeNull();
      }
    }
    // One copy per address, whoever asked: the cache holds /news and /fr/news apart and serves each to everyone.
    const arabic = await anonymous("/news", { Cookie: "i18nextLng=fr" });
    const french = await anonymous("/fr/news", { "Accept-Language": "ar" });
    expect(arabic.state).toMatch(/^(?:HIT|STALE)$/);
    expect(french.state).toMatch(/^(?:HIT|STALE)$/);
    expect(htmlLang(arabic.body)).toBe("ar");
    expect(htmlLang(french.body)).toBe("fr");
  });

  it("varies an anonymous reading page or feed on Accept-Encoding only: rendered, from the cache, or 304", async () => {
    for (const path of ["/", "/fr", "/fr/news", article.url, `/en${article.url}`, "/rss.xml", "/fr/rss.xml"]) {
      // A stored choice on any address but the bare entry changes nothing (the entry's own test is below).
      const headers: Record<string, string> = path === "/" ? { "Accept-Language": "fr" } : { Cookie: "i18nextLng=en", "Accept-Language": "fr" };
      const first = await anonymous(path, headers);
      const again = await anonymous(path, headers);
      expect(first.res.status, path).toBe(200);
      expect(again.state, path).toMatch(/^(?:HIT|STALE)$/);
      for (const { res } of [first, again]) {
        expect(res.headers.get("vary"), path).toBe("Accept-Encoding");
        expect(res.headers.get("set-cookie"), path).toBeNull();
      }
      const revalidated = await fetch(server.url + path, { headers: { ...headers, "If-None-Match": again.res.headers.get("etag")! } });
      expect(revalidated.status, path).toBe(304);
      expect(revalidated.headers.get("vary"), path).toBe("Accept-Encoding");
    }
  });

  it("sends a reader who chose French or English from the bare entry to their home, uncached, and never a deep link", async () => {
    const entry = (target: string, headers: Record<string, string>) => fetch(server.url + target, { headers, redirect: "manual" });
    for (const [lang, target, location] of [
      ["fr", "/", "/fr"],
      ["en", "/?utm_source=push", "/en?utm_source=push"],
    ]) {
      const res = await entry(target, { Cookie: `i18nextLng=${lang}` });
      expect(res.status, lang).toBe(302);
      expect(res.headers.get("location"), lang).toBe(location);
      expect(res.headers.get("cache-control"), lang).toBe("private, no-store");
      expect(res.headers.get("x-page-cache"), lang).toBeNull();
      // Another site's link to the entry is not a page of ours.
      expect((await entry(target, { Cookie: `i18nextLng=${lang}`, Referer: "https://www.google.com/" })).status, lang).toBe(302);
    }
    // From a page of ours (the toggle to Arabic, the logo): the Arabic home, cacheable as ever.
    const fromOurs = await anonymous("/", { Cookie: "i18nextLng=fr", Referer: `${server.url}/fr/news` });
    expect(fromOurs.res.status).toBe(200);
    expect(htmlLang(fromOurs.body)).toBe("ar");
    expect(fromOurs.res.headers.get("cache-control")).toMatch(/^public\b/);
    // An Arabic choice, or none: the Arabic home.
    for (const headers of [{ Cookie: "i18nextLng=ar" }, {}, { "Accept-Language": "fr" }] as Record<string, string>[]) {
      const res = await entry("/", headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(htmlLang(await res.text())).toBe("ar");
    }
    // A deep link is the page it names, whatever the choice.
    for (const path of ["/news", "/fr/news", article.url]) {
      const res = await entry(path, { Cookie: "i18nextLng=en" });
      expect(res.status, path).toBe(200);
      expect(htmlLang(await res.text()), path).toBe(path.startsWith("/fr") ? "fr" : "ar");
    }
  });

  it("keeps POST /language working: the cookie, then the same page at the chosen language's address", async () => {
    const choose = (lang: string, redirectTo: string) =>
      fetch(server.url + "/language", {
        method: "POST",
        redirect: "manual",
        headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ lang, redirectTo }),
      });
    for (const [lang, from, to] of [
      ["fr", "/news?page=2", "/fr/news?page=2"],
      ["en", "/fr/news", "/en/news"],
      ["ar", "/fr", "/"],
      ["fr", "/admin/articles", "/admin/articles"],
      ["fr", "https://evil.example/", "/fr"],
    ]) {
      const res = await choose(lang, from);
      expect(res.status, from).toBe(302);
      expect(res.headers.get("location"), `${lang} ${from}`).toBe(to);
      expect(res.headers.get("set-cookie"), from).toContain(`i18nextLng=${lang}`);
    }
    const get = await fetch(server.url + "/language", { redirect: "manual" });
    expect(get.status).toBe(302);
    expect(get.headers.get("location")).toBe("/");
  });

  it.skipIf(!hasChromium)("in a browser, follows the stored choice at the entry only when the reader comes from elsewhere", async () => {
    const browser: Browser = await launchBrowser();
    try {
      const { page } = await newPage(browser);
      await page.context().addCookies([{ name: "i18nextLng", value: "fr", url: server.url }]);
      // Typed or bookmarked: no referrer, the French home.
      await page.goto(server.url + "/");
      expect(new URL(page.url()).pathname).toBe("/fr");
      expect(await page.locator("html").getAttribute("lang")).toBe("fr");
      // From one of our pages to `/` (what the toggle to Arabic does): the browser names our page, the Arabic home.
      await page.evaluate(() => window.location.assign("/"));
      await page.waitForURL(server.url + "/");
      expect(await page.locator("html").getAttribute("lang")).toBe("ar");
    } finally {
      await browser.close();
    }
  });

  it("never serves a signed-in reader from the cache, and never keeps what they see", async () => {
    await anonymous("/");
    const signedIn = await fetch(server.url + "/", { headers: { cookie: admin().cookie } });
    const body = await signedIn.text();
    expect(signedIn.headers.get("x-page-cache")).toBeNull();
    expect(signedIn.headers.get("cache-control")).toBe("private, no-store");
    expect(signedIn.headers.get("vary")).toContain("Cookie");
    expect(signedIn.headers.get("content-security-policy")).toMatch(/'nonce-/);
    // What is personal on home: the header's link to the back-office instead of the sign-in link.
    expect(body).toContain('data-testid="admin-link"');
    const after = await anonymous("/");
    expect(after.body).not.toContain('data-testid="admin-link"');
    expect(after.body).toContain('data-testid="sign-in-link"');
  });

  it.skipIf(!hasChromium)(
    "runs the scripts of pages served from the cache, hydrated (/news) or enhanced (home, an article), with no CSP violation",
    async () => {
      const browser: Browser = await launchBrowser();
      try {
        const { page, errors } = await newPage(browser);
        const violations: string[] = [];
        page.on("console", (m) => {
          if (/Content.Security.Policy|Refused to/i.test(m.text())) violations.push(m.text());
        });
        for (const path of ["/news", "/", article.url]) {
          await anonymous(path); // warm
          const res = await page.goto(server.url + path);
          expect(res?.headers()["x-page-cache"], path).toMatch(/HIT|STALE/);
          await hydrated(page);
        }
        // Working: from the article to home and back to the article (document loads: neither hydrates).
        await page.locator('a[href="/"]').first().click();
        await page.waitForURL(server.url + "/");
        await page
          .getByRole("link", { name: /مخطوطات شنقيط المحققة/ })
          .first()
          .click();
        await page.waitForURL((url) => url.pathname !== "/");
        await expect.poll(() => page.locator("h1").first().textContent()).toContain("مخطوطات شنقيط المحققة");
        expect(violations).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});
