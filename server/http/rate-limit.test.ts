import crypto from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import {
  closeRateLimitStores,
  createBackoff,
  createRateLimiter,
  MEMORY_STORE,
  RATE_LIMIT_KEY_PREFIX,
  redisRateLimitStore,
  type RateLimitStore,
} from "./rate-limit.server.ts";
import { REDIS_URL, redisAnswers } from "#tests/helpers/redis.ts";

const redisUp = await redisAnswers();
if (!redisUp) console.warn(`shared rate-limit tests skipped: no Redis at ${REDIS_URL} (start one, or set TEST_REDIS_URL)`);

/** A limiter name of its own per test run: counters left in Redis by an earlier run never interfere. */
const unique = (what: string) => `test-${what}-${crypto.randomBytes(4).toString("hex")}`;

afterEach(() => {
  vi.useRealTimers();
});

describe("fixed-window rate limiter (in memory)", () => {
  it("allows `limit` hits per window and key, then refuses until the window ends", async () => {
    vi.useFakeTimers();
    const limiter = createRateLimiter({ name: "t", limit: 3, windowMs: 60_000, store: MEMORY_STORE });
    expect(await Promise.all([1, 2, 3].map(() => limiter.hit("a").then((r) => r.allowed)))).toEqual([true, true, true]);
    const refused = await limiter.hit("a");
    expect(refused.allowed).toBe(false);
    expect(refused.remaining).toBe(0);
    expect(refused.retryAfterMs).toBe(60_000);
    // Another key has its own window.
    expect((await limiter.hit("b")).allowed).toBe(true);
    vi.advanceTimersByTime(59_999);
    expect((await limiter.hit("a")).allowed).toBe(false);
    expect((await limiter.hit("a")).retryAfterMs).toBe(1);
    vi.advanceTimersByTime(1);
    expect(await limiter.hit("a")).toEqual({ allowed: true, remaining: 2, retryAfterMs: 60_000 });
  });

  it("keeps at most maxKeys keys, forgetting expired ones first", async () => {
    vi.useFakeTimers();
    const limiter = createRateLimiter({ name: "t", limit: 1, windowMs: 1000, maxKeys: 3, store: MEMORY_STORE });
    await limiter.hit("a");
    await limiter.hit("b");
    vi.advanceTimersByTime(2000);
    await limiter.hit("c");
    await limiter.hit("d");
    expect(limiter.size()).toBeLessThanOrEqual(3);
    // c is still limited: live windows were kept.
    expect((await limiter.hit("c")).allowed).toBe(false);
    for (let i = 0; i < 100; i++) await limiter.hit(`k${i}`);
    expect(limiter.size()).toBeLessThanOrEqual(3);
  });

  it("can be reset", async () => {
    const limiter = createRateLimiter({ name: "t", limit: 1, windowMs: 1000, store: MEMORY_STORE });
    await limiter.hit("a");
    expect((await limiter.hit("a")).allowed).toBe(false);
    await limiter.reset("a");
    expect((await limiter.hit("a")).allowed).toBe(true);
    await limiter.reset();
    expect(limiter.size()).toBe(0);
    expect((await limiter.hit("a")).allowed).toBe(true);
  });

  it("refuses a nonsensical configuration", () => {
    expect(() => createRateLimiter({ name: "t", limit: 0, windowMs: 1000 })).toThrow();
    expect(() => createRateLimiter({ name: "t", limit: 1, windowMs: 0 })).toThrow();
    // The stores count in whole seconds.
    expect(() => createRateLimiter({ name: "t", limit: 1, windowMs: 1500 })).toThrow();
    expect(() => createRateLimiter({ name: "T t", limit: 1, windowMs: 1000 })).toThrow();
  });
});

/** The answer of the attempt that arms the first lock-out (the audit log's one row per lock-out). */
const FIRST_LOCK = { allowed: true, firstLock: true };
const SIGN_IN_LIKE = { freeAttempts: 5, firstLockMs: 60_000, maxLockMs: 3_600_000, memoryMs: 86_400_000 };

describe("back-off (in memory)", () => {
  it("gives free attempts, then locks for 1 min doubling up to the cap, and forgets everything on reset", async () => {
    vi.useFakeTimers();
    const backoff = createBackoff({ name: "t", ...SIGN_IN_LIKE, store: MEMORY_STORE });
    for (let i = 0; i < 5; i++) expect(await backoff.attempt("acct")).toEqual(i === 4 ? FIRST_LOCK : { allowed: true });
    // Five failed: the sixth waits a minute.
    expect(await backoff.attempt("acct")).toEqual({ allowed: false, retryAfterMs: 60_000 });
    vi.advanceTimersByTime(30_000);
    expect(await backoff.attempt("acct")).toEqual({ allowed: false, retryAfterMs: 30_000 });
    // Waiting does not make the next lock longer; each attempt let through does.
    const waits: number[] = [];
    let lock = 30_000;
    for (let i = 0; i < 8; i++) {
      vi.advanceTimersByTime(lock);
      expect(await backoff.attempt("acct")).toEqual({ allowed: true });
      const refused = await backoff.attempt("acct");
      expect(refused.allowed).toBe(false);
      lock = refused.allowed ? 0 : refused.retryAfterMs;
      waits.push(lock / 60_000);
    }
    expect(waits).toEqual([2, 4, 8, 16, 32, 60, 60, 60]);
    // Another account is not affected.
    expect(await backoff.attempt("other")).toEqual({ allowed: true });
    await backoff.reset("acct");
    for (let i = 0; i < 5; i++) expect(await backoff.attempt("acct")).toEqual(i === 4 ? FIRST_LOCK : { allowed: true });
    expect((await backoff.attempt("acct")).allowed).toBe(false);
  });

  it("does not count a refunded attempt", async () => {
    const backoff = createBackoff({ name: "t", ...SIGN_IN_LIKE, store: MEMORY_STORE });
    for (let i = 0; i < 10; i++) {
      expect(await backoff.attempt("acct")).toEqual({ allowed: true });
      await backoff.refund("acct");
    }
    for (let i = 0; i < 5; i++) expect(await backoff.attempt("acct")).toEqual(i === 4 ? FIRST_LOCK : { allowed: true });
    expect((await backoff.attempt("acct")).allowed).toBe(false);
  });

  it("lets exactly one of a burst of simultaneous attempts through a lock", async () => {
    const backoff = createBackoff({ name: "t", ...SIGN_IN_LIKE, store: MEMORY_STORE });
    const burst = await Promise.all(Array.from({ length: 30 }, () => backoff.attempt("acct")));
    expect(burst.filter((r) => r.allowed)).toHaveLength(5);
  });
});

describe.skipIf(!redisUp)("rate limits shared through Redis (two processes)", () => {
  // Each "process" has its own connection and its own limiter objects, as two servers would.
  const clients: Redis[] = [];
  const processStore = (): RateLimitStore => {
    const client = new Redis(REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500 });
    clients.push(client);
    return { kind: "redis", client };
  };
  const connected = async (store: RateLimitStore) => {
    if (store.kind === "redis" && store.client.status !== "ready") await new Promise((r) => store.client.once("ready", r));
    return store;
  };
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.quit()));
    await closeRateLimitStores();
  });

  it("gives two limiter instances one budget per key", async () => {
    const name = unique("window");
    const [one, two] = await Promise.all([connected(processStore()), connected(processStore())]);
    const a = createRateLimiter({ name, limit: 5, windowMs: 60_000, store: one });
    const b = createRateLimiter({ name, limit: 5, windowMs: 60_000, store: two });
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await (i % 2 ? b : a).hit("contact:198.51.100.7")).allowed);
    expect(answers).toEqual([true, true, true, true, true, false]);
    const refused = await a.hit("contact:198.51.100.7");
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
    // Another key, another budget; a reset through one process frees the key for both.
    expect((await b.hit("contact:198.51.100.8")).allowed).toBe(true);
    await b.reset("contact:198.51.100.7");
    expect((await a.hit("contact:198.51.100.7")).allowed).toBe(true);
    // The counters are in Redis under the limiter's name.
    const client = (one as { client: Redis }).client;
    expect(await client.exists(`${RATE_LIMIT_KEY_PREFIX}:${name}:contact:198.51.100.7`)).toBe(1);
    await a.reset();
    expect(await client.exists(`${RATE_LIMIT_KEY_PREFIX}:${name}:contact:198.51.100.8`)).toBe(0);
  });

  it("counts the very first hit of a fresh process in Redis, not in memory while it connects", async () => {
    const name = unique("first");
    // The process's own store, connected lazily at this first hit.
    const limiter = createRateLimiter({ name, limit: 1, windowMs: 60_000, store: () => redisRateLimitStore(REDIS_URL) });
    expect((await limiter.hit("k")).allowed).toBe(true);
    const client = (await connected(processStore())) as { client: Redis };
    expect(await client.client.get(`${RATE_LIMIT_KEY_PREFIX}:${name}:k`)).toBe("1");
    await limiter.reset();
  });

  it("shares back-off locks: failures counted by one process lock the account on the other", async () => {
    const name = unique("backoff");
    const [one, two] = await Promise.all([connected(processStore()), connected(processStore())]);
    const a = createBackoff({ name, ...SIGN_IN_LIKE, store: one });
    const b = createBackoff({ name, ...SIGN_IN_LIKE, store: two });
    for (let i = 0; i < 5; i++) expect(await (i % 2 ? b : a).attempt("acct")).toEqual(i === 4 ? FIRST_LOCK : { allowed: true });
    const refused = await b.attempt("acct");
    expect(refused.allowed).toBe(false);
    expect(refused.allowed ? 0 : refused.retryAfterMs).toBeGreaterThan(55_000);
    // A burst on both processes while the lock is armed: none passes.
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).attempt("acct")));
    expect(burst.every((r) => !r.allowed)).toBe(true);
    // The lock ends (made to end now, rather than waiting a minute): exactly one of a burst gets through and
    // arms the next, twice as long.
    const client = (one as { client: Redis }).client;
    await client.pexpire(`${RATE_LIMIT_KEY_PREFIX}:${name}:lock:acct`, 1);
    await vi.waitFor(async () => expect(await client.exists(`${RATE_LIMIT_KEY_PREFIX}:${name}:lock:acct`)).toBe(0));
    const after = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).attempt("acct")));
    expect(after.filter((r) => r.allowed)).toHaveLength(1);
    const next = after.find((r) => !r.allowed);
    expect(next && !next.allowed ? next.retryAfterMs : 0).toBeGreaterThan(115_000);
    // Success on one process (reset) frees the account on the other.
    await a.reset("acct");
    expect(await b.attempt("acct")).toEqual({ allowed: true });
    await b.reset("acct");
  });

  it("falls back to counting in this process when Redis does not answer, without an error", async () => {
    // A port where nothing listens: every command fails at once, and the insurance limiter counts.
    const dead = new Redis("redis://127.0.0.1:1", { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true, retryStrategy: () => null });
    dead.on("error", () => {});
    clients.push(dead);
    const limiter = createRateLimiter({ name: unique("down"), limit: 2, windowMs: 60_000, store: { kind: "redis", client: dead } });
    expect((await limiter.hit("k")).allowed).toBe(true);
    expect((await limiter.hit("k")).allowed).toBe(true);
    expect((await limiter.hit("k")).allowed).toBe(false);
    const backoff = createBackoff({ name: unique("down"), ...SIGN_IN_LIKE, store: { kind: "redis", client: dead } });
    for (let i = 0; i < 5; i++) expect(await backoff.attempt("acct")).toEqual(i === 4 ? FIRST_LOCK : { allowed: true });
    expect((await backoff.attempt("acct")).allowed).toBe(false);
  });
});
