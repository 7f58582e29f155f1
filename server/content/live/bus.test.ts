/**
 * The live bus (issue 44): a change told in one process reaches this process's listeners at once and the other
 * processes' through Redis pub/sub, or PostgreSQL's LISTEN/NOTIFY without Redis (each skipped, and saying so,
 * when its server is not there). Each "process" here is a bus of its own on a channel of the test's own.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LiveChange } from "#domain/live.ts";
import { REDIS_URL, redisAnswers } from "#tests/helpers/redis.ts";
import { createScratchDatabase } from "#tests/helpers/db.ts";
import { onLiveChange, publishLiveChange, startLiveBus, stopLiveBus, type LiveBus } from "./bus.server.ts";

const redisUp = await redisAnswers();
if (!redisUp) console.warn(`live bus tests on Redis skipped: no Redis at ${REDIS_URL} (start one, or set TEST_REDIS_URL)`);

type Options = Parameters<typeof startLiveBus>[0];
const buses: LiveBus[] = [];
afterEach(async () => {
  await Promise.all(buses.splice(0).map((b) => b.stop()));
});

/** One "process": what it hears from the others, and how it tells them of its own change. */
function processOn(options: Options) {
  const heard: LiveChange[] = [];
  const bus = startLiveBus({ ...options, deliver: (change) => heard.push(change), local: false });
  buses.push(bus);
  return { bus, heard, tell: (change: LiveChange) => bus.send(change) };
}

const change = (version: number, kind: LiveChange["kind"] = "entry"): LiveChange => ({
  coverageId: 7,
  kind,
  entryId: kind === "status" ? null : version,
  version,
});

/**
 * Three processes on one channel: each change reaches the two others, a sender's changes in its order (two senders'
 * may interleave), and never comes back to its sender.
 */
async function tellsEveryOtherProcess(options: Options) {
  const [a, b, c] = [processOn(options), processOn(options), processOn(options)];
  await Promise.all([a.bus.ready, b.bus.ready, c.bus.ready]);
  a.tell(change(101));
  a.tell(change(102, "edit"));
  b.tell(change(103, "status"));
  await vi.waitFor(() => {
    expect(b.heard).toEqual([change(101), change(102, "edit")]);
    expect(c.heard.filter((x) => x.version !== 103)).toEqual([change(101), change(102, "edit")]);
    expect(c.heard.filter((x) => x.version === 103)).toEqual([change(103, "status")]);
    expect(a.heard).toEqual([change(103, "status")]);
  });
}

describe("live bus in one process", () => {
  it("tells this process's listeners at once, and stops telling one that left", () => {
    const heard: LiveChange[] = [];
    const off = onLiveChange((c) => heard.push(c));
    const failing = onLiveChange(() => {
      throw new Error("a stream that broke");
    });
    publishLiveChange(change(1));
    expect(heard).toEqual([change(1)]);
    off();
    failing();
    publishLiveChange(change(2));
    expect(heard).toEqual([change(1)]);
  });

  it("needs no transport on PGlite or without a database address", async () => {
    const bus = startLiveBus({ handle: { driver: "pglite" }, local: false });
    buses.push(bus);
    expect(bus.transport).toBe("none");
    await bus.ready;
  });
});

describe.skipIf(!redisUp)("live bus on Redis pub/sub", () => {
  it("tells every other process of a change, and not the one that made it", async () => {
    await tellsEveryOtherProcess({ redisUrl: REDIS_URL, channel: `test:live:${process.pid}:${Date.now()}` });
  });

  it("carries this process's published changes once started as the process's bus, until stopped", async () => {
    const channel = `test:live:own:${process.pid}:${Date.now()}`;
    const other = processOn({ redisUrl: REDIS_URL, channel });
    const own = startLiveBus({ redisUrl: REDIS_URL, channel });
    await Promise.all([own.ready, other.bus.ready]);
    expect(own.transport).toBe("redis");
    publishLiveChange(change(201));
    await vi.waitFor(() => expect(other.heard).toEqual([change(201)]));
    await stopLiveBus();
    // Stopped: the change stays in this process.
    publishLiveChange(change(202));
    other.tell(change(203));
    await vi.waitFor(() => expect(other.heard).toEqual([change(201)]));
  });

  it("ignores what is not a change", async () => {
    const channel = `test:live:junk:${process.pid}:${Date.now()}`;
    const a = processOn({ redisUrl: REDIS_URL, channel });
    const b = processOn({ redisUrl: REDIS_URL, channel });
    await Promise.all([a.bus.ready, b.bus.ready]);
    a.tell({ coverageId: "x", kind: "entry", entryId: 1, version: 1 } as unknown as LiveChange);
    a.tell({ coverageId: 1, kind: "explode", entryId: 1, version: 1 } as unknown as LiveChange);
    a.tell(change(301));
    await vi.waitFor(() => expect(b.heard).toEqual([change(301)]));
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("live bus on PostgreSQL LISTEN/NOTIFY", () => {
  it("tells every other process of a change, and not the one that made it", async () => {
    const scratch = await createScratchDatabase("live");
    try {
      const options: Options = { databaseUrl: scratch.url, handle: { driver: "postgres" }, channel: `test_live_${process.pid}` };
      expect(processOn(options).bus.transport).toBe("postgres");
      await tellsEveryOtherProcess(options);
    } finally {
      await Promise.all(buses.splice(0).map((b) => b.stop()));
      await scratch.drop();
    }
  });
});
