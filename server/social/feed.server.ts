/**
 * The social feed as the pages read it (docs/decisions/0060-social-feed.md): a small stale-while-revalidate
 * store in front of the Graph client. A page of posts is served from memory; once it is older than the TTL
 * the next reader still gets it at once while a refresh runs in the background, and a timer keeps the first
 * pages that readers asked for fresh even when nobody comes. When Facebook fails or is slow (the client gives
 * up after a few seconds) the last good copy stays; a page that never loaded answers its error, and does not
 * ask Facebook again for `retryMs`, so an outage never holds a reader up for more than one time-out.
 *
 * Whoever keeps rendered pages (the page cache) subscribes with `onSocialFeedChanged` and hears when a page
 * of posts changed: first loaded, or refreshed with different content.
 *
 * A failure is logged when it differs from the one before (Meta's code, subcode and message, or our own
 * code and message when Meta did not answer), and the first success after failures is logged once: a refusal
 * that lasts (a retired version, an expired token) is one line, not one per refresh.
 */
import crypto from "node:crypto";
import { getConfig, type Config } from "#server/config.server.ts";
import { logger, type Logger } from "#server/ops/logger.server.ts";
import { createGraphClient, GraphError, parseCursor, refusalKind, type GraphClient, type PublicGraphError } from "./graph.server.ts";
import { createImageProxy, type ImageProxy, type SocialImage } from "./images.server.ts";
import { toSocialPost, type SocialPost } from "./posts.server.ts";

export type { SocialPost } from "./posts.server.ts";
export type { PublicGraphError } from "./graph.server.ts";

/** public-site.md §7 and §9: 6 posts by default, 3 on the home page. */
export const SOCIAL_LIMITS = { default: 6, home: 3 } as const;

export type FeedResult =
  | { state: "off" }
  | { state: "ok"; posts: SocialPost[]; nextCursor: string | null; fetchedAt: string; stale: boolean }
  | { state: "error"; error: PublicGraphError };

/** One page of posts changed: `cursor` is null for a first page. */
export type FeedChange = { limit: number; cursor: string | null; reason: "loaded" | "updated" };
export type FeedChangeListener = (change: FeedChange) => void;

type Entry = {
  limit: number;
  cursor: string | null;
  page?: { posts: SocialPost[]; nextCursor: string | null; fetchedAt: number };
  hash?: string;
  error?: PublicGraphError;
  nextAttemptAt: number;
  pending?: Promise<void>;
  lastUsed: number;
};

export type SocialFeedOptions = {
  client: GraphClient;
  images: ImageProxy;
  /** A page of posts is fresh this long. */
  ttlMs: number;
  /** After a failure, Facebook is not asked again for this page before this long. */
  retryMs: number;
  now?: () => number;
  onChange?: FeedChangeListener;
  /** Pages of posts kept (first pages and the ones readers paged to). */
  maxEntries?: number;
  /** A first page nobody asked for in this long is no longer refreshed by the timer. */
  idleMs?: number;
  /** Off in tests that drive `refreshDue()` themselves. */
  backgroundTimer?: boolean;
  /** Where failures and recoveries are written (the process's logger; tests pass their own). */
  log?: Pick<Logger, "warn" | "info" | "error">;
};

export type SocialFeed = ReturnType<typeof createSocialFeed>;

export function createSocialFeed(options: SocialFeedOptions) {
  const { client, images, ttlMs, retryMs } = options;
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 64;
  const idleMs = options.idleMs ?? 60 * 60 * 1000;
  const log = options.log ?? logger;
  const entries = new Map<string, Entry>();
  let timer: NodeJS.Timeout | undefined;
  /** The failure last logged, and how many refreshes failed the same way since. */
  let failing: { signature: string; since: number; count: number } | null = null;

  function noteFailure(failure: GraphError, entry: Entry) {
    const { meta } = failure;
    const signature = JSON.stringify(meta ? [meta.code, meta.subcode, meta.message] : [failure.code, failure.status, failure.message]);
    if (failing?.signature === signature) {
      failing.count++;
      return;
    }
    failing = { signature, since: now(), count: 1 };
    log.warn(
      {
        code: failure.code,
        status: failure.status,
        version: client.version,
        ...(meta ? { meta, kind: refusalKind(meta) } : { detail: failure.detail }),
        paged: entry.cursor !== null,
        servingLastGood: Boolean(entry.page),
      },
      "social feed refresh failed",
    );
  }

  function noteSuccess() {
    if (!failing) return;
    log.info({ version: client.version, failedRefreshes: failing.count, failingForMs: now() - failing.since }, "social feed recovered");
    failing = null;
  }

  function entryFor(limit: number, cursor: string | null): Entry {
    const key = `${limit}:${cursor ?? ""}`;
    let entry = entries.get(key);
    if (!entry) {
      entry = { limit, cursor, nextAttemptAt: 0, lastUsed: now() };
      entries.set(key, entry);
      if (entries.size > maxEntries) {
        const idle = [...entries.entries()].filter(([, e]) => !e.pending && e !== entry).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
        for (const [k] of idle.slice(0, entries.size - maxEntries)) entries.delete(k);
      }
    }
    return entry;
  }

  function refresh(entry: Entry): Promise<void> {
    entry.pending ??= (async () => {
      try {
        const raw = await client.listPosts({ limit: entry.limit, cursor: entry.cursor });
        const posts = raw.posts.map((p) => toSocialPost(p, (url) => images.register(url))).filter((p): p is SocialPost => p !== null);
        const hash = crypto
          .createHash("sha256")
          .update(JSON.stringify([posts, raw.nextCursor]))
          .digest("hex");
        const reason = entry.page ? "updated" : "loaded";
        const changed = hash !== entry.hash;
        entry.page = { posts, nextCursor: raw.nextCursor, fetchedAt: now() };
        entry.hash = hash;
        entry.error = undefined;
        entry.nextAttemptAt = now() + ttlMs;
        noteSuccess();
        if (changed) notify({ limit: entry.limit, cursor: entry.cursor, reason });
      } catch (error) {
        const failure = error instanceof GraphError ? error : new GraphError("invalid-response", "Facebook API error (invalid response)");
        entry.error = failure.toPublic();
        entry.nextAttemptAt = now() + retryMs;
        noteFailure(failure, entry);
      } finally {
        entry.pending = undefined;
      }
    })();
    return entry.pending;
  }

  function notify(change: FeedChange) {
    try {
      options.onChange?.(change);
    } catch (error) {
      log.error({ err: error }, "social feed change listener failed");
    }
  }

  function answer(entry: Entry): FeedResult {
    if (entry.page) {
      const { posts, nextCursor, fetchedAt } = entry.page;
      return { state: "ok", posts, nextCursor, fetchedAt: new Date(fetchedAt).toISOString(), stale: now() - fetchedAt >= ttlMs };
    }
    return { state: "error", error: entry.error ?? { code: "network", status: null, message: "Facebook could not be reached" } };
  }

  /** Refreshes the first pages readers asked for lately that are due. */
  async function refreshDue(): Promise<void> {
    const due = [...entries.values()].filter((e) => e.cursor === null && now() - e.lastUsed < idleMs && now() >= e.nextAttemptAt);
    await Promise.all(due.map((e) => refresh(e)));
  }

  function startTimer() {
    if (timer || options.backgroundTimer === false) return;
    timer = setInterval(() => void refreshDue(), Math.max(1000, Math.floor(Math.min(ttlMs, retryMs) / 2)));
    timer.unref();
  }

  /**
   * One page of posts. Answers at once from memory when there is anything to answer (refreshing in the
   * background when due); waits for Facebook only for a page never loaded (at most one time-out).
   */
  async function get({ limit, cursor = null }: { limit: number; cursor?: string | null }): Promise<FeedResult> {
    startTimer();
    const entry = entryFor(limit, cursor);
    entry.lastUsed = now();
    if (entry.page) {
      if (now() >= entry.nextAttemptAt) void refresh(entry);
      return answer(entry);
    }
    if (entry.pending) await entry.pending;
    else if (!entry.error || now() >= entry.nextAttemptAt) await refresh(entry);
    return answer(entry);
  }

  return {
    get,
    refreshDue,
    /**
     * A post picture by its key. A key this process has not seen (the page was rendered by another process, or
     * before a restart) is looked for in the first pages of posts, read from memory or loaded once.
     */
    async image(key: string): Promise<SocialImage | null> {
      if (!images.knows(key)) await Promise.all([get({ limit: SOCIAL_LIMITS.home }), get({ limit: SOCIAL_LIMITS.default })]);
      return images.load(key);
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}

// ── The process's feed, built from the configuration ──────────────────────────────────────────────────

const listeners = new Set<FeedChangeListener>();

/** Hear when a page of posts changed (first loaded, or refreshed with different posts). Returns the unsubscribe. */
export function onSocialFeedChanged(listener: FeedChangeListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

let shared: SocialFeed | null | undefined;

export function buildSocialFeed(config: Config): SocialFeed | null {
  if (config.drivers.social !== "graph-api" || !config.FACEBOOK_PAGE_ID || !config.FACEBOOK_PAGE_TOKEN) return null;
  const timeoutMs = config.FACEBOOK_TIMEOUT_MS;
  return createSocialFeed({
    client: createGraphClient({
      baseUrl: config.FACEBOOK_GRAPH_URL,
      version: config.FACEBOOK_GRAPH_VERSION,
      pageId: config.FACEBOOK_PAGE_ID,
      token: config.FACEBOOK_PAGE_TOKEN,
      timeoutMs,
    }),
    images: createImageProxy({ graphOrigin: new URL(config.FACEBOOK_GRAPH_URL).origin, timeoutMs }),
    ttlMs: config.FACEBOOK_CACHE_SECONDS * 1000,
    retryMs: Math.min(60_000, config.FACEBOOK_CACHE_SECONDS * 1000),
    onChange: (change) => {
      for (const listener of listeners) listener(change);
    },
  });
}

/** The feed of this process, or null when no page token is configured (the feed is then simply absent). */
export function socialFeed(): SocialFeed | null {
  if (shared === undefined) shared = buildSocialFeed(getConfig());
  return shared;
}

/** For tests that change the configuration. */
export function resetSocialFeed() {
  shared?.stop();
  shared = undefined;
}

/** True when a cursor from a page link is one of ours (a malformed one is a bad request). */
export const isValidCursor = (cursor: string) => parseCursor(cursor) !== null;

export async function getSocialFeed(options: { limit?: number; cursor?: string | null } = {}): Promise<FeedResult> {
  const feed = socialFeed();
  if (!feed) return { state: "off" };
  return feed.get({ limit: options.limit ?? SOCIAL_LIMITS.default, cursor: options.cursor ?? null });
}

/** Posts for a block on another page (home, news): null hides the block — not configured, failing, or empty. */
export async function socialBlockPosts(limit: number): Promise<SocialPost[] | null> {
  try {
    const result = await getSocialFeed({ limit });
    return result.state === "ok" && result.posts.length ? result.posts.slice(0, limit) : null;
  } catch (error) {
    logger.error({ err: error }, "social block failed");
    return null;
  }
}

export async function socialImage(key: string): Promise<SocialImage | null> {
  return (await socialFeed()?.image(key)) ?? null;
}

/** The page readers are sent to: the configured Facebook URL, else the page by its id. */
export function socialPageUrl(config: Config = getConfig()): string | null {
  if (config.SOCIAL_FACEBOOK_URL) return config.SOCIAL_FACEBOOK_URL;
  return config.FACEBOOK_PAGE_ID ? `https://www.facebook.com/${encodeURIComponent(config.FACEBOOK_PAGE_ID)}` : null;
}
