/**
 * The database handle. PGlite (Postgres compiled to WASM) in DATA_DIR/db when DATABASE_URL is unset,
 * node-postgres otherwise; both speak the same SQL and run the same migrations. On PostgreSQL the
 * migrations and the first-run seed run under one advisory lock, so any number of processes may start at
 * once (docs/decisions/0118-production-runtime.md).
 */
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg, type NodePgQueryResultHKT } from "drizzle-orm/node-postgres";
import type { PgDatabase } from "drizzle-orm/pg-core";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { sql } from "drizzle-orm";
import { noteQuery } from "#server/http/render-scope.server.ts";
import pg from "pg";
import * as schema from "./schema.server.ts";
import { migrationsFolder } from "#server/paths.server.ts";
import { searchTriggersCurrent, syncSearchTriggers } from "#server/search/search-triggers.server.ts";
import type { Config } from "#server/config.server.ts";
import { rowsOf } from "./rows.server.ts";
import { lockDataFolder } from "./data-folder-lock.server.ts";
import { CodedError, type ErrorContext } from "#server/errors.server.ts";
import type { Database } from "./database.server.ts";

export type { Database } from "./database.server.ts";
/** A page render's query outside the read cache makes its answer carry every surrogate key (server/http/render-scope.server.ts). */
const queryNotes = { logQuery: () => noteQuery() };

/**
 * What a query runs on: the database or a transaction of it (`db.transaction(async (tx) => …)`). A function that
 * only queries takes this, so a caller's transaction is passed as it is, with no cast.
 */
export type Queryable = PgDatabase<NodePgQueryResultHKT, typeof schema>;

export type DatabaseHandle = {
  db: Database;
  driver: "pglite" | "postgres";
  /**
   * The migrations (drizzle/), then what is made from the content-type definitions: the search queue's
   * triggers, under the migration lock. Says what it changed: nothing when another process got there first.
   */
  migrate: (onWait?: () => void) => Promise<SchemaChanges>;
  /** What `migrate` would change, read without the lock and without writing: empty when the schema is current. */
  pendingSchemaChanges: () => Promise<string[]>;
  /**
   * Runs `work` while holding the migration lock: on PostgreSQL a session advisory lock on one connection
   * of its own (given to `work` as `db`), waited for when another process holds it; PGlite is one process's
   * database and needs none. `onWait` is called once if the lock is taken.
   */
  withMigrationLock: <T>(work: (db: Database) => Promise<T>, onWait?: () => void) => Promise<T>;
  ping: () => Promise<boolean>;
  close: () => Promise<void>;
};

/** What one run of the migrations changed: the migrations applied (by tag), the search triggers made or dropped. */
export type SchemaChanges = { migrations: string[]; triggers: string[] };

/**
 * The advisory lock of migrations and the first-run seed (one bigint key; the search triggers' own lock is
 * another). PostgreSQL keeps advisory locks per database, so two sites on one server do not wait on each other.
 */
const MIGRATION_LOCK = 0x5a4a_0118;

export type DatabaseOptions = {
  url?: string;
  dataDir?: string;
  inMemory?: boolean;
  /** An in-memory database starts from this dump (PGlite's dumpDataDir) instead of an empty cluster: tests start from a migrated copy. */
  initialData?: Blob;
  /**
   * The embedded database's page cache (PostgreSQL's shared_buffers inside PGlite), in MB: PGLITE_SHARED_BUFFERS_MB.
   * PGlite's WebAssembly memory starts at 128 MB (its module's minimum; only the pages used are resident) and
   * grows as it needs (it never shrinks). Unset: PGlite's own default, PostgreSQL's 128 MB.
   */
  pgliteSharedBuffersMb?: number;
  /**
   * PostgreSQL only: the pool's time-outs (DATABASE_*_TIMEOUT_MS, decision 0135). Unset, a connection must still be
   * made within 5 s and is kept alive, but statements and queries may take as long as they need: the scripts
   * (backup, restore, search reindex) open the database so.
   */
  timeouts?: Partial<DatabaseTimeouts>;
};

/** What bounds a connection of the pool and the queries on it, in milliseconds; 0 is none. */
export type DatabaseTimeouts = {
  /** A new connection made, or a free one had from a full pool, within this. */
  connectMs: number;
  /** PostgreSQL's statement_timeout: the server cancels a statement running longer. */
  statementMs: number;
  /** node-postgres's query_timeout: no answer within this fails the query here, and its connection is closed. */
  queryMs: number;
  /** PostgreSQL's idle_in_transaction_session_timeout. */
  idleInTransactionMs: number;
  /** TCP keepalive's first probe after this long idle. */
  keepAliveDelayMs: number;
};

const UNBOUNDED: DatabaseTimeouts = { connectMs: 5000, statementMs: 0, queryMs: 0, idleInTransactionMs: 0, keepAliveDelayMs: 10_000 };

/** The web process's and the worker's time-outs, from the checked configuration. */
export function databaseTimeouts(
  config: Pick<
    Config,
    | "DATABASE_CONNECT_TIMEOUT_MS"
    | "DATABASE_STATEMENT_TIMEOUT_MS"
    | "DATABASE_QUERY_TIMEOUT_MS"
    | "DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS"
    | "DATABASE_KEEPALIVE_DELAY_MS"
  >,
): DatabaseTimeouts {
  return {
    connectMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    statementMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    queryMs: config.DATABASE_QUERY_TIMEOUT_MS,
    idleInTransactionMs: config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    keepAliveDelayMs: config.DATABASE_KEEPALIVE_DELAY_MS,
  };
}

/** What node-postgres is given for `timeouts`; it leaves out what is 0 (PostgreSQL's own default is none too). */
function connectionSettings(url: string, t: DatabaseTimeouts): pg.ClientConfig {
  return {
    connectionString: url,
    connectionTimeoutMillis: t.connectMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: t.keepAliveDelayMs,
    ...(t.statementMs ? { statement_timeout: t.statementMs } : {}),
    ...(t.queryMs ? { query_timeout: t.queryMs } : {}),
    ...(t.idleInTransactionMs ? { idle_in_transaction_session_timeout: t.idleInTransactionMs } : {}),
  };
}

/**
 * The pool of the web process and the worker, made to survive a database that goes silent (decision 0135):
 *  - A query that timed out (query_timeout) leaves its connection waiting for the lost answer: node-postgres only
 *    drops a query not yet sent, so every later query on that connection would queue behind it. Its connection is
 *    closed instead, and the pool opens a new one when the database answers again.
 *  - A client lent out (`connect()`: drizzle's transactions) whose connection ends goes back to the pool at once, to
 *    be dropped there: drizzle never releases one whose `begin` failed, and the pool would stay full of dead
 *    connections after the outage. Releasing is made idempotent, since the borrower may release it again.
 *  - A client in use whose connection fails emits `error` with nobody listening, which would end the process: the
 *    query in flight fails and is reported instead.
 */
class SurvivingPool extends pg.Pool {
  constructor(config: pg.PoolConfig) {
    super(config);
    this.on("connect", (client) => {
      client.on("error", () => {});
      closeOnReadTimeout(client);
    });
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(
    callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<pg.PoolClient> | void {
    if (callback) return super.connect(callback);
    return super.connect().then(releaseWhenEnded);
  }
}

function releaseWhenEnded(client: pg.PoolClient): pg.PoolClient {
  const release = client.release.bind(client);
  let released = false;
  const ended = () => client.release(new Error("Connection terminated"));
  client.release = (err?: Error | boolean) => {
    if (released) return;
    released = true;
    client.off("end", ended);
    release(err);
  };
  client.once("end", ended);
  return client;
}

const READ_TIMEOUT = "Query read timeout";

function closeOnReadTimeout(client: pg.PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const closeIfTimedOut = (error: unknown) => {
    if (error instanceof Error && error.message === READ_TIMEOUT) client.connection.stream.destroy();
  };
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const callback = args.at(-1);
    if (typeof callback === "function") {
      args[args.length - 1] = (error: unknown, result: unknown) => {
        closeIfTimedOut(error);
        (callback as (error: unknown, result: unknown) => void)(error, result);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise) result.catch(closeIfTimedOut);
    return result;
  };
}

/** What PGlite needs beside its shared buffers (catalogue caches, work memory, the stack), in MB. */
const PGLITE_BASE_MEMORY_MB = 48;
/** The smallest memory PGlite's WebAssembly module declares. */
const PGLITE_MIN_MEMORY_MB = 128;

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.url) {
    // A database that silently drops packets must fail a request (and let the page cache serve its last good
    // copy), not hold it open: connections, statements and answers are bounded (decision 0135).
    const timeouts = { ...UNBOUNDED, ...options.timeouts };
    const pool = new SurvivingPool({ ...connectionSettings(options.url, timeouts), max: 10 });
    // A dropped idle connection must not take the process down; the next query reconnects.
    pool.on("error", () => {});
    const db = drizzlePg({ client: pool, schema, logger: queryNotes });
    const url = options.url;
    const withMigrationLock = async <T>(work: (db: Database) => Promise<T>, onWait?: () => void): Promise<T> => {
      // A connection of its own, not one of the pool's: the lock belongs to the session that took it, and
      // the migrations run on that same session from the first statement to the last. It waits for the lock as
      // long as another process migrates, and a migration may rewrite a large table: no statement or query
      // time-out, only the connect time-out and keepalive.
      const client = new pg.Client(connectionSettings(url, { ...UNBOUNDED, connectMs: timeouts.connectMs, keepAliveDelayMs: timeouts.keepAliveDelayMs }));
      client.on("error", () => {}); // a dropped connection fails the query in flight, which is reported
      await client.connect();
      try {
        const tried = await client.query<{ locked: boolean }>("select pg_try_advisory_lock($1) as locked", [MIGRATION_LOCK]);
        if (!tried.rows[0]?.locked) {
          onWait?.();
          await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
        }
        return await work(drizzlePg({ client, schema }));
      } finally {
        // Ending the session releases the lock, also when the unlock cannot be sent.
        await client.end().catch(() => {});
      }
    };
    return {
      db,
      driver: "postgres",
      migrate: (onWait) =>
        withMigrationLock(async (locked) => {
          // Read again under the lock: another process may have applied them while this one waited.
          const migrations = await pendingMigrations(locked);
          if (migrations.length) await migratePg(locked, { migrationsFolder: migrationsFolder() });
          return { migrations, triggers: await syncSearchTriggers(locked) };
        }, onWait),
      pendingSchemaChanges: () => pendingSchemaChanges(db),
      withMigrationLock,
      ping: async () => {
        await pool.query("select 1");
        return true;
      },
      close: () => pool.end(),
    };
  }
  let dir: string | undefined;
  let releaseLock = () => {};
  if (!options.inMemory) {
    dir = path.join(options.dataDir ?? "./data", "db");
    fs.mkdirSync(dir, { recursive: true });
    releaseLock = lockDataFolder(dir);
  }
  // PGlite 0.5 drops the options when the data dir is undefined, so in-memory databases name "memory://"
  // explicitly; otherwise pg_trgm (search) would be missing from every in-memory test database.
  const buffers = options.pgliteSharedBuffersMb;
  const client = new PGlite(dir ?? "memory://", {
    extensions: { pg_trgm },
    ...(buffers
      ? {
          initialMemory: Math.max(PGLITE_MIN_MEMORY_MB, buffers + PGLITE_BASE_MEMORY_MB) * 1024 * 1024,
          startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${buffers}MB`],
        }
      : {}),
    ...(options.inMemory && options.initialData ? { loadDataDir: options.initialData } : {}),
  });
  const db = drizzlePglite({ client, schema, logger: queryNotes }) as unknown as Database;
  return {
    db,
    driver: "pglite",
    migrate: async () => {
      const migrations = await pendingMigrations(db);
      if (migrations.length) await migratePglite(db as never, { migrationsFolder: migrationsFolder() });
      return { migrations, triggers: await syncSearchTriggers(db) };
    },
    pendingSchemaChanges: () => pendingSchemaChanges(db),
    withMigrationLock: (work) => work(db),
    ping: async () => {
      await client.query("select 1");
      return true;
    },
    close: async () => {
      await client.close();
      releaseLock();
    },
  };
}

let handle: DatabaseHandle | undefined;

/** The process-wide database, opened from the checked configuration on first use. */
export async function getDatabaseHandle(): Promise<DatabaseHandle> {
  if (!handle) {
    const { getConfig } = await import("#server/config.server.ts");
    const config = getConfig();
    handle = openDatabase({
      url: config.DATABASE_URL && config.drivers.database === "postgres" ? config.DATABASE_URL : undefined,
      dataDir: config.dataDir,
      pgliteSharedBuffersMb: config.PGLITE_SHARED_BUFFERS_MB,
      timeouts: databaseTimeouts(config),
    });
  }
  return handle;
}

export async function getDb(): Promise<Database> {
  return (await getDatabaseHandle()).db;
}

/** Tests and scripts install their own handle (a fresh PGlite, or a PostgreSQL test database). */
export function setDatabaseHandle(h: DatabaseHandle | undefined) {
  handle = h;
}

/**
 * The tags of drizzle/'s migrations this database has not applied, as drizzle's migrator decides it: those
 * made after the last one applied (its journal's `when` is the applied row's `created_at`).
 */
export async function pendingMigrations(db: Database): Promise<string[]> {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder(), "meta", "_journal.json"), "utf8")) as { entries: { tag: string; when: number }[] };
  const table = rowsOf<{ found: string | null }>(await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations')::text as found`));
  if (!table[0]?.found) return journal.entries.map((e) => e.tag);
  const last = rowsOf<{ created_at: string | number }>(
    await db.execute(sql`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`),
  );
  const applied = last[0] ? Number(last[0].created_at) : undefined;
  return journal.entries.filter((e) => applied === undefined || applied < e.when).map((e) => e.tag);
}

async function pendingSchemaChanges(db: Database): Promise<string[]> {
  const migrations = await pendingMigrations(db);
  // Before the migrations the search tables do not exist: the triggers come with them.
  if (migrations.length) return [...migrations, "search triggers"];
  return (await searchTriggersCurrent(db)) ? [] : ["search triggers"];
}

/** MIGRATE_ON_START=off and the schema stayed behind for as long as a process waits for `npm run db:migrate`. */
export class SchemaNotCurrentError extends CodedError {
  declare readonly code: "SCHEMA_NOT_CURRENT";
  constructor(message: string, context: ErrorContext = {}) {
    super("SCHEMA_NOT_CURRENT", message, { level: "fatal", context });
  }
}

export type SchemaOptions = {
  /** MIGRATE_ON_START: migrate (under the lock) when the schema is behind, or only wait for `npm run db:migrate` to do it. */
  migrate: boolean;
  /** How long a process that does not migrate waits for the schema to become current. */
  waitMs?: number;
  pollMs?: number;
  log?: (message: string) => void;
};

/**
 * What a starting process does about the schema: nothing when it is current (read without the lock, so
 * processes starting on a migrated database do not queue); otherwise it migrates under the migration lock —
 * the first process to take it applies the migrations, the others wait for it and find nothing left — or,
 * with `migrate: false`, waits for the schema to become current and fails with a clear error after `waitMs`.
 * PGlite is this process's alone: nobody else can migrate it meanwhile, so it does not wait.
 */
export async function ensureSchema(handle: DatabaseHandle, options: SchemaOptions): Promise<SchemaChanges | undefined> {
  const log = options.log ?? (() => {});
  let pending = await handle.pendingSchemaChanges();
  if (!pending.length) return undefined;
  if (options.migrate) {
    log(`database schema behind (${describePending(pending)}): migrating`);
    return handle.migrate(() => log("another process holds the migration lock: waiting for it"));
  }
  const waitMs = handle.driver === "pglite" ? 0 : (options.waitMs ?? 120_000);
  const until = Date.now() + waitMs;
  if (waitMs)
    log(`database schema behind (${describePending(pending)}): waiting up to ${Math.round(waitMs / 1000)} s for npm run db:migrate (MIGRATE_ON_START=off)`);
  while (pending.length) {
    if (Date.now() >= until) {
      throw new SchemaNotCurrentError(
        `The database schema is not current (${describePending(pending)}) and MIGRATE_ON_START=off: run npm run db:migrate, or set MIGRATE_ON_START=on.`,
        { pending: pending.length, waitedMs: waitMs },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 1000));
    pending = await handle.pendingSchemaChanges();
  }
  return undefined;
}

const describePending = (pending: string[]) => {
  const migrations = pending.filter((p) => p !== "search triggers");
  return [
    migrations.length && `${migrations.length} migration${migrations.length === 1 ? "" : "s"} pending`,
    pending.includes("search triggers") && "search triggers to update",
  ]
    .filter(Boolean)
    .join(", ");
};

/**
 * Runs `seed` if the database holds no content, once however many processes start together on an empty
 * database: the check is made again under the migration lock, and the others wait until the seed is done.
 * The seed itself runs on the pool (it may run queries side by side), the lock only orders the processes.
 */
export async function seedIfEmpty(handle: DatabaseHandle, seed: () => Promise<void>, onWait?: () => void): Promise<boolean> {
  if (!(await isDatabaseEmpty(handle.db))) return false;
  return handle.withMigrationLock(async () => {
    if (!(await isDatabaseEmpty(handle.db))) return false;
    await seed();
    return true;
  }, onWait);
}

export async function isDatabaseEmpty(db: Database): Promise<boolean> {
  const rows = await db.execute<{ n: number }>(sql`select count(*)::int as n from ${schema.categories}`);
  const first = (rows as unknown as { rows: { n: number }[] }).rows?.[0];
  return !first || Number(first.n) === 0;
}
