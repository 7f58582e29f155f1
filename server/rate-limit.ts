/**
 * A fixed-window rate limiter keyed by any string ("contact:203.0.113.7", "sign-in:someone@example.org").
 * In-process: each server process counts on its own, which is enough to stop one client hammering a form.
 * When several processes serve behind a balancer, each allows `limit` per window (a shared store is the
 * cache module's job, REDIS_URL).
 */
export type RateLimitResult = {
  allowed: boolean;
  /** Hits left in the current window after this one. */
  remaining: number;
  /** Milliseconds until the window resets: what a Retry-After header says. */
  retryAfterMs: number;
};

export type RateLimiter = {
  /** Counts one hit for `key` and says whether it is within the limit. */
  hit(key: string): RateLimitResult;
  /** Forgets one key, or every key. */
  reset(key?: string): void;
  /** Keys currently tracked (for tests and metrics). */
  size(): number;
};

export type RateLimiterOptions = {
  limit: number;
  windowMs: number;
  /** Upper bound on tracked keys, so a flood of distinct keys cannot exhaust memory. */
  maxKeys?: number;
  now?: () => number;
};

export function createRateLimiter({ limit, windowMs, maxKeys = 10_000, now = Date.now }: RateLimiterOptions): RateLimiter {
  if (!(limit >= 1) || !(windowMs > 0)) throw new Error("createRateLimiter: limit must be >= 1 and windowMs > 0");
  const windows = new Map<string, { start: number; count: number }>();

  const sweep = (t: number) => {
    for (const [key, w] of windows) if (t - w.start >= windowMs) windows.delete(key);
    // Still full of live windows: drop the oldest (Map keeps insertion order). A forgotten key starts afresh,
    // which errs on the side of letting a genuine visitor through.
    while (windows.size >= maxKeys) windows.delete(windows.keys().next().value as string);
  };

  return {
    hit(key) {
      const t = now();
      let w = windows.get(key);
      if (!w || t - w.start >= windowMs) {
        if (w) windows.delete(key);
        if (windows.size >= maxKeys) sweep(t);
        w = { start: t, count: 0 };
        windows.set(key, w);
      }
      w.count += 1;
      const retryAfterMs = Math.max(0, w.start + windowMs - t);
      return { allowed: w.count <= limit, remaining: Math.max(0, limit - w.count), retryAfterMs };
    },
    reset(key) {
      if (key === undefined) windows.clear();
      else windows.delete(key);
    },
    size: () => windows.size,
  };
}
