/**
 * Fresh, migrated databases for integration tests: an in-memory PGlite always, and a throw-away
 * PostgreSQL database on the server at TEST_DATABASE_URL when that is set.
 */
import crypto from "node:crypto";
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "../../server/db/client.ts";

export type TestDatabase = DatabaseHandle & { label: string; drop: () => Promise<void> };

export const testDatabaseKinds: ("pglite" | "postgres")[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

export async function createTestDatabase(kind: "pglite" | "postgres" = "pglite", { migrate = true } = {}): Promise<TestDatabase> {
  if (kind === "pglite") {
    const h = openDatabase({ inMemory: true });
    if (migrate) await h.migrate();
    return { ...h, label: "pglite", drop: () => h.close() };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `t_${Date.now().toString(36)}_${crypto.randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const h = openDatabase({ url: url.toString() });
  if (migrate) await h.migrate();
  return {
    ...h,
    label: "postgres",
    drop: async () => {
      await h.close();
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}
