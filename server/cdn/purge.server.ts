/**
 * Purge on change (issue 43): the shared cache in front of the site (Varnish, Bunny CDN, Cloudflare) forgets what a
 * write changed, by surrogate key, as soon as the write is committed.
 *
 * - One source: the read cache's invalidation (server/content/cache.server.ts `onInvalidate`), which every save,
 *   delete, bulk action, scheduled publish and library change already makes, and which the page cache follows. Its
 *   tags are the keys the answers carry (`Surrogate-Key`, `Cache-Tag`); the social feed's refresh purges `social`.
 *   Only this process's own invalidations ("local"): another process's reach us over Redis, and that process purged them.
 * - Never in the save: the listener gathers the keys of a burst (a bulk action, an import) for COALESCE_MS and
 *   queues one `cdn.purge` job with them; the job queue runs it on a lane of its own (server/jobs/index.server.ts),
 *   retries it with the queue's growing delay, and keeps a job that failed for good with its error.
 * - Every attempt is counted in /metrics (`sahara_cdn_purges_total{driver,outcome}`) and a failure is logged (the
 *   driver's message: status and the start of the answer, never a credential).
 * - With CDN_PURGE=none nothing is queued.
 */
import type { Config } from "#server/config.server.ts";
import type { Database } from "#server/db/client.server.ts";
import { onInvalidate, type InvalidationListener } from "#server/content/cache.server.ts";
import { enqueue, PermanentJobError, type JobHandler } from "#server/jobs/queue.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { observeCdnPurge } from "#server/ops/metrics.server.ts";
import { cleanKeys, purgeDriverFor, type PurgeDriver } from "./purge-drivers.server.ts";

export const CDN_PURGE_JOB = "cdn.purge";
/** The key of every page that shows the social feed (home and news blocks, /facebook). */
export const SOCIAL_KEY = "social";
/** A burst of invalidations within this becomes one purge: short against the "within seconds" the editor is told. */
export const COALESCE_MS = 250;
/** Attempts of one purge; with the queue's delays (10 s, 40 s, 90 s, 160 s) the last is about five minutes after the first. */
export const PURGE_ATTEMPTS = 5;
/** Keys in one job: a burst with more purges in several jobs (a job's payload stays small). */
const MAX_KEYS_PER_JOB = 500;

export type CdnPurgeFollower = {
  /** Queues what is gathered now (tests; a stopping process). */
  flush: () => Promise<void>;
  /**
   * Keys gathered and not yet queued as a job, with those of a batch whose queueing is still under way (the
   * `sahara_cdn_purge_backlog` gauge): a purge that is on its way but not yet in the job table.
   */
  backlog: () => number;
  stop: () => Promise<void>;
};

/**
 * Follows this process's invalidations (and the social feed's changes, when given) and queues their purge. Returns
 * null with CDN_PURGE=none: nothing listens, nothing is queued.
 */
export function followInvalidationsToCdn(
  db: Database,
  config: Pick<Config, "drivers">,
  options: {
    listen?: (listener: InvalidationListener) => () => void;
    onSocialChange?: (listener: () => void) => () => void;
    coalesceMs?: number;
  } = {},
): CdnPurgeFollower | null {
  if (config.drivers.cdnPurge === "none") return null;
  const coalesceMs = options.coalesceMs ?? COALESCE_MS;
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let queued: Promise<void> = Promise.resolve();
  let queueing = 0;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const keys = [...pending];
    pending = new Set();
    for (let i = 0; i < keys.length; i += MAX_KEYS_PER_JOB) {
      const batch = keys.slice(i, i + MAX_KEYS_PER_JOB);
      queueing += batch.length;
      queued = queued
        .then(() => enqueue(db, CDN_PURGE_JOB, { keys: batch }, { maxAttempts: PURGE_ATTEMPTS }))
        .then(
          () => undefined,
          // The write is committed and its own caches are already told: a purge that could not be queued leaves the
          // shared cache to its time-to-live, which is all this can say.
          (error: unknown) => logger.error({ err: error, keys: batch.length }, "cdn purge not queued"),
        )
        .finally(() => {
          queueing -= batch.length;
        });
    }
    return queued;
  };
  const add = (keys: readonly string[]) => {
    for (const key of keys) pending.add(key);
    timer ??= setTimeout(() => void flush(), coalesceMs);
  };

  const offWrites = (options.listen ?? onInvalidate)((tags, origin) => {
    if (origin === "local") add(tags);
  });
  const offSocial = options.onSocialChange?.(() => add([SOCIAL_KEY]));
  return {
    flush,
    backlog: () => pending.size + queueing,
    stop: async () => {
      offWrites();
      offSocial?.();
      await flush();
    },
  };
}

/**
 * The `cdn.purge` job: the keys purged through the configured driver. A failed attempt is counted and thrown (the
 * queue retries it); the last one is counted as failed. `driver` is for tests; by default the configuration's.
 */
export function cdnPurgeHandler(config: Config | undefined, { driver }: { driver?: PurgeDriver | null } = {}): JobHandler {
  let chosen: PurgeDriver | null | undefined = driver;
  return async (job, { isLastAttempt }) => {
    const raw = job.payload.keys;
    if (!Array.isArray(raw) || raw.some((key) => typeof key !== "string")) throw new PermanentJobError("cdn.purge without its keys", { job: job.id });
    const keys = cleanKeys(raw as string[]);
    chosen ??= config ? purgeDriverFor(config) : null;
    // Queued before CDN_PURGE was set to none (or in a process without the settings): nothing to purge here.
    if (!chosen || !keys.length) return;
    try {
      await chosen.purge(keys);
    } catch (error) {
      observeCdnPurge(chosen.name, isLastAttempt ? "failed" : "retry");
      logger[isLastAttempt ? "error" : "warn"](
        { err: error, driver: chosen.name, keys: keys.length, attempt: job.attempts, of: job.maxAttempts },
        isLastAttempt ? "cdn purge failed for good: readers may see the old pages until the shared cache's time-to-live ends" : "cdn purge failed; retrying",
      );
      throw error;
    }
    observeCdnPurge(chosen.name, "ok");
  };
}
