/**
 * The recurring `search.drain` job (server/search/search-drain.server.ts): rows written by SQL, as an import
 * script writes them, become searchable without a restart and without a search to pull them in; a long queue
 * is indexed in bounded runs; the job prunes its own finished rows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { jobs } from "#server/db/schema.server.ts";
import { enqueue, startWorker } from "#server/jobs/queue.server.ts";
import { JOB, jobHandlers } from "#server/jobs/index.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { runSearchDrain, searchDrainJob, SEARCH_DRAIN_EVERY_MS, SEARCH_DRAIN_JOB, SEARCH_DRAIN_MORE_KEY } from "./search-drain.server.ts";
import { searchPublished } from "./search.server.ts";

describe.each(testDatabaseKinds)("search.drain on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => t?.drop());

  const queued = async () => rowsOf<{ n: number }>(await t.db.execute(sql`select count(*)::int as n from search_queue`))[0].n;
  /** `n` published articles written straight to the table, as an import does; each has its own word. */
  const importArticles = (prefix: string, n: number) =>
    t.db.execute(sql`insert into articles (title, content, page_slug, status)
      select 'مقال مستورد ' || ${prefix} || 'x' || i, '<p>نص مستورد من نظام آخر</p>', ${prefix} || '-' || i, 'published'
      from generate_series(1, ${n}) as i`);

  it("indexes in bounded runs: a run out of time says some is left, the next takes the rest", async () => {
    await importArticles("batchrun", 600);
    expect(await queued()).toBe(600);
    // No time at all: one transaction's worth, then it hands over.
    expect(await runSearchDrain(t.db, { budgetMs: 0 })).toEqual({ indexed: 500, more: true });
    expect(await runSearchDrain(t.db, { budgetMs: 0 })).toEqual({ indexed: 100, more: false });
    expect(await queued()).toBe(0);
    expect(await runSearchDrain(t.db)).toEqual({ indexed: 0, more: false });
    const found = await searchPublished(t.db, "batchrunx600");
    expect(found.results[0]?.title).toBe("مقال مستورد batchrunx600");
  });

  it("runs as a recurring job of the worker: an import is found without a restart or a search", async () => {
    await importArticles("worker", 30);
    const worker = startWorker(t.db, jobHandlers({ dataDir: "/nonexistent", FFMPEG_PATH: "ffmpeg", FFPROBE_PATH: "ffprobe" }, { storage: null }), {
      pollMs: 50,
      recurring: [{ name: JOB.searchDrain, everyMs: SEARCH_DRAIN_EVERY_MS }],
    });
    try {
      await expect.poll(queued, { timeout: 20_000 }).toBe(0);
    } finally {
      await worker.stop();
    }
    const indexed = rowsOf<{ n: number }>(
      await t.db.execute(sql`select count(*)::int as n from search_items s join articles a on a.id = s.item_id and s.type = 'article'
        where a.page_slug like 'worker-%'`),
    )[0].n;
    expect(indexed).toBe(30);
  });

  it("hands a long queue to follow-up runs at once, each keyed by the run before, until it is empty", async () => {
    await t.db.delete(jobs);
    await importArticles("chain", 1200);
    // No time at all per run: 500 items a run, three runs, without waiting for a window.
    const worker = startWorker(
      t.db,
      { [SEARCH_DRAIN_JOB]: (job, { db }) => searchDrainJob(db, { runId: job.id, budgetMs: 0 }).then(() => {}) },
      { pollMs: 60_000 },
    );
    try {
      await enqueue(t.db, SEARCH_DRAIN_JOB);
      await expect.poll(queued, { timeout: 30_000 }).toBe(0);
    } finally {
      await worker.stop();
    }
    const runs = rowsOf<{ key: string | null }>(await t.db.execute(sql`select singleton_key as key from jobs where name = ${SEARCH_DRAIN_JOB} order by id`));
    expect(runs.length).toBe(3);
    expect(runs.slice(1).every((r) => r.key?.startsWith(`${SEARCH_DRAIN_MORE_KEY}@`))).toBe(true);
  });

  it("prunes its own finished runs after an hour, and no other job's", async () => {
    const old = new Date(Date.now() - 2 * 3_600_000);
    await t.db.insert(jobs).values([
      { name: SEARCH_DRAIN_JOB, state: "done", finishedAt: old },
      { name: SEARCH_DRAIN_JOB, state: "done", finishedAt: new Date() },
      { name: "views.prune", state: "done", finishedAt: old },
    ]);
    await runSearchDrain(t.db);
    const left = rowsOf<{ name: string }>(await t.db.execute(sql`select name from jobs where state = 'done' and finished_at < now() - interval '1 hour'`));
    expect(left.map((r) => r.name)).toEqual(["views.prune"]);
    expect(rowsOf(await t.db.execute(sql`select 1 from jobs where name = ${SEARCH_DRAIN_JOB} and state = 'done'`)).length).toBeGreaterThanOrEqual(1);
  });
});
