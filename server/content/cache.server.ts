/**
 * The in-process read cache for public pages (docs/spec/stack.md, "cache"): lru-cache's least-recently-used store
 * with a time to live, each entry tagged with what it read (a content type, or the categories or videos). A
 * write calls `invalidate(tag)` in the domain function that writes, so readers see a change at once; the TTL bounds staleness for what changes
 * without a write (a scheduled publish date arriving, view counts).
 *
 * A read whose caller degraded (server/http/render-scope.server.ts `markDegraded`: a query failed and the caller shows
 * less) is not kept either, so a database outage never leaves an empty page behind it.
 *
 * Whoever keeps more than reads listens with `onInvalidate` (the page cache, server/http/page-cache.server.ts; the
 * Redis bus, server/content/cache-bus.server.ts, which tells the other processes and applies theirs with
 * `applyRemoteInvalidation`). See docs/decisions/0006-cache.md and 0106-page-cache.md.
 */
import { LRUCache } from "lru-cache";
import { markDegraded, noteTags, withReadScope } from "#server/http/render-scope.server.ts";
import { CONTENT_TYPES, type ContentType } from "#domain/content-types/index.ts";

/**
 * A tag is a content type's key (domain/content-types/: what a read of its table depends on), or one of the other
 * tables public pages read ("library": the media library's alt texts, captions and focal points, server/content/image-details.server.ts;
 * "authors": the author profiles, server/content/authors.server.ts; "tags": tag names and slugs, server/content/tags.server.ts;
 * "live": which coverages are live and which items are breaking, read by every page's ticker and the live badges;
 * "entries": live coverage entries, read by coverage pages, entry pages and the entries JSON, server/content/live/).
 */
export type CacheTag = ContentType | "categories" | "videos" | "library" | "authors" | "tags" | "live" | "entries";
export const CACHE_TAG_NAMES: readonly CacheTag[] = [...CONTENT_TYPES, "categories", "videos", "library", "authors", "tags", "live", "entries"];

type Entry = { value: Promise<{ value: unknown; degraded: boolean }>; tags: readonly CacheTag[] };

/** The default bound; READ_CACHE_MAX_ENTRIES sets it (setReadCacheLimit, at start). */
export const DEFAULT_MAX_ENTRIES = 1000;
export const DEFAULT_TTL_MS = 60_000;

const newStore = (max: number) => new LRUCache<string, Entry>({ max, ttl: DEFAULT_TTL_MS });
let entries = newStore(DEFAULT_MAX_ENTRIES);
// On everywhere, tests included (a test that reads, writes and reads again checks the write's invalidation); each
// test starts with an empty cache (tests/support/fresh-read-cache.ts), as it starts with its own database.
let enabled = true;
const stats = { hits: 0, misses: 0 };
/** This process's own invalidations, by tag, since it started (/metrics `sahara_read_cache_invalidations_total`). */
const invalidations = new Map<CacheTag, number>();

/** Runs `read` once per key until it expires or one of its tags is invalidated; concurrent callers share it. */
export function cached<T>(key: string, tags: readonly CacheTag[], read: () => Promise<T>, ttlMs = DEFAULT_TTL_MS): Promise<T> {
  // The page being rendered shows this read: its answer carries these tags as surrogate keys, so a purge of any reaches it.
  noteTags(tags);
  if (!enabled) return withReadScope(read).then(({ value }) => value);
  const hit = entries.get(key);
  if (hit) {
    stats.hits++;
    return unwrap(hit.value as Entry["value"]) as Promise<T>;
  }
  stats.misses++;
  const value = withReadScope(read);
  // The promise is stored, not its result, so readers arriving while the query runs share it.
  entries.set(key, { value, tags }, { ttl: ttlMs });
  // A failed read is not kept, nor a degraded one: the next reader tries again.
  const forget = () => {
    if (entries.peek(key)?.value === value) entries.delete(key);
  };
  value.then(({ degraded }) => degraded && forget(), forget);
  return unwrap(value) as Promise<T>;
}

/** The value of an entry; a degraded one degrades every reader that shares it (in the reader's own scope). */
function unwrap(entry: Entry["value"]): Promise<unknown> {
  return entry.then(({ value, degraded }) => {
    if (degraded) markDegraded();
    return value;
  });
}

export type InvalidationListener = (tags: readonly CacheTag[], origin: "local" | "remote") => void;
const listeners = new Set<InvalidationListener>();

/** Hear every invalidation: this process's writes ("local") and other processes' ("remote"). Returns the unsubscribe. */
export function onInvalidate(listener: InvalidationListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function dropTagged(tags: readonly CacheTag[]) {
  const stale = [...entries.entries()].filter(([, entry]) => entry.tags.some((t) => tags.includes(t))).map(([key]) => key);
  for (const key of stale) entries.delete(key);
}

function tell(tags: readonly CacheTag[], origin: "local" | "remote") {
  for (const listener of listeners) {
    try {
      listener(tags, origin);
    } catch {
      // A listener's failure never fails the write that invalidated.
    }
  }
}

/** Drops every entry that read from one of these tables, and tells the listeners (page cache, other processes). */
export function invalidate(...tags: CacheTag[]) {
  for (const tag of new Set(tags)) invalidations.set(tag, (invalidations.get(tag) ?? 0) + 1);
  dropTagged(tags);
  tell(tags, "local");
}

/** An invalidation another process made (server/content/cache-bus.server.ts): applied here, not sent on again. */
export function applyRemoteInvalidation(tags: readonly CacheTag[]) {
  dropTagged(tags);
  tell(tags, "remote");
}

export function clearCache() {
  entries.clear();
}

export function setCacheEnabled(on: boolean) {
  enabled = on;
  if (!on) entries.clear();
}

export function cacheStats() {
  return { ...stats, size: entries.size, max: entries.max, invalidations: Object.fromEntries(invalidations) as Partial<Record<CacheTag, number>> };
}

/** Bounds the number of reads kept (READ_CACHE_MAX_ENTRIES); what was kept is dropped (read again on demand). */
export function setReadCacheLimit(maxEntries: number) {
  if (maxEntries === entries.max) return;
  entries.clear();
  entries = newStore(maxEntries);
}
