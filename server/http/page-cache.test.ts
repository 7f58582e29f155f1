import crypto from "node:crypto";
import type { AddressInfo } from "node:net";
import compression from "compression";
import express from "express";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { checkConfig } from "#server/config.server.ts";
import { PREFETCH_RULES_HASH, securityHeaders } from "./security.server.ts";
import { cached, clearCache, invalidate, setCacheEnabled } from "#server/content/cache.server.ts";
import { noteShownItem } from "#server/content/views.server.ts";
import { markDegraded, noteQuery } from "./render-scope.server.ts";
import {
  createPageCache,
  followInvalidations,
  inlineScriptHashes,
  PAGE_CACHE_DEFAULTS,
  policyWithHashes,
  publicCacheControl,
  responseCachePolicy,
  surrogateKeys,
  type PageCache,
} from "./page-cache.server.ts";
import { CACHE_TAG_NAMES } from "#server/content/cache.server.ts";

const INLINE = "window.__ctx = {a: 1};";
const page = (text: string) =>
  `<!DOCTYPE html><html><head><script type="module">${INLINE}</script><script src="/assets/x.js"></script>` +
  `<script type="application/ld+json">{"@type":"NewsArticle"}</script></head><body><h1>${text}</h1></body></html>`;
const html = (body: string, init: ResponseInit = {}) =>
  new Response(body, { status: 200, ...init, headers: { "Content-Type": "text/html; charset=utf-8", ...(init.headers ?? {}) } });

type Setup = { base: string; cache: PageCache; renders: () => number; clock: { t: number } };

let stop: (() => Promise<void>) | undefined;
let behaviour: (request: Request) => Response | Promise<Response>;

async function start(): Promise<Setup> {
  const clock = { t: 1_000_000 };
  let renders = 0;
  const cache = createPageCache({
    origin: "https://news.example",
    render: async (request) => {
      renders++;
      return behaviour(request);
    },
    freshMs: 60_000,
    staleMs: 600_000,
    errorMs: 3_600_000,
    now: () => clock.t,
  });
  const unfollow = followInvalidations(cache);
  const app = express();
  app.use(compression());
  app.use(securityHeaders(checkConfig({}).config));
  app.use(responseCachePolicy(publicCacheControl(PAGE_CACHE_DEFAULTS)));
  app.use(cache.middleware);
  // What the app renders when the cache steps aside: a personal page, with the request's nonce.
  app.use((req, res) => {
    // React Router's data answers are a turbo-stream, not HTML; a redirect is a 202 naming its target.
    if (req.path === "/news/old-slug.data") return void res.status(202).set("X-Remix-Response", "yes").type("text/x-script").send(`[{"redirect":"/news/new"}]`);
    if (req.path === "/news/gone.data") return void res.status(404).set("X-Remix-Response", "yes").type("text/x-script").send("[]");
    if (req.path.endsWith(".data")) return void res.type("text/x-script").send(`[{"user":"reader@example.com"}]`);
    res.type("html").send(`<html><body>signed in as reader@example.com <script nonce="${String(res.locals.nonce)}">1</script></body></html>`);
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  stop = () =>
    new Promise<void>((resolve) => {
      unfollow();
      server.close(() => resolve());
    });
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, cache, renders: () => renders, clock };
}

beforeEach(() => {
  setCacheEnabled(true);
  behaviour = (request) => html(page(new URL(request.url).pathname));
});
afterEach(async () => {
  await stop?.();
  stop = undefined;
  clearCache();
  setCacheEnabled(false);
});

describe("page cache", () => {
  it("renders a page once and serves the same bytes after, compressed once, with an ETag and s-maxage", async () => {
    const s = await start();
    const a = await fetch(s.base + "/news?page=2");
    const b = await fetch(s.base + "/news?page=2", { headers: { "Accept-Encoding": "br" } });
    const raw = await fetch(s.base + "/news?page=2", { headers: { "Accept-Encoding": "identity" } });
    expect(a.headers.get("x-page-cache")).toBe("MISS");
    expect(b.headers.get("x-page-cache")).toBe("HIT");
    expect(b.headers.get("content-encoding")).toBe("br");
    expect(a.headers.get("content-encoding")).toBe("gzip");
    expect(raw.headers.get("content-encoding")).toBeNull();
    const [ta, tb, tr] = [await a.text(), await b.text(), await raw.text()];
    expect(ta).toBe(page("/news"));
    expect(tb).toBe(ta);
    expect(tr).toBe(ta);
    expect(s.renders()).toBe(1);
    expect(a.headers.get("etag")).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect(b.headers.get("etag")).toBe(a.headers.get("etag"));
    expect(a.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=600, stale-if-error=3600");
    expect(a.headers.get("vary")).toBe("Accept-Encoding");
    expect(b.headers.get("vary")).toBe("Accept-Encoding");
    // Another query or another language's address is another page.
    await fetch(s.base + "/news?page=3");
    await fetch(s.base + "/fr/news?page=2");
    expect(s.renders()).toBe(3);
  });

  it("keeps each language's address apart, whatever the language cookie or Accept-Language says (decision 0143)", async () => {
    const s = await start();
    const readers: Record<string, string>[] = [{}, { Cookie: "i18nextLng=fr" }, { Cookie: "i18nextLng=en" }, { "Accept-Language": "fr-FR,fr;q=0.9" }];
    for (const headers of readers) {
      for (const path of ["/news", "/fr/news", "/en/news", "/", "/fr"]) {
        const res = await fetch(s.base + path, { headers });
        expect(await res.text(), `${path} ${JSON.stringify(headers)}`).toBe(page(path));
        expect(res.headers.get("vary"), path).toBe("Accept-Encoding");
      }
    }
    // One render per address: the later readers, whatever their cookie, got the same copies.
    expect(s.renders()).toBe(5);
    expect(s.cache.stats().hits).toBe(15);
  });

  it("keeps one copy of a page whatever tracking tags its address carries, rendered without them (issue 45)", async () => {
    const s = await start();
    const seen: string[] = [];
    behaviour = (request) => {
      seen.push(request.url);
      return html(page(new URL(request.url).pathname));
    };
    const first = await fetch(s.base + "/news/x?utm_source=whatsapp");
    expect(first.headers.get("x-page-cache")).toBe("MISS");
    expect(seen).toEqual(["https://news.example/news/x"]);
    for (const tagged of ["/news/x", "/news/x?utm_source=newsletter&utm_campaign=send-3", "/news/x?fbclid=IwAR0&gclid=abc"]) {
      const res = await fetch(s.base + tagged);
      expect(res.headers.get("x-page-cache"), tagged).toBe("HIT");
      expect(await res.text(), tagged).toBe(page("/news/x"));
    }
    // The other parameters still make another page, with the tags left out.
    await fetch(s.base + "/news?utm_source=push&page=2");
    expect(seen.at(-1)).toBe("https://news.example/news?page=2");
    expect((await fetch(s.base + "/news?page=2")).headers.get("x-page-cache")).toBe("HIT");
    expect(s.renders()).toBe(2);
  });

  it("expires the pages showing the social feed in every language when the feed changes, and no other", async () => {
    const s = await start();
    for (const p of ["/fr/news", "/en", "/news", "/fr/facebook", "/articles/a"]) await fetch(s.base + p);
    s.cache.expireSocialPages();
    for (const p of ["/fr/news", "/en", "/news", "/fr/facebook"]) expect((await fetch(s.base + p)).headers.get("x-page-cache"), p).toBe("MISS");
    expect((await fetch(s.base + "/articles/a")).headers.get("x-page-cache")).toBe("HIT");
  });

  it("answers 304 when the reader's copy is current", async () => {
    const s = await start();
    const etag = (await fetch(s.base + "/")).headers.get("etag")!;
    const again = await fetch(s.base + "/", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("vary")).toBe("Accept-Encoding");
    expect(await again.text()).toBe("");
    const other = await fetch(s.base + "/", { headers: { "If-None-Match": 'W/"something-else"' } });
    expect(other.status).toBe(200);
  });

  it("renders N concurrent misses of one page once", async () => {
    const s = await start();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    behaviour = async (request) => {
      await gate;
      return html(page(new URL(request.url).pathname));
    };
    const all = Promise.all(
      Array.from({ length: 25 }, () => fetch(s.base + "/articles/a").then(async (r) => ({ state: r.headers.get("x-page-cache"), body: await r.text() }))),
    );
    await vi.waitFor(() => expect(s.renders()).toBe(1));
    release();
    const answers = await all;
    expect(s.renders()).toBe(1);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers.filter((a) => a.state === "MISS")).toHaveLength(1);
  });

  it("never serves a signed-in reader from the cache, and never keeps their page", async () => {
    const s = await start();
    const personal = await fetch(s.base + "/", { headers: { Cookie: "sahara.session_token=abc.def; i18nextLng=ar" } });
    expect(await personal.text()).toContain("reader@example.com");
    expect(personal.headers.get("x-page-cache")).toBeNull();
    expect(personal.headers.get("cache-control")).toBe("private, no-store");
    expect(personal.headers.get("content-security-policy")).toMatch(/'nonce-/);
    // Any cookie but the language one, or credentials, steps aside too.
    for (const headers of [{ Cookie: "other=1" }, { Authorization: "Bearer x" }] as Record<string, string>[]) {
      expect(await (await fetch(s.base + "/", { headers })).text()).toContain("reader@example.com");
    }
    const anonymous = await fetch(s.base + "/");
    expect(await anonymous.text()).not.toContain("reader@example.com");
    expect(s.renders()).toBe(1);
    // And a cached page is not served to them afterwards either.
    expect(await (await fetch(s.base + "/", { headers: { Cookie: "sahara.session_token=abc.def" } })).text()).toContain("reader@example.com");
  });

  it("renders the page under the public origin, with no cookie and no Accept-Language: only the address names its language", async () => {
    const s = await start();
    const seen: Request[] = [];
    behaviour = (request) => {
      seen.push(request);
      return html(page("x"));
    };
    await fetch(s.base + "/en/search?q=sahara", {
      headers: { Cookie: "i18nextLng=fr", "Accept-Language": "fr", "X-Forwarded-Host": "evil.example", "User-Agent": "reader" },
    });
    expect(seen[0].url).toBe("https://news.example/en/search?q=sahara");
    expect(seen[0].headers.get("cookie")).toBeNull();
    expect(seen[0].headers.get("accept-language")).toBeNull();
    expect(seen[0].headers.get("user-agent")).toBe("reader");
  });

  it("steps aside for the back-office, sign-in, APIs, data requests and files", async () => {
    const s = await start();
    for (const p of [
      "/admin",
      "/admin/articles",
      "/auth",
      "/fr/auth",
      "/en/auth/forgot",
      "/api/news",
      "/debug/facebook",
      "/fr/debug/facebook",
      "/setup",
      "/en/setup",
      "/news.data",
      "/fr/news.data",
      "/robots.txt",
      "/feed.json",
    ]) {
      const res = await fetch(s.base + p);
      expect(res.headers.get("x-page-cache"), p).toBeNull();
    }
    expect(s.renders()).toBe(0);
  });

  it("keeps the feeds and sitemaps like pages, and serves their last good copy when a build fails", async () => {
    const s = await start();
    let failing = false;
    behaviour = (request) =>
      failing
        ? new Response("unavailable", { status: 503, headers: { "Retry-After": "60" } })
        : new Response(`<?xml version="1.0"?><rss><channel><title>${new URL(request.url).pathname}</title></channel></rss>`, {
            headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "public, max-age=300" },
          });
    for (const p of ["/rss.xml", "/fr/rss.xml", "/en/rss.xml", "/sitemap.xml", "/sitemaps/2.xml"]) {
      expect((await fetch(s.base + p)).headers.get("x-page-cache"), p).toBe("MISS");
      const hit = await fetch(s.base + p, { headers: { Cookie: "i18nextLng=fr" } });
      expect(hit.headers.get("x-page-cache"), p).toBe("HIT");
      expect(hit.headers.get("content-type")).toMatch(/xml/);
      expect(hit.headers.get("vary"), p).toBe("Accept-Encoding");
    }
    s.cache.expire();
    failing = true;
    const stale = await fetch(s.base + "/rss.xml");
    expect(stale.status).toBe(200);
    expect(stale.headers.get("x-page-cache")).toBe("STALE-IF-ERROR");
    expect(await stale.text()).toContain("<title>/rss.xml</title>");
    const never = await fetch(s.base + "/sitemaps/3.xml");
    expect(never.status).toBe(503);
    expect(never.headers.get("retry-after")).toBeTruthy();
  });

  it("marks every answer to a signed-in reader private, whatever its format, and lets an anonymous .data be kept like its page", async () => {
    const s = await start();
    for (const p of ["/news.data", "/_root.data", "/news"]) {
      const res = await fetch(s.base + p, { headers: { Cookie: "sahara.session_token=abc" } });
      expect(res.headers.get("cache-control"), p).toBe("private, no-store");
      expect(res.headers.get("vary"), p).toMatch(/\bCookie\b/);
    }
    // The address names the language of an anonymous .data answer too: it varies on nothing but the encoding.
    for (const p of ["/news.data", "/fr/news.data", "/_root.data", "/en.data"]) {
      const anonymous = await fetch(s.base + p, { headers: { Cookie: "i18nextLng=fr" } });
      expect(anonymous.headers.get("cache-control"), p).toBe(publicCacheControl(PAGE_CACHE_DEFAULTS));
      expect(anonymous.headers.get("vary") ?? "", p).not.toMatch(/Cookie|Accept-Language/);
    }
  });

  it("keeps no anonymous .data answer but a 200: a redirect (React Router's 202) and an error are no-store", async () => {
    const s = await start();
    for (const [path, status] of [
      ["/news/old-slug.data", 202],
      ["/news/gone.data", 404],
    ] as const) {
      const res = await fetch(s.base + path);
      expect(res.status, path).toBe(status);
      expect(res.headers.get("cache-control"), path).toBe("no-store");
    }
  });

  it("shows a page edited in the back-office on the next request (the read cache's invalidation expires pages)", async () => {
    const s = await start();
    let title = "before";
    behaviour = async () => html(page(await cached("home", ["article"], () => Promise.resolve(title))));
    expect(await (await fetch(s.base + "/")).text()).toContain("before");
    title = "after";
    expect(await (await fetch(s.base + "/")).text()).toContain("before"); // cached
    invalidate("article"); // what every newsroom save, delete and scheduled publish calls
    const next = await fetch(s.base + "/");
    expect(await next.text()).toContain("after");
    expect(next.headers.get("x-page-cache")).toBe("MISS");
  });

  it("does not keep as fresh a page whose render started before an invalidation", async () => {
    const s = await start();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let version = "old";
    behaviour = async () => {
      const v = version;
      await gate;
      return html(page(v));
    };
    const first = fetch(s.base + "/").then((r) => r.text());
    await vi.waitFor(() => expect(s.renders()).toBe(1));
    version = "new";
    invalidate("news");
    release();
    expect(await first).toContain("old");
    const second = await fetch(s.base + "/");
    expect(await second.text()).toContain("new");
    expect(s.renders()).toBe(2);
  });

  it("serves a stale page while one request renders it again", async () => {
    const s = await start();
    let version = 1;
    behaviour = () => html(page(`v${version}`));
    await fetch(s.base + "/");
    version = 2;
    s.clock.t += 61_000;
    const stale = await fetch(s.base + "/");
    expect(stale.headers.get("x-page-cache")).toBe("STALE");
    expect(await stale.text()).toContain("v1");
    await vi.waitFor(async () => expect(await (await fetch(s.base + "/")).text()).toContain("v2"));
    expect(s.renders()).toBe(2);
  });

  it("keeps serving the last good page when a render fails, and answers 503 when there is none", async () => {
    const s = await start();
    await fetch(s.base + "/");
    behaviour = () => html("<html>error</html>", { status: 500 });
    s.clock.t += 61_000 + 600_000; // past fresh and stale-while-revalidate
    const res = await fetch(s.base + "/");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-page-cache")).toBe("STALE-IF-ERROR");
    expect(await res.text()).toBe(page("/"));
    // An exception is a failure too, and an invalidated page is still the last good one.
    behaviour = () => {
      throw new Error("database down");
    };
    invalidate("article");
    expect((await fetch(s.base + "/")).status).toBe(200);
    const none = await fetch(s.base + "/never-rendered");
    expect(none.status).toBe(503);
    expect(none.headers.get("retry-after")).toBe("30");
    expect(none.headers.get("cache-control")).toBe("no-store");
    // The next good render is kept again.
    behaviour = () => html(page("back"));
    expect(await (await fetch(s.base + "/")).text()).toContain("back");
  });

  it("never keeps a degraded page (a read failed and the page shows less) nor the read behind it", async () => {
    const s = await start();
    let healthy = false;
    const read = vi.fn(() => {
      if (!healthy) markDegraded(); // what home's hidden sections and the empty related list do
      return Promise.resolve(healthy ? "all sections" : "some sections");
    });
    behaviour = async () => html(page(await cached("home", ["article"], read)));
    const degraded = await fetch(s.base + "/");
    expect(degraded.status).toBe(200);
    expect(degraded.headers.get("cache-control")).toBe("no-store");
    expect(await degraded.text()).toContain("some sections");
    healthy = true;
    expect(await (await fetch(s.base + "/")).text()).toContain("all sections");
    expect(read).toHaveBeenCalledTimes(2);
    expect(s.renders()).toBe(2);
    expect((await fetch(s.base + "/")).headers.get("x-page-cache")).toBe("HIT");
  });

  it("serves the last good copy when a degraded render answers with a redirect (a detail page whose read failed sends readers home)", async () => {
    const s = await start();
    await fetch(s.base + "/articles/a");
    behaviour = () => {
      markDegraded(); // what loadOrGoHome (server/http/responses.server.ts) does before its redirect
      return new Response(null, { status: 302, headers: { Location: "/?notice=load-failed" } });
    };
    invalidate("article");
    const res = await fetch(s.base + "/articles/a", { redirect: "manual" });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-page-cache")).toBe("STALE-IF-ERROR");
    expect(await res.text()).toBe(page("/articles/a"));
    // Never seen: the redirect goes through as it is, and is not kept.
    const unseen = await fetch(s.base + "/articles/b", { redirect: "manual" });
    expect(unseen.status).toBe(302);
    expect(unseen.headers.get("x-page-cache")).toBe("ERROR");
  });

  it("passes on a 404 or a redirect without keeping it, and never keeps a page that sets a cookie or is private", async () => {
    const s = await start();
    behaviour = (request) => {
      const p = new URL(request.url).pathname;
      if (p === "/missing") return html(page("404"), { status: 404 });
      if (p === "/moved") return new Response(null, { status: 302, headers: { Location: "/" } });
      if (p === "/cookie") return html(page("c"), { headers: { "Set-Cookie": "a=b" } });
      return html(page("p"), { headers: { "Cache-Control": "no-store" } });
    };
    for (const p of ["/missing", "/moved", "/cookie", "/private"]) {
      const a = await fetch(s.base + p, { redirect: "manual" });
      await fetch(s.base + p, { redirect: "manual" });
      expect(a.headers.get("set-cookie"), p).toBeNull();
    }
    expect((await fetch(s.base + "/missing")).status).toBe(404);
    expect(s.renders()).toBe(9);
  });

  it("names what a page shows in Surrogate-Key and Cache-Tag, the same on its render and every hit after", async () => {
    const s = await start();
    behaviour = async (request) => {
      const p = new URL(request.url).pathname;
      // A detail loader: its item, its read-cache reads (one a hit on the second page, noted all the same).
      if (p.startsWith("/articles/")) noteShownItem({ contentType: "article", contentId: 7 });
      await cached("detail:article:7", ["article", "tags"], () => Promise.resolve("item"));
      if (p === "/fr") await cached("home", ["program", "categories"], () => Promise.resolve("blocks"));
      return html(page(p));
    };
    const miss = await fetch(s.base + "/articles/a");
    const hit = await fetch(s.base + "/articles/a", { method: "HEAD" });
    expect(hit.headers.get("x-page-cache")).toBe("HIT");
    for (const res of [miss, hit]) {
      expect(res.headers.get("surrogate-key")).toBe("site article tags article-7");
      expect(res.headers.get("cache-tag")).toBe("site,article,tags,article-7");
      expect(res.headers.get("cdn-tag")).toBe("site,article,tags,article-7");
    }
    // The home page of every language, which shows the social feed too.
    const home = await fetch(s.base + "/fr");
    expect(home.headers.get("surrogate-key")?.split(" ").sort()).toEqual(["article", "categories", "home", "program", "site", "social", "tags"]);
    expect(s.renders()).toBe(2);
  });

  it("gives every tag to a page that read the database outside the read cache: what it shows cannot be named", async () => {
    const s = await start();
    behaviour = () => {
      noteQuery(); // drizzle's logger hook, as a query a loader runs without cached() calls it
      return html(page("archive"));
    };
    const keys = (await fetch(s.base + "/archive/2024")).headers.get("surrogate-key")!.split(" ");
    expect(keys).toEqual(expect.arrayContaining(["site", ...CACHE_TAG_NAMES]));
    // A query inside cached() is the read cache's, named by its tags.
    expect(surrogateKeys("/x", { tags: new Set(["news"]), unkeyed: false, views: [] })).toEqual(["site", "news"]);
  });

  it("keys the anonymous answers it does not keep too (public JSON, a page's .data), and lets none that sets a cookie be shared", async () => {
    const s = await start();
    const api = express();
    api.use(responseCachePolicy(publicCacheControl(PAGE_CACHE_DEFAULTS)));
    api.get("/api/news", async (_req, res) => {
      await cached("news-page:1", ["news", "categories"], () => Promise.resolve([]));
      res.set("Cache-Control", "public, max-age=60, s-maxage=60").json({ items: [] });
    });
    api.get("/api/search", (_req, res) => void res.set("Cache-Control", "public, max-age=60").cookie("sahara.search", "r1").json({}));
    const server = api.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const json = await fetch(base + "/api/news");
      expect(json.headers.get("surrogate-key")).toBe("site news categories");
      expect(json.headers.get("cache-tag")).toBe("site,news,categories");
      // The same for a signed-in reader: should a shared cache keep it, a purge reaches it.
      const personal = await fetch(base + "/api/news", { headers: { Cookie: "sahara.session_token=abc" } });
      expect(personal.headers.get("surrogate-key")).toBe("site news categories");
      const cookie = await fetch(base + "/api/search");
      expect(cookie.headers.get("set-cookie")).toBeTruthy();
      expect(cookie.headers.get("cache-control")).toBe("private, no-store");
      expect(cookie.headers.get("surrogate-key")).toBeNull();
    } finally {
      server.close();
    }
    const data = await fetch(s.base + "/fr.data");
    expect(data.headers.get("surrogate-key")).toBe("site home social");
  });

  it("keeps no more bytes than its bound (PAGE_CACHE_MAX_BYTES), the least recently used pages going first", async () => {
    const maxBytes = 256 * 1024;
    let renders = 0;
    // Pages that do not compress (random text): each keeps about 3 × 20 KB.
    const cache = createPageCache({
      origin: "https://news.example",
      maxBytes,
      render: (request) => {
        renders++;
        return Promise.resolve(html(page(new URL(request.url).search + crypto.randomBytes(15_000).toString("base64"))));
      },
    });
    const app = express();
    app.use(cache.middleware);
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (let i = 0; i < 40; i++) {
      await (await fetch(`${base}/search?q=${i}`)).text();
      expect(cache.stats().bytes).toBeLessThanOrEqual(maxBytes);
    }
    const { size } = cache.stats();
    expect(size).toBeGreaterThan(1);
    expect(size).toBeLessThan(40);
    // The most recent page is kept; the first ones went.
    expect((await fetch(`${base}/search?q=39`)).headers.get("x-page-cache")).toBe("HIT");
    expect((await fetch(`${base}/search?q=0`)).headers.get("x-page-cache")).toBe("MISS");
    expect(renders).toBe(41);
  });

  it("sends cached pages a CSP with the hashes of their inline scripts instead of a nonce", async () => {
    const s = await start();
    const a = await fetch(s.base + "/");
    const b = await fetch(s.base + "/");
    const expected = `'sha256-${crypto.createHash("sha256").update(INLINE).digest("base64")}'`;
    for (const res of [a, b]) {
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain(`script-src 'self' ${expected} ${PREFETCH_RULES_HASH};`);
      expect(csp).not.toContain("nonce");
      expect(csp).toContain("frame-ancestors 'none'");
    }
  });
});

describe("hashes for the policy", () => {
  it("hashes inline scripts that run, not external ones or data blocks", () => {
    expect(inlineScriptHashes(page("x"))).toEqual([`'sha256-${crypto.createHash("sha256").update(INLINE).digest("base64")}'`]);
    expect(inlineScriptHashes('<script nonce="">a</script><script>a</script><script type="text/javascript">b</script>')).toHaveLength(2);
  });

  it("replaces the nonce source and keeps the rest of the policy", () => {
    expect(policyWithHashes("default-src 'self';script-src 'self' 'nonce-abc==';object-src 'none'", ["'sha256-x'"])).toBe(
      "default-src 'self';script-src 'self' 'sha256-x';object-src 'none'",
    );
    expect(policyWithHashes("script-src 'self' 'nonce-abc'", [])).toBe("script-src 'self'");
  });
});
