/**
 * POST and DELETE /api/push/subscriptions (breaking-news alerts, docs/decisions/0127-breaking-news-alerts.md):
 * what the opt-in script sends, stored and forgotten; bad input refused with a clear 4xx and nothing stored;
 * a rate limit per address; off (404) without VAPID keys. And the opt-in's weight: script and service worker
 * together at most 3 KB gzip.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import zlib from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import webpush from "web-push";
import { createTestDatabase, type TestDatabase } from "#tests/helpers/db.ts";
import { setDatabaseHandle } from "#server/db/client.server.ts";
import { resetConfig } from "#server/config.server.ts";
import { pushSubscriptions } from "#server/db/schema.server.ts";
import { CLIENT_IP_HEADER } from "#server/content/views.server.ts";
import { pushRateLimiter } from "#server/http/rate-limiters.server.ts";
import { PUSH_RATE_LIMIT } from "#server/push/subscriptions.server.ts";
import { action, loader } from "./push-subscriptions.ts";

type Answer = { status: number; body: { subscribed?: boolean; removed?: boolean; error?: { code: string; message: string; fields?: Record<string, string> } } };

async function call(method: string, body: unknown, { ip = "203.0.113.7", contentType = "application/json" } = {}): Promise<Answer> {
  const request = new Request("http://localhost/api/push/subscriptions", {
    method,
    headers: { "content-type": contentType, [CLIENT_IP_HEADER]: ip },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const response = await action({ request, params: {}, context: {} } as never);
  return { status: response.status, body: (await response.json()) as Answer["body"] };
}

const browserKey = () => {
  const ecdh = crypto.createECDH("prime256v1");
  return ecdh.generateKeys().toString("base64url");
};
const subscription = (n: number, language = "ar") => ({
  endpoint: `https://fcm.googleapis.com/fcm/send/reader-${n}`,
  expirationTime: null,
  keys: { p256dh: browserKey(), auth: crypto.randomBytes(16).toString("base64url") },
  language,
});

describe("push subscriptions API", () => {
  let t: TestDatabase;
  const saved = { ...process.env };
  const rows = () => t.db.select({ endpoint: pushSubscriptions.endpoint, language: pushSubscriptions.language }).from(pushSubscriptions);

  beforeAll(async () => {
    t = await createTestDatabase();
    setDatabaseHandle(t);
    const keys = webpush.generateVAPIDKeys();
    Object.assign(process.env, { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey });
    resetConfig();
  });
  afterAll(async () => {
    for (const key of ["VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY"]) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    resetConfig();
    await t?.drop();
  });
  beforeEach(() => pushRateLimiter.reset());

  it("stores a subscription with its language, updates it when sent again, and forgets it on DELETE", async () => {
    const first = subscription(1, "fr");
    expect(await call("POST", first)).toEqual({ status: 201, body: { subscribed: true } });
    expect(await call("POST", { ...first, language: "ar" })).toMatchObject({ status: 201 });
    expect(await rows()).toEqual([{ endpoint: first.endpoint, language: "ar" }]);
    expect(await call("DELETE", { endpoint: first.endpoint })).toEqual({ status: 200, body: { removed: true } });
    expect(await call("DELETE", { endpoint: first.endpoint })).toEqual({ status: 200, body: { removed: false } });
    expect(await rows()).toEqual([]);
  });

  it("refuses bad input with 400 and a message per field, storing nothing", async () => {
    const good = subscription(2);
    const cases: [unknown, string][] = [
      [{ ...good, endpoint: "http://push.example.com/x" }, "endpoint"],
      [{ ...good, endpoint: "https://127.0.0.1:8443/x" }, "endpoint"],
      [{ ...good, endpoint: "https://localhost/x" }, "endpoint"],
      // Decision 0134: the spellings that got past the text check before (the outbound agent refuses them too).
      ...[
        "localhost.",
        "metadata.google.internal.",
        "[::127.0.0.1]",
        "[::ffff:127.0.0.1]",
        "[64:ff9b::7f00:1]",
        "198.18.0.1",
        "0x7f.1",
        "vm",
        "push.example.com:8443",
      ].map((host): [unknown, string] => [{ ...good, endpoint: `https://${host}/x` }, "endpoint"]),
      [{ ...good, endpoint: `https://push.example.com/${"a".repeat(2100)}` }, "endpoint"],
      [{ ...good, keys: { ...good.keys, p256dh: "short" } }, "keys.p256dh"],
      [{ ...good, keys: { ...good.keys, auth: crypto.randomBytes(8).toString("base64url") } }, "keys.auth"],
      [{ endpoint: good.endpoint }, "keys"],
      [{ ...good, language: "de" }, "language"],
    ];
    // Each from its own address: refused requests count against the rate limit too.
    let n = 0;
    const ip = () => ({ ip: `192.0.2.${++n}` });
    for (const [body, field] of cases) {
      const answer = await call("POST", body, ip());
      expect(answer.status, field).toBe(400);
      expect(answer.body.error?.code).toBe("INVALID_SUBSCRIPTION");
      expect(Object.keys(answer.body.error?.fields ?? {})).toContain(field);
      expect(answer.body.error?.message).toBeTruthy();
    }
    expect((await call("POST", "{not json", ip())).body.error?.code).toBe("BAD_JSON");
    expect((await call("POST", "[]", ip())).status).toBe(400);
    expect((await call("POST", subscription(3), { ...ip(), contentType: "text/plain" })).status).toBe(400);
    expect((await call("POST", { ...good, padding: "x".repeat(5000) }, ip())).status).toBe(413);
    expect(await rows()).toEqual([]);
  });

  it("limits subscription changes per address (429 with Retry-After)", async () => {
    for (let i = 0; i < PUSH_RATE_LIMIT.limit; i++) expect((await call("POST", subscription(10 + i), { ip: "198.51.100.9" })).status).toBe(201);
    const refused = await call("POST", subscription(99), { ip: "198.51.100.9" });
    expect(refused.status).toBe(429);
    expect(refused.body.error?.code).toBe("RATE_LIMITED");
    // Another reader is not held back.
    expect((await call("POST", subscription(100), { ip: "198.51.100.10" })).status).toBe(201);
  });

  it("answers 405 to GET and 404 PUSH_OFF when the site has no VAPID keys", async () => {
    const get = await loader({ request: new Request("http://localhost/api/push/subscriptions"), params: {}, context: {} } as never);
    expect(get.status).toBe(405);
    const keys = { pub: process.env.VAPID_PUBLIC_KEY, priv: process.env.VAPID_PRIVATE_KEY };
    delete process.env.VAPID_PUBLIC_KEY;
    delete process.env.VAPID_PRIVATE_KEY;
    resetConfig();
    try {
      const answer = await call("POST", subscription(200));
      expect(answer.status).toBe(404);
      expect(answer.body.error?.code).toBe("PUSH_OFF");
    } finally {
      Object.assign(process.env, { VAPID_PUBLIC_KEY: keys.pub, VAPID_PRIVATE_KEY: keys.priv });
      resetConfig();
    }
  });
});

describe("the opt-in's weight", () => {
  it("the opt-in script and the service worker are at most 3 KB gzip together", () => {
    const gzip = (file: string) => zlib.gzipSync(fs.readFileSync(new URL(file, import.meta.url)), { level: 9 }).length;
    const total = gzip("../../enhance/push.js") + gzip("../../../public/push-sw.js");
    expect(total).toBeLessThanOrEqual(3 * 1024);
  });
});
