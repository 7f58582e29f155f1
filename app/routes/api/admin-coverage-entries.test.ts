/**
 * The live coverage admin API (issue 44), in-process with real sessions: PATCH /api/admin/coverage/:id
 * {"live": true|false}; GET and POST /api/admin/coverage/:id/entries; GET, PATCH and DELETE
 * /api/admin/coverage/:id/entries/:entryId. Kept exactly (integrations use them); bad input answered with 4xx in the
 * API's one error shape; a session with content.publish needed.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "#tests/helpers/db.ts";
import { validInput } from "#tests/helpers/content.ts";
import { createPersona, type Persona } from "#tests/helpers/auth.ts";
import { setDatabaseHandle } from "#server/db/client.server.ts";
import { resetConfig } from "#server/config.server.ts";
import { getAuth, setAuth } from "#server/auth/auth.server.ts";
import { ROLE_PRESETS } from "#server/auth/permissions.server.ts";
import { categories } from "#server/db/schema.server.ts";
import { createItem } from "#server/content/newsroom/write.server.ts";
import { LIVE_ENTRY_LIMITS } from "#domain/live.ts";
import * as entriesRoute from "./admin-coverage-entries.ts";
import * as entryRoute from "./admin-coverage-entry.ts";
import * as itemRoute from "./admin-content-item.ts";

const PUBLIC = "https://sahara.example";
type Json = Record<string, unknown> & { error?: { code: string; message: string; fields?: Record<string, string> } };

async function call(
  route: { loader: (args: never) => Promise<Response>; action: (args: never) => Promise<Response> },
  method: string,
  url: string,
  params: Record<string, string>,
  { cookie, body, raw }: { cookie?: string; body?: unknown; raw?: string } = {},
): Promise<{ status: number; body: Json; headers: Headers }> {
  const request = new Request(`${PUBLIC}${url}`, {
    method,
    headers: { ...(cookie ? { cookie } : {}), ...(body !== undefined || raw !== undefined ? { "content-type": "application/json" } : {}), origin: PUBLIC },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const handler = method === "GET" ? route.loader : route.action;
  const response = await handler({ request, params, context: {} } as never);
  return { status: response.status, body: (await response.json()) as Json, headers: response.headers };
}

describe("live coverage admin API", () => {
  let t: TestDatabase;
  let editor: Persona;
  let writer: Persona;
  let coverageId: number;
  const saved = { ...process.env };

  beforeAll(async () => {
    Object.assign(process.env, {
      PUBLIC_URL: PUBLIC,
      BETTER_AUTH_SECRET: "live-coverage-api-test-secret-0123456789abcdef",
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "live-api-test-")),
    });
    resetConfig();
    t = await createTestDatabase();
    setDatabaseHandle(t);
    setAuth(undefined);
    const auth = await getAuth();
    editor = await createPersona(auth, t.db, {
      email: "mariem@live-api.test",
      password: "Passw0rdLive",
      role: "editor",
      name: "مريم",
      permissions: [...ROLE_PRESETS.editor],
    });
    writer = await createPersona(auth, t.db, { email: "aicha@live-api.test", password: "Passw0rdLive", role: "writer", permissions: ["content.write"] });
    const [c] = await t.db.insert(categories).values({ name: "سياسة", slug: "politics", type: "news" }).returning({ id: categories.id });
    coverageId = (await createItem(t.db, "coverage", validInput("coverage", c.id, "ليلة الانتخابات"), { id: editor.id, email: editor.email })).id;
  });
  afterAll(async () => {
    setAuth(undefined);
    setDatabaseHandle(undefined);
    await t?.drop();
    process.env = saved;
    resetConfig();
  });

  const setLive = (live: unknown, cookie = editor.cookie, extra: Record<string, unknown> = {}) =>
    call(itemRoute, "PATCH", `/api/admin/coverage/${coverageId}`, { type: "coverage", id: String(coverageId) }, { cookie, body: { live, ...extra } });
  const entries = (method: string, body?: unknown, { cookie = editor.cookie, query = "", id = coverageId } = {}) =>
    call(entriesRoute, method, `/api/admin/coverage/${id}/entries${query}`, { id: String(id) }, { cookie, body });
  const entry = (method: string, entryId: number | string, body?: unknown, cookie = editor.cookie) =>
    call(entryRoute, method, `/api/admin/coverage/${coverageId}/entries/${entryId}`, { id: String(coverageId), entryId: String(entryId) }, { cookie, body });

  it("starts and ends a coverage with PATCH {live}, and refuses what is not a boolean", async () => {
    const started = await setLive(true);
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ id: coverageId, live: true, started_at: expect.any(String) as unknown, ended_at: null });
    expect(started.headers.get("cache-control")).toMatch(/no-store|private/);
    // `updated_at` alongside is allowed.
    expect((await setLive(true, editor.cookie, { updated_at: "2026-01-01T00:00:00Z" })).body).toEqual(started.body);
    const ended = await setLive(false);
    expect(ended.body).toEqual({ id: coverageId, live: false, started_at: started.body.started_at, ended_at: expect.any(String) as unknown });
    const bad = await setLive("yes");
    expect(bad.status).toBe(400);
    expect(bad.body.error?.fields?.live).toMatch(/[\u0600-\u06FF]/);
    expect((await setLive(true, writer.cookie)).status).toBe(403);
    expect((await setLive(true, "")).status).toBe(401);
    expect((await setLive(true)).body.live).toBe(true);
  });

  it("posts an entry (201 {id, entry}), replays a client key (200), lists, edits and deletes it", async () => {
    const posted = await entries("POST", { body: "<p>بدأ فرز الأصوات في نواكشوط.</p>", key_event: true, client_key: "phone-1" });
    expect(posted.status).toBe(201);
    const first = posted.body.entry as Record<string, unknown>;
    expect(posted.body.id).toBe(first.id);
    expect(first).toMatchObject({ body: "<p>بدأ فرز الأصوات في نواكشوط.</p>", key_event: true, pinned: false, author: "مريم", edited_at: null });
    const replay = await entries("POST", { body: "<p>بدأ فرز الأصوات في نواكشوط.</p>", key_event: true, client_key: "phone-1" });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(posted.body);

    const list = await entries("GET");
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ live: true, started_at: expect.any(String) as unknown, ended_at: null, deleted: [] });
    expect((list.body.entries as { id: number }[]).map((e) => e.id)).toEqual([first.id]);
    const cursor = list.body.cursor as number;

    const edited = await entry("PATCH", first.id as number, { body: "<p>بدأ فرز الأصوات في كل المكاتب.</p>", pinned: true });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: first.id, pinned: true, edited_at: expect.any(String) as unknown });
    expect((await entry("GET", first.id as number)).body).toEqual(edited.body);

    const deleted = await entry("DELETE", first.id as number);
    expect(deleted).toMatchObject({ status: 200, body: { id: first.id, deleted: true } });
    const since = await entries("GET", undefined, { query: `?after=${cursor}` });
    expect(since.body).toMatchObject({ entries: [], deleted: [first.id] });
    expect(since.body.cursor as number).toBeGreaterThan(cursor);
    expect((await entry("GET", first.id as number)).status).toBe(404);
    expect((await entry("DELETE", first.id as number)).status).toBe(404);
  });

  it("refuses bad input with 4xx in the one error shape", async () => {
    const badBody = await entries("POST", { body: "" });
    expect(badBody.status).toBe(400);
    expect(badBody.body.error).toMatchObject({ code: "INVALID_ENTRY", fields: { body: expect.stringMatching(/[\u0600-\u06FF]/) as unknown } });
    expect((await entries("POST", { body: "<p>نص</p>", embed_url: "https://evil.example/post" })).body.error?.fields).toHaveProperty("embed_url");
    expect((await entries("POST", { body: "<p>نص</p>", image: "/uploads/nowhere.jpg" })).body.error?.fields).toHaveProperty("image");
    expect((await entries("POST", { body: "<p>نص</p>", video_id: "nope" })).body.error?.fields).toHaveProperty("video_id");
    const notJson = await call(
      entriesRoute,
      "POST",
      `/api/admin/coverage/${coverageId}/entries`,
      { id: String(coverageId) },
      { cookie: editor.cookie, raw: "{" },
    );
    expect(notJson.status).toBe(400);
    const huge = await entries("POST", { body: `<p>${"ن".repeat(LIVE_ENTRY_LIMITS.maxHtmlBytes)}</p>` });
    expect(huge.status).toBe(413);
    expect((await entries("GET", undefined, { query: "?after=abc" })).status).toBe(400);
    expect((await entries("GET", undefined, { query: "?colour=red" })).status).toBe(400);
    expect((await entries("GET", undefined, { id: 999_999 })).status).toBe(404);
    expect((await entries("POST", { body: "<p>نص</p>" }, { id: 999_999 })).status).toBe(404);
    expect((await entry("PATCH", "abc", { pinned: true })).status).toBe(404);
    expect((await entry("PATCH", 999_999, { pinned: true })).status).toBe(404);
    expect((await entries("PUT", { body: "<p>نص</p>" })).status).toBe(405);
    // Without the right to publish, or without a session.
    expect((await entries("POST", { body: "<p>نص</p>" }, { cookie: writer.cookie })).status).toBe(403);
    expect((await entries("GET", undefined, { cookie: writer.cookie })).status).toBe(403);
    expect((await entries("GET", undefined, { cookie: "" })).status).toBe(401);
    // Not live: 409 with an Arabic message.
    await setLive(false);
    const notLive = await entries("POST", { body: "<p>نص</p>" });
    expect(notLive.status).toBe(409);
    expect(notLive.body.error).toMatchObject({ code: "NOT_LIVE", message: expect.stringMatching(/[\u0600-\u06FF]/) as unknown });
    await setLive(true);
  });
});
