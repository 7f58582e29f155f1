/**
 * `npm run restore -- <backup.tar.gz> [--force]`
 *
 * Restores a backup made by `npm run backup` into the configured database (PGlite in DATA_DIR/db or
 * PostgreSQL at DATABASE_URL, whichever made the backup) and DATA_DIR/uploads, DATA_DIR/videos. The whole
 * file is checked before anything is written; a database that already holds content is replaced only with
 * --force. With PGlite, stop the server first. See docs/decisions/0108-backups.md.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { getConfig } from "#server/config.server.ts";
import { openDatabase } from "#server/db/client.server.ts";
import { DatabaseLockedError } from "#server/db/data-folder-lock.server.ts";
import { ArchiveError } from "#server/ops/backup-archive.server.ts";
import { BackupError, FILE_SECTIONS, formatBytes, localFolders, type FileSection } from "#server/ops/backup-format.server.ts";
import { restoreBackup } from "#server/ops/restore.server.ts";

const usage = "usage: npm run restore -- <backup.tar.gz> [--force]";

let values: { force?: boolean; help?: boolean };
let positionals: string[];
try {
  ({ values, positionals } = parseArgs({ options: { force: { type: "boolean" }, help: { type: "boolean", short: "h" } }, allowPositionals: true }));
} catch (error) {
  console.error(`restore: ${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (values.help || positionals.length !== 1) {
  console.log(usage);
  process.exit(values.help ? 0 : 2);
}
// npm runs scripts from the project folder; a relative path means one relative to where the command was typed.
const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]);

const config = getConfig();
let handle: ReturnType<typeof openDatabase>;
try {
  handle = openDatabase({ url: config.drivers.database === "postgres" ? config.DATABASE_URL : undefined, dataDir: config.dataDir });
} catch (error) {
  if (error instanceof DatabaseLockedError) {
    console.error(`restore: refused. ${error.message}`);
    console.error("restore: the embedded database (PGlite) can be opened by one process only: stop the server, restore, start it again.");
  } else console.error("restore failed:", error instanceof Error ? error.message : error);
  process.exit(1);
}

const where = handle.driver === "postgres" ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${path.join(config.dataDir, "db")}`;
const folders = localFolders(config);
const skipFiles: Partial<Record<FileSection, string>> = {};
for (const section of FILE_SECTIONS) {
  const source = folders[section];
  if (!("dir" in source)) skipFiles[section] = source.skipped;
}
try {
  console.log(`restore: ${file} into database ${where} and ${config.dataDir}`);
  const summary = await restoreBackup({ handle, file, dataDir: config.dataDir, skipFiles, force: values.force, log: (m) => console.log(`restore: ${m}`) });
  const rows = Object.values(summary.tables).reduce((a, b) => a + b, 0);
  console.log(`restore: ${Object.keys(summary.tables).length} tables, ${rows} rows; search index rebuilt (${summary.searchItems} items)`);
  for (const section of FILE_SECTIONS) {
    if (summary.restoredFolders.includes(section)) console.log(`restore: ${section}/ replaced`);
    else console.log(`restore: ${section}/ left as it was (${skipFiles[section] ?? "not in this backup"})`);
  }
  console.log(`restore: ${summary.files} files (${formatBytes(summary.fileBytes)}) checked; done in ${(summary.ms / 1000).toFixed(1)} s`);
  if (handle.driver === "postgres") await tellRunningProcesses();
} catch (error) {
  const known = error instanceof ArchiveError || error instanceof BackupError;
  console.error(`restore: ${known ? "refused" : "failed"}: ${error instanceof Error ? error.message : String(error)}`);
  console.error("restore: the database and folders keep their previous content.");
  process.exitCode = 1;
} finally {
  await handle.close();
}

/** Web processes on PostgreSQL may be running: they hold cached pages of the content that was just replaced. */
async function tellRunningProcesses() {
  if (!config.REDIS_URL) {
    console.log("restore: restart any running web processes and workers: their caches still hold the previous content.");
    return;
  }
  const { startCacheBus } = await import("#server/content/cache-bus.server.ts");
  const { invalidate, CACHE_TAG_NAMES } = await import("#server/content/cache.server.ts");
  const bus = startCacheBus({ url: config.REDIS_URL });
  try {
    await bus.ready;
    invalidate(...CACHE_TAG_NAMES);
    console.log("restore: running processes were told (REDIS_URL) to drop their cached content.");
  } catch {
    console.log("restore: Redis could not be reached: restart any running web processes, their caches still hold the previous content.");
  } finally {
    await bus.stop();
  }
}
