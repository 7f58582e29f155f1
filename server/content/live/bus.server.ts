/**
 * The live bus (issue 44, docs/decisions/0146-live-coverage.md): every change to a live coverage (an entry posted,
 * edited or deleted, the coverage started or ended) is told to this process's listeners at once — the open event
 * streams of server/content/live/ — and to every other process, so a reader connected to any process sees an entry
 * posted through any other. What travels is the change (coverage, kind, entry id, version), never the entry: each
 * process reads it once from the database, however many readers it serves.
 *
 * Between processes, as the cache bus (server/content/cache-bus.server.ts): with REDIS_URL, Redis pub/sub on
 * `sahara:live`; else on PostgreSQL, LISTEN/NOTIFY on `sahara_live` through one dedicated connection; on PGlite,
 * nothing (one process). Delivery is at most once, to processes connected at the time: a reader's client resumes
 * from its cursor (Last-Event-ID, `after=`) whenever its stream is made again, so a missed change is read then.
 */
import crypto from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";
import type { LiveChange } from "#domain/live.ts";
import { logger } from "#server/ops/logger.server.ts";

export const LIVE_REDIS_CHANNEL = "sahara:live";
export const LIVE_PG_CHANNEL = "sahara_live";

export type LiveListener = (change: LiveChange) => void;

const listeners = new Set<LiveListener>();
/** The running bus's sender (Redis or PostgreSQL), if any: publishLiveChange hands it each local change. */
let sender: ((change: LiveChange) => void) | null = null;
/** The process's bus, started by prepare() (server/app.server.ts) and stopped by its shutdown(). */
let processBus: LiveBus | null = null;

/** Hears every change, this process's and the others'. Returns the unsubscribe. */
export function onLiveChange(listener: LiveListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells this process's listeners; one that fails never fails the write that told it. */
function tell(change: LiveChange) {
  for (const listener of listeners) {
    try {
      listener(change);
    } catch (error) {
      logger.warn({ err: error, change }, "live bus: a listener failed");
    }
  }
}

/** A change made here: told to local listeners at once and sent to the other processes. */
export function publishLiveChange(change: LiveChange): void {
  tell(change);
  sender?.(change);
}

/** How many listeners are attached (the streams' gauge, tests). */
export const liveListenerCount = () => listeners.size;

const KINDS = new Set(["entry", "edit", "delete", "status"]);
function parseChange(value: unknown): LiveChange | null {
  if (!value || typeof value !== "object") return null;
  const c = value as Record<string, unknown>;
  if (!Number.isSafeInteger(c.coverageId) || !KINDS.has(c.kind as string) || !Number.isSafeInteger(c.version)) return null;
  if (c.entryId !== null && !Number.isSafeInteger(c.entryId)) return null;
  return { coverageId: c.coverageId as number, kind: c.kind as LiveChange["kind"], entryId: c.entryId as number | null, version: c.version as number };
}

export type LiveBus = { id: string; transport: "redis" | "postgres" | "none"; ready: Promise<void>; stop: () => Promise<void> };

export type LiveBusOptions = {
  redisUrl?: string;
  /** The PostgreSQL database's address, for LISTEN/NOTIFY when there is no Redis. */
  databaseUrl?: string;
  /** The database handle's driver: PGlite serves one process and needs no bus. */
  handle?: { driver: "pglite" | "postgres" };
  channel?: string;
  /**
   * Where another process's change goes (this process's listeners by default). Tests start two buses in one
   * process and give each its own; `local: false` then keeps the module's sender to the default bus.
   */
  deliver?: LiveListener;
  /** Whether this bus sends this process's changes (publishLiveChange). Default true. */
  local?: boolean;
};

/** Starts the bus between processes (from server/app.server.ts prepare()); with neither Redis nor PostgreSQL, none. */
export function startLiveBus(options: LiveBusOptions): LiveBus & { send: (change: LiveChange) => void } {
  const id = crypto.randomUUID();
  const deliver = options.deliver ?? tell;
  const receive = (message: string) => {
    try {
      const { sender: from, change } = JSON.parse(message) as { sender: string; change: unknown };
      if (from === id) return;
      const parsed = parseChange(change);
      if (parsed) deliver(parsed);
    } catch (error) {
      logger.warn({ err: error }, "live bus: unreadable message");
    }
  };
  const encode = (change: LiveChange) => JSON.stringify({ sender: id, change });
  const started =
    options.redisUrl !== undefined && options.redisUrl !== ""
      ? redisBus(options.redisUrl, options.channel ?? LIVE_REDIS_CHANNEL, receive, encode)
      : options.handle?.driver === "postgres" && options.databaseUrl
        ? postgresBus(options.databaseUrl, options.channel ?? LIVE_PG_CHANNEL, receive, encode)
        : { transport: "none" as const, ready: Promise.resolve(), send: () => {}, stop: async () => {} };
  const owns = options.local !== false;
  if (owns) sender = started.send;
  const bus = {
    id,
    transport: started.transport,
    ready: started.ready,
    send: started.send,
    stop: async () => {
      if (owns && sender === started.send) sender = null;
      if (processBus === bus) processBus = null;
      await started.stop();
    },
  };
  if (owns) processBus = bus;
  return bus;
}

/** Stops the process's bus (server/app.server.ts shutdown()). */
export async function stopLiveBus(): Promise<void> {
  await processBus?.stop();
}

type Transport = { transport: LiveBus["transport"]; ready: Promise<void>; send: (change: LiveChange) => void; stop: () => Promise<void> };

function redisBus(url: string, channel: string, receive: (message: string) => void, encode: (change: LiveChange) => string): Transport {
  const redisOptions = { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: false } as const;
  const publisher = new Redis(url, redisOptions);
  const subscriber = new Redis(url, { ...redisOptions, enableOfflineQueue: true });
  for (const [name, client] of [
    ["publisher", publisher],
    ["subscriber", subscriber],
  ] as const) {
    client.on("error", (error: Error) => logger.warn({ err: error, client: name }, "live bus: redis error"));
  }
  subscriber.on("message", (from: string, message: string) => {
    if (from === channel) receive(message);
  });
  const ready = (async () => {
    await Promise.all([publisher.connect(), subscriber.connect()]);
    await subscriber.subscribe(channel);
  })();
  ready.catch((error: unknown) => logger.error({ err: error }, "live bus: could not connect to redis; live entries reach this process's readers only"));
  return {
    transport: "redis",
    ready,
    send: (change) => {
      publisher.publish(channel, encode(change)).catch((error: unknown) => logger.warn({ err: error, change }, "live bus: change not published"));
    },
    stop: async () => {
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}

/**
 * LISTEN on one connection of its own (a pooled one would be handed to others), NOTIFY through a second one, so a
 * slow listener never holds the pool. A dropped listening connection is made again after a pause.
 */
function postgresBus(url: string, channel: string, receive: (message: string) => void, encode: (change: LiveChange) => string): Transport {
  let stopped = false;
  let listener: pg.Client | null = null;
  const notifier = new pg.Pool({ connectionString: url, max: 1, idleTimeoutMillis: 30_000 });
  notifier.on("error", (error: Error) => logger.warn({ err: error }, "live bus: postgres notifier error"));
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: url, keepAlive: true });
    client.on("notification", (n) => {
      if (n.channel === channel && n.payload) receive(n.payload);
    });
    client.on("error", (error: Error) => {
      logger.warn({ err: error }, "live bus: postgres listener lost; connecting again");
      void client.end().catch(() => {});
      if (listener === client) listener = null;
      if (!stopped) retry = setTimeout(() => void connect().catch(() => {}), 1000);
    });
    await client.connect();
    await client.query(`LISTEN ${channel}`);
    if (stopped) {
      await client.end();
      return;
    }
    listener = client;
  };
  const ready = connect();
  ready.catch((error: unknown) => logger.error({ err: error }, "live bus: could not listen on postgres; live entries reach this process's readers only"));
  return {
    transport: "postgres",
    ready,
    send: (change) => {
      notifier
        .query("select pg_notify($1, $2)", [channel, encode(change)])
        .catch((error: unknown) => logger.warn({ err: error, change }, "live bus: change not notified"));
    },
    stop: async () => {
      stopped = true;
      clearTimeout(retry);
      await Promise.allSettled([listener?.end(), notifier.end()]);
    },
  };
}
