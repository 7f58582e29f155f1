import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { META, SERVED_VERSIONS, startFakeGraph, type FakeGraph } from "#tests/helpers/fake-graph.ts";
import { checkConfig } from "#server/config.server.ts";
import { createGraphClient } from "./graph.server.ts";
import { runDebugChecks, socialDebugReport } from "./debug.server.ts";

const TOKEN = "EAADebugTestToken" + "z".repeat(189);
const VERSION = checkConfig({}).config.FACEBOOK_GRAPH_VERSION;

let fake: FakeGraph;
const client = (opts: { token?: string; pageId?: string; timeoutMs?: number; version?: string } = {}) =>
  createGraphClient({
    baseUrl: fake.url,
    version: opts.version ?? VERSION,
    pageId: opts.pageId ?? fake.pageId,
    token: opts.token ?? TOKEN,
    timeoutMs: opts.timeoutMs ?? 2000,
  });
const configured = (env: Record<string, string> = {}) =>
  checkConfig({ FACEBOOK_PAGE_ID: fake.pageId, FACEBOOK_PAGE_TOKEN: TOKEN, FACEBOOK_GRAPH_URL: fake.url, ...env }).config;

beforeAll(async () => {
  fake = await startFakeGraph({ token: TOKEN, count: 4 });
});
afterEach(() => {
  fake.release();
  fake.setVersions(SERVED_VERSIONS);
  for (const e of ["me", "page", "posts", "image"] as const) fake.setMode(e, { kind: "ok" });
});
afterAll(() => fake.close());

describe("the social API debugger", () => {
  it("runs the three checks in order and reads 'All tests passed!' with the post count", async () => {
    const from = fake.requests.length;
    const result = await runDebugChecks(client());
    expect(result).toMatchObject({ success: true, message: "All tests passed!", postsCount: 1 });
    expect(result.checks).toEqual([
      { check: "token", ok: true },
      { check: "page", ok: true },
      { check: "posts", ok: true },
    ]);
    const asked = fake.requests.slice(from);
    expect(asked.map((r) => r.path)).toEqual([`/${VERSION}/me`, `/${VERSION}/${fake.pageId}`, `/${VERSION}/${fake.pageId}/posts`]);
    expect(asked[2].query).toMatchObject({ fields: "id,message,created_time", limit: "1" });
    expect(asked.every((r) => r.tokenOk)).toBe(true);
  });

  it("stops at the first failing check with the spec's message", async () => {
    const badToken = await runDebugChecks(client({ token: "not-the-token" }));
    expect(badToken).toMatchObject({ success: false, error: "Invalid access token" });
    expect(badToken.checks).toEqual([{ check: "token", ok: false }]);

    const badPage = await runDebugChecks(client({ pageId: "404404" }));
    expect(badPage).toMatchObject({ success: false, error: "Cannot access page" });
    expect(badPage.details).toContain("HTTP 404");
    expect(badPage.checks.map((c) => c.ok)).toEqual([true, false]);

    fake.setMode("posts", { kind: "status", status: 403, echoToken: true });
    const badPosts = await runDebugChecks(client());
    expect(badPosts).toMatchObject({ success: false, error: "Cannot fetch posts" });
    expect(badPosts.details).toContain("Access denied. Your Facebook token may have expired or lacks permissions.");
    expect(JSON.stringify(badPosts)).not.toContain(TOKEN);
  });

  it("says the request itself failed when Facebook does not answer", async () => {
    const closed = createGraphClient({ baseUrl: "http://127.0.0.1:9", version: VERSION, pageId: "1", token: TOKEN, timeoutMs: 2000 });
    expect(await runDebugChecks(closed)).toMatchObject({ success: false, error: "Token validation failed" });
    fake.setMode("page", { kind: "hang" });
    expect(await runDebugChecks(client({ timeoutMs: 300 }))).toMatchObject({ success: false, error: "Page access failed" });
    fake.release();
    fake.setMode("page", { kind: "ok" });
    fake.setMode("posts", { kind: "garbage" });
    expect(await runDebugChecks(client())).toMatchObject({ success: false, error: "Posts fetch failed" });
  });

  it("reports the token's length, never the token, and nothing to run without one", async () => {
    const report = await socialDebugReport(configured());
    expect(report).toMatchObject({ configured: true, tokenLength: TOKEN.length, pageId: fake.pageId, graphVersion: VERSION, result: { success: true } });
    expect(report.result?.refusal).toBeUndefined();
    expect(JSON.stringify(report)).not.toContain(TOKEN);
    expect(await socialDebugReport(checkConfig({}).config)).toMatchObject({ configured: false, tokenLength: 0, graphVersion: VERSION, result: null });
  });

  it("shows what Meta said when it no longer serves the configured version, and which version was asked", async () => {
    const from = fake.requests.length;
    const report = await socialDebugReport(configured({ FACEBOOK_GRAPH_VERSION: "v19.0" }));
    expect(fake.requests.slice(from).map((r) => r.path)).toEqual(["/v19.0/me"]);
    expect(report.graphVersion).toBe("v19.0");
    expect(report.result).toMatchObject({
      success: false,
      error: "Invalid access token",
      checks: [{ check: "token", ok: false }],
      refusal: {
        status: 400,
        version: "v19.0",
        kind: "version",
        meta: { code: 2635, subcode: null, type: "OAuthException" },
      },
    });
    expect(report.result?.refusal?.meta.message).toMatch(/deprecated version of the Graph API/);
    expect(report.result?.refusal?.meta.fbtraceId).toMatch(/^AbCd/);
    expect(report.result?.details).toMatch(/^HTTP 400 — Invalid Facebook API request\..* — \(#2635\) You are calling a deprecated version/);

    // The same setting on a version Meta serves passes.
    expect((await socialDebugReport(configured({ FACEBOOK_GRAPH_VERSION: "v21.0" }))).result).toMatchObject({ success: true });
  });

  it("tells an expired token and a missing permission apart, with Meta's code and subcode", async () => {
    fake.setMode("me", { kind: "meta", ...META.expiredToken });
    const expired = await socialDebugReport(configured());
    expect(expired.result?.refusal).toMatchObject({ kind: "token", version: VERSION, meta: { code: 190, subcode: 463 } });
    fake.setMode("me", { kind: "ok" });
    fake.setMode("posts", { kind: "meta", ...META.missingPermission });
    const denied = await socialDebugReport(configured());
    expect(denied.result).toMatchObject({ error: "Cannot fetch posts", refusal: { status: 403, kind: "permission", meta: { code: 10 } } });
    expect(JSON.stringify([expired, denied])).not.toContain(TOKEN);
  });

  it("has no refusal to show when Meta did not answer", async () => {
    fake.setMode("posts", { kind: "garbage" });
    const result = await runDebugChecks(client());
    expect(result).toMatchObject({ success: false, error: "Posts fetch failed" });
    expect(result.refusal).toBeUndefined();
  });
});
