/**
 * The authorisation matrix: every back-office page and every back-office action or API of app/routes.ts,
 * requested by each persona, gets exactly the expected answer from the server. The routes are read from
 * app/routes.ts and each is looked up in ADMIN_PAGES or ADMIN_SUBPAGES (server/auth/permissions.server.ts), so a
 * new admin route is covered — and must declare what it requires — without touching this file. Staff are
 * tried without any permission, with each permission alone (content.publish, content.others and tags.manage
 * included), and as the ready-made writer and editor roles (issue 40); ownership is tried on items and author
 * profiles of two accounts (a writer edits their own, is refused another's).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "#app/routes.ts";
import { ADMIN_PAGES, ADMIN_SUBPAGES, PERMISSIONS, ROLE_PRESETS, type Access, type Permission } from "#server/auth/permissions.server.ts";
import { categories } from "#server/db/schema.server.ts";
import { createItem } from "#server/content/newsroom/write.server.ts";
import { defaultAuthorOf } from "#server/content/authors.server.ts";
import { projectRoot } from "#tests/e2e/support/server.ts";
import type { PersonaSpec } from "#tests/helpers/auth.ts";
import { get, startAuthServer, type AuthServer } from "./support.ts";

type RouteEntry = { file: string; path?: string; index?: boolean; children?: RouteEntry[] };
type AdminRoute = { path: string; url: string; file: string; index: boolean; loader: boolean; action: boolean; api: boolean };

function flatten(entries: RouteEntry[], parent = ""): { path: string; file: string; index: boolean }[] {
  return entries.flatMap((e) => {
    const own = e.path === undefined ? parent : [parent, e.path].filter(Boolean).join("/");
    const self = e.path !== undefined || e.index ? [{ path: `/${own}`, file: e.file, index: Boolean(e.index) }] : [];
    return [...self, ...flatten(e.children ?? [], own)];
  });
}

const exported = (source: string, name: string) =>
  new RegExp(`export\\s+(async\\s+)?(function|const|let)\\s+${name}\\b|export\\s*\\{[^}]*\\b${name}\\b`).test(source);

const isAdminPath = (p: string) => p === "/admin" || p.startsWith("/admin/") || p.startsWith("/api/admin/");

/** Every declaration: the menu's pages and the pages and APIs reached from them. */
const DECLARED: readonly { path: string; access: Access; action?: Access }[] = [...ADMIN_PAGES, ...ADMIN_SUBPAGES];
const declarationOf = (path: string) => DECLARED.find((p) => p.path === path)!;

/**
 * Sample values of dynamic segments: a content type's segment where one is expected, else an id that names nothing
 * (the ownership checks below make items and profiles of their own, which a persona without content.others may not edit).
 */
const SAMPLE_PARAMS: Record<string, string> = { type: "news" };
const SAMPLE_ID = "987654";

const adminRoutes: AdminRoute[] = flatten(routes as RouteEntry[])
  .filter((r) => isAdminPath(r.path))
  .map((r) => {
    const source = fs.readFileSync(path.join(projectRoot, "app", r.file), "utf8");
    // Dynamic segments get a sample value; the answer to a missing item (404) still proves access was granted.
    const url = r.path.replace(/:([^/?]+)\??/g, (_m, name: string) => SAMPLE_PARAMS[name] ?? SAMPLE_ID).replace(/\*$/, "x");
    return { ...r, url, loader: exported(source, "loader"), action: exported(source, "action"), api: r.path.startsWith("/api/") };
  });

/** A member of staff holding one permission and no other. */
type EditorWith = `editorWith:${Permission}`;
const editorWith = (permission: Permission): EditorWith => `editorWith:${permission}`;
const PERSONAS = [
  "anonymous",
  "expired",
  "reader",
  "unconfirmedAdmin",
  "staffWithoutPermission",
  ...PERMISSIONS.map(editorWith),
  // The ready-made roles an administrator picks (issue 40): their preset permission lists.
  "writer",
  "editor",
  "admin",
] as const;
type PersonaName = (typeof PERSONAS)[number];
type SignedIn = Exclude<PersonaName, "anonymous" | "expired"> | "otherWriter";

/** The items and profiles the ownership checks use (made before the server starts). */
const owned = { writerDraft: 0, writerPublished: 0, otherDraft: 0, otherPublished: 0, writerProfile: 0, otherProfile: 0 };
const OWNERSHIP_BODY = "<p>نص الخبر الكامل الذي يتجاوز عشرين حرفًا بكثير.</p>";

type Expected = { kind: "redirect"; location: string } | { kind: "denied"; status: 401 | 403; reason: string } | { kind: "allowed" };

/**
 * How a refusal names its reason: a page or form action as the guard's `reason`, an API as the code of its one
 * error shape (docs/api-errors.md: unauthenticated → UNAUTHENTICATED).
 */
const named = (reason: string, api: boolean) => (api ? reason.toUpperCase().replace(/-/g, "_") : reason);
const GUARD_ANSWER =
  /"reason"[,:]"(unauthenticated|access-denied|permission-needed|confirm-email|cross-origin)"|"code":"(UNAUTHENTICATED|ACCESS_DENIED|PERMISSION_NEEDED|CONFIRM_EMAIL|CROSS_ORIGIN)"/;

function expected(persona: PersonaName, access: Access, url: string, mode: "page" | "action"): Expected {
  const origin = encodeURIComponent(url);
  if (persona === "anonymous")
    return mode === "page" ? { kind: "redirect", location: `/auth?redirectTo=${origin}` } : { kind: "denied", status: 401, reason: "unauthenticated" };
  if (persona === "expired")
    return mode === "page"
      ? { kind: "redirect", location: `/auth?expired=1&redirectTo=${origin}` }
      : { kind: "denied", status: 401, reason: "unauthenticated" };
  if (persona === "reader") return { kind: "denied", status: 403, reason: "access-denied" };
  if (persona === "unconfirmedAdmin") return { kind: "denied", status: 403, reason: "confirm-email" };
  if (persona === "staffWithoutPermission" || persona.startsWith("editorWith:")) {
    if (access === "staff" || persona === `editorWith:${access}`) return { kind: "allowed" };
    return { kind: "denied", status: 403, reason: access === "admin" ? "access-denied" : "permission-needed" };
  }
  if (persona === "writer" || persona === "editor") {
    if (access === "staff" || (ROLE_PRESETS[persona] as readonly string[]).includes(access)) return { kind: "allowed" };
    return { kind: "denied", status: 403, reason: access === "admin" ? "access-denied" : "permission-needed" };
  }
  return { kind: "allowed" };
}

describe("the authorisation matrix of the back-office", () => {
  let server: AuthServer<SignedIn>;
  const cookies = {} as Record<PersonaName, string | undefined>;

  beforeAll(async () => {
    server = await startAuthServer({
      personas: {
        reader: { email: "reader@matrix.test", password: "Passw0rdR", role: "reader" },
        unconfirmedAdmin: { email: "unconfirmed@matrix.test", password: "Passw0rdU", role: "admin", emailVerified: false },
        staffWithoutPermission: { email: "editor@matrix.test", password: "Passw0rdE", role: "editor", permissions: [] },
        ...(Object.fromEntries(
          PERMISSIONS.map((p) => [
            editorWith(p),
            { email: `editor-${p.replace(".", "-")}@matrix.test`, password: "Passw0rdE", role: "editor", permissions: [p] },
          ]),
        ) as Record<EditorWith, PersonaSpec>),
        writer: { email: "writer@matrix.test", password: "Passw0rdW", role: "writer", permissions: [...ROLE_PRESETS.writer], name: "Writer Matrix" },
        otherWriter: { email: "other-writer@matrix.test", password: "Passw0rdO", role: "writer", permissions: [...ROLE_PRESETS.writer], name: "Other Matrix" },
        editor: { email: "desk@matrix.test", password: "Passw0rdD", role: "editor", permissions: [...ROLE_PRESETS.editor] },
        admin: { email: "admin@matrix.test", password: "Passw0rdA", role: "admin" },
      },
      // Ownership: a news draft and a published news item of the writer, one of another writer, and both their bylines.
      prepare: async (db, made) => {
        const [{ id: category }] = await db.insert(categories).values({ name: "سياسة", slug: "politics", type: "news" }).returning({ id: categories.id });
        const news = (title: string, who: { id: string; email: string }, status = "draft") =>
          createItem(db, "news", { title, excerpt: "مقتطف الخبر التجريبي", content: OWNERSHIP_BODY, category_id: category, status, priority: "medium" }, who);
        owned.writerDraft = (await news("مسودة الكاتب في مصفوفة الصلاحيات", made.writer)).id;
        owned.writerPublished = (await news("خبر منشور للكاتب في المصفوفة", made.writer, "published")).id;
        owned.otherDraft = (await news("مسودة كاتب آخر في مصفوفة الصلاحيات", made.otherWriter)).id;
        owned.otherPublished = (await news("خبر منشور لكاتب آخر في المصفوفة", made.otherWriter, "published")).id;
        owned.writerProfile = (await defaultAuthorOf(db, made.writer.id))!;
        owned.otherProfile = (await defaultAuthorOf(db, made.otherWriter.id))!;
      },
    });
    cookies.anonymous = undefined;
    cookies.expired = "sahara.session_token=revoked-or-expired.bm90LWEtc2lnbmF0dXJl";
    for (const p of PERSONAS) if (p !== "anonymous" && p !== "expired") cookies[p] = server.personas[p].cookie;
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("finds the back-office routes in app/routes.ts, each declared in ADMIN_PAGES, and nothing declared that does not exist", () => {
    expect(adminRoutes.length).toBeGreaterThanOrEqual(2);
    const declared = new Set(DECLARED.map((p) => p.path));
    for (const r of adminRoutes)
      expect(declared.has(r.path), `${r.path} (${r.file}) is missing from ADMIN_PAGES or ADMIN_SUBPAGES in server/auth/permissions.server.ts`).toBe(true);
    const existing = new Set(adminRoutes.map((r) => r.path));
    for (const p of DECLARED) expect(existing.has(p.path), `server/auth/permissions.server.ts names ${p.path}, which app/routes.ts does not have`).toBe(true);
    // Every back-office module checks access itself.
    for (const r of adminRoutes.filter((x) => x.loader || x.action)) {
      const source = fs.readFileSync(path.join(projectRoot, "app", r.file), "utf8");
      expect(/require(Staff|Admin|Permission|Access)\(/.test(source), `${r.file} calls no require* guard`).toBe(true);
    }
  });

  describe("ownership and the rights of issue 40", () => {
    const cookieOf = (persona: SignedIn) => server.personas[persona].cookie;
    const send = (persona: SignedIn, method: string, url: string, body?: unknown) =>
      fetch(server.url + url, {
        method,
        headers: { origin: server.url, "content-type": "application/json", cookie: cookieOf(persona) },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: "manual",
      });
    const form = (persona: SignedIn, url: string, fields: Record<string, string>) =>
      fetch(server.url + url, {
        method: "POST",
        headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded", cookie: cookieOf(persona) },
        body: new URLSearchParams(fields).toString(),
        redirect: "manual",
      });
    const codeOf = async (res: Response) => ((await res.json()) as { error?: { code?: string } }).error?.code;
    const statusOf = async (id: number) => ((await (await send("editor", "GET", `/api/admin/news/${id}`)).json()) as { status: string }).status;

    it("lets a writer edit their own item and refuses another's (API 403 NOT_YOUR_ITEM, the editor's not-yours screen), which stays readable", async () => {
      const mine = await send("writer", "PATCH", `/api/admin/news/${owned.writerDraft}`, { title: "مسودة الكاتب بعد تعديله لها" });
      expect(mine.status, await mine.clone().text()).toBe(200);
      const theirs = await send("writer", "PATCH", `/api/admin/news/${owned.otherDraft}`, { title: "تعديل لا يحق للكاتب" });
      expect([theirs.status, await codeOf(theirs)]).toEqual([403, "NOT_YOUR_ITEM"]);
      expect((await send("writer", "GET", `/api/admin/news/${owned.otherDraft}`)).status).toBe(200);
      const editorOpens = await get(server.url, `/admin/news/${owned.writerDraft}`, { cookie: cookieOf("writer") });
      expect(editorOpens.status).toBe(200);
      const refusedPage = await get(server.url, `/admin/news/${owned.otherDraft}`, { cookie: cookieOf("writer") });
      expect(refusedPage.status).toBe(403);
      expect(await refusedPage.text()).toContain('data-testid="guard-not-yours"');
      // The form's save, the autosave, the preview and a restore of another's item: refused too.
      const save = await form("writer", `/admin/news/${owned.otherDraft}.data`, { title: "x" });
      expect(save.status).toBe(403);
      const autosaveTheirs = await send("writer", "POST", `/api/admin/news/${owned.otherDraft}/autosave`, { values: { title: "نسخة آلية" } });
      expect([autosaveTheirs.status, await codeOf(autosaveTheirs)]).toEqual([403, "NOT_YOUR_ITEM"]);
      const autosaveMine = await send("writer", "POST", `/api/admin/news/${owned.writerDraft}/autosave`, { values: { title: "نسخة آلية للكاتب" } });
      expect(autosaveMine.status, await autosaveMine.clone().text()).toBe(200);
      expect((await get(server.url, `/admin/news/${owned.otherDraft}/preview`, { cookie: cookieOf("writer") })).status).toBe(403);
      expect((await get(server.url, `/admin/news/${owned.writerDraft}/preview`, { cookie: cookieOf("writer") })).status).toBe(200);
      const restore = await form("writer", `/admin/news/${owned.otherDraft}/revisions.data`, { intent: "restore", rev: "1" });
      expect(restore.status).toBe(403);
      // An editor (content.others) edits anybody's.
      const desk = await send("editor", "PATCH", `/api/admin/news/${owned.otherDraft}`, { title: "مسودة كاتب آخر راجعها المحرر" });
      expect(desk.status, await desk.clone().text()).toBe(200);
    });

    it("refuses a writer what changes what readers see (bulk publishing, calendar moves: 403 PUBLISH_PERMISSION) and others' items in bulk", async () => {
      const unpublishAll = await send("writer", "POST", "/api/admin/news/bulk", { action: "unpublish", filter: {} });
      expect([unpublishAll.status, await codeOf(unpublishAll)]).toEqual([403, "PUBLISH_PERMISSION"]);
      for (const action of ["publish", "schedule"]) {
        const res = await send("writer", "POST", "/api/admin/news/bulk", { action, ids: [owned.writerDraft], publish_date: "2031-01-01T10:00" });
        expect([res.status, await codeOf(res)]).toEqual([403, "PUBLISH_PERMISSION"]);
      }
      expect(await statusOf(owned.otherPublished)).toBe("published");
      expect(await statusOf(owned.writerDraft)).toBe("draft");
      const mixed = await send("writer", "POST", "/api/admin/news/bulk", { action: "tag", ids: [owned.writerDraft, owned.otherDraft], tag: "وسم" });
      expect([mixed.status, await codeOf(mixed)]).toEqual([403, "NOT_YOUR_ITEM"]);
      // What a filter would select, for a writer: their own items only.
      const selection = (await (await send("writer", "GET", "/api/admin/news/bulk")).json()) as { ids: number[] };
      expect(selection.ids.sort()).toEqual([owned.writerDraft, owned.writerPublished].sort());
      // The list's bar, and the calendar's move (even of the writer's own published item).
      const bar = await form("writer", "/admin/news.data", { intent: "bulk", action: "unpublish", id: String(owned.writerPublished) });
      expect(bar.status).toBe(403);
      const move = await form("writer", "/admin/calendar.data", {
        intent: "move",
        type: "news",
        id: String(owned.writerPublished),
        publish_date: "2031-01-01T10:00",
      });
      expect(move.status).toBe(403);
      expect(await statusOf(owned.writerPublished)).toBe("published");
      // An editor publishes: unpublishing another writer's item goes through.
      const desk = await send("editor", "POST", "/api/admin/news/bulk", { action: "unpublish", ids: [owned.otherPublished] });
      expect(desk.status, await desk.clone().text()).toBe(200);
      expect(await statusOf(owned.otherPublished)).toBe("draft");
    });

    it("lets a writer edit their own author profile and not another's (403 NOT_YOUR_PROFILE, the not-yours screen); an editor edits both", async () => {
      const mine = await send("writer", "PATCH", `/api/admin/authors/${owned.writerProfile}`, { bio: "نبذة كتبها الكاتب عن نفسه" });
      expect(mine.status, await mine.clone().text()).toBe(200);
      const theirs = await send("writer", "PATCH", `/api/admin/authors/${owned.otherProfile}`, { bio: "نبذة لا يحق للكاتب تغييرها" });
      expect([theirs.status, await codeOf(theirs)]).toEqual([403, "NOT_YOUR_PROFILE"]);
      expect((await get(server.url, `/admin/authors/${owned.writerProfile}`, { cookie: cookieOf("writer") })).status).toBe(200);
      const page = await get(server.url, `/admin/authors/${owned.otherProfile}`, { cookie: cookieOf("writer") });
      expect(page.status).toBe(403);
      expect(await page.text()).toContain('data-testid="guard-not-yours"');
      expect((await form("writer", `/admin/authors/${owned.otherProfile}.data`, { intent: "save", name: "x" })).status).toBe(403);
      const desk = await send("editor", "PATCH", `/api/admin/authors/${owned.otherProfile}`, { bio: "نبذة راجعها المحرر" });
      expect(desk.status, await desk.clone().text()).toBe(200);
    });
  });

  describe.each(adminRoutes.filter((r) => r.loader).map((r) => [r.path, r] as const))("page %s", (_p, route) => {
    const access = () => declarationOf(route.path).access;
    it.each(PERSONAS.map((p) => [p]))("as %s", async (persona) => {
      const res = await get(server.url, route.url, { cookie: cookies[persona] });
      // A JSON API answers a GET as it answers an action: a status and the reason (its error's code), never a redirect.
      const want = expected(persona, access(), route.url, route.api ? "action" : "page");
      if (route.api) {
        const text = await res.text();
        if (want.kind === "allowed") {
          expect(route.path.includes(":") ? [200, 404] : [200]).toContain(res.status);
          expect(text).not.toMatch(GUARD_ANSWER);
        } else {
          expect(res.status).toBe(want.kind === "denied" ? want.status : 401);
          expect(text).toContain(`"${named(want.kind === "denied" ? want.reason : "unauthenticated", true)}"`);
        }
        return;
      }
      if (want.kind === "redirect") {
        expect(res.status).toBe(302);
        expect(res.headers.get("location")).toBe(want.location);
        if (persona === "expired") expect(res.headers.getSetCookie().some((c) => /^sahara\.session_token=;/.test(c))).toBe(true);
      } else if (want.kind === "denied") {
        expect(res.status).toBe(want.status);
        expect(await res.text()).toContain(`data-testid="guard-${want.reason}"`);
      } else {
        expect(route.path.includes(":") ? [200, 404] : [200]).toContain(res.status);
        expect(await res.text()).not.toContain('data-testid="guard-');
      }
    });
  });

  describe.each(adminRoutes.filter((r) => r.action).map((r) => [r.path, r] as const))("action %s", (_p, route) => {
    const access = () => {
      const page = declarationOf(route.path);
      return page.action ?? page.access;
    };
    // The URL a script (or the page, with JavaScript) posts to; an API is posted to as it is.
    const dataUrl = () => (route.api ? route.url : `${route.url === "/" ? "/_root" : route.url}.data${route.index ? "?index" : ""}`);
    // One item of an API is changed with PATCH (POST creates, on the collection).
    const method = route.api && /\/:[^/]+$/.test(route.path) ? "PATCH" : "POST";

    it.each(PERSONAS.map((p) => [p]))("as %s", async (persona) => {
      const headers: Record<string, string> = { origin: server.url, "content-type": "application/x-www-form-urlencoded" };
      if (cookies[persona]) headers.cookie = cookies[persona]!;
      const res = await fetch(server.url + dataUrl(), { method, headers, body: "", redirect: "manual" });
      const want = expected(persona, access(), route.url, "action");
      const text = await res.text();
      if (want.kind === "allowed") {
        // Past the guard: the action ran and judged the (empty) input.
        expect(res.status).toBeLessThan(500);
        expect(text).not.toMatch(GUARD_ANSWER);
      } else {
        const status = want.kind === "redirect" ? 401 : want.status;
        expect(res.status).toBe(status);
        expect(text).toContain(`"${named(want.kind === "denied" ? want.reason : "unauthenticated", route.api)}"`);
      }
    });

    it("refuses the admin's own cookie on a post from another site, or with no origin at all", async () => {
      const base = { "content-type": "application/x-www-form-urlencoded", cookie: cookies.admin! };
      const foreign = await fetch(server.url + dataUrl(), {
        method,
        headers: { ...base, origin: "https://evil.example" },
        body: "",
        redirect: "manual",
      });
      expect([400, 403]).toContain(foreign.status);
      const none = await fetch(server.url + dataUrl(), { method, headers: base, body: "", redirect: "manual" });
      expect(none.status).toBe(403);
      expect(await none.text()).toContain(`"${named("cross-origin", route.api)}"`);
    });
  });
});
