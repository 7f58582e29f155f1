import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeGraph, type FakeGraph } from "#tests/helpers/fake-graph.ts";
import { createGraphClient, cursorFromNextUrl, GraphError, parseCursor, POST_FIELDS } from "./graph.server.ts";

const TOKEN = "EAAGraphTestToken" + "x".repeat(189);

let fake: FakeGraph;
const client = (timeoutMs = 2000, token = TOKEN) => createGraphClient({ baseUrl: fake.url, pageId: fake.pageId, token, timeoutMs });

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
  for (const e of ["me", "page", "posts", "image"] as const) fake.setMode(e, { kind: "ok" });
});
afterAll(() => fake.close());

describe("the Graph API client against a local Graph server", () => {
  it("asks for the page's posts with the spec's fields, the limit and the token", async () => {
    const page = await client().listPosts({ limit: 6 });
    expect(page.posts.map((p) => p.id)).toEqual(fake.posts.slice(0, 6).map((p) => p.id));
    const request = fake.requests.at(-1)!;
    expect(request.path).toBe(`/v19.0/${fake.pageId}/posts`);
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
    expect(error.detail).toContain("OAuthException");
    expect(error.detail).toContain("[redacted]");
    expect(JSON.stringify(error.toPublic())).not.toContain(TOKEN);
    expect(`${error.message} ${error.detail} ${error.stack}`).not.toContain(TOKEN);
  });

  it("maps a wrong token and an unknown page to 400 and 404", async () => {
    expect((await failure(client(2000, "wrong-token").listPosts({ limit: 3 }))).code).toBe("bad-request");
    const unknown = createGraphClient({ baseUrl: fake.url, pageId: "999", token: TOKEN, timeoutMs: 2000 });
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
    const closed = createGraphClient({ baseUrl: "http://127.0.0.1:9", pageId: "1", token: TOKEN, timeoutMs: 2000 });
    const error = await failure(closed.listPosts({ limit: 6 }));
    expect(error.code).toBe("network");
    expect(`${error.message} ${error.detail}`).not.toContain(TOKEN);
  });
});
