import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { META, SERVED_VERSIONS, startFakeGraph, type FakeGraph } from "#tests/helpers/fake-graph.ts";
import { checkConfig } from "#server/config.server.ts";
import { createGraphClient, cursorFromNextUrl, GraphError, graphErrorMessage, metaErrorOf, parseCursor, POST_FIELDS, refusalKind } from "./graph.server.ts";

const TOKEN = "EAAGraphTestToken" + "x".repeat(189);
/** The configuration's default: the stand-in answers only the versions Meta serves, so a stale default fails here. */
const VERSION = checkConfig({}).config.FACEBOOK_GRAPH_VERSION;

let fake: FakeGraph;
const client = (timeoutMs = 2000, token = TOKEN, version = VERSION) => createGraphClient({ baseUrl: fake.url, version, pageId: fake.pageId, token, timeoutMs });

async function failure(promise: Promise<unknown>): Promise<GraphError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof GraphError) return error;
    throw error;
  }
  throw new Error("expected a GraphError");
}

beforeAll(async () => {
  fake = await startFakeGraph({ token: TOKEN, count: 14 });
});
afterEach(() => {
  fake.release();
  fake.setVersions(SERVED_VERSIONS);
  for (const e of ["me", "page", "posts", "image"] as const) fake.setMode(e, { kind: "ok" });
});
afterAll(() => fake.close());

describe("the Graph API client against a local Graph server", () => {
  it("asks for the page's posts with the spec's fields, the limit and the token", async () => {
    const page = await client().listPosts({ limit: 6 });
    expect(page.posts.map((p) => p.id)).toEqual(fake.posts.slice(0, 6).map((p) => p.id));
    const request = fake.requests.at(-1)!;
    expect(request.path).toBe(`/${VERSION}/${fake.pageId}/posts`);
    expect(request.query).toMatchObject({ fields: POST_FIELDS, limit: "6", access_token: "[token]" });
    expect(request.tokenOk).toBe(true);
    expect(POST_FIELDS).toBe("id,message,full_picture,created_time,permalink_url,attachments,from");
  });

  it("pages by the response's paging.next, handing out only an opaque cursor without the token", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await client().listPosts({ limit: 6, cursor });
      seen.push(...page.posts.map((p) => String(p.id)));
      cursor = page.nextCursor;
      pages++;
      if (cursor) {
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(cursor).not.toContain(TOKEN);
        expect(Buffer.from(cursor, "base64url").toString()).not.toContain(TOKEN);
        expect(Buffer.from(cursor, "base64url").toString()).not.toContain("access_token");
      }
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(fake.posts.map((p) => p.id));
    // Each following request kept the spec's fields and limit and carried the token again.
    expect(fake.requests.slice(-2).every((r) => r.query.fields === POST_FIELDS && r.query.limit === "6" && r.tokenOk && r.query.after)).toBe(true);
  });

  it("keeps only paging parameters of a next URL and refuses a cursor that is not one of ours", () => {
    const next = `https://graph.facebook.com/v19.0/1/posts?access_token=${TOKEN}&fields=id&limit=6&after=QVFIUmFf&__paging_token=enc_Ab-1&redirect_uri=https://evil.example`;
    const cursor = cursorFromNextUrl(next, TOKEN)!;
    expect(Object.fromEntries(parseCursor(cursor)!)).toEqual({ after: "QVFIUmFf", __paging_token: "enc_Ab-1" });
    expect(cursorFromNextUrl(undefined, TOKEN)).toBeNull();
    expect(cursorFromNextUrl("not a url", TOKEN)).toBeNull();
    expect(cursorFromNextUrl(`https://graph.facebook.com/v19.0/1/posts?access_token=${TOKEN}`, TOKEN)).toBeNull();
    for (const bad of ["", "a b", "<script>", Buffer.from("fields=id&after=1").toString("base64url"), Buffer.from("after=a b").toString("base64url")]) {
      expect(parseCursor(bad), bad).toBeNull();
    }
  });

  it("refuses a malformed cursor before asking Facebook", async () => {
    const before = fake.requests.length;
    const error = await failure(client().listPosts({ limit: 6, cursor: "!!" }));
    expect(error.code).toBe("bad-request");
    expect(fake.requests.length).toBe(before);
  });

  it.each([
    [400, "bad-request", "Invalid Facebook API request. The access token may be expired, invalid, or lacks proper permissions. Please generate a new token."],
    [401, "unauthorized", "Unauthorized. Your Facebook access token is invalid or expired."],
    [403, "forbidden", "Access denied. Your Facebook token may have expired or lacks permissions."],
    [404, "not-found", "Facebook page not found. Check your page ID."],
    [500, "http", "Facebook API error (500)"],
    [503, "http", "Facebook API error (503)"],
  ])("answers status %i with the spec's message, and Facebook's own words without the token", async (status, code, message) => {
    fake.setMode("posts", { kind: "status", status, echoToken: true });
    const error = await failure(client().listPosts({ limit: 6 }));
    expect(error).toMatchObject({ code, status, message });
    expect(error.meta).toMatchObject({ code: 190, type: "OAuthException" });
    expect(error.meta?.fbtraceId).toMatch(/^AbCd/);
    expect(error.meta?.message).toContain("[redacted]");
    expect(JSON.stringify(error.toPublic())).not.toContain(TOKEN);
    expect(JSON.stringify(error.toPublic())).not.toContain("OAuthException");
    expect(`${error.message} ${error.detail} ${JSON.stringify(error.meta)} ${error.stack}`).not.toContain(TOKEN);
  });

  it("maps a wrong token and an unknown page to 400 and 404", async () => {
    expect((await failure(client(2000, "wrong-token").listPosts({ limit: 3 }))).code).toBe("bad-request");
    const unknown = createGraphClient({ baseUrl: fake.url, version: VERSION, pageId: "999", token: TOKEN, timeoutMs: 2000 });
    expect((await failure(unknown.listPosts({ limit: 3 }))).message).toBe("Facebook page not found. Check your page ID.");
  });

  it("gives up on a slow answer after its time-out", async () => {
    fake.setMode("posts", { kind: "hang" });
    const error = await failure(client(300).listPosts({ limit: 6 }));
    expect(error.code).toBe("timeout");
    expect(error.status).toBeNull();
  });

  it("reports an answer that is not JSON, and a host that does not answer", async () => {
    fake.setMode("posts", { kind: "garbage" });
    expect((await failure(client().listPosts({ limit: 6 }))).code).toBe("invalid-response");
    const closed = createGraphClient({ baseUrl: "http://127.0.0.1:9", version: VERSION, pageId: "1", token: TOKEN, timeoutMs: 2000 });
    const error = await failure(closed.listPosts({ limit: 6 }));
    expect(error.code).toBe("network");
    expect(`${error.message} ${error.detail}`).not.toContain(TOKEN);
  });

  it("names the configured version in every path, and the default is one Meta serves", async () => {
    expect(SERVED_VERSIONS).toContain(VERSION);
    const from = fake.requests.length;
    const c = client(2000, TOKEN, "v24.0");
    expect(c.version).toBe("v24.0");
    await Promise.all([c.listPosts({ limit: 3 }), c.me(), c.page(), c.onePost()]);
    const asked = fake.requests.slice(from);
    expect(asked).toHaveLength(4);
    expect(asked.every((r) => r.version === "v24.0" && r.path.startsWith("/v24.0/"))).toBe(true);
    expect(() => client(2000, TOKEN, "latest")).toThrow(TypeError);
  });

  it("keeps what Meta says of a version it no longer serves: code, type, message and trace id", async () => {
    const error = await failure(client(2000, TOKEN, "v19.0").listPosts({ limit: 6 }));
    // Readers get the spec's message by status, nothing of Meta's answer.
    expect(error.toPublic()).toEqual({ code: "bad-request", status: 400, message: graphErrorMessage(400) });
    expect(error.meta).toMatchObject({ code: 2635, subcode: null, type: "OAuthException" });
    expect(error.meta?.message).toMatch(/^\(#2635\) You are calling a deprecated version of the Graph API/);
    expect(error.meta?.fbtraceId).toMatch(/^AbCd/);
    expect(refusalKind(error.meta!)).toBe("version");
    // A version Meta never had is an unknown path to it.
    const unknown = await failure(client(2000, TOKEN, "v99.0").me());
    expect(unknown.meta).toMatchObject({ code: 2500, message: "Unknown path components: /me" });
    expect(refusalKind(unknown.meta!)).toBe("version");
  });

  it.each([
    ["expiredToken", 190, 463, "token"],
    ["missingPermission", 10, null, "permission"],
    ["rateLimited", 4, 1504022, "rate-limit"],
  ] as const)("keeps Meta's %s refusal (code %i) and knows what it means", async (name, code, subcode, kind) => {
    fake.setMode("posts", { kind: "meta", ...META[name] });
    const error = await failure(client().listPosts({ limit: 6 }));
    expect(error.status).toBe(META[name].status);
    expect(error.meta).toMatchObject({ code, subcode, type: "OAuthException", message: META[name].error.message });
    expect(refusalKind(error.meta!)).toBe(kind);
  });

  it("reads Meta's error object defensively: bounded, numbers as numbers, the token cut out", () => {
    const hide = (t: string) => t.split(TOKEN).join("[redacted]");
    expect(metaErrorOf({ error: "gone" })).toBeNull();
    expect(metaErrorOf({ data: [] })).toBeNull();
    expect(metaErrorOf(undefined)).toBeNull();
    const meta = metaErrorOf({ error: { code: "190", error_subcode: 1.5, type: ["x"], message: `bad ${TOKEN} ${"m".repeat(5000)}`, fbtrace_id: "Ab" } }, hide)!;
    expect(meta).toMatchObject({ code: 190, subcode: null, type: null, fbtraceId: "Ab" });
    expect(meta.message!.length).toBe(1000);
    expect(meta.message).toContain("bad [redacted]");
    expect(refusalKind({ code: 100, subcode: 33, type: "GraphMethodException", message: null, fbtraceId: null })).toBe("page");
    expect(refusalKind({ code: 100, subcode: null, type: null, message: "(#100) Tried accessing nonexisting field (x)", fbtraceId: null })).toBe("field");
    expect(refusalKind({ code: 12, subcode: null, type: null, message: "(#12) fql is deprecated for versions v2.1 and higher", fbtraceId: null })).toBe(
      "version",
    );
    expect(refusalKind({ code: 613, subcode: null, type: null, message: null, fbtraceId: null })).toBe("rate-limit");
    expect(refusalKind({ code: 200, subcode: null, type: null, message: null, fbtraceId: null })).toBe("permission");
    expect(refusalKind({ code: 999, subcode: null, type: null, message: null, fbtraceId: null })).toBe("other");
  });
});
