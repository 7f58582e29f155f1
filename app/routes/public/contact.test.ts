/**
 * The contact page's action (public-site.md §5, "Contact form") as React Router calls it: what it stores and
 * answers for good, bad, oversized, robotic and too frequent submissions, and when the database fails.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { count, desc } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { openDatabase, setDatabaseHandle } from "#server/db/client.server.ts";
import { contacts } from "#server/db/schema.server.ts";
import { CONTACT_RATE_LIMIT } from "#server/content/contacts.server.ts";
import { contactRateLimiter } from "#server/http/rate-limiters.server.ts";
import { CLIENT_IP_HEADER } from "#server/content/views.server.ts";
import { action, type ContactAnswer } from "./contact.tsx";

const valid = { name: "أحمد ولد محمد", email: "ahmed@example.mr", subject: "اقتراح برنامج", message: "السلام عليكم،\nأقترح حلقة عن المحاظر." };

/** Calls the contact page's action as React Router would, and unwraps its answer. */
async function post(body: BodyInit, { ip = "203.0.113.10", headers = {} } = {}) {
  const request = new Request("http://localhost/contact", {
    method: "POST",
    body,
    headers: { [CLIENT_IP_HEADER]: ip, ...(typeof body === "string" ? { "Content-Type": "application/x-www-form-urlencoded" } : {}), ...headers },
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  });
  const answer = (await action({ request, params: {}, context: { nonce: "" } } as never)) as unknown as { data: ContactAnswer; init: ResponseInit | null };
  return { status: answer.init?.status ?? 200, result: answer.data, headers: new Headers(answer.init?.headers) };
}

describe.each(testDatabaseKinds)("the /contact action on %s", (kind) => {
  let t: TestDatabase;
  const stored = async () => Number((await t.db.select({ n: count() }).from(contacts))[0].n);
  const latest = async () => (await t.db.select().from(contacts).orderBy(desc(contacts.id)).limit(1))[0];

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    setDatabaseHandle(t);
  });
  afterAll(async () => {
    setDatabaseHandle(undefined);
    await t?.drop();
  });
  afterEach(() => contactRateLimiter.reset());

  it("stores a complete message and answers sent", async () => {
    const before = await stored();
    const { status, result } = await post(new URLSearchParams(valid).toString());
    expect(status).toBe(200);
    expect(result).toEqual({ ok: true });
    expect(await stored()).toBe(before + 1);
    expect(await latest()).toMatchObject({ ...valid, status: "new" });
  });

  it("takes multipart form data too", async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries(valid)) form.set(k, v);
    const { status } = await post(form);
    expect(status).toBe(200);
  });

  it("answers 400 with the required-fields case when a field is empty, and stores nothing", async () => {
    const before = await stored();
    const { status, result } = await post(new URLSearchParams({ ...valid, subject: "  " }).toString());
    expect(status).toBe(400);
    expect(result).toMatchObject({ ok: false, formError: "REQUIRED", fields: { subject: "contact.requiredText" } });
    expect(await stored()).toBe(before);
  });

  it("answers 400 for a bad e-mail, keeping what was typed", async () => {
    const before = await stored();
    const { status, result } = await post(new URLSearchParams({ ...valid, email: "ahmed at example" }).toString());
    expect(status).toBe(400);
    expect(result).toMatchObject({
      ok: false,
      formError: "INVALID",
      fields: { email: "contact.invalidEmail" },
      values: { email: "ahmed at example", message: valid.message },
    });
    expect(await stored()).toBe(before);
  });

  it("answers 413 for a 1 MB message, by declared length and by the bytes received, and stores nothing", async () => {
    const before = await stored();
    const huge = new URLSearchParams({ ...valid, message: "م".repeat(1024 * 1024) }).toString();
    const declared = await post(huge, { headers: { "Content-Length": String(Buffer.byteLength(huge)) } });
    expect(declared.status).toBe(413);
    expect(declared.result).toEqual({ ok: false, formError: "BODY_TOO_LARGE" });
    // A chunked upload declares nothing: the limit is enforced while reading.
    const bytes = new TextEncoder().encode(huge);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 16 * 1024) controller.enqueue(bytes.slice(i, i + 16 * 1024));
        controller.close();
      },
    });
    const chunked = await post(stream, { headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(chunked.status).toBe(413);
    expect(await stored()).toBe(before);
  });

  it("answers a filled honeypot like a success but stores nothing", async () => {
    const before = await stored();
    const { status, result } = await post(new URLSearchParams({ ...valid, website: "http://spam.example" }).toString());
    expect(status).toBe(200);
    expect(result).toEqual({ ok: true });
    expect(await stored()).toBe(before);
  });

  it(`answers 429 after ${CONTACT_RATE_LIMIT.limit} messages from one address, and not for another address`, async () => {
    const body = new URLSearchParams(valid).toString();
    for (let i = 0; i < CONTACT_RATE_LIMIT.limit; i++) expect((await post(body, { ip: "198.51.100.7" })).status).toBe(200);
    const before = await stored();
    const refused = await post(body, { ip: "198.51.100.7" });
    expect(refused.status).toBe(429);
    expect(refused.result).toMatchObject({ ok: false, formError: "RATE_LIMITED", values: { message: valid.message } });
    expect(refused.result).toHaveProperty("retryAfterSeconds", Number(refused.headers.get("Retry-After")));
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await stored()).toBe(before);
    expect((await post(body, { ip: "198.51.100.8" })).status).toBe(200);
  });

  it("does not count invalid submissions against the limit", async () => {
    const bad = new URLSearchParams({ ...valid, email: "x" }).toString();
    for (let i = 0; i < CONTACT_RATE_LIMIT.limit + 3; i++) expect((await post(bad, { ip: "198.51.100.9" })).status).toBe(400);
    expect((await post(new URLSearchParams(valid).toString(), { ip: "198.51.100.9" })).status).toBe(200);
  });

  it("answers 500 with the failure message when the database fails, keeping what was typed", async () => {
    // A database without the contacts table: the insert fails as a real outage would.
    const broken = openDatabase({ inMemory: true });
    setDatabaseHandle(broken);
    try {
      const { status, result } = await post(new URLSearchParams(valid).toString());
      expect(status).toBe(500);
      expect(result).toMatchObject({ ok: false, formError: "FAILED", values: { name: valid.name } });
    } finally {
      setDatabaseHandle(t);
      await broken.close();
    }
  });
});
