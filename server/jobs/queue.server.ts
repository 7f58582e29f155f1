/**
 * A persistent job queue in the database (decision 0103): the `jobs` table, claimed with
 * `FOR UPDATE SKIP LOCKED`, so it runs the same on PGlite (one process) and on PostgreSQL (any number of web
 * processes and `npm run worker` processes on other machines).
 *
 * - A job survives a restart: it is a row until a worker finishes it.
 * - A claimed job carries a lease (`locked_until`) that its worker renews while it runs; a worker killed
 *   mid-job lets the lease lapse and the job is claimed again (handlers are written to be re-run).
 * - A failed attempt is retried after a growing delay, up to `max_attempts`; then the job stays `failed`
 *   with its last error, for an operator to read.
 */
import { EventEmitter } from "node:events";
import { hostname } from "node:os";
import { and, eq, lt, sql } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { jobs } from "#server/db/schema.server.ts";
import { CodedError, levelOf, type ErrorContext } from "#server/errors.server.ts";
import { logger } from "#server/ops/logger.server.ts";

export type Job<P = Record<string, unknown>> = { id: number; name: string; payload: P; attempts: number; maxAttempts: number };

export type EnqueueOptions = {
  /** At most one queued or running job with this key: a second enqueue is a no-op. */
  singletonKey?: string;
  runAt?: Date;
  maxAttempts?: number;
};

/** In-process wake-up: a job enqueued here starts at once instead of at the next poll. */
const wakeUps = new EventEmitter();

export async function enqueue(db: Database, name: string, payload: Record<string, unknown> = {}, options: EnqueueOptions = {}): Promise<number | null> {
  const [row] = await db
    .insert(jobs)
    .values({
      name,
      payload,
      singletonKey: options.singletonKey ?? null,
      runAt: options.runAt ?? new Date(),
      maxAttempts: options.maxAttempts ?? 3,
    })
    .onConflictDoNothing()
    .returning({ id: jobs.id });
  if (row) wakeUps.emit("job", name);
  return row?.id ?? null;
}

/** Claims the next due job of one of `names`, or a running one whose worker stopped renewing its lease. */
export async function claim(db: Database, names: string[], workerId: string, leaseMs: number): Promise<Job | null> {
  if (names.length === 0) return null;
  const leaseSeconds = Math.max(1, Math.ceil(leaseMs / 1000));
  const result = await db.execute<{ id: number; name: string; payload: Record<string, unknown>; attempts: number; max_attempts: number }>(sql`
    update ${jobs} set state = 'running', attempts = attempts + 1, locked_by = ${workerId},
      locked_until = now() + make_interval(secs => ${leaseSeconds})
    where id = (
      select id from ${jobs}
      where name in (${sql.join(
        names.map((n) => sql`${n}`),
        sql`, `,
      )})
        and ((state = 'queued' and run_at <= now()) or (state = 'running' and locked_until < now()))
      order by run_at, id
      for update skip locked
      limit 1
    )
    returning id, name, payload, attempts, max_attempts`);
  const [row] = rowsOf<{ id: number; name: string; payload: Record<string, unknown>; attempts: number; max_attempts: number }>(result);
  return row ? { id: row.id, name: row.name, payload: row.payload, attempts: row.attempts, maxAttempts: row.max_attempts } : null;
}

/** Seconds before retry N (1-based): 10 s, 40 s, 90 s … capped at 15 minutes. */
export const retryDelaySeconds = (attempt: number) => Math.min(900, 10 * attempt * attempt);

async function finish(db: Database, job: Job, workerId: string, error: unknown, retryDelay = retryDelaySeconds) {
  const owned = and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId), eq(jobs.state, "running"));
  if (error === undefined) {
    await db.update(jobs).set({ state: "done", finishedAt: new Date(), lockedUntil: null, lastError: null }).where(owned);
    return;
  }
  const message = (error instanceof Error ? error.message : JSON.stringify(error)).slice(0, 2000);
  const last = error instanceof PermanentJobError || job.attempts >= job.maxAttempts;
  await db
    .update(jobs)
    .set(
      last
        ? { state: "failed", finishedAt: new Date(), lockedUntil: null, lastError: message }
        : { state: "queued", runAt: new Date(Date.now() + retryDelay(job.attempts) * 1000), lockedUntil: null, lastError: message },
    )
    .where(owned);
}

/**
 * A failure that another attempt cannot fix (the file is not a video, a job without its id): the job fails at
 * once. A warning: the job's input is wrong, and the job's row keeps the message.
 */
export class PermanentJobError extends CodedError {
  declare readonly code: "JOB_PERMANENT";
  constructor(message: string, context?: ErrorContext) {
    super("JOB_PERMANENT", message, { level: "warn", context });
  }
}

export type JobHandler = (job: Job, context: { db: Database; isLastAttempt: boolean }) => Promise<void>;

export type WorkerOptions = {
  pollMs?: number;
  leaseMs?: number;
  /** Jobs run one after another: video encoding takes every core it is given. */
  workerId?: string;
  /** Recurring jobs: `name` enqueued once per `everyMs` window (one per window across all processes). */
  recurring?: { name: string; everyMs: number }[];
  /** Seconds before retry N; tests shorten it. */
  retryDelay?: (attempt: number) => number;
};

export type Worker = { stop: () => Promise<void>; drain: () => Promise<void>; readonly id: string };

export function startWorker(db: Database, handlers: Record<string, JobHandler>, options: WorkerOptions = {}): Worker {
  const pollMs = options.pollMs ?? 2000;
  const leaseMs = options.leaseMs ?? 60_000;
  const id = options.workerId ?? `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  const names = Object.keys(handlers);
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let idle: (() => void) | undefined;
  // A job enqueued while a cycle runs may land after that cycle's last claim looked (the claim found nothing and
  // the cycle is about to sleep): the cycle then starts again at once instead of after `pollMs`.
  let wokenMidCycle = false;

  const scheduleRecurring = async () => {
    for (const { name, everyMs } of options.recurring ?? []) {
      const window = Math.floor(Date.now() / everyMs);
      const key = `${name}@${window}`;
      // The window's job counts once even after it is done (the singleton index only covers pending ones). Two
      // workers scheduling the same window take turns on a lock of its key, so the second's check is a statement
      // that starts after the first's insert committed: in one statement, its snapshot could predate that insert
      // while the index no longer held the row (the first worker had already run the job), and the job ran twice.
      await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
        await tx.execute(sql`
          insert into ${jobs} (name, singleton_key, max_attempts)
          select ${name}, ${key}, 3
          where not exists (select 1 from ${jobs} where singleton_key = ${key})
          on conflict do nothing`);
      });
    }
  };

  const runOne = async (): Promise<boolean> => {
    const job = await claim(db, names, id, leaseMs);
    if (!job) return false;
    // The lease is renewed while the handler runs, so a long encode is not taken over by another worker.
    const renew = setInterval(() => {
      void db
        .update(jobs)
        .set({ lockedUntil: new Date(Date.now() + leaseMs) })
        .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, id)))
        .catch((error: unknown) => logger.warn({ err: error, job: job.id }, "job lease not renewed"));
    }, leaseMs / 3);
    let failure: unknown = undefined;
    try {
      await handlers[job.name](job, { db, isLastAttempt: job.attempts >= job.maxAttempts });
    } catch (error) {
      failure = error ?? new Error("failed");
      logger[levelOf(error, "warn")]({ err: error, job: job.id, name: job.name, attempt: job.attempts }, "job failed");
    } finally {
      clearInterval(renew);
    }
    await finish(db, job, id, failure, options.retryDelay);
    return true;
  };

  const loop = async () => {
    timer = undefined;
    if (stopped) return;
    wokenMidCycle = false;
    try {
      await scheduleRecurring();
      while (!stopped && (await runOne()));
    } catch (error) {
      logger[levelOf(error)]({ err: error }, "job worker cycle failed");
    }
    if (!wokenMidCycle) idle?.();
    if (!stopped) timer = setTimeout(kick, wokenMidCycle ? 0 : pollMs);
  };
  const kick = () => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = undefined;
    running = running.then(loop);
  };
  // While a cycle runs (no timer armed) it goes on claiming until nothing is due, so only an idle worker is woken
  // at once; a running cycle is told to look again before it sleeps.
  const onJob = (name: string) => {
    if (!names.includes(name)) return;
    if (timer) kick();
    else wokenMidCycle = true;
  };
  wakeUps.on("job", onJob);
  kick();

  return {
    id,
    /** Resolves when the queue has nothing due for this worker (tests). */
    drain: () =>
      new Promise<void>((resolve) => {
        idle = () => {
          idle = undefined;
          resolve();
        };
        kick();
      }),
    stop: async () => {
      stopped = true;
      wakeUps.off("job", onJob);
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

/**
 * With the embedded database this process is the only one that can hold a job: whatever is marked running
 * was left by a previous run that died, and is handed back at once instead of after its lease.
 */
export async function releaseOrphanedJobs(db: Database): Promise<number> {
  const released = await db
    .update(jobs)
    .set({ state: "queued", lockedUntil: null, lockedBy: null, runAt: new Date() })
    .where(eq(jobs.state, "running"))
    .returning({ id: jobs.id });
  return released.length;
}

/** Finished jobs older than `days` are removed; failed ones are kept longer for an operator to read. */
export async function pruneJobs(db: Database, days = 7): Promise<number> {
  const before = new Date(Date.now() - days * 86_400_000);
  const removed = await db
    .delete(jobs)
    .where(and(eq(jobs.state, "done"), lt(jobs.finishedAt, before)))
    .returning({ id: jobs.id });
  return removed.length;
}

export type QueueStats = {
  /** Jobs of each name in each state (done ones until pruned, failed ones until an operator removes them). */
  counts: { name: string; state: string; jobs: number }[];
  /** Queued jobs whose last attempt failed and that wait for their next one. */
  retrying: { name: string; jobs: number }[];
  /** How long the job longest due has waited for a worker (0 when none is due): workers missing or too few. */
  oldestDueSeconds: number;
};

/**
 * What /metrics reports of the queue (server/ops/metrics.server.ts), read at scrape time from the table, so that it
 * covers every worker wherever it runs. One grouped scan; job names are the handlers', so the rows are few.
 */
export async function queueStats(db: Database): Promise<QueueStats> {
  const result = await db.execute<{ name: string; state: string; jobs: number; retrying: number; late: number | null }>(sql`
    select name, state, count(*)::int as jobs,
      (count(*) filter (where state = 'queued' and last_error is not null))::int as retrying,
      extract(epoch from now() - min(run_at) filter (where state = 'queued' and run_at <= now()))::float8 as late
    from ${jobs}
    group by name, state
    order by name, state
    limit 200`);
  const rows = rowsOf<{ name: string; state: string; jobs: number; retrying: number; late: number | null }>(result);
  const retrying = new Map<string, number>();
  let oldestDueSeconds = 0;
  for (const row of rows) {
    if (row.retrying) retrying.set(row.name, (retrying.get(row.name) ?? 0) + Number(row.retrying));
    if (row.late !== null) oldestDueSeconds = Math.max(oldestDueSeconds, Number(row.late));
  }
  return {
    counts: rows.map((row) => ({ name: row.name, state: row.state, jobs: Number(row.jobs) })),
    retrying: [...retrying].map(([name, count]) => ({ name, jobs: count })),
    oldestDueSeconds,
  };
}
