/**
 * What the item's edit page says of when readers see a change (issue 43): with a purge driver, within seconds, and
 * whether the latest purge failed; without one, after the shared cache's time-to-live.
 */
import { desc, eq } from "drizzle-orm";
import type { Config } from "#server/config.server.ts";
import type { Database } from "#server/db/client.server.ts";
import { jobs } from "#server/db/schema.server.ts";
import { CDN_PURGE_JOB } from "./purge.server.ts";

/** How the latest purge went: none queued yet, done, waiting to run, failed and retrying, or failed for good. */
export type PurgeState = "none" | "ok" | "pending" | "retrying" | "failed";

/** What the item's edit page says of when readers see a change (app/routes/admin/content-editor.tsx). */
export type CdnNotice = { driver: "none"; seconds: number } | { driver: Exclude<Config["drivers"]["cdnPurge"], "none">; last: PurgeState };

/**
 * Without a purge driver, a shared cache keeps a page for its s-maxage (CDN_MAX_AGE); with one, the latest purge
 * job's state, read from the queue's table so that it is the same whichever process ran it.
 */
export async function cdnNoticeOf(db: Database, config: Pick<Config, "drivers" | "CDN_MAX_AGE">): Promise<CdnNotice> {
  const driver = config.drivers.cdnPurge;
  if (driver === "none") return { driver, seconds: config.CDN_MAX_AGE };
  return { driver, last: await lastPurgeState(db) };
}

export async function lastPurgeState(db: Database): Promise<PurgeState> {
  const [last] = await db
    .select({ state: jobs.state, lastError: jobs.lastError })
    .from(jobs)
    .where(eq(jobs.name, CDN_PURGE_JOB))
    .orderBy(desc(jobs.id))
    .limit(1);
  if (!last) return "none";
  if (last.state === "done") return "ok";
  if (last.state === "failed") return "failed";
  return last.lastError ? "retrying" : "pending";
}
