/**
 * The page cache's fast path (server/http/fast-path.server.ts) on a server shaped like server.js + createApp:
 * a fresh page is answered before Express with the same status line, headers (in the same order) and body bytes
 * as the Express path gives, for every encoding, HEAD and 304; the same access-log line and surrogate keys; and
 * everything it is not sure of — a session cookie, a page not kept, a stale page, a POST, an encoding only
 * compression() speaks, a target the guards rewrite — goes through Express untouched.
 */
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import compression from "compression";
import express from "express";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkConfig } from "#server/config.server.ts";
import { clearCache, invalidate, setCacheEnabled } from "#server/content/cache.server.ts";
import { CLIENT_IP_HEADER, noteShownItem } from "#server/content/views.server.ts";
import { createLogger } from "#server/ops/logger.server.ts";
import { trackRequests } from "#server/ops/access-log.server.ts";
import { labelRequest, notePageCache } from "#server/ops/request-context.server.ts";
import { metricsText } from "#server/ops/metrics.server.ts";
import { publicSecurityHeaders, securityHeaders } from "./security.server.ts";
import { requestBodyGuard, requestTargetGuard } from "./request-guard.server.ts";
import { createFastPath } from "./fast-path.server.ts";
import { entryRedirect, entryRedirectTarget } from "./entry-redirect.server.ts";
import { ourOrigins } from "./request-guard.server.ts";
import { createPageCache, followInvalidations, PAGE_CACHE_DEFAULTS, publicCacheControl, responseCachePolicy, type PageCache } from "./page-cache.server.ts";

const page = (text: string) =>
  `<!DOCTYPE html><html lang="ar"><head><script type="module">window.__x = 1;</script></head><body><h1>${text}</h1>` +
  `<p>${"قافلة الملح في الصحراء ".repeat(200)}</p></body></html>`;

type Line = Record<string, unknown> & { msg: string };
type Setup = {
  port: number;
  cache: PageCache;
  lines: Line[];
  clock: { t: number };
  fast: { on: boolean };
  renders: () => number;
  publicUrl: string;
};

let stop: (() => Promise<void>) | undefined;

/** server.js (tracking, compression, the app) and createApp's layers in their order, with a page cache and its fast path. */
async function start(): Promise<Setup> {
  const lines: Line[] = [];
  const log = createLogger(
    new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const text of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(text) as Line);
        done();
      },
    }),
  );
  log.level = "info";
  const config = checkConfig({}).config;
  const clock = { t: 1_000_000 };
  let renders = 0;
  const cache = createPageCache({
    origin: "https://news.example",
    render: (request) => {
      renders++;
      const path = new URL(request.url).pathname;
      if (path.startsWith("/articles/")) noteShownItem({ contentType: "article", contentId: 7 });
      return Promise.resolve(new Response(page(path), { headers: { "Content-Type": "text/html; charset=utf-8", "Content-Language": "ar" } }));
    },
    now: () => clock.t,
  });
  const unfollow = followInvalidations(cache);
  const label = (path: string) => (path.startsWith("/articles/") ? "/articles/:slug" : path);

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", "loopback");
  const track = trackRequests({ accessLog: true, logger: log });
  app.use(track);
  app.use(securityHeaders(config));
  app.use(requestTargetGuard(config));
  app.use((req, _res, next) => (labelRequest(label(req.path)), next()));
  app.use((req, _res, next) => {
    req.headers[CLIENT_IP_HEADER] = req.ip ?? "";
    next();
  });
  app.use(requestBodyGuard(config));
  app.use(entryRedirect(config));
  app.use(responseCachePolicy(publicCacheControl(PAGE_CACHE_DEFAULTS)));
  app.use((req, res, next) => (notePageCache("bypass"), cache.middleware(req, res, next)));
  // What renders when the cache steps aside: a personal page with the request's nonce.
  app.use((_req, res) => void res.type("html").send(`<p>signed in as reader@example.com <script nonce="${String(res.locals.nonce)}">1</script></p>`));

  const outer = express();
  outer.disable("x-powered-by");
  outer.set("trust proxy", "loopback");
  outer.use(track);
  outer.use(compression());
  outer.use(app);
  const fast = { on: true };
  const ours = ourOrigins(config);
  const redirects = (req: http.IncomingMessage) => entryRedirectTarget(req, ours) !== undefined;
  const fastPath = createFastPath({ app, track, securityHeaders: publicSecurityHeaders(config), cache, label: () => label, redirects });
  const server = http.createServer((req, res) => {
    if (!(fast.on && fastPath(req, res))) outer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stop = () =>
    new Promise<void>((resolve) => {
      unfollow();
      server.close(() => resolve());
    });
  return { port: (server.address() as AddressInfo).port, cache, lines, clock, fast, renders: () => renders, publicUrl: config.publicUrl };
}

type Raw = { statusLine: string; headers: [string, string][]; body: Buffer };

/** One request over a fresh connection, the answer as bytes (fetch would decompress and merge headers). */
function raw(port: number, method: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, "127.0.0.1", () => {
      const lines = [`${method} ${path} HTTP/1.1`, "Host: 127.0.0.1", "Connection: close", ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
      socket.write(lines.join("\r\n") + "\r\n\r\n");
    });
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf("\r\n\r\n");
      const [statusLine, ...rest] = all.subarray(0, split).toString("latin1").split("\r\n");
      const list = rest.map((line) => {
        const i = line.indexOf(":");
        return [line.slice(0, i), line.slice(i + 1).trim()] as [string, string];
      });
      resolve({ statusLine, headers: list, body: all.subarray(split + 4) });
    });
  });
}

/** What differs between any two answers by nature: the date, the request id, the page's age. */
const comparable = (r: Raw) => r.headers.filter(([name]) => !["date", "x-request-id", "age"].includes(name.toLowerCase()));
const header = (r: Raw, name: string) => r.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];

beforeEach(() => setCacheEnabled(true));
afterEach(async () => {
  await stop?.();
  stop = undefined;
  clearCache();
  setCacheEnabled(false);
});

describe("the page cache's fast path", () => {
  it("answers a fresh page with the bytes and headers the Express path gives, in every encoding, HEAD and 304", async () => {
    const s = await start();
    await raw(s.port, "GET", "/news?page=2"); // the first reader renders it, through Express
    const cases: { method: string; headers: Record<string, string> }[] = [
      { method: "GET", headers: { "Accept-Encoding": "gzip, deflate, br" } },
      { method: "GET", headers: { "Accept-Encoding": "gzip" } },
      { method: "GET", headers: {} },
      { method: "GET", headers: { "Accept-Encoding": "identity" } },
      { method: "HEAD", headers: { "Accept-Encoding": "br" } },
      { method: "GET", headers: { "Accept-Encoding": "br", "User-Agent": "Mozilla/5.0 (Android 14; Mobile)" } },
    ];
    for (const { method, headers } of cases) {
      s.fast.on = false;
      const long = await raw(s.port, method, "/news?page=2", headers);
      s.fast.on = true;
      const before = s.cache.stats().fastHits;
      const fast = await raw(s.port, method, "/news?page=2", headers);
      expect(s.cache.stats().fastHits, `${method} ${JSON.stringify(headers)}`).toBe(before + 1);
      expect(fast.statusLine).toBe("HTTP/1.1 200 OK");
      expect(header(fast, "x-page-cache")).toBe("HIT");
      expect(comparable(fast), `${method} ${JSON.stringify(headers)}`).toEqual(comparable(long));
      expect(fast.body.equals(long.body)).toBe(true);
    }
    // The reader's copy is current: 304, the same way.
    const etag = header(await raw(s.port, "GET", "/news?page=2"), "etag")!;
    s.fast.on = false;
    const long = await raw(s.port, "GET", "/news?page=2", { "If-None-Match": etag });
    s.fast.on = true;
    const fast = await raw(s.port, "GET", "/news?page=2", { "If-None-Match": etag });
    expect(fast.statusLine).toBe("HTTP/1.1 304 Not Modified");
    expect(comparable(fast)).toEqual(comparable(long));
    expect(fast.body.length).toBe(0);
    // The page was rendered once for all of these; its CSP lists its script's hash, not a nonce.
    expect(s.renders()).toBe(1);
    expect(header(fast, "content-security-policy")).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]{44}' 'sha256-[A-Za-z0-9+/=]{44}';/);
  });

  it("keeps a page per address: the language cookie and Accept-Language change nothing, on either path", async () => {
    const s = await start();
    const readers: Record<string, string>[] = [{}, { Cookie: "i18nextLng=fr" }, { "Accept-Language": "en-GB,en;q=0.8" }, { "Accept-Language": "ar" }];
    for (const path of ["/culture", "/fr/culture", "/en/culture"]) {
      for (const headers of readers) {
        await raw(s.port, "GET", path, headers);
        s.fast.on = false;
        const long = await raw(s.port, "GET", path, { ...headers, "Accept-Encoding": "br" });
        s.fast.on = true;
        const before = s.cache.stats().fastHits;
        const fast = await raw(s.port, "GET", path, { ...headers, "Accept-Encoding": "br" });
        expect(s.cache.stats().fastHits, `${path} ${JSON.stringify(headers)}`).toBe(before + 1);
        expect(comparable(fast)).toEqual(comparable(long));
        expect(header(fast, "vary"), path).toBe("Accept-Encoding");
      }
    }
    expect(s.renders()).toBe(3); // one per address, whoever asked first
  });

  it("answers a link carrying tracking tags with its page's one copy (issue 45)", async () => {
    const s = await start();
    await raw(s.port, "GET", "/culture");
    for (const tagged of ["/culture?utm_source=whatsapp", "/culture?utm_source=push&utm_campaign=alert-news-4", "/culture?fbclid=IwAR0"]) {
      const before = s.cache.stats().fastHits;
      const answer = await raw(s.port, "GET", tagged, { "Accept-Encoding": "br" });
      expect(s.cache.stats().fastHits, tagged).toBe(before + 1);
      expect(header(answer, "x-page-cache"), tagged).toBe("HIT");
    }
    expect(s.renders()).toBe(1);
  });

  it("leaves the bare entry of a reader who chose French or English to Express, which redirects it uncached", async () => {
    const s = await start();
    await raw(s.port, "GET", "/");
    await raw(s.port, "GET", "/news");
    const fastHits = () => s.cache.stats().fastHits;
    for (const [lang, to] of [
      ["fr", "/fr"],
      ["en", "/en?utm_source=x"],
    ]) {
      const target = to.includes("?") ? "/?utm_source=x" : "/";
      const entry = await raw(s.port, "GET", target, { Cookie: `i18nextLng=${lang}` });
      expect(entry.statusLine, lang).toBe("HTTP/1.1 302 Found");
      expect(header(entry, "location"), lang).toBe(to);
      expect(header(entry, "cache-control"), lang).toBe("private, no-store");
      expect(header(entry, "x-page-cache"), lang).toBeUndefined();
    }
    expect(fastHits()).toBe(0);
    // From a page of ours (the toggle, the logo), an Arabic choice, or any other path: the page, from the fast path.
    const answered: Record<string, string>[] = [{ Cookie: "i18nextLng=fr", Referer: `${s.publicUrl}/fr/news` }, { Cookie: "i18nextLng=ar" }, {}];
    for (const headers of answered) {
      const home = await raw(s.port, "GET", "/", headers);
      expect(home.statusLine, JSON.stringify(headers)).toBe("HTTP/1.1 200 OK");
      expect(header(home, "vary")).toBe("Accept-Encoding");
    }
    const deep = await raw(s.port, "GET", "/news", { Cookie: "i18nextLng=fr" });
    expect(deep.statusLine).toBe("HTTP/1.1 200 OK");
    expect(fastHits()).toBe(answered.length + 1);
    // Another site's link to the entry is no page of ours: redirected.
    expect((await raw(s.port, "GET", "/", { Cookie: "i18nextLng=fr", Referer: "https://www.google.com/" })).statusLine).toMatch(/ 302 /);
  });

  it("writes the same access-log line and names the same surrogate keys as Express's hit", async () => {
    const s = await start();
    const reader = { "User-Agent": "Mozilla/5.0 (Linux; Android 14) Mobile Safari", "X-Forwarded-For": "203.0.113.9" };
    await raw(s.port, "GET", "/articles/a", reader);
    s.fast.on = false;
    const long = await raw(s.port, "GET", "/articles/a", { ...reader, "Accept-Encoding": "gzip" });
    const series = async (name: string) =>
      Number(
        (await metricsText())
          .split("\n")
          .find((l) => l.startsWith(`${name} `))
          ?.split(" ")[1] ?? 0,
      );
    const requests = 'http_requests_total{method="GET",route="/articles/:slug",status_class="2xx"}';
    const hits = 'sahara_page_cache_requests_total{result="hit"}';
    await expect.poll(() => series("http_requests_in_flight")).toBe(0);
    const counted = { requests: await series(requests), hits: await series(hits) };
    s.fast.on = true;
    const fast = await raw(s.port, "GET", "/articles/a", { ...reader, "Accept-Encoding": "gzip" });
    // Counted in /metrics as the long way counts its answers: its route, the cache's verdict, nothing left in flight.
    await expect.poll(() => series(requests)).toBe(counted.requests + 1);
    expect(await series(hits)).toBe(counted.hits + 1);
    expect(await series("http_requests_in_flight")).toBe(0);
    await raw(s.port, "HEAD", "/articles/a", reader); // a HEAD is not a view
    expect(s.cache.stats().fastHits).toBe(2);
    const line = (id: string | undefined) => {
      const found = s.lines.find((l) => l.msg === "request" && l.requestId === id);
      expect(found, id).toBeDefined();
      const { requestId: _id, ms: _ms, time: _t, ...rest } = found!;
      return rest;
    };
    expect(line(header(fast, "x-request-id"))).toEqual(line(header(long, "x-request-id")));
    expect(line(header(fast, "x-request-id"))).toMatchObject({ route: "/articles/:slug", status: 200, cache: "hit", ip: "203.0.113.9", path: "/articles/a" });
    // The item's key travels with the page; the view itself is the beacon's to count (decision 0145).
    expect(header(fast, "surrogate-key")).toBe("site article-7");
    expect(header(fast, "cache-tag")).toBe(header(long, "cache-tag"));
  });

  it("leaves to Express whatever it is not sure of, which answers it as before", async () => {
    const s = await start();
    await raw(s.port, "GET", "/news");
    const fastHits = () => s.cache.stats().fastHits;
    // A session cookie: the personal page, private, never from the cache.
    const signedIn = await raw(s.port, "GET", "/news", { Cookie: "i18nextLng=fr; sahara.session_token=abc" });
    expect(signedIn.body.toString()).toContain("signed in as");
    expect(header(signedIn, "x-page-cache")).toBeUndefined();
    expect(header(signedIn, "cache-control")).toBe("private, no-store");
    expect(header(signedIn, "content-security-policy")).toContain("'nonce-");
    expect((await raw(s.port, "GET", "/news", { Authorization: "Bearer x" })).body.toString()).toContain("signed in as");
    // A query the cache does not hold: rendered through Express (a miss), then a fast hit.
    expect(header(await raw(s.port, "GET", "/news?page=9"), "x-page-cache")).toBe("MISS");
    // A POST, a GET with a body, an encoding compression() would apply, a target the guard rewrites.
    expect(header(await raw(s.port, "POST", "/news", { Origin: "http://127.0.0.1" }), "x-page-cache")).toBeUndefined();
    expect(header(await raw(s.port, "GET", "/news", { "Content-Length": "0" }), "x-page-cache")).toBe("HIT");
    const deflate = await raw(s.port, "GET", "/news", { "Accept-Encoding": "deflate" });
    expect(header(deflate, "x-page-cache")).toBe("HIT");
    expect(header(deflate, "content-encoding")).toBe("deflate");
    expect((await raw(s.port, "GET", "//news")).statusLine).toMatch(/ 308 /);
    expect(fastHits()).toBe(0);
    // A trusted proxy's forwarded protocol is no reason to go the long way; an invalid one is (400 there).
    expect(header(await raw(s.port, "GET", "/news", { "X-Forwarded-Proto": "https" }), "x-page-cache")).toBe("HIT");
    expect(fastHits()).toBe(1);
    expect((await raw(s.port, "GET", "/news", { "X-Forwarded-Proto": "gopher" })).statusLine).toMatch(/ 400 /);
    // Stale: Express serves it and renders it again in the background; expired by a write: rendered again.
    s.clock.t += PAGE_CACHE_DEFAULTS.freshMs + 1;
    expect(header(await raw(s.port, "GET", "/news"), "x-page-cache")).toBe("STALE");
    await expect.poll(async () => header(await raw(s.port, "GET", "/news"), "x-page-cache")).toBe("HIT");
    expect(fastHits()).toBeGreaterThan(1);
    invalidate("article");
    const before = fastHits();
    expect(header(await raw(s.port, "GET", "/news"), "x-page-cache")).toBe("MISS");
    expect(fastHits()).toBe(before);
    expect(header(await raw(s.port, "GET", "/news"), "x-page-cache")).toBe("HIT");
    expect(fastHits()).toBe(before + 1);
  });
});

describe("the memory bounds' settings", () => {
  it("has sensible defaults and refuses values out of range at start", () => {
    expect(checkConfig({}).config).toMatchObject({
      PAGE_CACHE_FAST_PATH: "on",
      PAGE_CACHE_MAX_BYTES: 32 * 1024 * 1024,
      READ_CACHE_MAX_ENTRIES: 1000,
      PGLITE_SHARED_BUFFERS_MB: 16,
    });
    expect(checkConfig({ PAGE_CACHE_MAX_BYTES: "8388608", READ_CACHE_MAX_ENTRIES: "200", PAGE_CACHE_FAST_PATH: "off" }).config).toMatchObject({
      PAGE_CACHE_MAX_BYTES: 8 * 1024 * 1024,
      READ_CACHE_MAX_ENTRIES: 200,
      PAGE_CACHE_FAST_PATH: "off",
    });
    for (const [name, bad] of [
      ["PAGE_CACHE_MAX_BYTES", "1000"],
      ["PAGE_CACHE_MAX_BYTES", "64MB"],
      ["READ_CACHE_MAX_ENTRIES", "0"],
      ["PGLITE_SHARED_BUFFERS_MB", "-1"],
      ["PAGE_CACHE_FAST_PATH", "maybe"],
    ])
      expect(checkConfig({ [name]: bad }).errors[0], `${name}=${bad}`).toMatch(new RegExp(`^Invalid environment variable ${name}`));
  });
});
