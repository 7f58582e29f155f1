/**
 * Fresh, migrated databases for integration tests: an in-memory PGlite always, and a throw-away
 * PostgreSQL database on the server at TEST_DATABASE_URL when that is set.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { PGlite } from "@electric-sql/pglite";
import { openDatabase, type DatabaseHandle } from "#server/db/client.server.ts";

/** `url`: the PostgreSQL database's address, for a second handle or a child process on the same database. */
export type TestDatabase = DatabaseHandle & { label: string; url?: string; drop: () => Promise<void> };

export const testDatabaseKinds: ("pglite" | "postgres")[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

export async function createTestDatabase(kind: "pglite" | "postgres" = "pglite", { migrate = true } = {}): Promise<TestDatabase> {
  if (kind === "pglite") {
    const h = openDatabase({ inMemory: true, initialData: migrate ? await migratedTemplate() : undefined });
    if (migrate) await h.migrate(); // a no-op on the template; kept so a stale template can never miss a migration
    return { ...h, label: "pglite", drop: () => h.close() };
  }
  const scratch = await createScratchDatabase();
  const h = openDatabase({ url: scratch.url });
  if (migrate) await h.migrate();
  return {
    ...h,
    label: "postgres",
    url: scratch.url,
    drop: async () => {
      await h.close();
      await scratch.drop();
    },
  };
}

/**
 * An empty database of its own on the PostgreSQL server at TEST_DATABASE_URL (its address, and how to drop it):
 * what a test that starts servers on PostgreSQL gives them.
 */
export async function createScratchDatabase(prefix = "t"): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `${prefix}_${Date.now().toString(36)}_${crypto.randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}

/**
 * A dump of a freshly migrated PGlite database, made once per set of migrations and shared by every test file
 * and worker through a file in the temporary folder: creating a PGlite cluster from nothing (its initdb) is
 * most of what a new test database costs, and loading a dump skips it.
 */
function migratedTemplate(): Promise<Blob> {
  templatePromise ??= (async () => {
    const file = path.join(os.tmpdir(), `sahara-pglite-migrated-${migrationsFingerprint()}.tar`);
    if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
    const h = openDatabase({ inMemory: true });
    await h.migrate();
    const dump = await (h.db as unknown as { $client: PGlite }).$client.dumpDataDir("none");
    await h.close();
    // Written aside and renamed, so a worker reading it meanwhile never sees half a file.
    const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}`;
    fs.writeFileSync(temp, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(temp, file);
    return dump;
  })();
  return templatePromise;
}
let templatePromise: Promise<Blob> | undefined;

/** Changes whenever a migration or the PGlite version does. */
function migrationsFingerprint(): string {
  const root = path.resolve(import.meta.dirname, "../..");
  const hash = crypto.createHash("sha256");
  const folder = path.join(root, "drizzle");
  for (const name of fs.readdirSync(folder, { recursive: true }).map(String).sort()) {
    const file = path.join(folder, name);
    if (fs.statSync(file).isFile()) hash.update(name).update(fs.readFileSync(file));
  }
  hash.update(fs.readFileSync(path.join(root, "node_modules/@electric-sql/pglite/package.json")));
  return hash.digest("hex").slice(0, 16);
}
