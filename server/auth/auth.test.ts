/**
 * Accounts end to end inside one process: better-auth on a fresh database (PGlite, and PostgreSQL when
 * TEST_DATABASE_URL is set), e-mail through a real SMTP receiver, and the guard of server/auth/session.server.ts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { startSmtpReceiver } from "#tests/helpers/smtp.ts";
import { createPersona, setSessionExpiry } from "#tests/helpers/auth.ts";
import { getConfig, resetConfig } from "#server/config.server.ts";
import { setDatabaseHandle } from "#server/db/client.server.ts";
import { account, profiles, rateLimit, session, user, verification } from "#server/db/schema.server.ts";
import { CLIENT_IP_HEADER } from "#server/content/views.server.ts";
import { createAuth, getAuth, setAuth, RATE_LIMITS } from "./auth.server.ts";
import { ensureAdministrator, ensureStaffAccount, findAccountByEmail, setDisabled } from "./accounts.server.ts";
import { requestPasswordReset, resetPassword, resetTokenIsValid, signIn, signOut, signUp, verifyEmail } from "./flows.server.ts";
import { getSessionUser, requireAccess, requireAdmin, requirePermission, requireStaff } from "./session.server.ts";
import { announceFirstRunSetup, completeFirstRunSetup, setupTokenIsValid } from "./setup.server.ts";

const PUBLIC = "http://localhost:3999";
const SECRET = "integration-only-secret-4f1c9a7e2b6d8c0e1a3f5b7d9c2e4a6b";

type Smtp = Awaited<ReturnType<typeof startSmtpReceiver>>;

function request(
  pathname: string,
  { ip = "203.0.113.10", cookie, method = "POST", origin = PUBLIC }: { ip?: string; cookie?: string; method?: string; origin?: string | null } = {},
) {
  const headers: Record<string, string> = { [CLIENT_IP_HEADER]: ip };
  if (origin) headers.origin = origin;
  if (cookie) headers.cookie = cookie;
  return new Request(PUBLIC + pathname, { method, headers });
}

/** A thrown guard answer: a redirect Response, or React Router's data() with a status and a reason. */
async function outcome(run: () => Promise<unknown>): Promise<{ status: number; location?: string | null; reason?: string; setCookie?: string[] }> {
  try {
    await run();
    return { status: 200 };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("location"), setCookie: thrown.headers.getSetCookie() };
    const t = thrown as { init?: { status?: number; headers?: Headers }; data?: { reason?: string } };
    return { status: t.init?.status ?? 500, reason: t.data?.reason, setCookie: t.init?.headers ? new Headers(t.init.headers).getSetCookie() : [] };
  }
}

const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;
const cookieOf = (setCookies: string[]) =>
  setCookies
    .map((c) => c.split(";")[0])
    .filter((c) => !c.endsWith("="))
    .join("; ");

for (const kind of testDatabaseKinds) {
  describe(`accounts (${kind})`, () => {
    let db: TestDatabase;
    let smtp: Smtp;
    const saved = { ...process.env };

    beforeAll(async () => {
      smtp = await startSmtpReceiver();
      Object.assign(process.env, {
        SMTP_URL: smtp.url,
        PUBLIC_URL: PUBLIC,
        BETTER_AUTH_SECRET: SECRET,
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "auth-test-")),
      });
      resetConfig();
      db = await createTestDatabase(kind);
      setDatabaseHandle(db);
      setAuth(undefined);
    });

    afterAll(async () => {
      setAuth(undefined);
      setDatabaseHandle(undefined);
      await db?.drop();
      await smtp?.close();
      process.env = saved;
      resetConfig();
    });

    it("signs up, sends a verification e-mail whose link confirms the address, then signs in with secure cookie flags", async () => {
      const email = "new.reader@example.org";
      expect(await signUp(request("/auth"), { email, password: "Passw0rdA", name: "قارئ جديد" })).toEqual({ ok: true, setCookies: [] });
      const mail = await smtp.waitFor(email);
      const link = mail.links.find((l) => l.startsWith(`${PUBLIC}/auth/verify?token=`));
      expect(link, mail.text).toBeTruthy();

      // Not confirmed yet: refused with the spec's reason, and a fresh link is sent.
      const before = smtp.messages.length;
      expect(await signIn(request("/auth", { ip: "203.0.113.11" }), { email, password: "Passw0rdA" })).toEqual({ ok: false, code: "EMAIL_NOT_CONFIRMED" });
      await expect.poll(() => smtp.messages.length).toBe(before + 1);

      expect((await verifyEmail(request("/auth/verify", { method: "GET" }), tokenOf(link!))).ok).toBe(true);
      const [row] = await db.db.select({ verified: user.emailVerified }).from(user).where(eq(user.email, email));
      expect(row?.verified).toBe(true);

      const signedIn = await signIn(request("/auth", { ip: "203.0.113.12" }), { email: "New.Reader@Example.org", password: "Passw0rdA" });
      expect(signedIn.ok).toBe(true);
      const setCookies = signedIn.ok ? signedIn.setCookies : [];
      const sessionCookie = setCookies.find((c) => c.startsWith("sahara.session_token="))!;
      expect(sessionCookie).toMatch(/HttpOnly/i);
      expect(sessionCookie).toMatch(/SameSite=Lax/i);
      expect(sessionCookie).not.toMatch(/Secure/i); // plain http here; https PUBLIC_URL turns it on (below)

      const me = await getSessionUser(request("/", { method: "GET", cookie: cookieOf(setCookies) }));
      expect(me).toMatchObject({ email, name: "قارئ جديد", isAdmin: false, isStaff: false, emailVerified: true });
      // A profile was made with the account.
      const [p] = await db.db.select({ role: profiles.role }).from(profiles).where(eq(profiles.id, me!.id));
      expect(p?.role).toBe("reader");
    });

    it("marks session cookies Secure when the site is served over https", async () => {
      const auth = createAuth({ db: db.db, config: { ...getConfig(), publicUrl: "https://media.example.org" } });
      const ctx = await auth.$context;
      expect(ctx.authCookies.sessionToken.name).toBe("__Secure-sahara.session_token");
      expect(ctx.authCookies.sessionToken.attributes).toMatchObject({ secure: true, httpOnly: true, sameSite: "lax" });
    });

    it("does not hand the session token to scripts: the token-returning endpoints are off", async () => {
      const signedIn = await signIn(request("/auth", { ip: "203.0.113.15" }), { email: "new.reader@example.org", password: "Passw0rdA" });
      const cookie = cookieOf(signedIn.ok ? signedIn.setCookies : []);
      const auth = await getAuth();
      for (const p of ["/get-session", "/list-sessions"]) {
        const res = await auth.handler(new Request(`${PUBLIC}/api/auth${p}`, { headers: { cookie } }));
        expect(res.status, p).toBe(404);
      }
      // The server itself still reads the session.
      expect(await getSessionUser(request("/", { method: "GET", cookie }))).not.toBeNull();
    });

    it("says 'already registered' for an address that has an account, and sends nothing", async () => {
      const before = smtp.messages.length;
      expect(await signUp(request("/auth", { ip: "203.0.113.13" }), { email: "NEW.reader@example.org", password: "Passw0rdB", name: "x" })).toEqual({
        ok: false,
        code: "ALREADY_REGISTERED",
      });
      expect(smtp.messages.length).toBe(before);
    });

    it("answers a wrong password and an unknown address alike", async () => {
      expect(await signIn(request("/auth", { ip: "203.0.113.14" }), { email: "new.reader@example.org", password: "Wrong-pass1" })).toEqual({
        ok: false,
        code: "INVALID_CREDENTIALS",
      });
      expect(await signIn(request("/auth", { ip: "203.0.113.14" }), { email: "nobody@example.org", password: "Wrong-pass1" })).toEqual({
        ok: false,
        code: "INVALID_CREDENTIALS",
      });
    });

    it("resets a password by e-mail: the link works once, then it is spent", async () => {
      const email = "new.reader@example.org";
      const before = smtp.messages.length;
      expect(await requestPasswordReset(request("/auth/forgot", { ip: "203.0.113.20" }), { email })).toEqual({ ok: true, setCookies: [] });
      await expect.poll(() => smtp.messages.length).toBe(before + 1);
      const mail = smtp.messages.at(-1)!;
      expect(mail.to).toContain(email);
      const link = mail.links.find((l) => l.startsWith(`${PUBLIC}/auth/reset?token=`))!;
      const token = tokenOf(link);

      expect(await resetTokenIsValid(request("/auth/reset", { method: "GET" }), token)).toBe(true);
      expect(await resetPassword(request("/auth/reset", { ip: "203.0.113.21" }), { token, password: "N3wPassword" })).toEqual({ ok: true, setCookies: [] });
      expect(await resetTokenIsValid(request("/auth/reset", { method: "GET" }), token)).toBe(false);
      expect(await resetPassword(request("/auth/reset", { ip: "203.0.113.21" }), { token, password: "Oth3rPassword" })).toEqual({
        ok: false,
        code: "INVALID_TOKEN",
      });

      expect((await signIn(request("/auth", { ip: "203.0.113.22" }), { email, password: "Passw0rdA" })).ok).toBe(false);
      expect((await signIn(request("/auth", { ip: "203.0.113.22" }), { email, password: "N3wPassword" })).ok).toBe(true);
    });

    it("gives the same answer to a reset request for an unknown address, and sends no mail", async () => {
      const before = smtp.messages.length;
      expect(await requestPasswordReset(request("/auth/forgot", { ip: "203.0.113.23" }), { email: "ghost@example.org" })).toEqual({ ok: true, setCookies: [] });
      await new Promise((r) => setTimeout(r, 300));
      expect(smtp.messages.length).toBe(before);
    });

    it("stores reset tokens hashed: the token of the link is not in the database", async () => {
      const before = smtp.messages.length;
      await requestPasswordReset(request("/auth/forgot", { ip: "203.0.113.24" }), { email: "new.reader@example.org" });
      await expect.poll(() => smtp.messages.length).toBe(before + 1);
      const token = tokenOf(smtp.messages.at(-1)!.links.find((l) => l.includes("/auth/reset?token="))!);
      const rows = await db.db.select({ identifier: verification.identifier, value: verification.value }).from(verification);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.some((r) => r.identifier.includes(token) || r.value.includes(token))).toBe(false);
    });

    it("limits sign-in attempts per address in the database, so the limit survives a restart", async () => {
      const ip = "198.51.100.7";
      const { max } = RATE_LIMITS["/sign-in/email"];
      // Another account each time: the per-account limit (sign-in-limit.test.ts) stays out of the way.
      for (let i = 0; i < max; i++) {
        expect(await signIn(request("/auth", { ip }), { email: `nobody${i}@example.org`, password: "Wrong-pass1" })).toEqual({
          ok: false,
          code: "INVALID_CREDENTIALS",
        });
      }
      expect(await signIn(request("/auth", { ip }), { email: "nobody-else@example.org", password: "Wrong-pass1" })).toMatchObject({
        ok: false,
        code: "TOO_MANY_REQUESTS",
      });
      // A new instance (a restarted server) reads the same counters.
      setAuth(undefined);
      expect(await signIn(request("/auth", { ip }), { email: "new.reader@example.org", password: "N3wPassword" })).toMatchObject({
        ok: false,
        code: "TOO_MANY_REQUESTS",
      });
      const rows = await db.db
        .select({ key: rateLimit.key, count: rateLimit.count })
        .from(rateLimit)
        .where(eq(rateLimit.key, `${ip}|/sign-in/email`));
      expect(rows[0]?.count).toBe(max);
      // Another address is not affected.
      expect((await signIn(request("/auth", { ip: "198.51.100.8" }), { email: "new.reader@example.org", password: "N3wPassword" })).ok).toBe(true);
    });

    it("limits sign-up, reset requests and verification e-mails too", async () => {
      const ip = "198.51.100.9";
      for (let i = 0; i < RATE_LIMITS["/sign-up/email"].max; i++)
        await signUp(request("/auth", { ip }), { email: `flood${i}@example.org`, password: "Passw0rdA", name: "f" });
      expect(await signUp(request("/auth", { ip }), { email: "flood-last@example.org", password: "Passw0rdA", name: "f" })).toEqual({
        ok: false,
        code: "TOO_MANY_REQUESTS",
      });
      for (let i = 0; i < RATE_LIMITS["/request-password-reset"].max; i++)
        await requestPasswordReset(request("/auth/forgot", { ip }), { email: "ghost@example.org" });
      expect(await requestPasswordReset(request("/auth/forgot", { ip }), { email: "ghost@example.org" })).toEqual({ ok: false, code: "TOO_MANY_REQUESTS" });
      const auth = await getAuth();
      const send = () =>
        auth.handler(
          new Request(`${PUBLIC}/api/auth/send-verification-email`, {
            method: "POST",
            headers: { "content-type": "application/json", origin: PUBLIC, [CLIENT_IP_HEADER]: ip },
            body: JSON.stringify({ email: "flood0@example.org" }),
          }),
        );
      for (let i = 0; i < RATE_LIMITS["/send-verification-email"].max; i++) expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(429);
    });

    it("refuses a disabled account at sign-in and ends its sessions at once", async () => {
      const auth = await getAuth();
      const staff = await createPersona(auth, db.db, {
        email: "soon.disabled@example.org",
        password: "Passw0rdC",
        role: "editor",
        permissions: ["content.write"],
      });
      expect(await getSessionUser(request("/", { method: "GET", cookie: staff.cookie }))).not.toBeNull();
      await setDisabled(db.db, staff.id, true);
      expect(await db.db.select({ id: session.id }).from(session).where(eq(session.userId, staff.id))).toHaveLength(0);
      expect(await getSessionUser(request("/", { method: "GET", cookie: staff.cookie }))).toBeNull();
      expect(await signIn(request("/auth", { ip: "203.0.113.30" }), { email: staff.email, password: staff.password })).toEqual({
        ok: false,
        code: "ACCOUNT_DISABLED",
      });
      await setDisabled(db.db, staff.id, false);
      expect((await signIn(request("/auth", { ip: "203.0.113.30" }), { email: staff.email, password: staff.password })).ok).toBe(true);
    });

    it("ends the session on the server at sign-out", async () => {
      const signedIn = await signIn(request("/auth", { ip: "203.0.113.31" }), { email: "new.reader@example.org", password: "N3wPassword" });
      const cookie = cookieOf(signedIn.ok ? signedIn.setCookies : []);
      expect(await getSessionUser(request("/", { method: "GET", cookie }))).not.toBeNull();
      expect((await signOut(request("/auth/sign-out", { cookie }))).ok).toBe(true);
      expect(await getSessionUser(request("/", { method: "GET", cookie }))).toBeNull();
    });

    describe("the guard, in the order of back-office.md §4", () => {
      const people: Record<string, string> = {};
      beforeAll(async () => {
        const auth = await getAuth();
        const make = async (key: string, spec: Parameters<typeof createPersona>[2]) => (people[key] = (await createPersona(auth, db.db, spec)).cookie);
        await make("reader", { email: "g.reader@example.org", password: "Passw0rdR", role: "reader" });
        await make("unconfirmedAdmin", { email: "g.unconfirmed@example.org", password: "Passw0rdU", role: "admin", emailVerified: false });
        await make("editor", { email: "g.editor@example.org", password: "Passw0rdE", role: "editor" });
        await make("moderator", { email: "g.moderator@example.org", password: "Passw0rdM", role: "editor", permissions: ["contacts.manage"] });
        await make("admin", { email: "g.admin@example.org", password: "Passw0rdA", role: "admin" });
      });

      it("sends the anonymous visitor to /auth, remembering the origin; an action gets 401", async () => {
        expect(await outcome(() => requireStaff(request("/admin/users?tab=2", { method: "GET" })))).toMatchObject({
          status: 302,
          location: "/auth?redirectTo=%2Fadmin%2Fusers%3Ftab%3D2",
        });
        expect(await outcome(() => requireStaff(request("/admin/users")))).toMatchObject({ status: 401, reason: "unauthenticated" });
      });

      it("signs out an invalid session and sends it to /auth with the expired flag", async () => {
        const stale = "sahara.session_token=not-a-session.c2lnbmF0dXJl";
        const page = await outcome(() => requireStaff(request("/admin", { method: "GET", cookie: stale })));
        expect(page).toMatchObject({ status: 302, location: "/auth?expired=1&redirectTo=%2Fadmin" });
        expect(page.setCookie?.some((c) => /^sahara\.session_token=;.*Max-Age=0/i.test(c))).toBe(true);
        expect(await outcome(() => requireStaff(request("/admin", { cookie: stale })))).toMatchObject({ status: 401 });
      });

      it("treats an expired session as invalid", async () => {
        const auth = await getAuth();
        const p = await createPersona(auth, db.db, { email: "g.expired@example.org", password: "Passw0rdX", role: "admin" });
        await setSessionExpiry(db.db, p.id, new Date(Date.now() - 1000));
        expect(await outcome(() => requireAdmin(request("/admin", { method: "GET", cookie: p.cookie })))).toMatchObject({
          status: 302,
          location: "/auth?expired=1&redirectTo=%2Fadmin",
        });
      });

      it("refuses a reader (access denied), a member missing the permission (permission needed) and an unconfirmed admin (confirm e-mail)", async () => {
        const get = (cookie: string) => request("/admin/users", { method: "GET", cookie });
        expect(await outcome(() => requireStaff(get(people.reader)))).toMatchObject({ status: 403, reason: "access-denied" });
        expect(await outcome(() => requirePermission(get(people.reader), "users.manage"))).toMatchObject({ status: 403, reason: "access-denied" });
        expect(await outcome(() => requirePermission(get(people.editor), "users.manage"))).toMatchObject({ status: 403, reason: "permission-needed" });
        expect(await outcome(() => requireAdmin(get(people.editor)))).toMatchObject({ status: 403, reason: "access-denied" });
        expect(await outcome(() => requireStaff(get(people.editor)))).toMatchObject({ status: 200 });
        expect(await outcome(() => requirePermission(get(people.moderator), "contacts.manage"))).toMatchObject({ status: 200 });
        expect(await outcome(() => requirePermission(get(people.moderator), "content.delete"))).toMatchObject({ status: 403, reason: "permission-needed" });
        expect(await outcome(() => requirePermission(get(people.unconfirmedAdmin), "users.manage"))).toMatchObject({ status: 403, reason: "confirm-email" });
        expect(await outcome(() => requireAccess(get(people.admin), "users.manage"))).toMatchObject({ status: 200 });
      });

      it("refuses a state-changing request that does not come from the site", async () => {
        expect(await outcome(() => requireAdmin(request("/admin/users", { cookie: people.admin, origin: "https://evil.example" })))).toMatchObject({
          status: 403,
          reason: "cross-origin",
        });
        expect(await outcome(() => requireAdmin(request("/admin/users", { cookie: people.admin, origin: null })))).toMatchObject({
          status: 403,
          reason: "cross-origin",
        });
        expect(await outcome(() => requireAdmin(request("/admin/users", { cookie: people.admin })))).toMatchObject({ status: 200 });
      });

      it("applies a change of role at the next request", async () => {
        const editor = await findAccountByEmail(db.db, "g.editor@example.org");
        await db.db.update(profiles).set({ role: "reader" }).where(eq(profiles.id, editor!.id));
        expect(await outcome(() => requireStaff(request("/admin", { method: "GET", cookie: people.editor })))).toMatchObject({
          status: 403,
          reason: "access-denied",
        });
      });
    });

    describe("first administrator", () => {
      it("prints a one-time set-up link while there is no administrator, and it creates one confirmed admin, once", async () => {
        // This database has admins from the guard tests: set-up is closed.
        expect(await announceFirstRunSetup(db.db)).toBeNull();
        const fresh = await createTestDatabase(kind);
        try {
          setDatabaseHandle(fresh);
          setAuth(undefined);
          const link = await announceFirstRunSetup(fresh.db);
          expect(link).toMatch(new RegExp(`^${PUBLIC}/setup\\?token=[A-Za-z0-9_-]{20,}$`));
          const token = new URL(link!).searchParams.get("token")!;
          // Stored hashed, not as the token itself.
          const rows = await fresh.db.select({ value: verification.value }).from(verification);
          expect(rows.some((r) => r.value === token)).toBe(false);
          expect(await setupTokenIsValid(fresh.db, "wrong")).toBe(false);
          expect(await setupTokenIsValid(fresh.db, token)).toBe(true);

          const input = { token, email: "Owner@Example.org", password: "0wnerPassword", fullName: "المالك" };
          expect(await completeFirstRunSetup(fresh.db, input)).toEqual({ ok: true });
          const owner = await findAccountByEmail(fresh.db, "owner@example.org");
          expect(owner).toMatchObject({ role: "admin", isAdmin: true, emailVerified: true, fullName: "المالك" });
          expect(await completeFirstRunSetup(fresh.db, { ...input, email: "second@example.org" })).toEqual({ ok: false, code: "INVALID_TOKEN" });
          expect(await announceFirstRunSetup(fresh.db)).toBeNull();
          expect((await signIn(request("/auth", { ip: "203.0.113.40" }), { email: "owner@example.org", password: "0wnerPassword" })).ok).toBe(true);
        } finally {
          setDatabaseHandle(db);
          setAuth(undefined);
          await fresh.drop();
        }
      });

      it("admin:create creates a confirmed administrator, or promotes, confirms and re-enables an account", async () => {
        const auth = await getAuth();
        expect(await ensureAdministrator(auth, db.db, { email: "cli.admin@example.org", password: "Cl1Password" })).toBe("created");
        expect(await findAccountByEmail(db.db, "cli.admin@example.org")).toMatchObject({ role: "admin", emailVerified: true, disabled: false });

        await signUp(request("/auth", { ip: "203.0.113.41" }), { email: "promote.me@example.org", password: "Passw0rdP", name: "p" });
        const target = await findAccountByEmail(db.db, "promote.me@example.org");
        await setDisabled(db.db, target!.id, true);
        expect(await ensureAdministrator(auth, db.db, { email: "promote.me@example.org", password: "Pr0motedPass" })).toBe("promoted");
        expect(await findAccountByEmail(db.db, "promote.me@example.org")).toMatchObject({ role: "admin", isAdmin: true, emailVerified: true, disabled: false });
        expect((await signIn(request("/auth", { ip: "203.0.113.42" }), { email: "promote.me@example.org", password: "Pr0motedPass" })).ok).toBe(true);
        await expect(ensureAdministrator(auth, db.db, { email: "no.password@example.org" })).rejects.toThrow(/password/);
        // Passwords are stored as better-auth hashes, never as given.
        const hashes = await db.db.select({ password: account.password }).from(account);
        expect(hashes.every((h) => !h.password || !["Cl1Password", "Pr0motedPass"].includes(h.password))).toBe(true);
      });

      it("user:create makes a confirmed writer, editor or administrator with the role's permissions, and can sign it in (issue 40)", async () => {
        const auth = await getAuth();
        expect(await ensureStaffAccount(auth, db.db, { email: "cli.writer@example.org", password: "Wr1terPass", role: "writer" })).toBe("created");
        expect(await findAccountByEmail(db.db, "cli.writer@example.org")).toMatchObject({
          role: "writer",
          isAdmin: false,
          permissions: ["content.write"],
          emailVerified: true,
          disabled: false,
        });
        const writer = await signIn(request("/auth", { ip: "203.0.113.43" }), { email: "cli.writer@example.org", password: "Wr1terPass" });
        expect(writer.ok).toBe(true);
        // The same account made an editor: the editor's list replaces the writer's, the password is kept.
        expect(await ensureStaffAccount(auth, db.db, { email: "cli.writer@example.org", role: "editor" })).toBe("updated");
        const editor = await findAccountByEmail(db.db, "cli.writer@example.org");
        expect(editor).toMatchObject({ role: "editor", isAdmin: false });
        expect(editor!.permissions).toEqual([
          "analytics.view",
          "contacts.manage",
          "content.delete",
          "content.others",
          "content.publish",
          "content.write",
          "newsletter.send",
          "tags.manage",
          "videos.manage",
        ]);
        expect((await signIn(request("/auth", { ip: "203.0.113.44" }), { email: "cli.writer@example.org", password: "Wr1terPass" })).ok).toBe(true);
        expect(await ensureStaffAccount(auth, db.db, { email: "cli.writer@example.org", role: "admin" })).toBe("updated");
        expect(await findAccountByEmail(db.db, "cli.writer@example.org")).toMatchObject({ role: "admin", isAdmin: true, permissions: [] });
        await expect(ensureStaffAccount(auth, db.db, { email: "nobody.yet@example.org", role: "writer" })).rejects.toThrow(/a new writer needs --password/);
      });
    });
  });
}
