import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { META, PNG, SERVED_VERSIONS, startFakeGraph, type FakeGraph } from "#tests/helpers/fake-graph.ts";
import { checkConfig } from "#server/config.server.ts";
import { createLogger } from "#server/ops/logger.server.ts";
import { createGraphClient } from "./graph.server.ts";
import { createImageProxy } from "./images.server.ts";
import { buildSocialFeed, createSocialFeed, socialPageUrl, type FeedChange, type FeedResult, type SocialFeedOptions } from "./feed.server.ts";

const TOKEN = "EAAFeedTestToken" + "y".repeat(190);
const TTL = 300_000;
const RETRY = 60_000;
const VERSION = checkConfig({}).config.FACEBOOK_GRAPH_VERSION;

let fake: FakeGraph;
let clock = 0;
let changes: FeedChange[] = [];

function feed({ timeoutMs = 2000, version = VERSION, log }: { timeoutMs?: number; version?: string; log?: SocialFeedOptions["log"] } = {}) {
  return createSocialFeed({
    client: createGraphClient({ baseUrl: fake.url, version, pageId: fake.pageId, token: TOKEN, timeoutMs }),
    images: createImageProxy({ graphOrigin: new URL(fake.url).origin, timeoutMs, now: () => clock }),
    ttlMs: TTL,
    retryMs: RETRY,
    now: () => clock,
    onChange: (c) => changes.push(c),
    backgroundTimer: false,
    log,
  });
}

/** A logger with the process's rules (and its scrubbing) whose lines the test reads. */
function capturedLog() {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({ write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  log.level = "info";
  return { log, lines, messages: () => lines.map((l) => l.msg) };
}

const ids = (r: FeedResult) => (r.state === "ok" ? r.posts.map((p) => p.id) : r.state);

beforeAll(async () => {
  fake = await startFakeGraph({ token: TOKEN, count: 14 });
});
beforeEach(() => {
  clock = 1_000_000;
  changes = [];
});
afterEach(() => {
  fake.release();
  fake.setVersions(SERVED_VERSIONS);
  for (const e of ["me", "page", "posts", "image"] as const) fake.setMode(e, { kind: "ok" });
});
afterAll(() => fake.close());

describe("the social feed store", () => {
  it("loads a page once and serves it from memory while it is fresh", async () => {
    const f = feed();
    const before = fake.count("posts");
    const first = await f.get({ limit: 3 });
    expect(ids(first)).toEqual(fake.posts.slice(0, 3).map((p) => p.id));
    expect(first).toMatchObject({ state: "ok", stale: false });
    clock += TTL - 1;
    expect(ids(await f.get({ limit: 3 }))).toEqual(ids(first));
    expect(fake.count("posts")).toBe(before + 1);
    expect(changes).toEqual([{ limit: 3, cursor: null, reason: "loaded" }]);
  });

  it("answers a stale page at once and refreshes it in the background", async () => {
    const f = feed();
    await f.get({ limit: 6 });
    fake.posts.unshift({ ...fake.posts[0], id: `${fake.pageId}_9999`, message: "منشور جديد" });
    try {
      clock += TTL;
      fake.setMode("posts", { kind: "hang" });
      const stale = await f.get({ limit: 6 });
      // Answered, while Facebook is (still) thinking about the refresh.
      await fake.untilHanging(1);
      expect(stale).toMatchObject({ state: "ok", stale: true });
      expect(ids(stale)[0]).not.toBe(`${fake.pageId}_9999`);
      fake.setMode("posts", { kind: "ok" });
      fake.release();
      await f.refreshDue();
      clock += TTL;
      await f.refreshDue();
      const fresh = await f.get({ limit: 6 });
      expect(ids(fresh)[0]).toBe(`${fake.pageId}_9999`);
      expect(changes.map((c) => c.reason)).toEqual(["loaded", "updated"]);
    } finally {
      fake.posts.shift();
    }
  });

  it("keeps serving the last good posts when Facebook fails after a success", async () => {
    const f = feed();
    const good = await f.get({ limit: 6 });
    for (const mode of [{ kind: "status", status: 500 }, { kind: "status", status: 401 }, { kind: "garbage" }] as const) {
      fake.setMode("posts", mode);
      clock += TTL;
      const asked = fake.count("posts");
      expect(ids(await f.get({ limit: 6 }))).toEqual(ids(good));
      await f.refreshDue();
      expect(fake.count("posts")).toBe(asked + 1);
      expect(ids(await f.get({ limit: 6 }))).toEqual(ids(good));
    }
    expect(changes).toHaveLength(1);
  });

  it("does not wait for a slow Facebook when it has a copy", async () => {
    const f = feed({ timeoutMs: 300 });
    const good = await f.get({ limit: 3 });
    fake.setMode("posts", { kind: "hang" });
    clock += TTL;
    expect(ids(await f.get({ limit: 3 }))).toEqual(ids(good));
    await fake.untilHanging(1);
    await f.refreshDue();
    expect(ids(await f.get({ limit: 3 }))).toEqual(ids(good));
  });

  it("answers a first-ever failure with the spec's message, and does not ask again before the retry delay", async () => {
    const f = feed();
    fake.setMode("posts", { kind: "status", status: 404 });
    const asked = fake.count("posts");
    const failed = await f.get({ limit: 6 });
    expect(failed).toEqual({ state: "error", error: { code: "not-found", status: 404, message: "Facebook page not found. Check your page ID." } });
    clock += RETRY - 1;
    expect((await f.get({ limit: 6 })).state).toBe("error");
    expect(fake.count("posts")).toBe(asked + 1);
    fake.setMode("posts", { kind: "ok" });
    clock += 1;
    expect((await f.get({ limit: 6 })).state).toBe("ok");
    expect(fake.count("posts")).toBe(asked + 2);
  });

  it("answers a first-ever slow answer as a time-out", async () => {
    const f = feed({ timeoutMs: 300 });
    fake.setMode("posts", { kind: "hang" });
    const failed = await f.get({ limit: 3 });
    expect(failed).toMatchObject({ state: "error", error: { code: "timeout" } });
  });

  it("pages by cursor, and its answers carry no token anywhere", async () => {
    const f = feed();
    const seen: string[] = [];
    let result = await f.get({ limit: 6 });
    const bodies = [JSON.stringify(result)];
    while (result.state === "ok") {
      seen.push(...result.posts.map((p) => p.id));
      if (!result.nextCursor) break;
      result = await f.get({ limit: 6, cursor: result.nextCursor });
      bodies.push(JSON.stringify(result));
    }
    expect(seen).toEqual(fake.posts.map((p) => p.id));
    for (const body of bodies) {
      expect(body).not.toContain(TOKEN);
      expect(body).not.toContain("access_token");
      expect(body).not.toContain(fake.url);
    }
  });

  it("serves post pictures from our origin, and nothing it was not given", async () => {
    const f = feed();
    const result = await f.get({ limit: 6 });
    if (result.state !== "ok") throw new Error("expected posts");
    const [first] = result.posts;
    expect(first.imageUrl).toMatch(/^\/social\/image\/[a-f0-9]{32}$/);
    const key = first.imageUrl!.split("/").pop()!;
    const image = await f.image(key);
    expect(image?.type).toBe("image/png");
    expect(Buffer.from(image!.bytes).equals(PNG)).toBe(true);
    const fetched = fake.count("image");
    await f.image(key);
    expect(fake.count("image")).toBe(fetched);
    const broken = result.posts.find((p) => p.id.endsWith("_1005"))!;
    expect(await f.image(broken.imageUrl!.split("/").pop()!)).toBeNull();
    expect(await f.image("0".repeat(32))).toBeNull();
    expect(await f.image("../../etc/passwd")).toBeNull();
  });

  it("finds the picture of a page another process rendered, by loading the first pages itself", async () => {
    const first = feed();
    const result = await first.get({ limit: 6 });
    if (result.state !== "ok") throw new Error("expected posts");
    const key = result.posts[0].imageUrl!.split("/").pop()!;
    const other = feed();
    const image = await other.image(key);
    expect(image?.type).toBe("image/png");
  });

  it("logs a lasting refusal once, a different one once more, and the recovery once", async () => {
    const { log, lines, messages } = capturedLog();
    // On the oldest version Meta serves; then Meta retires it.
    const oldest = SERVED_VERSIONS[0];
    const f = feed({ version: oldest, log });
    const good = await f.get({ limit: 6 });
    await f.get({ limit: 3 });
    expect(good.state).toBe("ok");
    fake.setVersions(SERVED_VERSIONS.slice(1));
    const asked = fake.count("posts");
    for (let round = 0; round < 4; round++) {
      clock += TTL;
      expect(ids(await f.get({ limit: 6 }))).toEqual(ids(good));
      await f.refreshDue();
    }
    expect(fake.count("posts")).toBeGreaterThanOrEqual(asked + 8);
    expect(messages()).toEqual(["social feed refresh failed"]);
    expect(lines[0]).toMatchObject({
      level: 40,
      code: "bad-request",
      status: 400,
      version: oldest,
      kind: "version",
      meta: { code: 2635, type: "OAuthException" },
      servingLastGood: true,
    });
    expect(JSON.stringify(lines[0].meta)).toMatch(/deprecated version of the Graph API/);

    // Another refusal (the token expires meanwhile) is a change: one more line.
    fake.setMode("posts", { kind: "meta", ...META.expiredToken });
    fake.setVersions(SERVED_VERSIONS);
    for (let round = 0; round < 3; round++) {
      clock += RETRY;
      await f.refreshDue();
    }
    expect(messages()).toEqual(["social feed refresh failed", "social feed refresh failed"]);
    expect(lines[1]).toMatchObject({ kind: "token", meta: { code: 190, subcode: 463 } });

    // Meta answers again: one line, then silence while it keeps answering.
    fake.setMode("posts", { kind: "ok" });
    for (let round = 0; round < 3; round++) {
      clock += TTL;
      await f.refreshDue();
    }
    expect(messages()).toEqual(["social feed refresh failed", "social feed refresh failed", "social feed recovered"]);
    expect(lines[2]).toMatchObject({ level: 30, version: oldest });
    expect(lines[2].failedRefreshes as number).toBeGreaterThanOrEqual(3);

    // And a failure after the recovery is news again.
    fake.setVersions(SERVED_VERSIONS.slice(1));
    clock += TTL;
    await f.refreshDue();
    clock += RETRY;
    await f.refreshDue();
    expect(messages().filter((m) => m === "social feed refresh failed")).toHaveLength(3);
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });

  it("answers readers the spec's message, not Meta's words, when Meta refuses the version from the start", async () => {
    const { log, messages } = capturedLog();
    const failed = await feed({ version: "v19.0", log }).get({ limit: 6 });
    expect(failed).toEqual({
      state: "error",
      error: {
        code: "bad-request",
        status: 400,
        message: "Invalid Facebook API request. The access token may be expired, invalid, or lacks proper permissions. Please generate a new token.",
      },
    });
    expect(JSON.stringify(failed)).not.toMatch(/2635|deprecated|OAuthException/);
    expect(messages()).toEqual(["social feed refresh failed"]);
  });

  it("is absent without a token, and links to the configured page", () => {
    expect(buildSocialFeed(checkConfig({}).config)).toBeNull();
    expect(buildSocialFeed(checkConfig({ FACEBOOK_PAGE_ID: "1" }).config)).toBeNull();
    expect(buildSocialFeed(checkConfig({ FACEBOOK_PAGE_ID: "1", FACEBOOK_PAGE_TOKEN: TOKEN }).config)).not.toBeNull();
    expect(socialPageUrl(checkConfig({ FACEBOOK_PAGE_ID: "12345" }).config)).toBe("https://www.facebook.com/12345");
    expect(socialPageUrl(checkConfig({ FACEBOOK_PAGE_ID: "1", SOCIAL_FACEBOOK_URL: "https://www.facebook.com/saharamedia" }).config)).toBe(
      "https://www.facebook.com/saharamedia",
    );
  });
});
