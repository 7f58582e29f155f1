import { describe, expect, it } from "vitest";
import { BODY_LIMITS, bodyKindOf, bodyLimitFor, readBody, readFormData, readJsonObject, RequestBodyError } from "./request-body.server.ts";
import { MAX_CONTENT_FORM_BYTES, MAX_CONTENT_JSON_BYTES } from "#server/content/newsroom/write.server.ts";
import { CONTACT_JSON_MAX_BYTES } from "#server/content/contacts.server.ts";
import { CONTACT_MAX_BODY_BYTES } from "#domain/schemas/contact.ts";

const KB = 1024;
const MB = 1024 * KB;

/** A body of `total` bytes in 64 KB chunks that counts what was pulled from it and whether it was cancelled. */
function countingStream(total: number) {
  const seen = { pulled: 0, cancelled: false };
  const chunk = new Uint8Array(64 * KB).fill(0x61);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled >= total) return controller.close();
      const piece = chunk.subarray(0, Math.min(chunk.length, total - seen.pulled));
      seen.pulled += piece.length;
      controller.enqueue(piece.slice());
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

function post(path: string, body: BodyInit | ReadableStream<Uint8Array> | null, headers: Record<string, string> = {}) {
  return new Request(`http://localhost${path}`, { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

async function refusal(promise: Promise<unknown>): Promise<RequestBodyError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RequestBodyError);
  return error as RequestBodyError;
}

describe("route kinds", () => {
  it("gives the account forms, the language toggle and better-auth's API the small limit, however the path is spelt", () => {
    for (const path of ["/auth", "/auth/forgot", "/auth/reset", "/setup", "/auth/sign-out", "/language", "/api/auth/sign-up/email", "/api/auth"]) {
      expect(bodyKindOf(path), path).toBe("account");
    }
    // React Router answers these for the same routes: a data request, another case, a trailing slash, an encoded letter.
    for (const path of ["/auth.data", "/AUTH", "/auth/", "/%61uth", "/language.data", "/API/Auth/sign-in/email"])
      expect(bodyKindOf(path), path).toBe("account");
  });

  it("gives the JSON API, the editors and every other form their own", () => {
    expect(bodyKindOf("/api/admin/articles")).toBe("json");
    expect(bodyKindOf("/api/admin/contacts/3")).toBe("json");
    expect(bodyKindOf("/admin/articles/new")).toBe("contentForm");
    expect(bodyKindOf("/admin/news/12.data")).toBe("contentForm");
    expect(bodyKindOf("/admin/articles")).toBe("form");
    expect(bodyKindOf("/admin/articles/12/revisions")).toBe("form");
    expect(bodyKindOf("/contact")).toBe("form");
    expect(bodyKindOf("/_root.data")).toBe("form");
    expect(bodyKindOf("/%ZZ")).toBe("form");
    expect(bodyLimitFor("http://localhost/auth?x=1")).toBe(16 * KB);
  });

  it("never cuts below what a route itself accepts", () => {
    expect(BODY_LIMITS.contentForm).toBe(MAX_CONTENT_FORM_BYTES);
    expect(BODY_LIMITS.json).toBeGreaterThanOrEqual(MAX_CONTENT_JSON_BYTES);
    expect(BODY_LIMITS.json).toBeGreaterThanOrEqual(CONTACT_JSON_MAX_BYTES);
    expect(BODY_LIMITS.form).toBeGreaterThanOrEqual(CONTACT_MAX_BODY_BYTES);
  });
});

describe("readFormData", () => {
  it("reads a form within the limit", async () => {
    const form = await readFormData(post("/auth", new URLSearchParams({ email: "a@b.co", password: "x" })));
    expect(form.get("email")).toBe("a@b.co");
  });

  it("refuses a declared length over the route's limit without reading a byte", async () => {
    const { stream, seen } = countingStream(20 * KB);
    const error = await refusal(readFormData(post("/auth", stream, { "content-length": String(20 * KB) })));
    expect([error.status, error.code]).toEqual([413, "BODY_TOO_LARGE"]);
    expect(seen.pulled).toBeLessThanOrEqual(64 * KB); // at most what the stream had queued before anyone read
  });

  it("stops a chunked body at the limit, drops a bounded amount more, then cuts it off", async () => {
    const { stream, seen } = countingStream(200 * MB);
    const error = await refusal(readFormData(post("/language", stream)));
    expect(error.status).toBe(413);
    // The rest is read and dropped so the client can read the 413, up to 16 MB; then the body is cancelled.
    await expect.poll(() => seen.cancelled, { timeout: 10_000 }).toBe(true);
    expect(seen.pulled).toBeLessThan(17 * MB + 16 * KB);
  });

  it("keeps a route's own smaller limit, and never goes past its kind's", async () => {
    const body = () => new URLSearchParams({ x: "a".repeat(5 * KB) });
    expect((await refusal(readFormData(post("/contact", body()), 4 * KB))).status).toBe(413);
    expect((await readFormData(post("/contact", body()))).get("x")).toHaveLength(5 * KB);
    const big = new URLSearchParams({ x: "a".repeat(20 * KB) });
    expect((await refusal(readFormData(post("/auth", big), 10 * MB))).status).toBe(413);
  });

  it("answers a body that is not a form with 400", async () => {
    const error = await refusal(readFormData(post("/language", "{}", { "content-type": "application/json" })));
    expect([error.status, error.code]).toEqual([400, "BAD_FORM"]);
    const broken = await refusal(readFormData(post("/language", "hello", { "content-type": "multipart/form-data; boundary=zz" })));
    expect(broken.status).toBe(400);
  });

  it("answers a body that stops half-way (the client left, or the server cut it) with 400, not a crash", async () => {
    let sent = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(new Error("aborted"));
        sent = true;
        controller.enqueue(new TextEncoder().encode("lang=f"));
      },
    });
    const error = await refusal(readFormData(post("/language", stream)));
    expect([error.status, error.code]).toEqual([400, "BODY_INCOMPLETE"]);
  });
});

describe("control characters", () => {
  it("are removed from every string of a JSON body, keys and nested values too, keeping tabs and line breaks", async () => {
    const body = JSON.stringify({ "ti\u0000tle": "a\u0000b\u0007c", nested: { list: ["x\u001by", 1, null] }, text: "one\ttwo\r\nthree\u0085\u007f" });
    expect(await readJsonObject(post("/api/admin/videos", body, { "content-type": "application/json" }))).toEqual({
      title: "abc",
      nested: { list: ["xy", 1, null] },
      text: "one\ttwo\r\nthree",
    });
  });

  it("are removed from every field of a form, URL-encoded or multipart, and from a file's name", async () => {
    const encoded = await readFormData(post("/contact", new URLSearchParams({ name: "أحمد\u0000", "mes\u0001sage": "سطر\nسطر\u0008" })));
    expect([...encoded.entries()]).toEqual([
      ["name", "أحمد"],
      ["message", "سطر\nسطر"],
    ]);
    const multipart = new FormData();
    multipart.append("title", "عنوان\u0000");
    multipart.append("image", new File(["x"], "صورة\u0000.png", { type: "image/png" }));
    const read = await readFormData(post("/admin/articles/new", multipart));
    expect(read.get("title")).toBe("عنوان");
    expect((read.get("image") as File).name).toBe("صورة.png");
    expect(await (read.get("image") as File).text()).toBe("x");
  });
});

describe("readJsonObject and readBody", () => {
  it("reads a JSON object and refuses anything else", async () => {
    const json = { "content-type": "application/json" };
    expect(await readJsonObject(post("/api/admin/articles", '{"title":"x"}', json))).toEqual({ title: "x" });
    expect((await refusal(readJsonObject(post("/api/admin/articles", "[1]", json)))).code).toBe("BAD_JSON");
    expect((await refusal(readJsonObject(post("/api/admin/articles", "{nope", json)))).code).toBe("BAD_JSON");
    expect((await refusal(readJsonObject(post("/api/admin/articles", '{"a":1}')))).code).toBe("BAD_JSON");
    const { stream } = countingStream(2 * MB);
    expect((await refusal(readJsonObject(post("/api/admin/articles", stream, json)))).status).toBe(413);
  });

  it("hands over the bytes of a small body, and nothing for none", async () => {
    expect(new TextDecoder().decode(await readBody(post("/api/auth/sign-in/email", '{"a":1}')))).toBe('{"a":1}');
    expect((await readBody(post("/api/auth/sign-out", null))).byteLength).toBe(0);
  });
});
