import { describe, expect, it } from "vitest";
import { createRateLimiter } from "./rate-limit.ts";

describe("fixed-window rate limiter", () => {
  it("allows `limit` hits per window and key, then refuses until the window ends", () => {
    let now = 1_000_000;
    const limiter = createRateLimiter({ limit: 3, windowMs: 60_000, now: () => now });
    expect([1, 2, 3].map(() => limiter.hit("a").allowed)).toEqual([true, true, true]);
    const refused = limiter.hit("a");
    expect(refused.allowed).toBe(false);
    expect(refused.remaining).toBe(0);
    expect(refused.retryAfterMs).toBe(60_000);
    // Another key has its own window.
    expect(limiter.hit("b").allowed).toBe(true);
    now += 59_999;
    expect(limiter.hit("a").allowed).toBe(false);
    expect(limiter.hit("a").retryAfterMs).toBe(1);
    now += 1;
    const fresh = limiter.hit("a");
    expect(fresh).toEqual({ allowed: true, remaining: 2, retryAfterMs: 60_000 });
  });

  it("keeps at most maxKeys keys, forgetting expired ones first", () => {
    let now = 0;
    const limiter = createRateLimiter({ limit: 1, windowMs: 1000, maxKeys: 3, now: () => now });
    limiter.hit("a");
    limiter.hit("b");
    now = 2000;
    limiter.hit("c");
    limiter.hit("d");
    expect(limiter.size()).toBeLessThanOrEqual(3);
    // c is still limited: live windows were kept.
    expect(limiter.hit("c").allowed).toBe(false);
    for (let i = 0; i < 100; i++) limiter.hit(`k${i}`);
    expect(limiter.size()).toBeLessThanOrEqual(3);
  });

  it("can be reset", () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 1000 });
    limiter.hit("a");
    expect(limiter.hit("a").allowed).toBe(false);
    limiter.reset("a");
    expect(limiter.hit("a").allowed).toBe(true);
    limiter.reset();
    expect(limiter.size()).toBe(0);
  });

  it("refuses a nonsensical configuration", () => {
    expect(() => createRateLimiter({ limit: 0, windowMs: 1000 })).toThrow();
    expect(() => createRateLimiter({ limit: 1, windowMs: 0 })).toThrow();
  });
});
