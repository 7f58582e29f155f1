import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cached, clearCache, invalidate, setCacheEnabled } from "./cache.ts";

describe("read cache", () => {
  beforeEach(() => setCacheEnabled(true));
  afterEach(() => {
    clearCache();
    setCacheEnabled(false);
    vi.useRealTimers();
  });

  it("reads once per key while fresh, and shares a read in flight", async () => {
    const read = vi.fn(async () => 42);
    const [a, b] = await Promise.all([cached("k", ["news"], read), cached("k", ["news"], read)]);
    expect([a, b]).toEqual([42, 42]);
    await cached("k", ["news"], read);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it("drops entries when a table they read is written", async () => {
    const read = vi.fn(async () => "x");
    await cached("home", ["news", "articles"], read);
    await cached("other", ["media"], read);
    invalidate("articles");
    await cached("home", ["news", "articles"], read);
    await cached("other", ["media"], read);
    expect(read).toHaveBeenCalledTimes(3);
  });

  it("expires entries after their time to live", async () => {
    vi.useFakeTimers();
    const read = vi.fn(async () => 1);
    await cached("k", ["news"], read, 1000);
    vi.advanceTimersByTime(1001);
    await cached("k", ["news"], read, 1000);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it("does not keep a failed read", async () => {
    let n = 0;
    const read = async () => {
      n++;
      if (n === 1) throw new Error("db down");
      return "ok";
    };
    await expect(cached("k", ["news"], read)).rejects.toThrow("db down");
    await new Promise((r) => setTimeout(r, 0));
    await expect(cached("k", ["news"], read)).resolves.toBe("ok");
  });
});
