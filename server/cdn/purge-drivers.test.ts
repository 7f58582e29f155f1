/**
 * The purge drivers against small local servers speaking Varnish's xkey purge, Bunny's pull-zone purge and
 * Cloudflare's purge_cache (tests/helpers/fake-cdn.ts): what each sends, and a refusal or a silence as an error.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeBunny, startFakeCloudflare, startFakeVarnish, type FakeCdn } from "#tests/helpers/fake-cdn.ts";
import { checkConfig } from "#server/config.server.ts";
import { bunnyPurgeDriver, CdnPurgeError, cloudflarePurgeDriver, purgeDriverFor, varnishPurgeDriver } from "./purge-drivers.server.ts";

const BUNNY_KEY = "bunny-account-key-0c41";
const ZONE = "0123456789abcdef0123456789abcdef";
const CF_TOKEN = "cf-token-7f2d9a";

let fake: FakeCdn | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** A server that takes the request and never answers. */
async function silentServer() {
  const sockets = new Set<Socket>();
  const server = http.createServer(() => {});
  server.on("connection", (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An address where nothing listens. */
async function closedPort() {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}/`;
}

describe("Varnish purge", () => {
  it("sends one PURGE with the keys in xkey-purge, each once", async () => {
    fake = await startFakeVarnish();
    await varnishPurgeDriver({ url: `${fake.url}/` }).purge(["news", "categories", "news", " ", "two words"]);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ method: "PURGE", path: "/" });
    expect(fake.requests[0].headers["xkey-purge"]).toBe("news categories");
  });

  it("sends nothing for no keys", async () => {
    fake = await startFakeVarnish();
    await varnishPurgeDriver({ url: fake.url }).purge([]);
    expect(fake.requests).toEqual([]);
  });

  it("takes only a 200 as done: a refusal, a closed port and a silence are errors", async () => {
    fake = await startFakeVarnish();
    fake.failNext(1, 403);
    const driver = varnishPurgeDriver({ url: fake.url });
    await expect(driver.purge(["news"])).rejects.toThrow(/^varnish purge refused: HTTP 403 upstream trouble$/);
    await expect(driver.purge(["news"])).resolves.toBeUndefined();
    const error = await varnishPurgeDriver({ url: await closedPort() })
      .purge(["news"])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CdnPurgeError);
    expect((error as Error).message).toMatch(/^varnish purge failed: connect ECONNREFUSED 127\.0\.0\.1:\d+$/);

    const silent = await silentServer();
    try {
      const started = Date.now();
      await expect(varnishPurgeDriver({ url: silent.url, deadlineMs: 300 }).purge(["news"])).rejects.toThrow("varnish purge failed: no answer within 300 ms");
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await silent.close();
    }
  });
});

describe("Bunny CDN purge", () => {
  it("purges one CacheTag per call with the account's AccessKey, and the whole pull zone without a body", async () => {
    fake = await startFakeBunny({ apiKey: BUNNY_KEY, pullZoneId: "4242" });
    const driver = bunnyPurgeDriver({ apiUrl: `${fake.url}/`, apiKey: BUNNY_KEY, pullZoneId: "4242" });
    await driver.purge(["news", "social"]);
    expect(fake.requests.map((r) => [r.method, r.path, r.headers.accesskey, r.headers["content-type"], r.body])).toEqual([
      ["POST", "/pullzone/4242/purgeCache", BUNNY_KEY, "application/json", '{"CacheTag":"news"}'],
      ["POST", "/pullzone/4242/purgeCache", BUNNY_KEY, "application/json", '{"CacheTag":"social"}'],
    ]);
    await driver.purgeAll();
    expect(fake.requests[2]).toMatchObject({ method: "POST", path: "/pullzone/4242/purgeCache", body: "" });
    expect(fake.requests[2].headers["content-type"]).toBeUndefined();
  });

  it("fails on a refused key or zone, saying the status but never the key", async () => {
    fake = await startFakeBunny({ apiKey: BUNNY_KEY, pullZoneId: "4242" });
    const wrongKey = await bunnyPurgeDriver({ apiUrl: fake.url, apiKey: "another-key-123", pullZoneId: "4242" })
      .purge(["news"])
      .catch((e: unknown) => e as Error);
    expect(wrongKey).toBeInstanceOf(CdnPurgeError);
    expect((wrongKey as Error).message).toMatch(/^bunny purge refused: HTTP 401 /);
    expect((wrongKey as Error).message).not.toContain("another-key-123");
    await expect(bunnyPurgeDriver({ apiUrl: fake.url, apiKey: BUNNY_KEY, pullZoneId: "1" }).purge(["news"])).rejects.toThrow(/HTTP 404/);
    // A failure stops the rest: the retry repeats the whole list.
    fake.failNext(1, 500);
    const before = fake.requests.length;
    await expect(bunnyPurgeDriver({ apiUrl: fake.url, apiKey: BUNNY_KEY, pullZoneId: "4242" }).purge(["a", "b", "c"])).rejects.toThrow(/HTTP 500/);
    expect(fake.requests.length - before).toBe(1);
  });
});

describe("Cloudflare purge", () => {
  it("purges tags by the hundred with the bearer token, and URLs as files", async () => {
    fake = await startFakeCloudflare({ zoneId: ZONE, token: CF_TOKEN });
    const driver = cloudflarePurgeDriver({ apiUrl: `${fake.url}/`, zoneId: ZONE, token: CF_TOKEN });
    const tags = Array.from({ length: 250 }, (_, i) => `news-${i + 1}`);
    await driver.purge(tags);
    expect(fake.requests.map((r) => [r.method, r.path, r.headers.authorization])).toEqual(
      Array(3).fill(["POST", `/zones/${ZONE}/purge_cache`, `Bearer ${CF_TOKEN}`]),
    );
    const sent = fake.requests.map((r) => (JSON.parse(r.body) as { tags: string[] }).tags);
    expect(sent.map((batch) => batch.length)).toEqual([100, 100, 50]);
    expect(sent.flat()).toEqual(tags);
    await driver.purgeUrls(["https://sahara.example/", "https://sahara.example/news"]);
    expect(JSON.parse(fake.requests[3].body)).toEqual({ files: ["https://sahara.example/", "https://sahara.example/news"] });
  });

  it("fails on a refused token, and on an answer that does not say success", async () => {
    fake = await startFakeCloudflare({ zoneId: ZONE, token: CF_TOKEN });
    await expect(cloudflarePurgeDriver({ apiUrl: fake.url, zoneId: ZONE, token: "wrong-token-1" }).purge(["news"])).rejects.toThrow(
      /^cloudflare purge refused: HTTP 403 .*Authentication error/,
    );
    const errorOn200 = http.createServer((_req, res) =>
      res.writeHead(200, { "Content-Type": "application/json" }).end('{"success":false,"errors":[{"code":1134}]}'),
    );
    await new Promise<void>((resolve) => errorOn200.listen(0, "127.0.0.1", resolve));
    try {
      const apiUrl = `http://127.0.0.1:${(errorOn200.address() as AddressInfo).port}`;
      await expect(cloudflarePurgeDriver({ apiUrl, zoneId: ZONE, token: CF_TOKEN }).purge(["news"])).rejects.toThrow(/^cloudflare purge refused: HTTP 200 /);
    } finally {
      await new Promise<void>((resolve) => errorOn200.close(() => resolve()));
    }
  });
});

describe("the configured driver", () => {
  it("is the one CDN_PURGE names, with its settings, and none by default", () => {
    expect(purgeDriverFor(checkConfig({}).config)).toBeNull();
    expect(purgeDriverFor(checkConfig({ CDN_PURGE: "varnish", VARNISH_PURGE_URL: "http://127.0.0.1:6081/" }).config)?.name).toBe("varnish");
    expect(purgeDriverFor(checkConfig({ CDN_PURGE: "bunny", BUNNY_API_KEY: BUNNY_KEY, BUNNY_PULL_ZONE_ID: "1" }).config)?.name).toBe("bunny");
    expect(purgeDriverFor(checkConfig({ CDN_PURGE: "cloudflare", CLOUDFLARE_API_TOKEN: CF_TOKEN, CLOUDFLARE_ZONE_ID: ZONE }).config)?.name).toBe("cloudflare");
    // Missing settings outside production: none, as the configuration check says.
    expect(purgeDriverFor(checkConfig({ CDN_PURGE: "bunny" }).config)).toBeNull();
  });
});
