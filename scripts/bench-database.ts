/**
 * A bench's own database on a PostgreSQL server (scripts/bench-search.ts, bench-archive.ts): `<db>_bench_<suffix>`
 * beside the database of the given URL, migrated and seeded once, then kept for the next runs while its fingerprint
 * (the generator, the migrations and whatever else the caller hashes) stays the same; `reseed` makes it again.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "#server/db/client.server.ts";

/** The address of the bench's own database beside the one of `url`. */
export function benchDatabaseUrl(url: string, suffix: string): { name: string; url: string } {
  const target = new URL(url);
  const name = `${target.pathname.slice(1) || "postgres"}_bench_${suffix}`.replace(/[^a-z0-9_]/gi, "_");
  target.pathname = `/${name}`;
  return { name, url: target.toString() };
}

/** A hash of the generator's name, the item count, every migration and the given files (paths from `root`). */
export function benchFingerprint(root: string, generator: string, items: number, files: readonly string[] = []): string {
  const hash = crypto.createHash("sha256").update(`${generator}:${items}`);
  const dir = path.join(root, "drizzle");
  for (const f of fs.readdirSync(dir).sort()) if (f.endsWith(".sql")) hash.update(fs.readFileSync(path.join(dir, f)));
  for (const f of files) hash.update(fs.readFileSync(path.join(root, f)));
  return hash.digest("hex").slice(0, 16);
}

type KeptDatabase = {
  url: string;
  suffix: string;
  fingerprint: string;
  reseed: boolean;
  /** Fills the freshly migrated database; says what it made for the log. */
  seed: (handle: DatabaseHandle) => Promise<void>;
  log: (line: string) => void;
};

/** The bench's database, kept from an earlier run with the same fingerprint, or made again (dropped, migrated, seeded). */
export async function keptBenchDatabase({ url, suffix, fingerprint, reseed, seed, log }: KeptDatabase): Promise<{ handle: DatabaseHandle; url: string }> {
  const { name, url: target } = benchDatabaseUrl(url, suffix);
  const meta = `bench_${suffix}_meta`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  let kept = false;
  try {
    const exists = (await admin.query("select 1 from pg_database where datname = $1", [name])).rowCount;
    if (exists && !reseed) {
      const probe = new pg.Client({ connectionString: target });
      await probe.connect();
      kept = await probe
        .query<{ fingerprint: string }>(`select fingerprint from ${meta}`)
        .then((r) => r.rows[0]?.fingerprint === fingerprint)
        .catch(() => false);
      await probe.end();
    }
    if (!kept) {
      if (exists) await admin.query(`drop database "${name}" with (force)`);
      await admin.query(`create database "${name}"`);
    }
  } finally {
    await admin.end();
  }
  const handle = openDatabase({ url: target });
  if (kept) {
    log(`database ${name}: kept from an earlier run (fingerprint ${fingerprint})`);
    return { handle, url: target };
  }
  await handle.migrate();
  await seed(handle);
  await handle.db.execute(sql.raw(`create table ${meta} (fingerprint text); insert into ${meta} values ('${fingerprint}')`));
  return { handle, url: target };
}
