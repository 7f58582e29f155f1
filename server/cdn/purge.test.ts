/**
 * Purge on change on a real database and the real job queue: an invalidation here queues one `cdn.purge` job (a
 * burst coalesced), the worker purges the same keys at a local Varnish, a failing CDN is retried and then counted
 * as failed in /metrics, and CDN_PURGE=none queues nothing.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "#tests/helpers/db.ts";
import { startFakeVarnish, type FakeCdn } from "#tests/helpers/fake-cdn.ts";
import { checkConfig } from "#server/config.server.ts";
import { jobs } from "#server/db/schema.server.ts";
import { applyRemoteInvalidation, invalidate } from "#server/content/cache.server.ts";
import { startWorker, type Worker } from "#server/jobs/queue.server.ts";
import { jobHandlers } from "#server/jobs/index.server.ts";
import { metricsText } from "#server/ops/metrics.server.ts";
import { CDN_PURGE_JOB, cdnPurgeHandler, followInvalidationsToCdn, PURGE_ATTEMPTS, SOCIAL_KEY, type CdnPurgeFollower } from "./purge.server.ts";
import { cdnNoticeOf, lastPurgeState } from "./notice.server.ts";

/** The counter's value for one driver and outcome in the scrape's text (0 when absent). */
async function purges(driver: string, outcome: string): Promise<number> {
  const line = (await metricsText()).split("\n").find((l) => l.startsWith(`sahara_cdn_purges_total{driver="${driver}",outcome="${outcome}"}`));
  return line ? Number(line.split(" ").pop()) : 0;
}

describe("purge on change", () => {
  let t: TestDatabase;
  let cdn: FakeCdn;
  let follower: CdnPurgeFollower | null = null;
  let worker: Worker | undefined;
  beforeAll(async () => {
    t = await createTestDatabase("pglite");
    cdn = await startFakeVarnish();
  });
  afterAll(async () => {
    await cdn?.close();
    await t?.drop();
  });
  beforeEach(async () => {
    await t.db.delete(jobs);
    cdn.requests.length = 0;
  });
  afterEach(async () => {
    await follower?.stop();
    follower = null;
    await worker?.stop();
    worker = undefined;
  });
  const varnish = () => checkConfig({ CDN_PURGE: "varnish", VARNISH_PURGE_URL: `${cdn.url}/` }).config;
  const purgeJobs = () => t.db.select().from(jobs).where(eq(jobs.name, CDN_PURGE_JOB)).orderBy(jobs.id);

  it("queues one job for a burst of this process's invalidations, and the worker purges the same keys", async () => {
    const config = varnish();
    let social: (() => void) | undefined;
    follower = followInvalidationsToCdn(t.db, config, { coalesceMs: 50, onSocialChange: (listener) => ((social = listener), () => (social = undefined)) });
    expect(follower).not.toBeNull();
    expect(follower!.backlog()).toBe(0);
    invalidate("news");
    invalidate("categories", "news");
    social?.();
    // Another process's invalidation reached us over Redis: that process purged it.
    applyRemoteInvalidation(["videos"]);
    // Gathered, not yet queued: the backlog (sahara_cdn_purge_backlog) says a purge is on its way.
    expect(follower!.backlog()).toBe(3);
    await expect.poll(async () => (await purgeJobs()).length, { timeout: 5000 }).toBe(1);
    await expect.poll(() => follower!.backlog()).toBe(0);
    const [job] = await purgeJobs();
    expect(job.payload).toEqual({ keys: ["news", "categories", SOCIAL_KEY] });
    expect(job.maxAttempts).toBe(PURGE_ATTEMPTS);
    expect(await lastPurgeState(t.db)).toBe("pending");
    expect(cdn.requests).toEqual([]);

    const before = await purges("varnish", "ok");
    worker = startWorker(t.db, { [CDN_PURGE_JOB]: jobHandlers(config)[CDN_PURGE_JOB] }, { pollMs: 50 });
    await worker.drain();
    expect(cdn.requests.map((r) => [r.method, r.path, r.headers["xkey-purge"]])).toEqual([["PURGE", "/", "news categories social"]]);
    expect((await purgeJobs())[0].state).toBe("done");
    expect(await purges("varnish", "ok")).toBe(before + 1);
    expect(await cdnNoticeOf(t.db, config)).toEqual({ driver: "varnish", last: "ok" });
  });

  it("retries a failing CDN, then counts and keeps the purge as failed, and the edit page says so", async () => {
    const config = varnish();
    follower = followInvalidationsToCdn(t.db, config, { coalesceMs: 10 });
    invalidate("article");
    await follower!.flush();
    const [before, retriesBefore] = [await purges("varnish", "failed"), await purges("varnish", "retry")];
    cdn.failNext(100, 503);
    worker = startWorker(t.db, { [CDN_PURGE_JOB]: cdnPurgeHandler(config) }, { pollMs: 50, retryDelay: () => 0 });
    await expect.poll(async () => (await purgeJobs())[0]?.state, { timeout: 10_000 }).toBe("failed");
    const [job] = await purgeJobs();
    expect(job).toMatchObject({ attempts: PURGE_ATTEMPTS, lastError: "varnish purge refused: HTTP 503 upstream trouble" });
    expect(cdn.requests).toHaveLength(PURGE_ATTEMPTS);
    expect(cdn.requests.every((r) => r.headers["xkey-purge"] === "article")).toBe(true);
    expect(await purges("varnish", "retry")).toBe(retriesBefore + PURGE_ATTEMPTS - 1);
    expect(await purges("varnish", "failed")).toBe(before + 1);
    expect(await cdnNoticeOf(t.db, config)).toEqual({ driver: "varnish", last: "failed" });

    // The CDN is back: the next change's purge goes through, and the page no longer speaks of a failure.
    cdn.failNext(0);
    invalidate("article");
    await follower!.flush();
    await expect.poll(async () => lastPurgeState(t.db), { timeout: 10_000 }).toBe("ok");
  });

  it("says when a purge failed once and waits for its next attempt", async () => {
    const config = varnish();
    follower = followInvalidationsToCdn(t.db, config, { coalesceMs: 10 });
    invalidate("news");
    await follower!.flush();
    cdn.failNext(1, 500);
    // The queue's own delay: the second attempt is seconds away, so the state between the two is seen.
    worker = startWorker(t.db, { [CDN_PURGE_JOB]: cdnPurgeHandler(config) }, { pollMs: 50, retryDelay: () => 60 });
    await expect.poll(async () => lastPurgeState(t.db), { timeout: 10_000 }).toBe("retrying");
  });

  it("queues nothing with CDN_PURGE=none", async () => {
    const config = checkConfig({}).config;
    follower = followInvalidationsToCdn(t.db, config, { coalesceMs: 10 });
    expect(follower).toBeNull();
    invalidate("news");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await purgeJobs()).toEqual([]);
    // The edit page gives the shared cache's time-to-live instead.
    expect(await cdnNoticeOf(t.db, config)).toEqual({ driver: "none", seconds: 60 });
    expect(await cdnNoticeOf(t.db, checkConfig({ CDN_MAX_AGE: "300" }).config)).toEqual({ driver: "none", seconds: 300 });
    // A purge queued before CDN_PURGE was set to none finishes with nothing sent.
    worker = startWorker(t.db, { [CDN_PURGE_JOB]: cdnPurgeHandler(config) }, { pollMs: 50 });
    const { enqueue } = await import("#server/jobs/queue.server.ts");
    await enqueue(t.db, CDN_PURGE_JOB, { keys: ["news"] });
    await worker.drain();
    expect((await purgeJobs())[0].state).toBe("done");
    expect(cdn.requests).toEqual([]);
  });
});
