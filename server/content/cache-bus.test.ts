import { afterEach, describe, expect, it, vi } from "vitest";
import { startCacheBus, type CacheBus } from "./cache-bus.server.ts";
import type { CacheTag } from "./cache.server.ts";
import { REDIS_URL, redisAnswers } from "#tests/helpers/redis.ts";

const redisUp = await redisAnswers();
if (!redisUp) console.warn(`cache bus tests skipped: no Redis at ${REDIS_URL} (start one, or set TEST_REDIS_URL)`);

/** One "process": what it hears from the others, and how it tells them of its own writes. */
function processOn(channel: string) {
  const applied: (readonly CacheTag[])[] = [];
  let local: ((tags: readonly CacheTag[], origin: "local" | "remote") => void) | undefined;
  const bus = startCacheBus({
    url: REDIS_URL,
    channel,
    apply: (tags) => applied.push(tags),
    listen: (listener) => {
      local = listener;
      return () => (local = undefined);
    },
  });
  return { bus, applied, write: (...tags: CacheTag[]) => local?.(tags, "local"), hearRemote: (...tags: CacheTag[]) => local?.(tags, "remote") };
}

const buses: CacheBus[] = [];
afterEach(async () => {
  await Promise.all(buses.splice(0).map((b) => b.stop()));
});

describe.skipIf(!redisUp)("cache bus (Redis pub/sub between processes)", () => {
  it("tells every other process of a write, and not the writer itself", async () => {
    const channel = `test:invalidate:${process.pid}:${Date.now()}`;
    const [a, b, c] = [processOn(channel), processOn(channel), processOn(channel)];
    buses.push(a.bus, b.bus, c.bus);
    await Promise.all([a.bus.ready, b.bus.ready, c.bus.ready]);
    a.write("article");
    await vi.waitFor(() => {
      expect(b.applied).toEqual([["article"]]);
      expect(c.applied).toEqual([["article"]]);
    });
    expect(a.applied).toEqual([]);
  });

  it("does not pass on what it heard from another process", async () => {
    const channel = `test:invalidate:${process.pid}:${Date.now()}:relay`;
    const [a, b] = [processOn(channel), processOn(channel)];
    buses.push(a.bus, b.bus);
    await Promise.all([a.bus.ready, b.bus.ready]);
    b.hearRemote("news");
    b.write("media");
    await vi.waitFor(() => expect(a.applied).toEqual([["media"]]));
  });
});
