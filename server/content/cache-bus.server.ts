/**
 * Invalidations between processes (docs/decisions/0106-page-cache.md): with REDIS_URL set, every
 * invalidation this process makes (server/content/cache.server.ts `invalidate`) is published on one Redis channel, and every
 * other process applies it to its read cache and its page cache (`applyRemoteInvalidation`). Without
 * REDIS_URL nothing is started: one process needs no bus.
 *
 * Delivery is Redis pub/sub: at most once, to processes connected at the time. A process that was
 * disconnected misses what was said meanwhile, so on reconnecting it drops everything it holds — the
 * time-to-live would bound the staleness anyway, but a write should never be missed for that long.
 */
import crypto from "node:crypto";
import { Redis } from "ioredis";
import { applyRemoteInvalidation, CACHE_TAG_NAMES, onInvalidate, type CacheTag } from "./cache.server.ts";
import { logger } from "#server/ops/logger.server.ts";

export const INVALIDATION_CHANNEL = "sahara:cache:invalidate";

export type CacheBus = { id: string; ready: Promise<void>; stop: () => Promise<void> };

export type CacheBusOptions = {
  url: string;
  channel?: string;
  /** Applies another process's invalidation (server/content/cache.server.ts by default; tests pass their own). */
  apply?: (tags: readonly CacheTag[]) => void;
  /** Hears this process's invalidations (server/content/cache.server.ts by default). */
  listen?: (listener: (tags: readonly CacheTag[], origin: "local" | "remote") => void) => () => void;
  /** What to drop after a reconnection, when invalidations may have been missed. */
  resync?: () => void;
};

export function startCacheBus(options: CacheBusOptions): CacheBus {
  const id = crypto.randomUUID();
  const channel = options.channel ?? INVALIDATION_CHANNEL;
  const apply = options.apply ?? applyRemoteInvalidation;
  const listen = options.listen ?? onInvalidate;
  const resync = options.resync ?? (() => applyRemoteInvalidation(CACHE_TAG_NAMES));
  const redisOptions = { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: false } as const;
  const publisher = new Redis(options.url, redisOptions);
  const subscriber = new Redis(options.url, { ...redisOptions, enableOfflineQueue: true });
  for (const [name, client] of [
    ["publisher", publisher],
    ["subscriber", subscriber],
  ] as const) {
    client.on("error", (error: Error) => logger.warn({ err: error, client: name }, "cache bus: redis error"));
  }

  let connectedOnce = false;
  subscriber.on("ready", () => {
    if (connectedOnce) {
      logger.warn("cache bus: reconnected to redis; dropping cached reads and pages that may have missed invalidations");
      resync();
    }
    connectedOnce = true;
  });
  subscriber.on("message", (from: string, message: string) => {
    if (from !== channel) return;
    try {
      const { sender, tags } = JSON.parse(message) as { sender: string; tags: CacheTag[] };
      if (sender === id || !Array.isArray(tags)) return;
      apply(tags);
    } catch (error) {
      logger.warn({ err: error }, "cache bus: unreadable message");
    }
  });

  const off = listen((tags, origin) => {
    if (origin !== "local") return;
    publisher
      .publish(channel, JSON.stringify({ sender: id, tags }))
      .catch((error: unknown) => logger.warn({ err: error, tags }, "cache bus: invalidation not published"));
  });

  const ready = (async () => {
    await Promise.all([publisher.connect(), subscriber.connect()]);
    await subscriber.subscribe(channel);
  })();
  ready.catch((error: unknown) => logger.error({ err: error }, "cache bus: could not connect to redis; invalidations stay in this process"));

  return {
    id,
    ready,
    stop: async () => {
      off();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
