import { describe, expect, it, vi } from "vitest";
import { cached, cacheStats, DEFAULT_MAX_ENTRIES, invalidate, setCacheEnabled, setReadCacheLimit } from "./cache.server.ts";

// On by default, tests included; each test starts empty (tests/support/fresh-read-cache.ts).
describe("read cache", () => {
  it("is on without being turned on, and off only when turned off", async () => {
    const read = vi.fn(() => Promise.resolve(1));
    await cached("on", ["news"], read);
    await cached("on", ["news"], read);
    expect(read).toHaveBeenCalledTimes(1);
    setCacheEnabled(false);
    try {
      await cached("on", ["news"], read);
      expect(read).toHaveBeenCalledTimes(2);
    } finally {
      setCacheEnabled(true);
    }
  });

  it("counts this process's invalidations by tag, once per tag and call (the /metrics counter)", () => {
    const before = cacheStats().invalidations;
    invalidate("news", "news", "categories");
    invalidate("news");
    const after = cacheStats().invalidations;
    expect((after.news ?? 0) - (before.news ?? 0)).toBe(2);
    expect((after.categories ?? 0) - (before.categories ?? 0)).toBe(1);
  });

  it("reads once per key while fresh, and shares a read in flight", async () => {
    const read = vi.fn(() => Promise.resolve(42));
    const [a, b] = await Promise.all([cached("k", ["news"], read), cached("k", ["news"], read)]);
    expect([a, b]).toEqual([42, 42]);
    await cached("k", ["news"], read);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it("drops entries when a table they read is written", async () => {
    const read = vi.fn(() => Promise.resolve("x"));
    await cached("home", ["news", "article"], read);
    await cached("other", ["media"], read);
    invalidate("article");
    await cached("home", ["news", "article"], read);
    await cached("other", ["media"], read);
    expect(read).toHaveBeenCalledTimes(3);
  });

  it("expires entries after their time to live", async () => {
    // lru-cache measures age on the monotonic clock, which fake timers do not move: a real millisecond passes.
    const read = vi.fn(() => Promise.resolve(1));
    await cached("k", ["news"], read, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await cached("k", ["news"], read, 1);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it("keeps the 1000 most recently used entries", async () => {
    const read = vi.fn(() => Promise.resolve(0));
    for (let i = 0; i < 1000; i++) await cached(`k${i}`, ["news"], read);
    // Reading k0 again makes it the most recently used, so k1 is the one that goes when k1000 arrives.
    await cached("k0", ["news"], read);
    await cached("k1000", ["news"], read);
    expect(cacheStats().size).toBe(1000);
    read.mockClear();
    await cached("k0", ["news"], read);
    expect(read).not.toHaveBeenCalled();
    await cached("k1", ["news"], read);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it("keeps no more reads than READ_CACHE_MAX_ENTRIES, the least recently used going first", async () => {
    setReadCacheLimit(50);
    try {
      const read = vi.fn((n: number) => Promise.resolve("x".repeat(1000) + n));
      for (let i = 0; i < 500; i++) await cached(`page:${i}`, ["news"], () => read(i));
      expect(cacheStats()).toMatchObject({ size: 50, max: 50 });
      read.mockClear();
      await cached("page:499", ["news"], () => read(499));
      expect(read).not.toHaveBeenCalled();
      await cached("page:0", ["news"], () => read(0));
      expect(read).toHaveBeenCalledTimes(1);
    } finally {
      setReadCacheLimit(DEFAULT_MAX_ENTRIES);
    }
    expect(cacheStats().max).toBe(DEFAULT_MAX_ENTRIES);
  });

  it("does not keep a failed read", async () => {
    let n = 0;
    const read = () => (++n === 1 ? Promise.reject(new Error("db down")) : Promise.resolve("ok"));
    await expect(cached("k", ["news"], read)).rejects.toThrow("db down");
    await new Promise((r) => setTimeout(r, 0));
    await expect(cached("k", ["news"], read)).resolves.toBe("ok");
  });
});
