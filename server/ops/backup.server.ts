/**
 * Writing a backup (`npm run backup`; docs/decisions/0108-backups.md): the database as data and the locally
 * stored files, in one .tar.gz that restores into PGlite or PostgreSQL alike. What the archive holds is
 * described in server/ops/backup-format.server.ts; server/ops/restore.server.ts reads it back.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Database, DatabaseHandle } from "#server/db/client.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { writeTarGz, type EntrySource, type WrittenFile } from "./backup-archive.server.ts";
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupError,
  databaseMigrationLevel,
  DERIVED_TABLES,
  FILE_SECTIONS,
  q,
  readCatalog,
  TRANSIENT_TABLES,
  walkFiles,
  type BackupManifest,
  type Executor,
  type FileSection,
  type TableManifest,
  type TableShape,
} from "./backup-format.server.ts";

/** Rows fetched per round trip while dumping. */
const FETCH_ROWS = 250;

/** Parents before children, by name otherwise, so that every foreign key finds its row already there. */
function dependencyOrder(tables: Map<string, TableShape>, names: string[]): string[] {
  const wanted = new Set(names);
  const done = new Set<string>();
  const order: string[] = [];
  const sorted = [...names].sort();
  while (order.length < sorted.length) {
    const next = sorted.find((name) => !done.has(name) && tables.get(name)!.references.every((r) => done.has(r) || !wanted.has(r)));
    if (!next) {
      const cycle = sorted.filter((n) => !done.has(n));
      throw new BackupError(`The tables ${cycle.join(", ")} reference each other in a cycle; a backup cannot order them`, { tables: cycle.length });
    }
    done.add(next);
    order.push(next);
  }
  return order;
}

export type BackupOptions = {
  handle: Pick<DatabaseHandle, "db" | "driver">;
  /** The .tar.gz to write; it must not exist. Written aside and renamed, so it is never seen half-written. */
  output: string;
  /** The folders to include, or why not (e.g. "not included: STORAGE_DRIVER=s3 keeps the files in the bucket"). */
  files: Record<FileSection, { dir: string } | { skipped: string }>;
  log?: (message: string) => void;
};

export type BackupSummary = { file: string; bytes: number; tables: Record<string, number>; files: number; fileBytes: number; skippedFiles: number; ms: number };

/**
 * Writes a backup of the database and the local files. The database is read in one read-only REPEATABLE READ
 * transaction: a consistent snapshot even while a PostgreSQL site keeps writing. Files are copied after it, so
 * a file uploaded during the backup may be missing and one deleted meanwhile is skipped (counted).
 */
export async function createBackup(options: BackupOptions): Promise<BackupSummary> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const output = path.resolve(options.output);
  if (fs.existsSync(output)) throw new BackupError(`${output} already exists; a backup never overwrites a file`, { file: output });
  fs.mkdirSync(path.dirname(output), { recursive: true });
  const work = fs.mkdtempSync(path.join(path.dirname(output), ".backup-"));
  const partial = `${output}.partial`;
  try {
    const { tables, sequences, migrations } = await dumpDatabase(options.handle.db, work, log);
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: new Date().toISOString(),
      database: { driver: options.handle.driver, migrations },
      tables,
      sequences,
      files: {
        uploads: "dir" in options.files.uploads ? "included" : options.files.uploads.skipped,
        videos: "dir" in options.files.videos ? "included" : options.files.videos.skipped,
      },
      excludedTables: [...DERIVED_TABLES, ...TRANSIENT_TABLES],
    };

    const indexFile = path.join(work, "files.jsonl");
    const index = fs.createWriteStream(indexFile);
    let files = 0;
    let fileBytes = 0;
    let skippedFiles = 0;
    async function* entries(): AsyncGenerator<EntrySource> {
      yield { name: "manifest.json", data: Buffer.from(JSON.stringify(manifest, null, 2) + "\n") };
      for (const t of tables) yield { name: `database/${t.name}.jsonl`, file: path.join(work, `${t.name}.jsonl`) };
      for (const section of FILE_SECTIONS) {
        const source = options.files[section];
        if (!("dir" in source)) continue;
        for await (const rel of walkFiles(source.dir)) yield { name: `files/${section}/${rel}`, file: path.join(source.dir, ...rel.split("/")) };
      }
      await new Promise<void>((resolve, reject) => index.end((error?: Error | null) => (error ? reject(error) : resolve())));
      yield { name: "files.jsonl", file: indexFile };
    }
    const onFile = async (written: WrittenFile | null, source: EntrySource) => {
      if (!source.name.startsWith("files/")) {
        if (!written) throw new BackupError(`${source.name} disappeared while the backup was being written`, { entry: source.name });
        return;
      }
      if (!written) {
        skippedFiles++;
        return;
      }
      files++;
      fileBytes += written.size;
      const line =
        JSON.stringify({ path: written.name.slice("files/".length), size: written.size, mtime: written.mtime.toISOString(), sha256: written.sha256 }) + "\n";
      if (!index.write(line)) await new Promise<void>((resolve) => index.once("drain", () => resolve()));
    };
    await writeTarGz(partial, entries(), { onFile });
    fs.renameSync(partial, output);
    return {
      file: output,
      bytes: fs.statSync(output).size,
      tables: Object.fromEntries(tables.map((t) => [t.name, t.rows])),
      files,
      fileBytes,
      skippedFiles,
      ms: Date.now() - started,
    };
  } finally {
    fs.rmSync(partial, { force: true });
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function dumpDatabase(db: Database, dir: string, log: (message: string) => void) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set transaction isolation level repeatable read, read only`);
    // One time zone for the text of every timestamp: two backups of the same data are the same bytes.
    await tx.execute(sql`set local timezone = 'UTC'`);
    const migrations = await databaseMigrationLevel(tx);
    if (!migrations.count) throw new BackupError("The database has no tables yet (it was never migrated): there is nothing to back up");
    const catalog = await readCatalog(tx);
    const excluded = new Set<string>([...DERIVED_TABLES, ...TRANSIENT_TABLES]);
    const names = dependencyOrder(
      catalog,
      [...catalog.keys()].filter((n) => !excluded.has(n)),
    );
    const tables: TableManifest[] = [];
    for (const name of names) {
      const shape = catalog.get(name)!;
      const file = path.join(dir, `${name}.jsonl`);
      const out = fs.createWriteStream(file);
      const hash = crypto.createHash("sha256");
      let rows = 0;
      let bytes = 0;
      const order = shape.primaryKey.length ? sql` order by ${sql.join(shape.primaryKey.map(q), sql`, `)}` : sql``;
      await tx.execute(sql`declare backup_rows no scroll cursor for select row_to_json(t)::text as j from ${q(name)} t${order}`);
      for (;;) {
        const batch = rowsOf<{ j: string }>(await tx.execute(sql.raw(`fetch forward ${FETCH_ROWS} from backup_rows`)));
        if (!batch.length) break;
        // One row per line: row_to_json escapes line breaks in strings, but a json (not jsonb) column keeps its
        // text as written, whose line breaks can only be whitespace between tokens.
        const text = batch.map((r) => (r.j.includes("\n") ? r.j.replace(/\r?\n/g, " ") : r.j)).join("\n") + "\n";
        hash.update(text);
        bytes += Buffer.byteLength(text);
        rows += batch.length;
        if (!out.write(text)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
      }
      await tx.execute(sql`close backup_rows`);
      await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
      tables.push({
        name,
        columns: shape.columns.map(({ name, type }) => ({ name, type })),
        primaryKey: shape.primaryKey,
        selfReferences: shape.selfReferences,
        rows,
        bytes,
        sha256: hash.digest("hex"),
      });
      log(`${name}: ${rows} rows`);
    }
    const sequences = await readSequences(tx, new Set(names));
    return { tables, sequences, migrations };
  });
}

async function readSequences(db: Executor, tables: Set<string>): Promise<BackupManifest["sequences"]> {
  const owned = rowsOf<{ table: string; column: string; sequence: string }>(
    await db.execute(sql`select c.relname::text as table, a.attname::text as column, s.relname::text as sequence
      from pg_depend d join pg_class s on s.oid = d.objid and s.relkind = 'S'
      join pg_class c on c.oid = d.refobjid join pg_attribute a on a.attrelid = c.oid and a.attnum = d.refobjsubid
      join pg_namespace n on n.oid = c.relnamespace
      where d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i') and n.nspname = current_schema()
      order by 1, 2`),
  );
  const out: BackupManifest["sequences"] = [];
  for (const s of owned.filter((o) => tables.has(o.table))) {
    const [value] = rowsOf<{ last_value: string; is_called: boolean }>(
      await db.execute(sql`select last_value::text as last_value, is_called from ${q(s.sequence)}`),
    );
    out.push({ table: s.table, column: s.column, lastValue: value.last_value, isCalled: Boolean(value.is_called) });
  }
  return out;
}
