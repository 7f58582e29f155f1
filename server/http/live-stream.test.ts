/**
 * A live coverage's event stream (issue 44) on a real HTTP server (an ephemeral port) over a real database: readers
 * connect, an entry posted through the entries module arrives at every one of them, edits and deletions follow, a
 * reconnecting reader gets what it missed (after=, Last-Event-ID), a reader that leaves is dropped at once (nothing
 * stays subscribed), past the cap a new reader gets 503 and near it `slow`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { validInput } from "#tests/helpers/content.ts";
import { categories, coverages, profiles, user } from "#server/db/schema.server.ts";
import { setDatabaseHandle } from "#server/db/client.server.ts";
import { createItem } from "#server/content/newsroom/write.server.ts";
import { deleteEntry, editEntry, postEntry, setLive, type LiveActor } from "#server/content/live/entries.server.ts";
import { liveListenerCount } from "#server/content/live/bus.server.ts";
import type { LiveEntry, LiveState } from "#domain/live.ts";
import { endLiveStreams, LIVE_STREAM_PATHS, liveStream, openLiveStreams } from "./live-stream.server.ts";

const editor: LiveActor = {
  id: "stream-editor",
  email: "khadija@live.test",
  name: "خديجة بنت محمد",
  profile: { role: "editor", isAdmin: false, permissions: ["content.write", "content.publish", "content.others"] },
};

type Event = { id?: string; event: string; data: string };

/** A reader of a stream: its status and headers, the events and comments it has received, and a way to leave. */
type Reader = { status: number; headers: http.IncomingHttpHeaders; events: Event[]; comments: string[]; retry?: number; ended: boolean; close: () => void };

/** Parses text/event-stream as it arrives (the lines EventSource reads: id, event, data, retry and comments). */
function connect(base: string, path: string, headers: Record<string, string> = {}): Promise<Reader> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}${path}`, { headers: { Accept: "text/event-stream", ...headers } }, (res) => {
      const reader: Reader = { status: res.statusCode ?? 0, headers: res.headers, events: [], comments: [], ended: false, close: () => request.destroy() };
      let buffer = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: Partial<Event> & { data?: string } = {};
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) reader.comments.push(line.slice(1).trim());
            else if (line.startsWith("retry: ")) reader.retry = Number(line.slice(7));
            else if (line.startsWith("id: ")) event.id = line.slice(4);
            else if (line.startsWith("event: ")) event.event = line.slice(7);
            else if (line.startsWith("data: ")) event.data = line.slice(6);
          }
          if (event.event && event.data !== undefined) reader.events.push(event as Event);
          else if (event.id) reader.events.push({ id: event.id, event: "", data: "" });
        }
      });
      res.on("end", () => (reader.ended = true));
      res.on("error", () => (reader.ended = true));
      resolve(reader);
    });
    request.on("error", (error) => ((error as NodeJS.ErrnoException).code === "ECONNRESET" ? undefined : reject(error)));
  });
}

/** Waits for what a reader shows (a loaded machine may take seconds; nothing here measures time). */
const until = (check: () => void, timeout = 10_000) => vi.waitFor(check, { timeout, interval: 20 });

const named = (reader: Reader, event: string) => reader.events.filter((e) => e.event === event);
const entryOf = (e: Event) => JSON.parse(e.data) as LiveEntry;

for (const kind of testDatabaseKinds) {
  describe(`live stream (${kind})`, () => {
    let h: TestDatabase;
    let server: http.Server;
    let base = "";
    let categoryId: number;
    const readers: Reader[] = [];
    let settings = { LIVE_MAX_STREAMS: 100, LIVE_POLL_MS: 10_000, LIVE_HEARTBEAT_MS: 600_000 };
    // The in-process database holds the event loop for whole queries: no lag counts, but in the test of lag.
    let lagLimit = Number.POSITIVE_INFINITY;

    /** A published coverage, live, and its slug. */
    async function liveCoverage(title: string, live = true) {
      const { id } = await createItem(h.db, "coverage", { ...validInput("coverage", categoryId, title), status: "published" }, editor);
      if (live) await setLive(h.db, id, true, editor);
      const [{ slug }] = await h.db.select({ slug: coverages.pageSlug }).from(coverages).where(eq(coverages.id, id));
      return { id, slug };
    }

    async function open(path: string, headers?: Record<string, string>) {
      const reader = await connect(base, path, headers);
      readers.push(reader);
      return reader;
    }

    beforeAll(async () => {
      h = await createTestDatabase(kind);
      setDatabaseHandle(h);
      await h.db.insert(user).values({ id: editor.id, name: editor.name, email: editor.email });
      await h.db.insert(profiles).values({ id: editor.id, role: "editor", fullName: editor.name });
      [{ id: categoryId }] = await h.db.insert(categories).values({ name: "سياسة", slug: "politics", type: "news" }).returning({ id: categories.id });
      const app = express();
      // The settings are read per request from this object, so a test can lower the cap.
      app.get(LIVE_STREAM_PATHS, (req, res, next) =>
        liveStream(settings, () => Promise.resolve(h.db), { checkMs: 600_000, loopDelayLimitMs: lagLimit })(req, res, next),
      );
      server = http.createServer(app);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterEach(async () => {
      for (const reader of readers.splice(0)) reader.close();
      await until(() => expect(openLiveStreams()).toBe(0));
      settings = { LIVE_MAX_STREAMS: 100, LIVE_POLL_MS: 10_000, LIVE_HEARTBEAT_MS: 600_000 };
      lagLimit = Number.POSITIVE_INFINITY;
    });
    afterAll(async () => {
      endLiveStreams();
      await new Promise((resolve) => server?.close(resolve));
      setDatabaseHandle(undefined);
      await h?.drop();
    });

    it("sends retry first, then each entry posted to every reader, with edits and deletions, and frees readers that leave", async () => {
      const { id, slug } = await liveCoverage("انتخابات نواكشوط مباشرة");
      const [a, b] = [await open(`/coverage/${slug}/stream`), await open(`/fr/coverage/${slug}/stream`)];
      for (const reader of [a, b]) {
        expect(reader.status).toBe(200);
        expect(reader.headers["content-type"]).toMatch(/^text\/event-stream/);
        expect(reader.headers["cache-control"]).toMatch(/no-store/);
      }
      await until(() => expect(a.retry).toBe(10_000));
      await until(() => expect(openLiveStreams()).toBe(2));

      const { entry } = await postEntry(h.db, id, { body: "<p>بدأ فرز الأصوات في مكاتب العاصمة</p>", key_event: true }, editor);
      for (const reader of [a, b]) {
        await until(() => expect(named(reader, "entry")).toHaveLength(1));
        const [event] = named(reader, "entry");
        expect(event.id).toBe(String(entry.version));
        expect(entryOf(event)).toMatchObject({ id: entry.id, key_event: true, body: "<p>بدأ فرز الأصوات في مكاتب العاصمة</p>" });
      }
      // One read for both: the same bytes.
      expect(named(a, "entry")[0].data).toBe(named(b, "entry")[0].data);

      const edited = await editEntry(h.db, id, entry.id, { body: "<p>بدأ فرز الأصوات في كل مكاتب العاصمة</p>" }, editor);
      await until(() => expect(named(a, "edit")).toHaveLength(1));
      expect(entryOf(named(a, "edit")[0])).toMatchObject({ id: entry.id, version: edited.version });
      expect(entryOf(named(a, "edit")[0]).edited_at).not.toBeNull();

      await deleteEntry(h.db, id, entry.id, editor);
      await until(() => expect(named(b, "delete")).toHaveLength(1));
      expect(JSON.parse(named(b, "delete")[0].data)).toEqual({ id: entry.id });

      // The coverage ends: a status event.
      await setLive(h.db, id, false, editor);
      await until(() => expect(named(a, "status")).toHaveLength(1));
      expect((JSON.parse(named(a, "status")[0].data) as LiveState).ended_at).not.toBeNull();

      // A reader that leaves is dropped at once; the last one leaving unsubscribes from the bus.
      const listening = liveListenerCount();
      a.close();
      await until(() => expect(openLiveStreams()).toBe(1));
      b.close();
      await until(() => expect(openLiveStreams()).toBe(0));
      expect(liveListenerCount()).toBe(listening - 1);
    });

    it("replays the changes after the reader's cursor (after= or Last-Event-ID), then follows", async () => {
      const { id, slug } = await liveCoverage("قمة نواكشوط مباشرة");
      const first = await postEntry(h.db, id, { body: "<p>وصول الوفود</p>" }, editor);
      const cursor = first.entry.version;
      const second = await postEntry(h.db, id, { body: "<p>افتتاح القمة</p>" }, editor);
      const third = await postEntry(h.db, id, { body: "<p>كلمة خاطئة</p>" }, editor);
      await editEntry(h.db, id, first.entry.id, { body: "<p>وصول الوفود إلى المطار</p>" }, editor);
      await deleteEntry(h.db, id, third.entry.id, editor);

      const reader = await open(`/coverage/${slug}/stream?after=${cursor}`);
      await until(() => expect(named(reader, "delete")).toHaveLength(1));
      await until(() => expect(named(reader, "edit")).toHaveLength(1));
      expect(named(reader, "entry").map((e) => entryOf(e).id)).toEqual([second.entry.id]);
      expect(entryOf(named(reader, "edit")[0]).id).toBe(first.entry.id);
      expect(JSON.parse(named(reader, "delete")[0].data)).toEqual({ id: third.entry.id });

      // Then it follows.
      const fourth = await postEntry(h.db, id, { body: "<p>البيان الختامي</p>" }, editor);
      await until(() => expect(named(reader, "entry").map((e) => entryOf(e).id)).toContain(fourth.entry.id));

      // A reconnect with Last-Event-ID (newer than its address's after=) gets only what came after it.
      const again = await open(`/coverage/${slug}/stream?after=${cursor}`, { "Last-Event-ID": String(fourth.entry.version) });
      const fifth = await postEntry(h.db, id, { body: "<p>مؤتمر صحفي</p>" }, editor);
      await until(() => expect(named(again, "entry")).toHaveLength(1));
      expect(entryOf(named(again, "entry")[0]).id).toBe(fifth.entry.id);
      expect(named(again, "edit")).toHaveLength(0);
    });

    it("answers 404 for a coverage not published or never live, 400 for a bad cursor", async () => {
      const never = await liveCoverage("تغطية لم تبدأ بعد", false);
      expect((await open(`/coverage/${never.slug}/stream`)).status).toBe(404);
      const { id } = await createItem(h.db, "coverage", { ...validInput("coverage", categoryId, "مسودة تغطية مباشرة"), status: "draft" }, editor);
      await setLive(h.db, id, true, editor);
      const [{ slug: draft }] = await h.db.select({ slug: coverages.pageSlug }).from(coverages).where(eq(coverages.id, id));
      expect((await open(`/coverage/${draft}/stream`)).status).toBe(404);
      expect((await open(`/coverage/no-such-coverage/stream`)).status).toBe(404);
      const live = await liveCoverage("تغطية مباشرة للمؤشر");
      expect((await open(`/coverage/${live.slug}/stream?after=abc`)).status).toBe(400);
      expect((await open(`/coverage/${live.slug}/stream`, { "Last-Event-ID": "-1" })).status).toBe(400);
      expect(openLiveStreams()).toBe(0);
    });

    it("refuses a stream past LIVE_MAX_STREAMS (503, Retry-After) and tells one near it to poll (slow)", async () => {
      const { slug } = await liveCoverage("تغطية مزدحمة مباشرة");
      settings = { ...settings, LIVE_MAX_STREAMS: 1 };
      const first = await open(`/coverage/${slug}/stream`);
      expect(first.status).toBe(200);
      await until(() => expect(openLiveStreams()).toBe(1));
      const refused = await open(`/coverage/${slug}/stream`);
      expect(refused.status).toBe(503);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);

      // Past 80% of the cap (9 of 10 open), the next reader is told to poll, at a slower pace, and its stream ends.
      settings = { ...settings, LIVE_MAX_STREAMS: 10 };
      for (let i = 0; i < 8; i++) await open(`/coverage/${slug}/stream`);
      await until(() => expect(openLiveStreams()).toBe(9));
      const told = await open(`/coverage/${slug}/stream`);
      await until(() => expect(named(told, "slow")).toHaveLength(1));
      expect((JSON.parse(named(told, "slow")[0].data) as { retry_ms: number }).retry_ms).toBeGreaterThan(settings.LIVE_POLL_MS);
      await until(() => expect(told.ended).toBe(true));
      expect(openLiveStreams()).toBe(9);
    });

    it("tells a new reader to poll while the event loop lags", async () => {
      const { slug } = await liveCoverage("تغطية تحت الضغط مباشرة");
      lagLimit = 40;
      await open(`/coverage/${slug}/stream`); // starts the event loop's histogram
      // Hold the loop past the limit again and again for over a second, twice (one lagging window is not enough), a
      // reader arriving after each: the process looks at its loop as they arrive.
      let told: Reader | undefined;
      for (let round = 0; round < 2; round++) {
        const windowEnd = Date.now() + 1200;
        while (Date.now() < windowEnd) {
          const deadline = Date.now() + 80;
          while (Date.now() < deadline);
          await new Promise((resolve) => setTimeout(resolve, 0));
        }
        told = await open(`/coverage/${slug}/stream`);
      }
      await until(() => expect(named(told!, "slow")).toHaveLength(1));
    });

    it("sends a ping comment every LIVE_HEARTBEAT_MS", async () => {
      const { slug } = await liveCoverage("تغطية هادئة مباشرة");
      settings = { ...settings, LIVE_HEARTBEAT_MS: 1000 };
      const reader = await open(`/coverage/${slug}/stream`);
      await until(() => expect(reader.comments).toContain("ping"));
    });
  });
}
