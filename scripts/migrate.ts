/**
 * `npm run db:migrate`: brings the configured database (PostgreSQL at DATABASE_URL, or PGlite in DATA_DIR/db)
 * up to this release's schema — the migrations of drizzle/, then the search triggers made from the
 * content-type definitions — and exits. On PostgreSQL it holds the migration lock (an advisory lock on a
 * connection of its own) for the whole run, so it may run while web processes start or serve: they wait for
 * it, and a second `db:migrate` finds nothing left to do. With PGlite, stop the server first.
 * See docs/decisions/0118-production-runtime.md.
 */
import path from "node:path";
import { getConfig } from "#server/config.server.ts";
import { openDatabase } from "#server/db/client.server.ts";
import { DatabaseLockedError } from "#server/db/data-folder-lock.server.ts";

const config = getConfig();
let handle: ReturnType<typeof openDatabase>;
try {
  handle = openDatabase({ url: config.drivers.database === "postgres" ? config.DATABASE_URL : undefined, dataDir: config.dataDir });
} catch (error) {
  if (error instanceof DatabaseLockedError) console.error(`db:migrate: refused. ${error.message}`);
  else console.error("db:migrate failed:", error instanceof Error ? error.message : error);
  process.exit(1);
}

const where = handle.driver === "postgres" ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${path.join(config.dataDir, "db")}`;
try {
  console.log(`db:migrate: database ${where}`);
  const pending = await handle.pendingSchemaChanges();
  if (!pending.length) console.log("db:migrate: the schema is current, nothing to do");
  else {
    const { migrations, triggers } = await handle.migrate(() => console.log("db:migrate: another process is migrating: waiting for it"));
    for (const tag of migrations) console.log(`db:migrate: applied ${tag}`);
    if (triggers.length) console.log(`db:migrate: ${triggers.length} search trigger${triggers.length === 1 ? "" : "s"} made or dropped`);
    if (!migrations.length && !triggers.length) console.log("db:migrate: another process made the schema current meanwhile");
  }
} catch (error) {
  console.error("db:migrate failed:", error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await handle.close();
}
