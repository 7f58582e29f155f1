/**
 * The per-account sign-in limit (./sign-in-limit.ts) through our sign-in flow, the /auth form's action and
 * better-auth's HTTP API, on a real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set), with
 * the counters in memory and, when a Redis answers at 127.0.0.1:6379, in Redis.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { startSmtpReceiver } from "#tests/helpers/smtp.ts";
import { getConfig, resetConfig } from "#server/config.server.ts";
import { setDatabaseHandle } from "#server/db/client.server.ts";
import { CLIENT_IP_HEADER } from "#server/content/views.server.ts";
import { closeRateLimitStores } from "#server/http/rate-limit.server.ts";
import { action as authAction } from "#app/routes/auth/auth.tsx";
import { createAuth, setAuth, type Auth } from "./auth.server.ts";
import { createAccount } from "./accounts.server.ts";
import { requestPasswordReset, resetPassword, signIn } from "./flows.server.ts";
import { ACCOUNT_SIGN_IN_LIMIT, TOO_MANY_ATTEMPTS_MESSAGE } from "./sign-in-limit.server.ts";
import { REDIS_URL, redisAnswers } from "#tests/helpers/redis.ts";
import { listAudit } from "#server/content/audit.server.ts";

const PUBLIC = "http://localhost:3998";
const SECRET = "integration-only-secret-7b1d3f5a9c2e4b6d8f0a1c3e5b7d9f2a";

const redisUp = await redisAnswers();
if (!redisUp) console.warn(`sign-in limit tests with Redis skipped: no Redis at ${REDIS_URL} (start one, or set TEST_REDIS_URL)`);

/** A fresh client address per attempt: the per-address limit (5 a minute) stays out of the way. */
let addresses = 0;
const freshIp = () => `198.18.${(++addresses >> 8) & 255}.${addresses & 255}`;

function request(pathname: string, ip = freshIp()) {
  return new Request(PUBLIC + pathname, { method: "POST", headers: { [CLIENT_IP_HEADER]: ip, origin: PUBLIC } });
}

/** Addresses of their own per run: counters kept in Redis by an earlier run never interfere. */
const run = crypto.randomBytes(4).toString("hex");
const addressFor = (who: string) => `${who}.${run}@limit.example.org`;

const stores = (["memory", ...(redisUp ? ["redis"] : [])] as const).flatMap((store) => testDatabaseKinds.map((kind) => [kind, store] as const));

describe.each(stores)("per-account sign-in limit (%s, counters in %s)", (kind, store) => {
  let db: TestDatabase;
  let auth: Auth;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  const saved = { ...process.env };
  const PASSWORD = "Passw0rdA";
  const account = async (who: string, { verified = true } = {}) => {
    const email = addressFor(`${who}.${kind}.${store}`);
    await createAccount(auth, db.db, { email, password: PASSWORD, emailVerified: verified, role: "editor" });
    return email;
  };
  const wrong = (email: string) => signIn(request("/auth"), { email, password: "Wrong-pass1" });

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    Object.assign(process.env, {
      SMTP_URL: smtp.url,
      PUBLIC_URL: PUBLIC,
      BETTER_AUTH_SECRET: SECRET,
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "limit-test-")),
    });
    resetConfig();
    db = await createTestDatabase(kind);
    setDatabaseHandle(db);
    auth = createAuth({ db: db.db, config: { ...getConfig(), REDIS_URL: store === "redis" ? REDIS_URL : undefined } });
    setAuth(auth);
  });

  afterAll(async () => {
    setAuth(undefined);
    setDatabaseHandle(undefined);
    await db?.drop();
    await smtp?.close();
    await closeRateLimitStores();
    process.env = saved;
    resetConfig();
  });

  it("locks an account out after 5 failed sign-ins from any addresses, even for the right password", async () => {
    const email = await account("target");
    // Spelled differently each time: the same account.
    const spellings = [email, email.toUpperCase(), email.replace(/@.*/, (d) => d.toUpperCase()), email.replace(/^./, (c) => c.toUpperCase()), email];
    for (const spelled of spellings)
      expect(await signIn(request("/auth"), { email: spelled, password: "Wrong-pass1" })).toEqual({ ok: false, code: "INVALID_CREDENTIALS" });
    const refused = await signIn(request("/auth"), { email, password: PASSWORD });
    expect(refused).toMatchObject({ ok: false, code: "TOO_MANY_REQUESTS" });
    const wait = refused.ok ? 0 : (refused.retryAfterSeconds ?? 0);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(ACCOUNT_SIGN_IN_LIMIT.firstLockMs / 1000);
    // Another account is not affected.
    expect((await signIn(request("/auth"), { email: await account("bystander"), password: PASSWORD })).ok).toBe(true);
    // The lock-out is one audit row (decision 0140), not one per failure, nor one per refused attempt.
    await signIn(request("/auth"), { email, password: "Wrong-pass1" });
    const rows = (await listAudit(db.db, { action: "sign_in_lockout" }, { limit: 500 })).entries.filter((e) => e.details.email === email.toLowerCase());
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor: null, type: null });
  });

  it("answers an address without an account exactly as one with an account", async () => {
    const known = await account("known");
    const unknown = addressFor(`nobody.${kind}.${store}`);
    const answers = async (email: string) => {
      const seen: string[] = [];
      for (let i = 0; i < ACCOUNT_SIGN_IN_LIMIT.freeAttempts + 2; i++) {
        const r = await wrong(email);
        seen.push(r.ok ? "ok" : `${r.code}${r.retryAfterSeconds ? ":wait" : ""}`);
      }
      return seen;
    };
    const forKnown = await answers(known);
    expect(forKnown).toEqual([...Array<string>(5).fill("INVALID_CREDENTIALS"), "TOO_MANY_REQUESTS:wait", "TOO_MANY_REQUESTS:wait"]);
    expect(await answers(unknown)).toEqual(forKnown);
  });

  it("forgets the failures once the right password is given", async () => {
    const email = await account("forgetful");
    for (let i = 0; i < ACCOUNT_SIGN_IN_LIMIT.freeAttempts - 1; i++) expect((await wrong(email)).ok).toBe(false);
    expect((await signIn(request("/auth"), { email, password: PASSWORD })).ok).toBe(true);
    for (let i = 0; i < ACCOUNT_SIGN_IN_LIMIT.freeAttempts; i++) expect(await wrong(email)).toEqual({ ok: false, code: "INVALID_CREDENTIALS" });
    expect(await wrong(email)).toMatchObject({ code: "TOO_MANY_REQUESTS" });
  });

  it("counts the right password of an unconfirmed account as proof, not as a failure", async () => {
    const email = await account("unconfirmed", { verified: false });
    for (let i = 0; i < ACCOUNT_SIGN_IN_LIMIT.freeAttempts - 1; i++) await wrong(email);
    expect(await signIn(request("/auth"), { email, password: PASSWORD })).toEqual({ ok: false, code: "EMAIL_NOT_CONFIRMED" });
    for (let i = 0; i < ACCOUNT_SIGN_IN_LIMIT.freeAttempts; i++) expect(await wrong(email)).toEqual({ ok: false, code: "INVALID_CREDENTIALS" });
  });

  it("lets the owner back in through a password reset by e-mail", async () => {
    const email = await account("owner");
    for (let i = 0; i < ACCOUNT_SIGN_IN_LIMIT.freeAttempts; i++) await wrong(email);
    expect(await signIn(request("/auth"), { email, password: PASSWORD })).toMatchObject({ code: "TOO_MANY_REQUESTS" });
    expect((await requestPasswordReset(request("/auth/forgot"), { email })).ok).toBe(true);
    const mail = await smtp.waitFor(email);
    const token = new URL(mail.links.find((l) => l.includes("/auth/reset?token="))!).searchParams.get("token")!;
    expect((await resetPassword(request("/auth/reset"), { token, password: "N3wPassword" })).ok).toBe(true);
    expect((await signIn(request("/auth"), { email, password: "N3wPassword" })).ok).toBe(true);
  });

  it("answers 429 with Retry-After and the spec's message, on the /auth form and on /api/auth/sign-in/email", async () => {
    const email = await account("api");
    const api = () =>
      auth.handler(
        new Request(`${PUBLIC}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: PUBLIC, [CLIENT_IP_HEADER]: freshIp() },
          body: JSON.stringify({ email, password: "Wrong-pass1" }),
        }),
      );
    for (let i = 0; i < ACCOUNT_SIGN_IN_LIMIT.freeAttempts; i++) expect((await api()).status).toBe(401);
    const refused = await api();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ code: "TOO_MANY_REQUESTS", message: TOO_MANY_ATTEMPTS_MESSAGE });

    const form = new Request(`${PUBLIC}/auth`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: PUBLIC, [CLIENT_IP_HEADER]: freshIp() },
      body: new URLSearchParams({ mode: "signIn", email, password: PASSWORD }),
    });
    const answer = (await authAction({ request: form, params: {}, context: { nonce: "" } } as never)) as unknown as {
      data: { ok: boolean; formError?: string };
      init: ResponseInit | null;
    };
    expect(answer.init?.status).toBe(429);
    expect(Number(new Headers(answer.init?.headers).get("retry-after"))).toBeGreaterThan(0);
    expect(answer.data).toMatchObject({ ok: false, formError: "TOO_MANY_REQUESTS" });
  });
});
