/**
 * The in-process read cache for public pages (ARCHITECTURE "cache"): lru-cache's least-recently-used store
 * with a time to live, each entry tagged with the tables it read. A write calls `invalidate(table)` in the
 * domain function that writes, so readers see a change at once; the TTL bounds staleness for what changes
 * without a write (a scheduled publish date arriving, view counts).
 *
 * One process only: with several processes, a write must reach the others (Redis via REDIS_URL is the
 * planned transport; see docs/decisions/0006-cache.md).
 */
import { LRUCache } from "lru-cache";

export type CacheTag = "articles" | "news" | "programs" | "podcasts" | "coverages" | "media" | "categories" | "videos";

type Entry = { value: Promise<unknown>; tags: readonly CacheTag[] };

const MAX_ENTRIES = 1000;
export const DEFAULT_TTL_MS = 60_000;

const entries = new LRUCache<string, Entry>({ max: MAX_ENTRIES, ttl: DEFAULT_TTL_MS });
let enabled = process.env.NODE_ENV !== "test";
const stats = { hits: 0, misses: 0 };

/** Runs `read` once per key until it expires or one of its tags is invalidated; concurrent callers share it. */
export function cached<T>(key: string, tags: readonly CacheTag[], read: () => Promise<T>, ttlMs = DEFAULT_TTL_MS): Promise<T> {
  if (!enabled) return read();
  const hit = entries.get(key);
  if (hit) {
    stats.hits++;
    return hit.value as Promise<T>;
  }
  stats.misses++;
  const value = read();
  // The promise is stored, not its result, so readers arriving while the query runs share it.
  entries.set(key, { value, tags }, { ttl: ttlMs });
  // A failed read is not kept: the next reader tries again.
  value.catch(() => {
    if (entries.peek(key)?.value === value) entries.delete(key);
  });
  return value;
}

/** Drops every entry that read from one of these tables. */
export function invalidate(...tags: CacheTag[]) {
  const stale = [...entries.entries()].filter(([, entry]) => entry.tags.some((t) => tags.includes(t))).map(([key]) => key);
  for (const key of stale) entries.delete(key);
}

export function clearCache() {
  entries.clear();
}

export function setCacheEnabled(on: boolean) {
  enabled = on;
  if (!on) entries.clear();
}

export function cacheStats() {
  return { ...stats, size: entries.size };
}
