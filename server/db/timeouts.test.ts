/**
 * The pool's time-outs against a real PostgreSQL (decision 0135), reached through a TCP proxy that can go silent
 * (tests/helpers/tcp-proxy.ts): a slow statement is cancelled by the server, a silent server fails queries,
 * transactions and new connections within their time-outs, and the pool recovers by itself once the database
 * answers again, with no dead connection kept and none leaked by a transaction whose `begin` got no answer.
 * Skipped, saying so, without TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { createScratchDatabase } from "#tests/helpers/db.ts";
import { startTcpProxy, type TcpProxy } from "#tests/helpers/tcp-proxy.ts";
import { openDatabase, type DatabaseHandle } from "./client.server.ts";
import { isDatabaseUnavailable } from "./unavailable.server.ts";
import { rowsOf } from "./rows.server.ts";

const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) console.warn("\nPostgreSQL time-out tests skipped: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)\n");

/** The failure of `work`, which must fail. */
async function failureOf(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

describe.skipIf(!adminUrl)("the PostgreSQL pool's time-outs", () => {
  let scratch: { url: string; drop: () => Promise<void> };
  let proxy: TcpProxy;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    scratch = await createScratchDatabase("t_timeouts");
    const direct = new URL(scratch.url);
    proxy = await startTcpProxy({ hostname: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(direct);
    proxied.hostname = "127.0.0.1";
    proxied.port = String(proxy.port);
    handle = openDatabase({
      url: proxied.toString(),
      timeouts: { connectMs: 1000, statementMs: 1000, queryMs: 2000, idleInTransactionMs: 5000, keepAliveDelayMs: 1000 },
    });
  });

  afterAll(async () => {
    await handle?.close();
    await proxy?.close();
    await scratch?.drop();
  });

  const one = async (db = handle.db) => rowsOf<{ one: number }>(await db.execute(sql`select 1 as one`))[0]?.one;

  it("sets the session's statement and idle-in-transaction time-outs, and the server cancels a slow statement", async () => {
    const settings = rowsOf<{ statement: string; idle: string }>(
      await handle.db.execute(sql`select current_setting('statement_timeout') as statement, current_setting('idle_in_transaction_session_timeout') as idle`),
    )[0];
    expect(settings).toEqual({ statement: "1s", idle: "5s" });
    const error = await failureOf(handle.db.execute(sql`select pg_sleep(5)`));
    expect(isDatabaseUnavailable(error)).toBe(true);
    // Cancelled by the server: the connection is kept and answers the next query.
    expect(await one()).toBe(1);
  });

  it("fails queries, transactions and new connections while the database is silent, and recovers by itself", async () => {
    // The whole pool (10 connections) open and idle, all of which the partition will silence.
    await Promise.all(Array.from({ length: 10 }, () => handle.db.execute(sql`select pg_sleep(0.1)`)));
    let partitioned = () => {};
    const silent = new Promise<void>((resolve) => (partitioned = resolve));
    try {
      // A transaction that began and then gets no answer: its rollback gets none either.
      const inBody = failureOf(
        handle.db.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          proxy.partition();
          partitioned();
          return tx.execute(sql`select 2`);
        }),
      );
      await silent;
      // More than the pool holds: transactions whose `begin` gets no answer, queries on silenced connections, and
      // requests that wait for a connection the full pool cannot give.
      const attempts = Array.from({ length: 14 }, (_, i) =>
        failureOf(i % 3 ? handle.db.transaction(async (tx) => tx.execute(sql`select 1`)) : handle.db.execute(sql`select 1`)),
      );
      for (const error of await Promise.all([inBody, ...attempts])) expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    } finally {
      proxy.restore();
    }
    const before = proxy.connections();
    // By itself: the dead connections are dropped as they fail and new ones are made.
    await vi.waitFor(async () => expect(await handle.db.transaction(async (tx) => one(tx as never))).toBe(1), { timeout: 30_000, interval: 50 });
    expect(proxy.connections()).toBeGreaterThan(before);
    // None of the silenced connections is still lent out or handed out: the whole pool, at once, answers.
    const answers = await Promise.all(Array.from({ length: 10 }, () => handle.db.transaction(async (tx) => one(tx as never))));
    expect(answers).toEqual(Array(10).fill(1));
    for (let i = 0; i < 20; i++) expect(await one()).toBe(1);
  });
});
