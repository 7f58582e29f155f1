/**
 * Rate limits and back-off, counted where every process sees the same numbers (docs/decisions/0110-shared-rate-limits.md).
 *
 * With REDIS_URL set the counters live in Redis (`rate-limiter-flexible`'s RateLimiterRedis), so a visitor
 * gets one budget whichever web process answers; should Redis fail or hang, each process falls back to its
 * own in-memory count (the "insurance" limiter) until Redis answers again — limits loosen to one budget per
 * process, they never turn into errors. Without REDIS_URL there is one process to count for, in memory.
 *
 * Windows are fixed (a key's window starts at its first hit), in whole seconds. Keys held in memory are
 * bounded (`maxKeys`), so a flood of distinct keys cannot exhaust memory.
 */
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { getConfig } from "#server/config.server.ts";
import { logger } from "#server/ops/logger.server.ts";

/** Every Redis key of ours starts with this, then the limiter's name. */
export const RATE_LIMIT_KEY_PREFIX = "sahara:rl";

export type RateLimitResult = {
  allowed: boolean;
  /** Hits left in the current window after this one. */
  remaining: number;
  /** Milliseconds until the window resets: what a Retry-After header says. */
  retryAfterMs: number;
};

export type RateLimiter = {
  /** Counts one hit for `key` and says whether it is within the limit. */
  hit(key: string): Promise<RateLimitResult>;
  /** Forgets one key, or every key of this limiter. */
  reset(key?: string): Promise<void>;
  /** Keys this process holds in memory (for tests and metrics). */
  size(): number;
};

/** Where counters live: this process's memory, or a Redis shared by every process. */
export type RateLimitStore = { kind: "memory" } | { kind: "redis"; client: Redis; ready?: Promise<void> };

export const MEMORY_STORE: RateLimitStore = { kind: "memory" };

/** A store, or how to get it: connecting is left to the first hit, so a script that never counts never connects. */
export type RateLimitStoreOption = RateLimitStore | (() => RateLimitStore);
const resolveStore = (store: RateLimitStoreOption | undefined) => (typeof store === "function" ? store() : (store ?? configuredRateLimitStore()));

const redisStores = new Map<string, RateLimitStore & { kind: "redis" }>();

/**
 * One connection per Redis URL for all the limiters of a process. Commands fail fast rather than queue or
 * hang (no offline queue, a command time-out), so an outage costs a request nothing but the fallback.
 */
export function redisRateLimitStore(url: string): RateLimitStore {
  let store = redisStores.get(url);
  if (store) return store;
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500, connectTimeout: 2000 });
  // Said once per outage, not once per reconnection attempt.
  let healthy = true;
  client.on("error", (error: Error) => {
    if (!healthy) return;
    healthy = false;
    logger.warn({ err: error }, "rate limits: redis unavailable; each process counts on its own until it is back");
  });
  client.on("ready", () => {
    if (healthy) return;
    healthy = true;
    logger.info("rate limits: redis back; limits are shared again");
  });
  // The first counts wait (a second at most) for the connection: counted in memory meanwhile, they would be
  // missing from the shared budget.
  const ready = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 1000);
    timer.unref();
    client.once("ready", () => {
      clearTimeout(timer);
      resolve();
    });
  });
  store = { kind: "redis", client, ready };
  redisStores.set(url, store);
  return store;
}

/** The store this process's configuration asks for. */
export function configuredRateLimitStore(): RateLimitStore {
  const url = getConfig().REDIS_URL;
  return url ? redisRateLimitStore(url) : MEMORY_STORE;
}

/** Closes the Redis connections (tests, scripts that must exit). */
export async function closeRateLimitStores() {
  const stores = [...redisStores.values()];
  redisStores.clear();
  await Promise.allSettled(stores.map((s) => s.client.quit()));
}

type Counter = {
  /** Settles once the store can be used (or has had its chance to connect). */
  ready: Promise<void>;
  /** The shared limiter (or the memory one when there is no Redis). */
  limiter: RateLimiterAbstract;
  /** Notes that `key` is (about to be) held in memory, evicting the oldest keys beyond maxKeys. */
  track(key: string, lifetimeMs: number): void;
  forget(key?: string): Promise<void>;
  size(): number;
};

/**
 * A rate-limiter-flexible limiter on `store` with an in-memory twin (the insurance limiter with Redis, the
 * limiter itself without). The twin's keys are tracked here so that memory stays bounded: the library
 * would keep every key until its window ends.
 */
function counter(
  store: RateLimitStore,
  { keyPrefix, points, durationSeconds, maxKeys }: { keyPrefix: string; points: number; durationSeconds: number; maxKeys: number },
): Counter {
  const memory = new RateLimiterMemory({ keyPrefix, points, duration: durationSeconds });
  const limiter =
    store.kind === "redis"
      ? new RateLimiterRedis({ storeClient: store.client, keyPrefix, points, duration: durationSeconds, rejectIfRedisNotReady: true, insuranceLimiter: memory })
      : memory;
  const expiries = new Map<string, number>();

  return {
    ready: (store.kind === "redis" && store.ready) || Promise.resolve(),
    limiter,
    track(key, lifetimeMs) {
      const now = Date.now();
      const known = expiries.get(key);
      if (known !== undefined && known > now) return;
      expiries.delete(key);
      if (expiries.size >= maxKeys) {
        for (const [k, end] of expiries) if (end <= now) expiries.delete(k);
        // Still full of live keys: drop the oldest (a Map keeps insertion order). A forgotten key starts
        // afresh, which errs on the side of letting a genuine visitor through.
        while (expiries.size >= maxKeys) {
          const oldest = expiries.keys().next().value as string;
          expiries.delete(oldest);
          void memory.delete(oldest);
        }
      }
      expiries.set(key, now + lifetimeMs);
    },
    async forget(key) {
      if (key !== undefined) {
        expiries.delete(key);
        await Promise.all([limiter.delete(key), memory.delete(key)]);
        return;
      }
      // Everything: the memory keys (all of them were tracked), then, with Redis, the shared ones.
      await Promise.all([...expiries.keys()].map((k) => memory.delete(k)));
      expiries.clear();
      if (store.kind !== "redis") return;
      const stream = store.client.scanStream({ match: `${keyPrefix}:*`, count: 500 });
      for await (const keys of stream as AsyncIterable<string[]>) if (keys.length) await store.client.del(...keys);
    },
    size: () => {
      const now = Date.now();
      for (const [k, end] of expiries) if (end <= now) expiries.delete(k);
      return expiries.size;
    },
  };
}

export type RateLimiterOptions = {
  /** Names the counters in Redis: two limiters with the same name share them. */
  name: string;
  limit: number;
  /** A whole number of seconds, in milliseconds. */
  windowMs: number;
  /** Upper bound on keys held in memory. */
  maxKeys?: number;
  /** Where to count; by default Redis when REDIS_URL is set, else memory (chosen at the first hit). */
  store?: RateLimitStoreOption;
};

export function createRateLimiter({ name, limit, windowMs, maxKeys = 10_000, store }: RateLimiterOptions): RateLimiter {
  if (!(limit >= 1) || !(windowMs >= 1000) || windowMs % 1000 !== 0) {
    throw new Error("createRateLimiter: limit must be >= 1 and windowMs a whole number of seconds");
  }
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error("createRateLimiter: name must be lower-case letters, digits and dashes");
  let made: Counter | undefined;
  const get = () =>
    (made ??= counter(resolveStore(store), {
      keyPrefix: `${RATE_LIMIT_KEY_PREFIX}:${name}`,
      points: limit,
      durationSeconds: windowMs / 1000,
      maxKeys,
    }));

  return {
    async hit(key) {
      const c = get();
      await c.ready;
      c.track(key, windowMs);
      try {
        const res = await c.limiter.consume(key);
        return { allowed: true, remaining: res.remainingPoints, retryAfterMs: Math.max(0, res.msBeforeNext) };
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        return { allowed: false, remaining: 0, retryAfterMs: Math.max(0, refusal.msBeforeNext) };
      }
    },
    reset: (key) => get().forget(key),
    size: () => made?.size() ?? 0,
  };
}

/**
 * Failed attempts per key with a growing lock-out, as Ghost's brute-force protection does: `freeAttempts`
 * attempts, then one attempt per lock, the lock doubling from `firstLockMs` up to `maxLockMs`. Attempts are
 * counted when they are made (not when they fail), so a burst of simultaneous attempts cannot slip past a
 * lock that has not been written yet; `refund` uncounts one that did not test the secret, `reset` forgets
 * the key (the secret was right).
 */
export type Backoff = {
  /** `firstLock`: this attempt armed the key's first lock-out (the audit log's one row per lock-out, decision 0140). */
  attempt(key: string): Promise<{ allowed: true; firstLock?: boolean } | { allowed: false; retryAfterMs: number }>;
  refund(key: string): Promise<void>;
  reset(key: string): Promise<void>;
  /** The lock-out that follows the n-th counted attempt (n >= freeAttempts). */
  lockMs(n: number): number;
};

export type BackoffOptions = {
  name: string;
  freeAttempts: number;
  firstLockMs: number;
  maxLockMs: number;
  /** How long counted attempts are remembered, from the first one. */
  memoryMs: number;
  maxKeys?: number;
  store?: RateLimitStoreOption;
};

export function createBackoff({ name, freeAttempts, firstLockMs, maxLockMs, memoryMs, maxKeys = 100_000, store }: BackoffOptions): Backoff {
  if (
    !(freeAttempts >= 1) ||
    firstLockMs % 1000 !== 0 ||
    maxLockMs % 1000 !== 0 ||
    memoryMs % 1000 !== 0 ||
    !(firstLockMs >= 1000) ||
    maxLockMs < firstLockMs
  ) {
    throw new Error("createBackoff: freeAttempts >= 1 and whole seconds, firstLockMs <= maxLockMs");
  }
  let made: { attempts: Counter; locks: Counter } | undefined;
  const get = () => {
    if (made) return made;
    const where = resolveStore(store);
    const prefix = `${RATE_LIMIT_KEY_PREFIX}:${name}`;
    made = {
      // Points are never exhausted: this one only counts (penalty/reward).
      attempts: counter(where, { keyPrefix: `${prefix}:attempts`, points: Number.MAX_SAFE_INTEGER, durationSeconds: memoryMs / 1000, maxKeys }),
      // A lock is a key holding one point for the lock's length: the first consume arms it, any other while
      // it lives is refused. Consuming is atomic, so of simultaneous attempts exactly one gets through.
      locks: counter(where, { keyPrefix: `${prefix}:lock`, points: 1, durationSeconds: maxLockMs / 1000, maxKeys }),
    };
    return made;
  };
  const lockMs = (n: number) => Math.min(maxLockMs, firstLockMs * 2 ** Math.min(n - freeAttempts, 30));

  return {
    lockMs,
    async attempt(key) {
      const { attempts, locks } = get();
      await attempts.ready;
      const held = await locks.limiter.get(key);
      if (held && held.msBeforeNext > 0) return { allowed: false, retryAfterMs: held.msBeforeNext };
      attempts.track(key, memoryMs);
      const n = (await attempts.limiter.penalty(key)).consumedPoints;
      if (n < freeAttempts) return { allowed: true };
      const length = lockMs(n);
      locks.track(key, length);
      try {
        await locks.limiter.consume(key, 1, { customDuration: length / 1000 });
        // Said only by the attempt that arms the first lock, so every other answer stays `{ allowed: true }`.
        return n === freeAttempts ? { allowed: true, firstLock: true } : { allowed: true };
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        // Another attempt armed this lock a moment ago: this one waits with the rest, uncounted.
        await attempts.limiter.reward(key);
        return { allowed: false, retryAfterMs: Math.max(0, refusal.msBeforeNext) };
      }
    },
    async refund(key) {
      await get().attempts.limiter.reward(key);
    },
    async reset(key) {
      const { attempts, locks } = get();
      await Promise.all([attempts.forget(key), locks.forget(key)]);
    },
  };
}
