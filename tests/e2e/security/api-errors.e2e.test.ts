/**
 * Every API answers its errors in the one shape `{ error: { code, message, fields? } }` (docs/api-errors.md).
 * The routes are read from app/routes.ts (every pattern under /api/, so a new endpoint is walked without being
 * listed here), and each gets the bad requests that apply to it: no session, a bad query string, an id that
 * names nothing, a body that is not JSON, a method it does not answer, a post from another site, a body over
 * its limit. Every answer must be a 4xx, never stored, in exactly that shape. The two resumable-upload
 * endpoints (tus, mounted before the routes) are walked too.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "#app/routes.ts";
import { FILE_TUS_PATH } from "#server/media/storage/file-uploads.server.ts";
import { LOCAL_TUS_PATH } from "#server/media/video/local.server.ts";
import { projectRoot } from "#tests/e2e/support/server.ts";
import { startAuthServer, type AuthServer } from "#tests/e2e/auth/support.ts";

type RouteEntry = { file: string; path?: string; index?: boolean; children?: RouteEntry[] };

function flatten(entries: RouteEntry[], parent = ""): { pattern: string; file: string }[] {
  return entries.flatMap((e) => {
    const own = e.path === undefined ? parent : [parent, e.path].filter(Boolean).join("/");
    const self = e.path !== undefined ? [{ pattern: `/${own}`, file: e.file }] : [];
    return [...self, ...flatten(e.children ?? [], own)];
  });
}

const exported = (source: string, name: string) =>
  new RegExp(`export\\s+(async\\s+)?(function|const|let)\\s+${name}\\b|export\\s*\\{[^}]*\\b${name}\\b`).test(source);

/** Every API route of the table. */
const API_ROUTES = flatten(routes as RouteEntry[])
  .filter((r) => /^\/api\//.test(r.pattern))
  .map((r) => ({ ...r, source: fs.readFileSync(path.join(projectRoot, "app", r.file), "utf8") }));

/** Values for the dynamic segments that name nothing. */
const SAMPLES: Record<string, string> = { type: "no-such-type", id: "999999999", entryId: "999999999", guid: "00000000-0000-4000-8000-000000000000" };

function fill(pattern: string): string {
  return pattern
    .replace(/:(\w+)\??/g, (_m, name: string) => {
      if (!(name in SAMPLES)) throw new Error(`${pattern}: no sample value for :${name} (add one to SAMPLES)`);
      return SAMPLES[name];
    })
    .replace(/\*$/, "no-such-endpoint");
}

type Probe = { name: string; method: string; url: string; headers?: Record<string, string>; body?: string; status?: number; code?: string };

/** The bad requests that apply to a route. */
function probesOf(pattern: string, admin: string, origin: string): Probe[] {
  const url = fill(pattern);
  const signedIn = { cookie: admin, origin };
  // One item is changed with PATCH; POST creates, on a collection.
  const write = /\/:(id|guid)$/.test(pattern) ? "PATCH" : "POST";
  const probes: Probe[] = [];
  if (pattern.startsWith("/api/admin/")) {
    probes.push({ name: "GET without a session", method: "GET", url, status: 401, code: "UNAUTHENTICATED" });
    probes.push({
      name: `${write} without a session`,
      method: write,
      url,
      headers: { origin, "content-type": "application/json" },
      body: "{}",
      status: 401,
      code: "UNAUTHENTICATED",
    });
  }
  probes.push({ name: "an unknown query parameter", method: "GET", url: `${url}?no_such_parameter=1`, headers: signedIn });
  if (/[:*]/.test(pattern)) probes.push({ name: "a parameter that names nothing", method: "GET", url, headers: signedIn, status: 404 });
  probes.push({ name: "a body that is not JSON", method: write, url, headers: { ...signedIn, "content-type": "application/json" }, body: "{not json" });
  probes.push({ name: "a method it does not answer", method: "PUT", url, headers: { ...signedIn, "content-type": "application/json" }, body: "{}" });
  probes.push({
    name: "a post from another site",
    method: "POST",
    url,
    headers: { cookie: admin, "content-type": "application/json" },
    body: "{}",
    status: 403,
    code: "CROSS_ORIGIN",
  });
  probes.push({
    name: "a body over every API's limit",
    method: write,
    url,
    headers: { ...signedIn, "content-type": "application/json" },
    body: " ".repeat(1024 * 1024 + 1),
    status: 413,
    code: "BODY_TOO_LARGE",
  });
  return probes;
}

/** Checks one answer: a 4xx, never stored, with exactly `{error: {code, message, fields?}}`. */
async function expectErrorShape(res: Response, probe: Probe, label: string) {
  const text = await res.text();
  const where = `${label}: ${res.status} ${text.slice(0, 300)}`;
  expect(res.status, where).toBeGreaterThanOrEqual(400);
  expect(res.status, where).toBeLessThan(500);
  if (probe.status) expect(res.status, where).toBe(probe.status);
  expect(res.headers.get("content-type") ?? "", where).toMatch(/^application\/json\b/);
  expect(res.headers.get("cache-control") ?? "", where).toMatch(/\bno-store\b/);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(Object.keys(body), where).toEqual(["error"]);
  const error = body.error as Record<string, unknown>;
  expect(error && typeof error === "object" && !Array.isArray(error), where).toBe(true);
  for (const key of Object.keys(error)) expect(["code", "message", "fields"], where).toContain(key);
  expect(typeof error.code === "string" && /^[A-Z][A-Z0-9_]*$/.test(error.code), where).toBe(true);
  expect(typeof error.message === "string" && error.message.length > 0, where).toBe(true);
  if ("fields" in error) {
    const fields = error.fields as Record<string, unknown>;
    expect(fields && typeof fields === "object" && !Array.isArray(fields), where).toBe(true);
    expect(Object.keys(fields).length, where).toBeGreaterThan(0);
    for (const value of Object.values(fields)) expect(typeof value, where).toBe("string");
  }
  if (probe.code) expect(error.code, where).toBe(probe.code);
}

describe("every API answers its errors in the one shape", () => {
  let server: AuthServer<"admin">;

  beforeAll(async () => {
    server = await startAuthServer({ personas: { admin: { email: "admin@api-errors.test", password: "Passw0rdA", role: "admin" } } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("finds the API routes in app/routes.ts, each answering every method itself (a loader and an action)", () => {
    expect(API_ROUTES.length).toBeGreaterThanOrEqual(15);
    for (const route of API_ROUTES) {
      // Without one, React Router answers that method in its own shape.
      expect(exported(route.source, "loader"), `${route.file} has no loader`).toBe(true);
      expect(exported(route.source, "action"), `${route.file} has no action`).toBe(true);
    }
  });

  describe.each(API_ROUTES.map((r) => [r.pattern] as const))("%s", (pattern) => {
    it("answers each bad request with a 4xx in the one shape", async () => {
      for (const probe of probesOf(pattern, server.personas.admin.cookie, server.url)) {
        const res = await fetch(server.url + probe.url, { method: probe.method, headers: probe.headers, body: probe.body, redirect: "manual" });
        await expectErrorShape(res, probe, `${probe.method} ${probe.url} (${probe.name})`);
      }
    });
  });

  it.each([FILE_TUS_PATH, LOCAL_TUS_PATH])("answers the resumable uploads at %s in the same shape", async (endpoint) => {
    const tus = { "Tus-Resumable": "1.0.0", "Upload-Length": "1000", origin: server.url };
    const probes: [Probe, Record<string, string>][] = [
      [{ name: "no session", method: "POST", url: endpoint, status: 401, code: "UNAUTHENTICATED" }, tus],
      [
        { name: "a post from another site", method: "POST", url: endpoint, status: 403 },
        { ...tus, origin: "https://evil.example", cookie: server.personas.admin.cookie },
      ],
      [
        { name: "no metadata", method: "POST", url: endpoint },
        { ...tus, cookie: server.personas.admin.cookie },
      ],
    ];
    for (const [probe, headers] of probes) {
      const res = await fetch(server.url + endpoint, { method: probe.method, headers, redirect: "manual" });
      // tus's answers are for tus-js-client: the shape is checked, not the Cache-Control of the protocol's answers.
      const text = await res.text();
      const where = `${probe.name}: ${res.status} ${text.slice(0, 300)}`;
      if (probe.status) expect(res.status, where).toBe(probe.status);
      expect(res.status >= 400 && res.status < 500, where).toBe(true);
      const body = JSON.parse(text) as { error: { code: string; message: string } };
      expect(Object.keys(body), where).toEqual(["error"]);
      expect(Object.keys(body.error).sort(), where).toEqual(["code", "message"]);
      if (probe.code) expect(body.error.code, where).toBe(probe.code);
    }
  });
});
