/**
 * `npm run backup [-- --output <file.tar.gz | folder>]`
 *
 * Writes one .tar.gz with the database (as data, restorable into PGlite or PostgreSQL) and the files kept on
 * this machine (DATA_DIR/uploads, DATA_DIR/videos), by default in DATA_DIR/backups/. With PGlite, stop the
 * server first: the embedded database belongs to one process. PostgreSQL is read in one snapshot while the
 * site keeps serving. See docs/decisions/0108-backups.md.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { getConfig } from "#server/config.server.ts";
import { openDatabase } from "#server/db/client.server.ts";
import { DatabaseLockedError } from "#server/db/data-folder-lock.server.ts";
import { createBackup } from "#server/ops/backup.server.ts";
import { BackupError, formatBytes, localFolders } from "#server/ops/backup-format.server.ts";

const usage = "usage: npm run backup [-- --output <file.tar.gz | folder>]";

let values: { output?: string; help?: boolean };
let positionals: string[];
try {
  ({ values, positionals } = parseArgs({ options: { output: { type: "string", short: "o" }, help: { type: "boolean", short: "h" } }, allowPositionals: true }));
} catch (error) {
  console.error(`backup: ${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (values.help || positionals.length > 1 || (positionals.length && values.output)) {
  console.log(usage);
  process.exit(values.help ? 0 : 2);
}

const config = getConfig();
const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
const name = `sahara-media-${stamp}.tar.gz`;
const given = values.output ?? positionals[0];
// npm runs scripts from the project folder; a relative path means one relative to where the command was typed.
let output = given ? path.resolve(process.env.INIT_CWD ?? process.cwd(), given) : path.join(config.dataDir, "backups", name);
// A folder (existing, or named with a trailing slash) gets a dated file inside.
if ((given && /[\\/]$/.test(given)) || (fs.existsSync(output) && fs.statSync(output).isDirectory())) output = path.join(output, name);

let handle: ReturnType<typeof openDatabase>;
try {
  handle = openDatabase({ url: config.drivers.database === "postgres" ? config.DATABASE_URL : undefined, dataDir: config.dataDir });
} catch (error) {
  if (error instanceof DatabaseLockedError) {
    console.error(`backup: refused. ${error.message}`);
    console.error("backup: the embedded database (PGlite) can be read by one process only: stop the server, run the backup, start it again.");
  } else console.error("backup failed:", error instanceof Error ? error.message : error);
  process.exit(1);
}

const where = handle.driver === "postgres" ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${path.join(config.dataDir, "db")}`;
const folders = localFolders(config);
try {
  console.log(`backup: database ${where}`);
  for (const [section, source] of Object.entries(folders)) console.log(`backup: ${section}: ${"dir" in source ? `files in ${source.dir}` : source.skipped}`);
  const summary = await createBackup({ handle, output, files: folders });
  const rows = Object.values(summary.tables).reduce((a, b) => a + b, 0);
  console.log(`backup: ${Object.keys(summary.tables).length} tables, ${rows} rows; ${summary.files} files (${formatBytes(summary.fileBytes)})`);
  if (summary.skippedFiles) console.log(`backup: ${summary.skippedFiles} files were deleted while the backup ran and are not in it`);
  console.log(`backup: wrote ${summary.file} (${formatBytes(summary.bytes)}) in ${(summary.ms / 1000).toFixed(1)} s`);
  console.log(
    "backup: not included: the search index (rebuilt on restore), rate-limit counters, DATA_DIR/.auth-secret, the e-mail outbox, unfinished uploads.",
  );
} catch (error) {
  console.error("backup failed:", error instanceof BackupError || error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await handle.close();
}
