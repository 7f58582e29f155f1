/**
 * The database handle. PGlite (Postgres compiled to WASM) in DATA_DIR/db when DATABASE_URL is unset,
 * node-postgres otherwise; both speak the same SQL and run the same migrations.
 */
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { sql } from "drizzle-orm";
import pg from "pg";
import * as schema from "./schema.ts";
import { migrationsFolder } from "../paths.ts";

/** Both drivers expose the same query builder; this is the type the domain modules use. */
export type Database = NodePgDatabase<typeof schema>;

export type DatabaseHandle = {
  db: Database;
  driver: "pglite" | "postgres";
  migrate: () => Promise<void>;
  ping: () => Promise<boolean>;
  close: () => Promise<void>;
};

export type DatabaseOptions = { url?: string; dataDir?: string; inMemory?: boolean };

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // A dropped idle connection must not take the process down; the next query reconnects.
    pool.on("error", () => {});
    const db = drizzlePg({ client: pool, schema });
    return {
      db,
      driver: "postgres",
      migrate: () => migratePg(db, { migrationsFolder: migrationsFolder() }),
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
  const client = new PGlite(dir ?? "memory://", { extensions: { pg_trgm } });
  const db = drizzlePglite({ client, schema }) as unknown as Database;
  return {
    db,
    driver: "pglite",
    migrate: () => migratePglite(db as never, { migrationsFolder: migrationsFolder() }),
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

export class DatabaseLockedError extends Error {
  code = "DATABASE_LOCKED" as const;
}

/**
 * PGlite is one process's database: a second process opening the same folder would corrupt it. The first
 * one to open it writes its pid in db.lock; another is refused while that process lives. A lock left by a
 * process that died is taken over.
 */
function lockDataFolder(dir: string): () => void {
  const lockFile = `${dir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: "wx" });
      const release = () => {
        try {
          if (fs.readFileSync(lockFile, "utf8") === String(process.pid)) fs.unlinkSync(lockFile);
        } catch {
          // already gone
        }
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(fs.readFileSync(lockFile, "utf8"));
      if (holder && isAlive(holder)) {
        throw new DatabaseLockedError(
          `The embedded database in ${dir} is in use by process ${holder}. Stop it first, or set DATABASE_URL to share a PostgreSQL server between processes.`,
        );
      }
      fs.unlinkSync(lockFile);
    }
  }
  throw new DatabaseLockedError(`Could not lock ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

let handle: DatabaseHandle | undefined;

/** The process-wide database, opened from the checked configuration on first use. */
export async function getDatabaseHandle(): Promise<DatabaseHandle> {
  if (!handle) {
    const { getConfig } = await import("../config.ts");
    const config = getConfig();
    handle = openDatabase({ url: config.DATABASE_URL && config.drivers.database === "postgres" ? config.DATABASE_URL : undefined, dataDir: config.dataDir });
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

export async function isDatabaseEmpty(db: Database): Promise<boolean> {
  const rows = await db.execute<{ n: number }>(sql`select count(*)::int as n from ${schema.categories}`);
  const first = (rows as unknown as { rows: { n: number }[] }).rows?.[0];
  return !first || Number(first.n) === 0;
}
