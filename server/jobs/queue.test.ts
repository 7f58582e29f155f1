/**
 * The job queue on a real database: claimed once, retried after a failure, taken over when its worker dies,
 * one pending copy per singleton key, recurring jobs once per window.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { jobs } from "#server/db/schema.server.ts";
import { claim, enqueue, PermanentJobError, releaseOrphanedJobs, startWorker, type JobHandler } from "./queue.server.ts";

describe.each(testDatabaseKinds)("job queue on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(() => t?.drop());
  beforeEach(async () => {
    await t.db.delete(jobs);
  });
  const rowOf = async (id: number) => (await t.db.select().from(jobs).where(eq(jobs.id, id)))[0];

  it("hands a due job to one worker only, and not before its time", async () => {
    const id = (await enqueue(t.db, "a", { n: 1 }))!;
    await enqueue(t.db, "a", { n: 2 }, { runAt: new Date(Date.now() + 60_000) });
    const first = await claim(t.db, ["a"], "w1", 30_000);
    expect(first).toMatchObject({ id, name: "a", payload: { n: 1 }, attempts: 1 });
    expect(await claim(t.db, ["a"], "w2", 30_000)).toBeNull();
    expect(await claim(t.db, ["b"], "w2", 30_000)).toBeNull();
  });

  it("keeps one pending job per singleton key, and accepts the key again once it is done", async () => {
    const id = await enqueue(t.db, "a", {}, { singletonKey: "video:1" });
    expect(id).toBeTypeOf("number");
    expect(await enqueue(t.db, "a", {}, { singletonKey: "video:1" })).toBeNull();
    const worker = startWorker(t.db, { a: () => Promise.resolve() }, { pollMs: 50 });
    await worker.drain();
    await worker.stop();
    expect((await rowOf(id!)).state).toBe("done");
    expect(await enqueue(t.db, "a", {}, { singletonKey: "video:1" })).toBeTypeOf("number");
  });

  it("starts a job enqueued while a cycle's last look is under way at once, not at the next poll", async () => {
    // The worker's first claim has read the queue (empty) but not yet returned when the job is enqueued: the
    // wake-up reaches a cycle about to sleep, which must look again rather than sleep for `pollMs`.
    let looked!: () => void;
    const looking = new Promise<void>((resolve) => (looked = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    const db = Object.create(t.db) as typeof t.db;
    db.execute = (async (query: Parameters<typeof t.db.execute>[0]) => {
      const result = await t.db.execute(query);
      if (first) {
        first = false;
        looked();
        await held;
      }
      return result;
    }) as typeof t.db.execute;
    const worker = startWorker(db, { a: () => Promise.resolve() }, { pollMs: 600_000 });
    try {
      await looking;
      const id = (await enqueue(t.db, "a"))!;
      release();
      await expect.poll(async () => (await rowOf(id)).state, { timeout: 10_000 }).toBe("done");
    } finally {
      await worker.stop();
    }
  });

  it("retries a failed attempt after its delay, then fails for good after the last one with the error kept", async () => {
    let calls = 0;
    const flaky: JobHandler = () => {
      calls += 1;
      return calls === 1 ? Promise.reject(new Error("disk busy")) : Promise.resolve();
    };
    const id = (await enqueue(t.db, "flaky", {}, { maxAttempts: 3 }))!;
    const worker = startWorker(t.db, { flaky, broken: () => Promise.reject(new Error("always")) }, { pollMs: 50, retryDelay: () => 0 });
    await expect.poll(async () => (await rowOf(id)).state, { timeout: 10_000 }).toBe("done");
    expect((await rowOf(id)).attempts).toBe(2);

    const broken = (await enqueue(t.db, "broken", {}, { maxAttempts: 2 }))!;
    await expect.poll(async () => (await rowOf(broken)).state, { timeout: 10_000 }).toBe("failed");
    expect(await rowOf(broken)).toMatchObject({ attempts: 2, lastError: "always" });
    await worker.stop();
  });

  it("fails at once on an error no retry can fix", async () => {
    const id = (await enqueue(t.db, "bad", {}, { maxAttempts: 5 }))!;
    const worker = startWorker(t.db, { bad: () => Promise.reject(new PermanentJobError("not a video")) }, { pollMs: 50, retryDelay: () => 0 });
    await expect.poll(async () => (await rowOf(id)).state, { timeout: 10_000 }).toBe("failed");
    expect(await rowOf(id)).toMatchObject({ attempts: 1, lastError: "not a video" });
    await worker.stop();
  });

  it("gives the job of a worker that died to another one once its lease lapses", async () => {
    const id = (await enqueue(t.db, "encode", { guid: "x" }))!;
    // The first worker claims it and never comes back (killed mid-job): no renewal, no finish.
    expect(await claim(t.db, ["encode"], "dead-worker", 1000)).toMatchObject({ id });
    expect(await claim(t.db, ["encode"], "other", 1000)).toBeNull();
    const ran: string[] = [];
    const worker = startWorker(t.db, { encode: (job) => Promise.resolve(void ran.push(String(job.payload.guid))) }, { pollMs: 200 });
    await expect.poll(async () => (await rowOf(id)).state, { timeout: 15_000 }).toBe("done");
    await worker.stop();
    expect(ran).toEqual(["x"]);
    expect((await rowOf(id)).attempts).toBe(2);
  });

  it("hands back at once what a previous run of the embedded server left running", async () => {
    const id = (await enqueue(t.db, "encode", {}))!;
    await claim(t.db, ["encode"], "previous-run", 3_600_000);
    expect(await releaseOrphanedJobs(t.db)).toBe(1);
    expect(await claim(t.db, ["encode"], "this-run", 1000)).toMatchObject({ id, attempts: 2 });
  });

  it("enqueues a recurring job once per window, whichever worker gets there first", async () => {
    const runs: number[] = [];
    const handlers = { daily: () => Promise.resolve(void runs.push(Date.now())) };
    const a = startWorker(t.db, handlers, { pollMs: 50, recurring: [{ name: "daily", everyMs: 86_400_000 }] });
    const b = startWorker(t.db, handlers, { pollMs: 50, recurring: [{ name: "daily", everyMs: 86_400_000 }] });
    await a.drain();
    await b.drain();
    await a.drain();
    await Promise.all([a.stop(), b.stop()]);
    expect(runs).toHaveLength(1);
    expect(await t.db.select({ key: jobs.singletonKey }).from(jobs)).toEqual([{ key: `daily@${Math.floor(Date.now() / 86_400_000)}` }]);
  });
});
