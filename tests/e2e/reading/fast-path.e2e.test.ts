/**
 * The page cache's fast path on the built server (docs/decisions/0130-fast-path-and-memory-bounds.md): two servers
 * on copies of one seeded database, one with the fast path (the default) and one with PAGE_CACHE_FAST_PATH=off,
 * answer the home page, /news and an article with the same status, headers and body bytes, in brotli, gzip and
 * identity, to HEAD and with a 304; the fast one counts them in /metrics and the other does not. A signed-in
 * reader never gets an answer from it; an article served by it names its item, whose views its beacon counts (once per reader, decision 0145).
 */
import fs from "node:fs";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkConfig } from "#server/config.server.ts";
import { openDatabase } from "#server/db/client.server.ts";
import { createAuth } from "#server/auth/auth.server.ts";
import { createPersona, type Persona } from "#tests/helpers/auth.ts";
import { E2E_SECRET } from "#tests/e2e/auth/support.ts";
import { newDataDir, startServer, type RunningServer } from "#tests/e2e/support/server.ts";

type Raw = { statusLine: string; headers: [string, string][]; body: Buffer };

/** One request over its own connection, the answer as bytes (fetch would decompress it and merge headers). */
function raw(port: number, method: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, "127.0.0.1", () => {
      const lines = [`${method} ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, "Connection: close", ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
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

const header = (r: Raw, name: string) => r.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
/** What differs between two answers by nature: the date, the request id, the page's age, and the port in no header. */
const comparable = (r: Raw) => r.headers.filter(([name]) => !["date", "x-request-id", "age"].includes(name.toLowerCase()));

async function fastHits(server: RunningServer): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(/^sahara_page_cache_fast_path_total (\d+)/m.exec(text)?.[1] ?? 0);
}

const BOT = { "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" };
const READER = "Mozilla/5.0 (Linux; Android 14; SM-A155F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36";

describe("the page cache's fast path on the built server", () => {
  let fast: RunningServer;
  let slow: RunningServer;
  let reader: Persona;
  let article = "";
  const dirs: string[] = [];

  beforeAll(async () => {
    const dataDir = newDataDir({ seeded: true });
    const handle = openDatabase({ dataDir });
    try {
      await handle.migrate();
      const { config } = checkConfig({ DATA_DIR: dataDir, BETTER_AUTH_SECRET: E2E_SECRET, LOG_LEVEL: "silent" });
      reader = await createPersona(createAuth({ db: handle.db, config }), handle.db, { email: "reader@fast.test", password: "Passw0rdA", role: "admin" });
    } finally {
      await handle.close();
    }
    const copy = `${dataDir}-copy`;
    fs.cpSync(dataDir, copy, { recursive: true });
    dirs.push(dataDir, copy);
    // One public origin for both: pages name it (canonical links, Open Graph), and it must not be their ports.
    const env = { BETTER_AUTH_SECRET: E2E_SECRET, SEED_DEMO: "true", PUBLIC_URL: "http://news.sahara.test" };
    [fast, slow] = await Promise.all([startServer({ ...env, DATA_DIR: dataDir }), startServer({ ...env, DATA_DIR: copy, PAGE_CACHE_FAST_PATH: "off" })]);
    const home = await (await fetch(fast.url + "/", { headers: BOT })).text();
    article = /href="(\/articles\/[^"#?]+)"/.exec(home)?.[1] ?? "";
    expect(article, "the home page links to an article").not.toBe("");
  });
  afterAll(async () => {
    await Promise.all([fast?.stop(), slow?.stop()]);
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("answers cached pages with the bytes and headers of the Express path, and counts them as its own", async () => {
    const cases: { method: string; headers: Record<string, string> }[] = [
      { method: "GET", headers: { "Accept-Encoding": "gzip, deflate, br, zstd" } },
      { method: "GET", headers: { "Accept-Encoding": "gzip" } },
      { method: "GET", headers: {} },
      { method: "HEAD", headers: { "Accept-Encoding": "br" } },
      // The language cookie and Accept-Language change nothing: the address names the language (decision 0143).
      { method: "GET", headers: { "Accept-Encoding": "br", Cookie: "i18nextLng=ar", "Accept-Language": "fr" } },
    ];
    for (const path of ["/", "/news", article, "/fr/news", `/en${article}`]) {
      for (const { method, headers } of cases) {
        const h = { ...BOT, ...headers };
        for (const server of [fast, slow]) await raw(server.port, "GET", path, h); // rendered, kept
        const before = await fastHits(fast);
        const [a, b] = [await raw(fast.port, method, path, h), await raw(slow.port, method, path, h)];
        const what = `${method} ${path} ${JSON.stringify(headers)}`;
        expect(header(a, "x-page-cache"), what).toBe("HIT");
        expect(a.statusLine, what).toBe(b.statusLine);
        expect(comparable(a), what).toEqual(comparable(b));
        expect(a.body.equals(b.body), what).toBe(true);
        expect(await fastHits(fast), what).toBe(before + 1);
      }
      const etag = header(await raw(fast.port, "GET", path, BOT), "etag")!;
      const [a, b] = [
        await raw(fast.port, "GET", path, { ...BOT, "If-None-Match": etag }),
        await raw(slow.port, "GET", path, { ...BOT, "If-None-Match": etag }),
      ];
      expect(a.statusLine).toBe("HTTP/1.1 304 Not Modified");
      expect(comparable(a)).toEqual(comparable(b));
    }
    expect(await fastHits(slow)).toBe(0);
    // One access-log line per answer, as the long way writes it.
    const answer = await raw(fast.port, "GET", article, { ...BOT, "Accept-Encoding": "br" });
    const id = header(answer, "x-request-id")!;
    await expect.poll(() => fast.output()).toContain(`"requestId":"${id}"`);
    const line = JSON.parse(
      fast
        .output()
        .split("\n")
        .find((l) => l.includes(`"requestId":"${id}"`))!,
    ) as Record<string, unknown>;
    expect(line).toMatchObject({
      msg: "request",
      method: "GET",
      route: "/articles/:slug",
      path: article,
      status: 200,
      cache: "hit",
      bytes: answer.body.length,
    });
  });

  it("leaves the bare entry of a reader who chose French to Express, which redirects it uncached; a deep link it answers", async () => {
    await raw(fast.port, "GET", "/", BOT);
    await raw(fast.port, "GET", "/news", BOT);
    const before = await fastHits(fast);
    const entry = await raw(fast.port, "GET", "/", { ...BOT, Cookie: "i18nextLng=fr" });
    expect(entry.statusLine).toBe("HTTP/1.1 302 Found");
    expect(header(entry, "location")).toBe("/fr");
    expect(header(entry, "cache-control")).toBe("private, no-store");
    expect(await fastHits(fast)).toBe(before);
    const deep = await raw(fast.port, "GET", "/news", { ...BOT, Cookie: "i18nextLng=fr" });
    expect(header(deep, "x-page-cache")).toBe("HIT");
    expect(header(deep, "vary")).toBe("Accept-Encoding");
    expect(await fastHits(fast)).toBe(before + 1);
  });

  it("never answers a signed-in reader", async () => {
    await raw(fast.port, "GET", "/news", BOT);
    const before = await fastHits(fast);
    const signedIn = await raw(fast.port, "GET", "/news", { Cookie: reader.cookie, "Accept-Encoding": "identity" });
    expect(signedIn.statusLine).toBe("HTTP/1.1 200 OK");
    expect(header(signedIn, "x-page-cache")).toBeUndefined();
    expect(header(signedIn, "cache-control")).toBe("private, no-store");
    expect(header(signedIn, "content-security-policy")).toContain("'nonce-");
    expect(signedIn.body.toString()).toContain('data-testid="admin-link"');
    expect(await fastHits(fast)).toBe(before);
    const anonymous = await raw(fast.port, "GET", "/news", { ...BOT, "Accept-Encoding": "identity" });
    expect(anonymous.body.toString()).not.toContain('data-testid="admin-link"');
    expect(await fastHits(fast)).toBe(before + 1);
  });

  it("counts no view itself: the article it answers names its item, and the beacon counts once per reader and day", async () => {
    /** The article's running total, as the public API gives it (not cached). */
    const views = async () => {
      const { articles } = (await (await fetch(`${fast.url}/api/articles?limit=50`)).json()) as { articles: { url: string; views: number }[] };
      return articles.find((a) => a.url === article)?.views;
    };
    await raw(fast.port, "GET", article, BOT); // kept; a crawler's visit is no view
    const start = await views();
    expect(start).toBeTypeOf("number");
    const before = await fastHits(fast);
    let named: string | undefined;
    for (const address of ["198.51.100.1", "198.51.100.2", "198.51.100.3"])
      for (let i = 0; i < 2; i++) {
        const hit = await raw(fast.port, "GET", article, { "User-Agent": READER, "X-Forwarded-For": address, "Accept-Encoding": "identity" });
        named = /<meta name="sahara-view" content="([a-z]+):(\d+)"/.exec(hit.body.toString())?.slice(1).join(":");
        expect(header(hit, "surrogate-key")).toContain(`${named?.replace(":", "-")}`);
      }
    expect(await fastHits(fast)).toBe(before + 6);
    expect(await views()).toBe(start); // a hit is no view: behind a CDN most never reach us
    const [type, id] = named!.split(":");
    for (const address of ["198.51.100.1", "198.51.100.2", "198.51.100.3"])
      for (let i = 0; i < 2; i++) {
        const beacon = await fetch(`${fast.url}/api/views`, {
          method: "POST",
          headers: { "User-Agent": READER, "X-Forwarded-For": address, Origin: "http://news.sahara.test", "Content-Type": "text/plain;charset=UTF-8" },
          body: JSON.stringify({ type, id: Number(id) }),
        });
        expect(beacon.status).toBe(204);
      }
    // Counted in the background: three readers, each twice today, are three views.
    await expect.poll(views).toBe(start! + 3);
  });
});
