/**
 * Two web processes behind one address (docs/deploy.md): the built server started twice, on two ports, against
 * one PostgreSQL database and one Redis, as a load balancer would spread readers over them. An edit made
 * through one process shows at once on the other, which had the page in its page cache (server/content/cache-bus.server.ts);
 * the per-address and per-account sign-in limits and the contact form's limit hold across both
 * (server/http/rate-limit.server.ts, server/auth/sign-in-limit.server.ts): a visitor cannot double a budget by being answered
 * by the other process.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL) and Redis (TEST_REDIS_URL or 127.0.0.1:6379); skipped, saying so,
 * without them.
 */
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkConfig } from "#server/config.server.ts";
import { openDatabase } from "#server/db/client.server.ts";
import { categories } from "#server/db/schema.server.ts";
import { createAuth } from "#server/auth/auth.server.ts";
import { ACCOUNT_SIGN_IN_LIMIT } from "#server/auth/sign-in-limit.server.ts";
import { RATE_LIMITS } from "#server/auth/auth.server.ts";
import { CONTACT_RATE_LIMIT } from "#server/content/contacts.server.ts";
import { createPersona, type Persona } from "#tests/helpers/auth.ts";
import { startServer, type RunningServer } from "#tests/e2e/support/server.ts";
import { createScratchDatabase } from "#tests/helpers/db.ts";
import { tcpAnswers } from "#tests/helpers/services.ts";

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const SECRET = "two-processes-e2e-secret-5c8e1a3f7b9d2c4e6a8f0b1d3e5c7a9b";
/** The address the balancer answers at: both processes build links and check origins against it. */
const PUBLIC_URL = "http://balancer.invalid";
/**
 * What the balancer passes on: the public host (the processes trust a proxy on loopback). A balancer would
 * keep the Host header; fetch cannot set Host, so X-Forwarded-Host, with the port — React Router takes the
 * port from the Host header when X-Forwarded-Host has none, and the form's origin check would then fail.
 */
const FORWARDED = { "x-forwarded-host": `${new URL(PUBLIC_URL).hostname}:80`, "x-forwarded-proto": "http" };

const [postgresUp, redisUp] = await Promise.all([tcpAnswers(DATABASE_URL, 5432), tcpAnswers(REDIS_URL, 6379)]);
const missing = [!postgresUp && "PostgreSQL (set TEST_DATABASE_URL)", !redisUp && `Redis at ${REDIS_URL}`].filter(Boolean);
if (missing.length) console.warn(`two-process tests skipped: no ${missing.join(" and no ")}`);

/** Counters in Redis outlive a run: every run speaks from addresses and accounts of its own. */
const run = crypto.randomBytes(3);
let addresses = 0;
const freshIp = () => `10.${run[0]}.${run[1]}.${++addresses}`;

describe.skipIf(missing.length > 0)("two web processes sharing PostgreSQL and Redis", () => {
  let a: RunningServer;
  let b: RunningServer;
  let admin: Persona;
  let categoryId = 0;
  let dropDatabase = async () => {};

  const api = async (server: RunningServer, method: string, path: string, body: Record<string, unknown>) => {
    const res = await fetch(server.url + path, {
      method,
      headers: { ...FORWARDED, cookie: admin.cookie, origin: PUBLIC_URL, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    return (await res.json()) as { id: number; url: string; updated_at: string };
  };
  const anonymous = async (server: RunningServer, path: string) => {
    const res = await fetch(server.url + path, { headers: FORWARDED });
    return { status: res.status, state: res.headers.get("x-page-cache"), body: await res.text() };
  };
  /** Fetches until the page is served from this process's cache. */
  const cachedOn = async (server: RunningServer, path: string) => {
    await expect.poll(async () => (await anonymous(server, path)).state).toBe("HIT");
    return anonymous(server, path);
  };
  const signInForm = (server: RunningServer, email: string, password: string, ip: string) =>
    fetch(server.url + "/auth", {
      method: "POST",
      headers: { ...FORWARDED, origin: PUBLIC_URL, "x-forwarded-for": ip },
      body: new URLSearchParams({ mode: "signIn", email, password }),
      redirect: "manual",
    });
  const signInApi = (server: RunningServer, email: string, password: string, ip: string) =>
    fetch(server.url + "/api/auth/sign-in/email", {
      method: "POST",
      headers: { ...FORWARDED, origin: PUBLIC_URL, "x-forwarded-for": ip, "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });

  beforeAll(async () => {
    // A database of its own on the PostgreSQL server, made, migrated and given an administrator before either
    // process starts.
    const database = await createScratchDatabase("scale");
    dropDatabase = database.drop;
    const url = new URL(database.url);
    const handle = openDatabase({ url: url.toString() });
    try {
      await handle.migrate();
      const { config } = checkConfig({ DATABASE_URL: url.toString(), BETTER_AUTH_SECRET: SECRET, LOG_LEVEL: "silent" });
      admin = await createPersona(createAuth({ db: handle.db, config }), handle.db, {
        email: `chief.${run.toString("hex")}@scale.test`,
        password: "Passw0rdA",
        role: "admin",
      });
      const [c] = await handle.db
        .insert(categories)
        .values({ name: "ثقافة", nameFr: "Culture", slug: "culture", type: "culture" })
        .returning({ id: categories.id });
      categoryId = c.id;
    } finally {
      await handle.close();
    }
    // As in production: both web processes leave jobs to `npm run worker` (not needed here).
    const env = { DATABASE_URL: url.toString(), REDIS_URL, BETTER_AUTH_SECRET: SECRET, PUBLIC_URL, SEED_DEMO: "false", JOB_WORKER: "off" };
    a = await startServer(env);
    b = await startServer(env);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await dropDatabase();
  });

  it("shows an edit made through one process at once on the other, which had the pages cached", async () => {
    const fields = { status: "published", excerpt: "مقال عن واحات أدرار", content: "<p>نص المقال عن واحات أدرار وتاريخها.</p>", category_id: categoryId };
    const first = await api(a, "POST", "/api/admin/articles", { title: "واحات أدرار القديمة", ...fields });
    // Both processes keep home and the article in their page caches.
    for (const server of [a, b]) {
      expect((await cachedOn(server, "/")).body).toContain("واحات أدرار القديمة");
      expect((await cachedOn(server, first.url)).body).toContain("واحات أدرار القديمة");
    }

    // An edit through A: B drops its copies on A's word (its own would stay fresh for 60 s).
    const edited = await api(a, "PATCH", `/api/admin/articles/${first.id}`, { title: "واحات أدرار المتجددة", updated_at: first.updated_at });
    await expect.poll(async () => (await anonymous(b, first.url)).body).toContain("واحات أدرار المتجددة");
    const home = await anonymous(b, "/");
    expect(home.body).toContain("واحات أدرار المتجددة");
    expect(home.body).not.toContain("واحات أدرار القديمة");

    // And the other way round: a new article through B shows on A's cached home page.
    await cachedOn(a, "/");
    await api(b, "POST", "/api/admin/articles", { title: "مكتبات شنقيط الخالدة", ...fields });
    await expect.poll(async () => (await anonymous(a, "/")).body).toContain("مكتبات شنقيط الخالدة");
    // A deletion through B takes the article off A at once too.
    await cachedOn(a, edited.url);
    const deleted = await fetch(`${b.url}/api/admin/articles/${edited.id}`, {
      method: "DELETE",
      headers: { ...FORWARDED, cookie: admin.cookie, origin: PUBLIC_URL },
    });
    expect(deleted.status).toBeLessThan(300);
    await expect.poll(async () => (await anonymous(a, edited.url)).status).toBe(404);
  });

  it("shares the per-address sign-in limit: the sixth attempt from one address is refused whichever process answers", async () => {
    const ip = freshIp();
    const { max } = RATE_LIMITS["/sign-in/email"];
    for (let i = 0; i < max; i++) {
      const res = await signInForm(i % 2 ? b : a, `stranger${i}.${run.toString("hex")}@scale.test`, "Wrong-pass1", ip);
      expect(res.status).toBe(401);
    }
    expect((await signInForm(a, `stranger-last.${run.toString("hex")}@scale.test`, "Wrong-pass1", ip)).status).toBe(429);
    expect((await signInForm(b, `stranger-last.${run.toString("hex")}@scale.test`, "Wrong-pass1", ip)).status).toBe(429);
  });

  it("shares the per-account limit: failures on both processes lock the account out on both, even for the right password", async () => {
    for (let i = 0; i < ACCOUNT_SIGN_IN_LIMIT.freeAttempts; i++) {
      const res = await signInApi(i % 2 ? b : a, admin.email, "Wrong-pass1", freshIp());
      expect(res.status).toBe(401);
    }
    for (const server of [a, b]) {
      const form = await signInForm(server, admin.email, admin.password, freshIp());
      expect(form.status).toBe(429);
      expect(Number(form.headers.get("retry-after"))).toBeGreaterThan(0);
      // The notice of the form, not just the text somewhere in the page's translations.
      expect(await form.text()).toMatch(/data-testid="auth-error"[^>]*><p[^>]*>[^<]+<\/p><p>محاولات كثيرة جداً. يرجى المحاولة لاحقاً<\/p>/);
      const json = await signInApi(server, admin.email, admin.password, freshIp());
      expect(json.status).toBe(429);
      expect(Number(json.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // An address with no account is answered the same way.
    const nobody = `nobody.${run.toString("hex")}@scale.test`;
    for (let i = 0; i < ACCOUNT_SIGN_IN_LIMIT.freeAttempts; i++) expect((await signInApi(i % 2 ? a : b, nobody, "Wrong-pass1", freshIp())).status).toBe(401);
    expect((await signInApi(b, nobody, "Wrong-pass1", freshIp())).status).toBe(429);
  });

  it("shares the contact form's limit (counted in Redis)", async () => {
    const ip = freshIp();
    const message = { name: "أحمد ولد محمد", email: "ahmed@example.mr", subject: "اقتراح", message: "السلام عليكم،\nأقترح حلقة عن المحاظر." };
    const send = (server: RunningServer) =>
      fetch(`${server.url}/contact`, {
        method: "POST",
        body: new URLSearchParams(message),
        headers: { ...FORWARDED, origin: PUBLIC_URL, "x-forwarded-for": ip },
      });
    for (let i = 0; i < CONTACT_RATE_LIMIT.limit; i++) expect((await send(i % 2 ? b : a)).status).toBe(200);
    const refused = await send(b);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await send(a)).status).toBe(429);
  });
});
