/**
 * Live coverage across two web processes (issue 44): the built server started twice on one PostgreSQL database, as
 * a load balancer spreads readers over them. A reader whose stream is held by process B receives an entry posted
 * through process A, then its edit and its deletion, and B's JSON of entries shows them; the live bus carries the
 * change (server/content/live/bus.server.ts), B reads the entry once and writes it to its readers. Twice: with Redis
 * (pub/sub), and on PostgreSQL alone (LISTEN/NOTIFY), as a site without Redis runs.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL), and Redis (TEST_REDIS_URL or 127.0.0.1:6379) for the first; skipped,
 * saying so, without them.
 */
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LiveEntriesAnswer, LiveEntry, LiveState } from "#domain/live.ts";
import { checkConfig } from "#server/config.server.ts";
import { openDatabase } from "#server/db/client.server.ts";
import { createAuth } from "#server/auth/auth.server.ts";
import { createPersona, type Persona } from "#tests/helpers/auth.ts";
import { validInput } from "#tests/helpers/content.ts";
import { startServer, type RunningServer } from "#tests/e2e/support/server.ts";
import { createScratchDatabase } from "#tests/helpers/db.ts";
import { tcpAnswers } from "#tests/helpers/services.ts";
import { dataOf, openStream, type SseStream } from "#tests/e2e/live/sse.ts";

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const SECRET = "live-two-processes-e2e-secret-8a1f3c5e7b9d2f4a6c8e0b2d4f6a8c1e";
/** The address the balancer answers at (see two-processes.e2e.test.ts for why X-Forwarded-Host carries it). */
const PUBLIC_URL = "http://balancer.invalid";
const FORWARDED = { "x-forwarded-host": `${new URL(PUBLIC_URL).hostname}:80`, "x-forwarded-proto": "http" };

const [postgresUp, redisUp] = await Promise.all([tcpAnswers(DATABASE_URL, 5432), tcpAnswers(REDIS_URL, 6379)]);
if (!postgresUp) console.warn("live two-process tests skipped: no PostgreSQL (set TEST_DATABASE_URL)");
else if (!redisUp) console.warn(`live two-process test over Redis skipped: no Redis at ${REDIS_URL}`);

const run = crypto.randomBytes(3).toString("hex");

function twoProcesses(label: string, { redis }: { redis: boolean }) {
  describe.skipIf(!postgresUp || (redis && !redisUp))(`live coverage on two web processes (${label})`, () => {
    let a: RunningServer;
    let b: RunningServer;
    let admin: Persona;
    let dropDatabase = async () => {};
    const streams: SseStream[] = [];

    const api = async <T>(server: RunningServer, method: string, path: string, body?: Record<string, unknown>, status = 200) => {
      const res = await fetch(server.url + path, {
        method,
        headers: { ...FORWARDED, cookie: admin.cookie, origin: PUBLIC_URL, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(res.status, await res.clone().text()).toBe(status);
      return (await res.json()) as T;
    };
    const entriesOn = async (server: RunningServer, path: string) => {
      const res = await fetch(server.url + path, { headers: FORWARDED });
      expect(res.status).toBe(200);
      return (await res.json()) as LiveEntriesAnswer;
    };

    beforeAll(async () => {
      const database = await createScratchDatabase("live");
      dropDatabase = database.drop;
      const handle = openDatabase({ url: database.url });
      try {
        await handle.migrate();
        const { config } = checkConfig({ DATABASE_URL: database.url, BETTER_AUTH_SECRET: SECRET, LOG_LEVEL: "silent" });
        admin = await createPersona(createAuth({ db: handle.db, config }), handle.db, {
          email: `chief.${run}.${redis ? "redis" : "pg"}@live-scale.test`,
          password: "Passw0rdA",
          role: "admin",
          name: "مريم بنت أحمد",
        });
      } finally {
        await handle.close();
      }
      const env: Record<string, string> = {
        DATABASE_URL: database.url,
        BETTER_AUTH_SECRET: SECRET,
        PUBLIC_URL,
        SEED_DEMO: "false",
        JOB_WORKER: "off",
        LOG_LEVEL: "warn",
      };
      if (redis) env.REDIS_URL = REDIS_URL;
      a = await startServer(env);
      b = await startServer(env);
    });

    afterAll(async () => {
      for (const s of streams) s.close();
      await Promise.all([a?.stop(), b?.stop()]);
      await dropDatabase();
    });

    it("brings an entry posted through one process, its edit and its deletion to a reader connected to the other", async () => {
      const coverage = await api<{ id: number; url: string }>(
        a,
        "POST",
        "/api/admin/coverage",
        validInput("coverage", 0, `تغطية مباشرة على خادمين ${label}`),
        201,
      );
      await api(a, "PATCH", `/api/admin/coverage/${coverage.id}`, { live: true });
      const path = `${coverage.url}/entries`;
      const start = await entriesOn(b, path);

      // Readers on B: one in Arabic, one in French; the poster on A.
      const reader = await openStream(`${b.url}${coverage.url}/stream`, FORWARDED);
      const french = await openStream(`${b.url}/fr${coverage.url}/stream`, FORWARDED);
      streams.push(reader, french);
      expect([reader.status, french.status]).toEqual([200, 200]);
      // Posting before the server has taken them in would test nothing: each has had its `retry:` line.
      await Promise.all([reader.started(), french.started()]);

      const posted = await api<{ id: number; entry: LiveEntry }>(
        a,
        "POST",
        `/api/admin/coverage/${coverage.id}/entries`,
        { body: "<p>وصلت النتائج الأولى من مكاتب التصويت</p>", key_event: true },
        201,
      );
      for (const s of [reader, french])
        expect(dataOf<LiveEntry>(await s.waitFor((e) => e.event === "entry", `the entry on B (${label})`))).toEqual(posted.entry);
      await expect.poll(async () => (await entriesOn(b, `${path}?after=${start.cursor}`)).entries.map((e) => e.id)).toEqual([posted.id]);

      const edited = await api<LiveEntry>(a, "PATCH", `/api/admin/coverage/${coverage.id}/entries/${posted.id}`, {
        body: "<p>وصلت النتائج الأولى من مكاتب التصويت في نواكشوط</p>",
      });
      expect(dataOf<LiveEntry>(await reader.waitFor((e) => e.event === "edit", `the edit on B (${label})`))).toEqual(edited);
      await api(a, "DELETE", `/api/admin/coverage/${coverage.id}/entries/${posted.id}`);
      expect(dataOf<{ id: number }>(await reader.waitFor((e) => e.event === "delete", `the deletion on B (${label})`))).toEqual({ id: posted.id });
      await expect.poll(async () => (await entriesOn(b, `${path}?after=${edited.version}`)).deleted).toEqual([posted.id]);

      // And the other way round: posted through B, read on A; then the end of the coverage, heard on B from A.
      const onA = await openStream(`${a.url}${coverage.url}/stream`, FORWARDED);
      streams.push(onA);
      await onA.started();
      const fromB = await api<{ id: number; entry: LiveEntry }>(
        b,
        "POST",
        `/api/admin/coverage/${coverage.id}/entries`,
        { body: "<p>المفوضية تعلن نسبة المشاركة</p>" },
        201,
      );
      expect(dataOf<LiveEntry>(await onA.waitFor((e) => e.event === "entry", `the entry on A (${label})`))).toEqual(fromB.entry);
      const ended = await api<{ started_at: string; ended_at: string }>(a, "PATCH", `/api/admin/coverage/${coverage.id}`, { live: false });
      const status = await french.waitFor((e) => e.event === "status", `the end on B (${label})`);
      expect(dataOf<LiveState>(status)).toEqual({ started_at: ended.started_at, ended_at: ended.ended_at });
    });
  });
}

twoProcesses("Redis", { redis: true });
twoProcesses("PostgreSQL LISTEN/NOTIFY, no Redis", { redis: false });
