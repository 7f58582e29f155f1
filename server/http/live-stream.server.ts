/**
 * A live coverage's event stream (issue 44, docs/decisions/0146-live-coverage.md): `GET (/fr|/en)?/coverage/:slug/stream`
 * as text/event-stream, mounted by server/app.server.ts before the page cache (it is never kept, nor compressed:
 * server.js leaves text/event-stream alone so each event leaves at once).
 *
 * A stream begins with `retry:`, then the changes after the reader's cursor (`?after=` or, on a reconnect,
 * Last-Event-ID), then each change as it happens, with a `: ping` comment every LIVE_HEARTBEAT_MS. Thousands of
 * readers of one coverage cost one read per change: the process hears the live bus once (onLiveChange), reads the
 * entry once, and writes the same bytes to every reader of that coverage. A reader is an object in a set and
 * nothing else: one shared interval sends the pings and watches the load, no timer per connection.
 *
 * Under load the process sheds streams rather than slowing everyone: past 80% of LIVE_MAX_STREAMS, or while the
 * event loop lags, a stream gets a `slow` event (its reader closes it and polls the entries JSON at `retry_ms`, which
 * a CDN answers) and is ended; past LIVE_MAX_STREAMS a new stream is a 503 with Retry-After. The entries JSON asks
 * for a longer `retry_ms` by the same measure (`liveRetryMs`).
 */
import { AsyncResource } from "node:async_hooks";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { Request, RequestHandler, Response } from "express";
import type { LiveChange, LiveEventName } from "#domain/live.ts";
import type { Database } from "#server/db/client.server.ts";
import type { Config } from "#server/config.server.ts";
import { onLiveChange } from "#server/content/live/bus.server.ts";
import { findEntry, listEntries, liveStateOf } from "#server/content/live/entries.server.ts";
import { publishedLiveCoverage } from "#server/content/live/pages.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { labelRequest } from "#server/ops/request-context.server.ts";

/** The stream's addresses, in every language (the entries are the same in all). */
export const LIVE_STREAM_PATHS = ["/coverage/:slug/stream", "/fr/coverage/:slug/stream", "/en/coverage/:slug/stream"];
/** How the access log and /metrics name it. */
const ROUTE_LABEL = "/coverage/:slug/stream";

/** Open streams past this share of LIVE_MAX_STREAMS: new ones are told to poll, the newest over it are shed. */
export const SLOW_STREAMS_SHARE = 0.8;
/** The event loop's 99th-percentile delay past which the process counts as loaded (LIVE_LAG_LIMIT_MS's default; 0: never). */
export const LOOP_DELAY_LIMIT_MS = 500;
/** Loaded, readers poll this many times more slowly. */
export const SLOW_FACTOR = 3;
/** While the event loop lags, this share of the open streams is shed at each check (the newest first). */
const SHED_SHARE = 0.25;
/** How often the shared interval looks at the load (and sends the pings, every LIVE_HEARTBEAT_MS). */
const CHECK_MS = 5000;
/** A reader this far behind (bytes not yet taken by its socket) is dropped: it would only hold memory. */
const MAX_BUFFERED_BYTES = 256 * 1024;
/** Changes replayed after a cursor: pages of this many, at most REPLAY_PAGES (a reader further behind gets the latest as they come). */
const REPLAY_LIMIT = 200;
const REPLAY_PAGES = 5;

type Settings = Pick<Config, "LIVE_MAX_STREAMS" | "LIVE_POLL_MS" | "LIVE_HEARTBEAT_MS"> & Partial<Pick<Config, "LIVE_LAG_LIMIT_MS">>;

/** One connected reader: its answer, and the events held for it while its replay is read. */
type Reader = { res: Response; coverageId: number; held: { version: number; kind: LiveChange["kind"]; bytes: string }[] | null };

/** The readers of one coverage, and the chain its changes are read on (one at a time, in the order heard). */
type Channel = { readers: Set<Reader>; tail: Promise<void> };

/**
 * Outside any request: the bus's listener and the shared interval run here, so that a change heard while some
 * editor's request was running is not read, logged or cached as part of that request.
 */
const detached = new AsyncResource("sahara.live-stream");

const channels = new Map<number, Channel>();
/** Readers in order of arrival (a Set keeps it): the newest are the first shed. */
const everyReader = new Set<Reader>();
let unsubscribe: (() => void) | undefined;
let ticker: NodeJS.Timeout | undefined;
let lastPing = 0;
let current: { settings: Settings; db: () => Promise<Database>; checkMs: number } | undefined;

/** The number of open streams in this process (/metrics `sahara_live_streams`). */
export function openLiveStreams(): number {
  return everyReader.size;
}

let loopDelay: ReturnType<typeof monitorEventLoopDelay> | undefined;
let loopDelayLimitMs = LOOP_DELAY_LIMIT_MS;
let loopCheckedAt = 0;
let loopLagging = false;
let lagWindows = 0;

/**
 * Whether the event loop lags: its delay's 99th percentile past the limit in the last two looks (a look reads the
 * window since the one before, at most once a second; the histogram starts on first use).
 */
function eventLoopLagging(): boolean {
  if (!loopDelay) {
    loopDelay = monitorEventLoopDelay({ resolution: 20 });
    loopDelay.enable();
    loopCheckedAt = Date.now();
    return false;
  }
  const now = Date.now();
  if (now - loopCheckedAt >= 1000) {
    // Two lagging windows in a row: one long query or collection is no reason to send readers away.
    lagWindows = loopDelayLimitMs > 0 && loopDelay.count > 0 && loopDelay.percentile(99) / 1e6 > loopDelayLimitMs ? lagWindows + 1 : 0;
    loopLagging = lagWindows >= 2;
    loopDelay.reset();
    loopCheckedAt = now;
  }
  return loopLagging;
}

/** Whether the process is loaded: its event loop lags, or its streams pass SLOW_STREAMS_SHARE of the cap. */
export function liveLoaded(settings: Pick<Settings, "LIVE_MAX_STREAMS">): boolean {
  const lagging = eventLoopLagging();
  return lagging || everyReader.size > settings.LIVE_MAX_STREAMS * SLOW_STREAMS_SHARE;
}

/** How long a reader waits before asking again (the JSON's `retry_ms`, the `slow` event's): longer when loaded. */
export function liveRetryMs(settings: Pick<Settings, "LIVE_MAX_STREAMS" | "LIVE_POLL_MS">): number {
  return liveLoaded(settings) ? settings.LIVE_POLL_MS * SLOW_FACTOR : settings.LIVE_POLL_MS;
}

/** One event as it goes on the wire (`id` is the change's version: Last-Event-ID resumes after it). */
function eventBytes(event: LiveEventName, data: unknown, id?: number): string {
  return `${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function slowBytes(retryMs: number): string {
  // `retry:` too, so that a client that does not know `slow` reconnects no sooner.
  return `retry: ${retryMs}\n${eventBytes("slow", { retry_ms: retryMs })}`;
}

/** Writes to a reader, dropping one that went away or stopped reading. */
function write(reader: Reader, bytes: string) {
  const { res } = reader;
  if (res.writableEnded || res.destroyed) return void drop(reader);
  if (res.writableLength > MAX_BUFFERED_BYTES) {
    res.destroy();
    return void drop(reader);
  }
  res.write(bytes);
}

function drop(reader: Reader) {
  if (!everyReader.delete(reader)) return;
  const channel = channels.get(reader.coverageId);
  channel?.readers.delete(reader);
  if (channel && !channel.readers.size) channels.delete(reader.coverageId);
  if (!everyReader.size) stopFollowing();
}

/** Tells a reader to poll instead, and ends its stream. */
function shed(reader: Reader, retryMs: number) {
  write(reader, slowBytes(retryMs));
  reader.res.end();
  drop(reader);
}

/** The change as the bytes every reader of its coverage gets: one read of the entry (or state) for all of them. */
async function bytesOf(db: Database, change: LiveChange): Promise<string | null> {
  if (change.kind === "delete") return change.entryId === null ? null : eventBytes("delete", { id: change.entryId }, change.version);
  if (change.kind === "status") {
    const state = await liveStateOf(db, change.coverageId);
    return state && eventBytes("status", state, change.version);
  }
  if (change.entryId === null) return null;
  const entry = await findEntry(db, change.coverageId, change.entryId);
  // Deleted since: its deletion follows.
  return entry && eventBytes(change.kind, entry, change.version);
}

function heard(change: LiveChange) {
  const channel = channels.get(change.coverageId);
  if (!channel || !current) return;
  const { db } = current;
  channel.tail = channel.tail
    .then(async () => {
      if (!channel.readers.size) return;
      const bytes = await bytesOf(await db(), change);
      if (!bytes) return;
      for (const reader of channel.readers) {
        if (reader.held) reader.held.push({ version: change.version, kind: change.kind, bytes });
        else write(reader, bytes);
      }
    })
    .catch((error: unknown) => logger.warn({ err: error, coverageId: change.coverageId }, "live change not sent to its readers"));
}

/** The shared interval: pings every LIVE_HEARTBEAT_MS, and sheds streams while the process is loaded. */
function check() {
  if (!current) return;
  const { settings } = current;
  const now = Date.now();
  const slow = settings.LIVE_POLL_MS * SLOW_FACTOR;
  const cap = settings.LIVE_MAX_STREAMS * SLOW_STREAMS_SHARE;
  const readers = [...everyReader];
  let excess = Math.max(0, readers.length - Math.floor(cap));
  if (eventLoopLagging()) excess = Math.max(excess, Math.ceil(readers.length * SHED_SHARE));
  for (const reader of readers.slice(readers.length - excess)) shed(reader, slow);
  if (now - lastPing >= settings.LIVE_HEARTBEAT_MS) {
    lastPing = now;
    for (const reader of everyReader) write(reader, ": ping\n\n");
  }
}

function startFollowing() {
  if (unsubscribe || !current) return;
  const { settings, checkMs } = current;
  detached.runInAsyncScope(() => {
    unsubscribe = onLiveChange((change) => detached.runInAsyncScope(() => heard(change)));
    lastPing = Date.now();
    ticker = setInterval(check, Math.min(checkMs, settings.LIVE_HEARTBEAT_MS));
    ticker.unref();
  });
}

function stopFollowing() {
  unsubscribe?.();
  unsubscribe = undefined;
  if (ticker) clearInterval(ticker);
  ticker = undefined;
}

/** Ends every open stream (the process is stopping: an open stream would keep the server from closing). */
export function endLiveStreams() {
  for (const reader of [...everyReader]) {
    reader.res.end();
    drop(reader);
  }
}

/** A cursor: a whole number as digits, or undefined when absent; anything else is the reader's error. */
function cursorOf(req: Request): number | undefined | "bad" {
  const header = req.get("Last-Event-ID");
  const query = req.query.after;
  const value = header !== undefined && header !== "" ? header : query;
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !/^\d{1,15}$/.test(value)) return "bad";
  return Number(value);
}

function refuse(res: Response, status: number, text: string, headers: Record<string, string> = {}) {
  res
    .status(status)
    .set({ "Cache-Control": "no-store", ...headers })
    .type("text/plain")
    .send(text);
}

/**
 * The stream's handler. `db` gives the database (the app's getDb); the settings are read once, when it is made.
 * Only one set of settings is in force per process: the last handler made (a new app in development) wins.
 * `checkMs`: how often the load is looked at; `loopDelayLimitMs`: the event loop's delay that counts as loaded (tests
 * on an in-process database, whose queries hold the loop, raise it, and lengthen the other, to shed nothing behind
 * their backs).
 */
export function liveStream(
  settings: Settings,
  db: () => Promise<Database>,
  { checkMs = CHECK_MS, loopDelayLimitMs: limit = settings.LIVE_LAG_LIMIT_MS ?? LOOP_DELAY_LIMIT_MS }: { checkMs?: number; loopDelayLimitMs?: number } = {},
): RequestHandler {
  current = { settings, db, checkMs };
  if (limit !== loopDelayLimitMs) [loopLagging, lagWindows] = [false, 0];
  loopDelayLimitMs = limit;
  return async (req, res, next) => {
    labelRequest(ROUTE_LABEL);
    try {
      const retryMs = liveRetryMs(settings);
      if (everyReader.size >= settings.LIVE_MAX_STREAMS) {
        return refuse(res, 503, "Too many live readers: poll the entries instead.", { "Retry-After": String(Math.ceil(retryMs / 1000)) });
      }
      const cursor = cursorOf(req);
      if (cursor === "bad") return refuse(res, 400, "The after parameter (or Last-Event-ID) must be a whole number.");
      const database = await db();
      const coverage = await publishedLiveCoverage(database, req.params.slug as string | undefined);
      if (!coverage) return refuse(res, 404, "Not Found");
      res.writeHead(200, {
        "Content-Type": "text/event-stream; charset=utf-8",
        // Never kept, never transformed (compressed, buffered) on the way: each event must leave at once.
        "Cache-Control": "no-store, no-transform",
        "X-Accel-Buffering": "no",
        Connection: "keep-alive",
      });
      if (req.method === "HEAD") return void res.end();
      res.write(`retry: ${retryMs}\n\n`);
      if (liveLoaded(settings)) return void res.end(slowBytes(settings.LIVE_POLL_MS * SLOW_FACTOR));

      const reader: Reader = { res, coverageId: coverage.id, held: cursor === undefined ? null : [] };
      // Registered before the replay is read: what happens meanwhile is held, then sent unless the replay had it.
      let channel = channels.get(coverage.id);
      if (!channel) channels.set(coverage.id, (channel = { readers: new Set(), tail: Promise.resolve() }));
      channel.readers.add(reader);
      everyReader.add(reader);
      startFollowing();
      res.on("close", () => drop(reader));
      res.on("error", () => drop(reader));
      // Gone while its coverage was being read: no close event is coming for it.
      if (res.destroyed || req.socket.destroyed) return void drop(reader);

      if (coverage.state.ended_at !== null) write(reader, eventBytes("status", coverage.state));
      if (cursor !== undefined) await replay(database, reader, cursor);
    } catch (error) {
      if (!res.headersSent) return next(error);
      logger.warn({ err: error }, "live stream failed");
      res.end();
    }
  };
}

/** The changes after the reader's cursor (oldest first, a page at a time), then what was held meanwhile and not in them. */
async function replay(db: Database, reader: Reader, after: number) {
  const sent = new Set<number>();
  let cursor = after;
  for (let page = 0; page < REPLAY_PAGES; page++) {
    const changes = await listEntries(db, reader.coverageId, { after: cursor, limit: REPLAY_LIMIT });
    for (const id of changes.deleted) write(reader, eventBytes("delete", { id }));
    for (const entry of [...changes.entries].sort((a, b) => a.version - b.version)) {
      sent.add(entry.version);
      write(reader, eventBytes(entry.id > after ? "entry" : "edit", entry, entry.version));
    }
    // The last event id the reader holds is the replay's cursor, even when its last change was a deletion.
    if (changes.cursor > cursor && !sent.has(changes.cursor)) write(reader, `id: ${changes.cursor}\n\n`);
    cursor = changes.cursor;
    if (changes.entries.length + changes.deleted.length < REPLAY_LIMIT) break;
  }
  const held = reader.held ?? [];
  reader.held = null;
  for (const event of held) if (!sent.has(event.version) && !(event.kind === "delete" && event.version <= cursor)) write(reader, event.bytes);
}
