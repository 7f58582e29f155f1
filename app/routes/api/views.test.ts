/**
 * The view beacon's endpoint (POST /api/views, decision 0145) on a seeded database: a reader's view counted once per
 * day however many beacons arrive, crawlers and prefetches skipped, anything but `{"type","id"}` of an item with a
 * detail page refused, never stored by a cache.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { setDatabaseHandle } from "#server/db/client.server.ts";
import { seedDemoContent } from "#server/db/seed.server.ts";
import { articles } from "#server/db/schema.server.ts";
import { CLIENT_IP_HEADER } from "#server/content/views.server.ts";
import { action, loader } from "./views.ts";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";

const beacon = (body: string, { ip = "198.51.100.7", ua = CHROME, headers = {} as Record<string, string>, method = "POST" } = {}) =>
  action({
    request: new Request("http://localhost/api/views", {
      method,
      // What navigator.sendBeacon sends with a string body.
      headers: { "content-type": "text/plain;charset=UTF-8", [CLIENT_IP_HEADER]: ip, "user-agent": ua, ...headers },
      body,
    }),
  });

describe.each(testDatabaseKinds)("POST /api/views on %s", (kind) => {
  let t: TestDatabase;
  let article: { id: number; viewCount: number };
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    setDatabaseHandle(t);
    await seedDemoContent(t.db, { uploadsDir: fs.mkdtempSync(path.join(os.tmpdir(), "views-api-")) });
    [article] = await t.db.select({ id: articles.id, viewCount: articles.viewCount }).from(articles).where(eq(articles.pageSlug, "hassaniya-in-school"));
  });
  afterAll(async () => t?.drop());

  const viewCount = async () => (await t.db.select({ n: articles.viewCount }).from(articles).where(eq(articles.id, article.id)))[0].n;
  /** The count is written in the background: wait for it to reach `n` (or fail after a while). */
  const settle = async (n: number) => {
    for (let i = 0; i < 100 && (await viewCount()) < n; i++) await new Promise((r) => setTimeout(r, 20));
    return viewCount();
  };

  it("counts a reader's view once, however many beacons the same day", async () => {
    const body = JSON.stringify({ type: "article", id: article.id });
    const answers = await Promise.all([beacon(body), beacon(body), beacon(body)]);
    for (const answer of answers) {
      expect(answer.status).toBe(204);
      expect(answer.headers.get("cache-control")).toBe("no-store");
    }
    expect(await settle(article.viewCount + 1)).toBe(article.viewCount + 1);
    // Another reader counts.
    expect((await beacon(body, { ip: "198.51.100.8" })).status).toBe(204);
    expect(await settle(article.viewCount + 2)).toBe(article.viewCount + 2);
  });

  it("skips crawlers and prefetches, and counts nothing it cannot name", async () => {
    const before = await viewCount();
    const body = JSON.stringify({ type: "article", id: article.id });
    expect((await beacon(body, { ip: "192.0.2.1", ua: "Googlebot/2.1 (+http://www.google.com/bot.html)" })).status).toBe(204);
    expect((await beacon(body, { ip: "192.0.2.2", headers: { "sec-purpose": "prefetch" } })).status).toBe(204);
    for (const bad of [
      "",
      "{",
      "[]",
      '{"type":"article"}',
      '{"type":"article","id":-1}',
      '{"type":"article","id":1.5}',
      '{"type":"nope","id":1}',
      `{"type":"article","id":${article.id},"pad":"${"x".repeat(1100)}"}`,
    ]) {
      const answer = await beacon(bad, { ip: "192.0.2.3" });
      expect(answer.status, bad).toBe(400);
      expect(((await answer.json()) as { error: { code: string } }).error.code, bad).toBe("INVALID_VIEW");
    }
    // A real reader's beacon after them lands; had any of them counted, the total would be higher.
    expect((await beacon(body, { ip: "192.0.2.4" })).status).toBe(204);
    expect(await settle(before + 1)).toBe(before + 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(await viewCount()).toBe(before + 1);
  });

  it("answers any other method 405", async () => {
    const get = await loader({ request: new Request("http://localhost/api/views"), params: {} } as never);
    expect(get.status).toBe(405);
    expect((await beacon("{}", { method: "PUT" })).status).toBe(405);
  });
});
