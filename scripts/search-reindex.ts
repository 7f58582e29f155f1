/**
 * `npm run search:reindex`: rebuilds the whole search index of the configured database (PostgreSQL at
 * DATABASE_URL, or PGlite in DATA_DIR/db): every item of every searched type queued again, the vocabulary of
 * "did you mean" forgotten, and everything analysed again, in transactions of a few hundred items. For a change
 * of the analysis that no migration carries, or an index an operator no longer trusts. On PostgreSQL it may run
 * while web processes serve (they keep answering from the rows being replaced, and their `search.drain` job
 * shares the queue with it); with PGlite, stop the server first. Day-to-day imports need nothing: the job
 * indexes what they queue within a minute (docs/decisions/0128-search-limits-queue-suggestions.md).
 */
import path from "node:path";
import { sql } from "drizzle-orm";
import { getConfig } from "#server/config.server.ts";
import { openDatabase } from "#server/db/client.server.ts";
import { DatabaseLockedError } from "#server/db/data-folder-lock.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { reindexSearch } from "#server/search/search-index.server.ts";

const config = getConfig();
let handle: ReturnType<typeof openDatabase>;
try {
  handle = openDatabase({ url: config.drivers.database === "postgres" ? config.DATABASE_URL : undefined, dataDir: config.dataDir });
} catch (error) {
  if (error instanceof DatabaseLockedError) console.error(`search:reindex: refused. ${error.message}`);
  else console.error("search:reindex failed:", error instanceof Error ? error.message : error);
  process.exit(1);
}

const where = handle.driver === "postgres" ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${path.join(config.dataDir, "db")}`;
try {
  console.log(`search:reindex: database ${where}`);
  // The schema must be this release's (the search tables and their triggers).
  await handle.migrate(() => console.log("search:reindex: another process is migrating: waiting for it"));
  const started = Date.now();
  const indexed = await reindexSearch(handle.db);
  // The planner's figures for the rebuilt index (PGlite has no autovacuum to make them).
  await handle.db.execute(sql`analyze search_items`);
  const [{ items }] = rowsOf<{ items: number }>(await handle.db.execute(sql`select count(*)::int as items from search_items`));
  console.log(`search:reindex: ${indexed} items analysed in ${((Date.now() - started) / 1000).toFixed(1)} s; ${items} in the index`);
} catch (error) {
  console.error("search:reindex failed:", error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await handle.close();
}
