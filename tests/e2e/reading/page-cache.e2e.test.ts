/**
 * The full-page cache on the built server (docs/decisions/0106-page-cache.md): anonymous pages come from it
 * with a hash-based CSP and an ETag; an edit in the back-office shows on the next anonymous request; a
 * signed-in reader never gets a cached page nor leaks into one. In Chromium: home and an article served
 * from the cache hydrate and navigate, with no CSP violation in the console.
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
