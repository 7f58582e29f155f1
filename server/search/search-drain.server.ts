/**
 * The recurring job that keeps search current whatever wrote to the searched tables (an import script, a
 * migration from another system, a second tool): the triggers put every changed row on `search_queue`, and
 * this job, scheduled every SEARCH_DRAIN_EVERY_MS by every worker (server/jobs/index.server.ts; one run per
 * window across all processes), indexes what is queued in bounded runs (docs/decisions/0128-search-limits-queue-suggestions.md).
 *
 * - An empty queue costs one indexed lookup.
 * - A run indexes for at most SEARCH_DRAIN_BUDGET_MS, in transactions of a few hundred items
 *   (server/search/search-index.server.ts `drainSearchQueue`); what is left is taken by a follow-up run queued at
 *   once, so a large import is indexed without pause while other jobs still get their turn between runs.
 * - A run that indexed something invalidates the read cache of the searched types (server/content/cache.server.ts),
 *   as a save of the newsroom does: the page cache and the other processes (through Redis) drop the pages that
 *   could not show the imported items, search pages included.
 * - The job's own finished rows are pruned after an hour: four windows a minute would otherwise keep
 *   tens of thousands of rows until the daily prune of finished jobs.
 */
import { sql } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { jobs } from "#server/db/schema.server.ts";
import { invalidate } from "#server/content/cache.server.ts";
import { enqueue } from "#server/jobs/queue.server.ts";
import { drainSearchQueue } from "./search-index.server.ts";
import { searchedTypes } from "./search-triggers.server.ts";

export const SEARCH_DRAIN_JOB = "search.drain";
/** How often the queue is looked at: an import is searchable within this, the poll and its indexing. */
export const SEARCH_DRAIN_EVERY_MS = 15_000;
/** How long one run indexes before it hands over to a follow-up run. */
export const SEARCH_DRAIN_BUDGET_MS = 20_000;
/** The singleton key of the follow-up run a run that left items queued asks for. */
export const SEARCH_DRAIN_MORE_KEY = `${SEARCH_DRAIN_JOB}:more`;

export type SearchDrainOutcome = { indexed: number; more: boolean };

/** One run of the job: indexes what is queued for at most `budgetMs`; says whether some is left. */
export async function runSearchDrain(db: Database, { budgetMs = SEARCH_DRAIN_BUDGET_MS }: { budgetMs?: number } = {}): Promise<SearchDrainOutcome> {
  const pending = rowsOf(await db.execute(sql`select 1 from search_queue limit 1`));
  const outcome = pending.length ? await drainSearchQueue(db, { budgetMs }) : { indexed: 0, more: false };
  if (outcome.indexed) invalidate(...searchedTypes().map((t) => t.type));
  await db.execute(sql`delete from ${jobs} where name = ${SEARCH_DRAIN_JOB} and state = 'done' and finished_at < now() - interval '1 hour'`);
  return outcome;
}

/**
 * The job's handler (server/jobs/index.server.ts): one run, and when it left items queued, a follow-up run queued
 * at once, keyed by this run (a follow-up that leaves some too queues its own: its key would still be its own).
 */
export async function searchDrainJob(db: Database, { runId, budgetMs }: { runId: number; budgetMs?: number }): Promise<SearchDrainOutcome> {
  const outcome = await runSearchDrain(db, { budgetMs });
  if (outcome.more) await enqueue(db, SEARCH_DRAIN_JOB, {}, { singletonKey: `${SEARCH_DRAIN_MORE_KEY}@${runId}` });
  return outcome;
}
