/**
 * Restoring a backup (`npm run restore`; docs/decisions/0108-backups.md): the archive written by
 * server/ops/backup.server.ts (format: server/ops/backup-format.server.ts) is unpacked and checked whole in a
 * staging folder first, then loaded into the configured database, PGlite or PostgreSQL, in one transaction,
 * with the local folders swapped in by rename.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql, type SQL } from "drizzle-orm";
import type { Database, DatabaseHandle } from "#server/db/client.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { reindexSearch } from "#server/search/search-index.server.ts";
import { ArchiveError, readArchive } from "./backup-archive.server.ts";
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupError,
  codeMigrationLevel,
  databaseMigrationLevel,
  DERIVED_TABLES,
  FILE_SECTIONS,
  formatBytes,
  q,
  readCatalog,
  TRANSIENT_TABLES,
  walkFiles,
  type BackupManifest,
  type Executor,
  type FileSection,
  type MigrationLevel,
  type TableManifest,
  type TableShape,
} from "./backup-format.server.ts";

/** Rows a running server writes by itself (the recurring jobs): their presence does not make a database "in use". */
const BOOKKEEPING_TABLES = ["jobs"];

/** The most JSON sent in one insert while restoring. */
const INSERT_BYTES = 4 * 1024 * 1024;
const INSERT_ROWS = 1000;
/** Far more than any manifest a backup writes: a bigger one is not ours, and is not read into memory. */
const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

const sameLevel = (a: MigrationLevel, b: MigrationLevel) => a.count === b.count && a.lastCreatedAt === b.lastCreatedAt;
const describeLevel = (l: MigrationLevel) => (l.count ? `${l.last} (${l.count} migrations)` : "no migrations");

// ---- Reading a backup ----

/** A backup unpacked and checked in a staging folder: nothing has been written to the target yet. */
export type StagedBackup = { manifest: BackupManifest; dir: string; files: number; fileBytes: number };

function checkManifest(value: unknown): BackupManifest {
  const m = value as Partial<BackupManifest> | null;
  if (!m || typeof m !== "object" || m.format !== BACKUP_FORMAT)
    throw new ArchiveError("This file is not a backup of this site (its manifest is not a sahara-media backup manifest)");
  if (m.version !== BACKUP_VERSION) throw new ArchiveError(`This backup has format version ${String(m.version)}; this release reads version ${BACKUP_VERSION}`);
  const ok =
    Array.isArray(m.tables) &&
    m.tables.every(
      (t) =>
        typeof t?.name === "string" &&
        /^[a-z_][a-z0-9_]*$/.test(t.name) &&
        Array.isArray(t.columns) &&
        Array.isArray(t.primaryKey) &&
        Array.isArray(t.selfReferences) &&
        Number.isInteger(t.rows) &&
        Number.isInteger(t.bytes) &&
        typeof t.sha256 === "string",
    ) &&
    Array.isArray(m.sequences) &&
    !!m.database?.migrations &&
    !!m.files &&
    FILE_SECTIONS.every((s) => typeof m.files?.[s] === "string");
  if (!ok) throw new ArchiveError("The backup's manifest is incomplete or malformed");
  return m as BackupManifest;
}

/** One path segment a backup may contain: no separators, no "." or "..", no hidden names, no control characters. */
const safeSegment = (s: string) =>
  s.length > 0 && Buffer.byteLength(s) <= 255 && !s.startsWith(".") && ![...s].some((c) => c === "/" || c === "\\" || c.charCodeAt(0) < 32);

async function writeStream(file: string, body: AsyncIterable<Buffer>, onChunk: (chunk: Buffer) => void): Promise<void> {
  const handle = await fs.promises.open(file, "wx");
  try {
    for await (const chunk of body) {
      onChunk(chunk);
      await handle.write(chunk);
    }
  } finally {
    await handle.close();
  }
}

async function readAll(body: AsyncIterable<Buffer>, limit: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) throw new ArchiveError(`The backup's ${what} is larger than any backup writes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Unpacks `file` into `dir` (which must not exist) and checks all of it: the manifest first, every table
 * against its row count, size and SHA-256, every file against the index at the end, and the archive's own
 * structure and gzip checksum. `onManifest` may refuse early (a wrong migration level) before anything big is
 * unpacked. Throws ArchiveError for a truncated or corrupted file; `dir` is then removed.
 */
export async function stageBackup(file: string, dir: string, onManifest: (manifest: BackupManifest) => void = () => {}): Promise<StagedBackup> {
  fs.mkdirSync(dir, { recursive: false });
  let manifest: BackupManifest | undefined;
  const seen = new Map<string, { size: number; sha256: string }>();
  const tablesSeen = new Set<string>();
  let indexSeen = false;
  let files = 0;
  let fileBytes = 0;
  try {
    await readArchive(file, async (entries) => {
      for await (const entry of entries) {
        if (!manifest) {
          if (entry.name !== "manifest.json") throw new ArchiveError("This file is not a backup of this site (it does not start with a backup manifest)");
          manifest = parseManifest(await readAll(entry.body, MAX_MANIFEST_BYTES, "manifest"));
          onManifest(manifest);
          fs.mkdirSync(path.join(dir, "database"));
          continue;
        }
        if (indexSeen) throw new ArchiveError(`The backup holds ${JSON.stringify(entry.name)} after its file index`);
        const table = /^database\/([a-z_][a-z0-9_]*)\.jsonl$/.exec(entry.name)?.[1];
        if (table) {
          const expected = manifest.tables.find((t) => t.name === table);
          if (!expected || tablesSeen.has(table)) throw new ArchiveError(`The backup holds an unexpected table file: ${entry.name}`);
          tablesSeen.add(table);
          const hash = crypto.createHash("sha256");
          let rows = 0;
          let bytes = 0;
          await writeStream(path.join(dir, "database", `${table}.jsonl`), entry.body, (chunk) => {
            hash.update(chunk);
            bytes += chunk.length;
            for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
          });
          if (rows !== expected.rows || bytes !== expected.bytes || hash.digest("hex") !== expected.sha256) {
            throw new ArchiveError(
              `The backup is corrupted: table ${table} holds ${rows} rows (${bytes} bytes) where the manifest says ${expected.rows} (${expected.bytes} bytes), or its checksum differs`,
            );
          }
          continue;
        }
        const fileMatch = /^files\/(uploads|videos)\/(.+)$/.exec(entry.name);
        if (fileMatch) {
          const [, section, rel] = fileMatch as unknown as [string, FileSection, string];
          if (manifest.files[section] !== "included") throw new ArchiveError(`The backup holds ${section} files its manifest says it left out`);
          const segments = rel.split("/");
          if (!segments.every(safeSegment)) throw new ArchiveError(`The backup holds a file with an unsafe name: ${JSON.stringify(entry.name)}`);
          const key = `${section}/${rel}`;
          if (seen.has(key)) throw new ArchiveError(`The backup holds ${key} twice`);
          const target = path.join(dir, section, ...segments);
          await fs.promises.mkdir(path.dirname(target), { recursive: true });
          const hash = crypto.createHash("sha256");
          await writeStream(target, entry.body, (chunk) => hash.update(chunk));
          await fs.promises.utimes(target, entry.mtime, entry.mtime);
          seen.set(key, { size: entry.size, sha256: hash.digest("hex") });
          files++;
          fileBytes += entry.size;
          continue;
        }
        if (entry.name === "files.jsonl") {
          indexSeen = true;
          await checkIndex(entry.body, seen);
          continue;
        }
        throw new ArchiveError(`The backup holds an entry a backup never has: ${JSON.stringify(entry.name)}`);
      }
    });
    if (!manifest) throw new ArchiveError("The backup file is empty");
    const missing = manifest.tables.filter((t) => !tablesSeen.has(t.name)).map((t) => t.name);
    if (missing.length) throw new ArchiveError(`The backup is incomplete: the data of ${missing.join(", ")} is missing`);
    if (!indexSeen) throw new ArchiveError("The backup is incomplete: its file index (the last entry) is missing");
    for (const section of FILE_SECTIONS) if (manifest.files[section] === "included") fs.mkdirSync(path.join(dir, section), { recursive: true });
    return { manifest, dir, files, fileBytes };
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The manifest alone (the archive's first entry), without unpacking the rest. */
export async function readManifest(file: string): Promise<BackupManifest> {
  const stop = Symbol("manifest read");
  let manifest: BackupManifest | undefined;
  try {
    await readArchive(file, async (entries) => {
      const next = await entries.next();
      if (next.done) throw new ArchiveError("The backup file is empty");
      const entry = next.value;
      if (entry.name !== "manifest.json") throw new ArchiveError("This file is not a backup of this site (it does not start with a backup manifest)");
      manifest = parseManifest(await readAll(entry.body, MAX_MANIFEST_BYTES, "manifest"));
      throw stop;
    });
  } catch (error) {
    if (error !== stop) throw error;
  }
  if (!manifest) throw new ArchiveError("The backup file is empty");
  return manifest;
}

function parseManifest(bytes: Buffer): BackupManifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new ArchiveError("The backup's manifest is not valid JSON");
  }
  return checkManifest(parsed);
}

/** The index at the end lists every file with its size and SHA-256: each must have arrived, exactly. */
async function checkIndex(body: AsyncIterable<Buffer>, seen: Map<string, { size: number; sha256: string }>) {
  let listed = 0;
  let rest = "";
  const check = (line: string) => {
    if (!line) return;
    let item: { path?: unknown; size?: unknown; sha256?: unknown };
    try {
      item = JSON.parse(line) as typeof item;
    } catch {
      throw new ArchiveError("The backup's file index is corrupted");
    }
    const got = typeof item.path === "string" ? seen.get(item.path) : undefined;
    if (!got) throw new ArchiveError(`The backup is incomplete: ${String(item.path)} is listed but not stored`);
    if (got.size !== item.size || got.sha256 !== item.sha256)
      throw new ArchiveError(`The backup is corrupted: ${String(item.path)} does not match its checksum`);
    listed++;
  };
  for await (const chunk of body) {
    const lines = (rest + chunk.toString("utf8")).split("\n");
    rest = lines.pop() ?? "";
    if (rest.length > 1024 * 1024) throw new ArchiveError("The backup's file index is corrupted");
    lines.forEach(check);
  }
  check(rest);
  if (listed !== seen.size) throw new ArchiveError(`The backup is corrupted: ${seen.size - listed} stored files are not in its index`);
}

// ---- Restore ----

export type RestoreOptions = {
  handle: DatabaseHandle;
  file: string;
  /** Where uploads/ and videos/ live (DATA_DIR); the staging folder is made here, so the final move is a rename. */
  dataDir: string;
  /** Folders this site keeps elsewhere (a hosted driver): their files in the backup, if any, are not restored. */
  skipFiles?: Partial<Record<FileSection, string>>;
  /** Replace a database that already holds content. */
  force?: boolean;
  log?: (message: string) => void;
};

export type RestoreSummary = {
  tables: Record<string, number>;
  files: number;
  fileBytes: number;
  restoredFolders: FileSection[];
  searchItems: number;
  ms: number;
};

/** Rows of the backed-up tables (the bookkeeping ones aside), and files in the folders a restore would replace. */
export async function describeContent(db: Executor, dataDir: string, sections: readonly FileSection[] = FILE_SECTIONS): Promise<string[]> {
  const catalog = await readCatalog(db);
  const found: string[] = [];
  const ignore = new Set<string>([...DERIVED_TABLES, ...TRANSIENT_TABLES, ...BOOKKEEPING_TABLES]);
  for (const name of [...catalog.keys()].sort()) {
    if (ignore.has(name)) continue;
    const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from ${q(name)}`));
    if (Number(row?.n)) found.push(`${name}: ${row.n} rows`);
  }
  for (const section of sections) {
    let n = 0;
    for await (const _file of walkFiles(path.join(dataDir, section))) n++;
    if (n) found.push(`${section}/: ${n} files`);
  }
  return found;
}

/**
 * Restores a backup: unpacks and checks all of it first (a bad file changes nothing), then, in one
 * transaction, empties the tables, loads every row, sets the sequences, hands back jobs the old site was
 * running, and rebuilds the search index; the folders are swapped in by rename just before the commit and
 * swapped back if it fails. Refuses a database with content unless `force`.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreSummary> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const { db } = options.handle;
  const dataDir = path.resolve(options.dataDir);
  const code = codeMigrationLevel();
  const checkLevel = (manifest: BackupManifest) => {
    if (!sameLevel(manifest.database.migrations, code)) {
      throw new BackupError(
        `This backup was made at migration ${describeLevel(manifest.database.migrations)}; this release is at ${describeLevel(code)}. ` +
          "Restore it with the release that made it (then start this release, which migrates it), or use a backup made by this release.",
        { backupMigrations: manifest.database.migrations.count, codeMigrations: code.count },
      );
    }
  };
  // The cheap refusals first (not a backup, another release, a target with content), before unpacking gigabytes.
  const first = await readManifest(options.file);
  checkLevel(first);
  await options.handle.migrate();
  const level = await databaseMigrationLevel(db);
  if (!sameLevel(level, code)) {
    throw new BackupError(`The target database is at migration ${describeLevel(level)}, not this release's ${describeLevel(code)}`, {
      databaseMigrations: level.count,
      codeMigrations: code.count,
    });
  }
  const sections = FILE_SECTIONS.filter((s) => first.files[s] === "included" && !options.skipFiles?.[s]);
  if (!options.force) {
    const content = await describeContent(db, dataDir, sections);
    if (content.length) {
      throw new BackupError(`The target already holds content (${content.join(", ")}). A restore replaces all of it: run again with --force to do so.`);
    }
  }

  fs.mkdirSync(dataDir, { recursive: true });
  const staging = path.join(dataDir, `.restore-${process.pid}-${crypto.randomBytes(4).toString("hex")}`);
  const staged = await stageBackup(options.file, staging, checkLevel);
  try {
    const { manifest } = staged;
    if (JSON.stringify(manifest.files) !== JSON.stringify(first.files)) throw new ArchiveError("The backup file changed while it was being read");
    log(
      `backup checked: ${manifest.tables.length} tables, ${staged.files} files (${formatBytes(staged.fileBytes)}), made ${manifest.createdAt} on ${manifest.database.driver}`,
    );

    const catalog = await readCatalog(db);
    checkSameTables(manifest, catalog);

    let searchItems = 0;
    const swaps: { live: string; old: string }[] = [];
    try {
      await db.transaction(async (tx) => {
        const all = [...catalog.keys()].sort();
        await tx.execute(sql`truncate ${sql.join(all.map(q), sql`, `)} restart identity cascade`);
        for (const t of manifest.tables) {
          await loadTable(tx as unknown as Database, t, catalog.get(t.name)!, path.join(staging, "database", `${t.name}.jsonl`));
          log(`${t.name}: ${t.rows} rows`);
        }
        for (const s of manifest.sequences) await restoreSequence(tx as unknown as Database, s);
        // The workers that held these jobs belong to the site the backup was taken from.
        await tx.execute(sql`update jobs set state = 'queued', locked_by = null, locked_until = null where state = 'running'`);
        searchItems = await reindexSearch(tx as unknown as Database);
        log(`search index rebuilt: ${searchItems} items`);
        for (const section of sections) {
          const live = path.join(dataDir, section);
          const old = path.join(staging, `previous-${section}`);
          if (fs.existsSync(live)) {
            fs.renameSync(live, old);
            swaps.push({ live, old });
          } else swaps.push({ live, old: "" });
          fs.renameSync(path.join(staging, section), live);
        }
      });
    } catch (error) {
      // Anything failed, the commit included: the previous folders go back where they were.
      for (const { live, old } of swaps.reverse()) {
        fs.rmSync(live, { recursive: true, force: true });
        if (old) fs.renameSync(old, live);
      }
      throw error;
    }
    // Fresh planner statistics for what was just loaded (PostgreSQL would take a while to notice by itself);
    // the restore has committed, so a failure here is not a failed restore.
    await db.execute(sql`analyze`).catch(() => {});
    return {
      tables: Object.fromEntries(manifest.tables.map((t) => [t.name, t.rows])),
      files: staged.files,
      fileBytes: staged.fileBytes,
      restoredFolders: sections,
      searchItems,
      ms: Date.now() - started,
    };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** The backup's tables and columns must be this database's, exactly: a restore never guesses a mapping. */
function checkSameTables(manifest: BackupManifest, catalog: Map<string, TableShape>) {
  const restorable = [...catalog.keys()].filter(
    (n) => !(DERIVED_TABLES as readonly string[]).includes(n) && !(TRANSIENT_TABLES as readonly string[]).includes(n),
  );
  const inBackup = new Set(manifest.tables.map((t) => t.name));
  const extra = restorable.filter((n) => !inBackup.has(n));
  const unknown = manifest.tables.filter((t) => !catalog.has(t.name)).map((t) => t.name);
  if (extra.length || unknown.length) {
    throw new BackupError(
      `The backup's tables do not match this database's (${[...extra.map((n) => `missing ${n}`), ...unknown.map((n) => `unknown ${n}`)].join(", ")})`,
      { missing: extra.length, unknown: unknown.length },
    );
  }
  for (const t of manifest.tables) {
    const here = catalog
      .get(t.name)!
      .columns.map((c) => `${c.name} ${c.type}`)
      .join(", ");
    const there = t.columns.map((c) => `${c.name} ${c.type}`).join(", ");
    if (here !== there) throw new BackupError(`The columns of ${t.name} differ between the backup and this database`, { table: t.name });
  }
}

/** Reads a table's lines in batches of bounded size and inserts each batch with one statement. */
async function loadTable(db: Database, t: TableManifest, shape: TableShape, file: string) {
  const insertable = shape.columns.filter((c) => !c.generated);
  const self = new Set(t.selfReferences);
  const target = sql.join(
    insertable.map((c) => q(c.name)),
    sql`, `,
  );
  // Self-references are set in a second pass: a child may come before its parent in key order.
  const values = sql.join(
    insertable.map((c) => (self.has(c.name) ? sql`null` : sql`s.${q(c.name)}`)),
    sql`, `,
  );
  const insert = (json: string) =>
    db.execute(
      sql`insert into ${q(t.name)} (${target}) overriding system value select ${values} from json_populate_recordset(null::${q(t.name)}, ${json}::json) s`,
    );
  await eachBatch(file, insert);
  if (self.size) {
    if (!t.primaryKey.length) throw new BackupError(`${t.name} references itself but has no primary key; it cannot be restored`, { table: t.name });
    const match = sql.join(
      t.primaryKey.map((k) => sql`d.${q(k)} = s.${q(k)}`),
      sql` and `,
    );
    const set = sql.join(
      [...self].map((c) => sql`${q(c)} = s.${q(c)}`),
      sql`, `,
    );
    const anySet = sql.join(
      [...self].map((c) => sql`s.${q(c)} is not null`),
      sql` or `,
    );
    await eachBatch(file, (json) =>
      db.execute(sql`update ${q(t.name)} d set ${set} from json_populate_recordset(null::${q(t.name)}, ${json}::json) s where ${match} and (${anySet})`),
    );
  }
}

async function eachBatch(file: string, run: (json: string) => Promise<unknown>) {
  let batch: string[] = [];
  let bytes = 0;
  const flush = async () => {
    if (!batch.length) return;
    await run(`[${batch.join(",")}]`);
    batch = [];
    bytes = 0;
  };
  let rest = "";
  for await (const chunk of fs.createReadStream(file, { encoding: "utf8", highWaterMark: 256 * 1024 }) as AsyncIterable<string>) {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) {
      if (!line) continue;
      batch.push(line);
      bytes += line.length;
      if (bytes >= INSERT_BYTES || batch.length >= INSERT_ROWS) await flush();
    }
  }
  if (rest) batch.push(rest);
  await flush();
}

/** The sequence as it was, unless rows now go past it (never hand out an id that exists). */
async function restoreSequence(db: Database, s: BackupManifest["sequences"][number]) {
  if (!/^-?\d+$/.test(s.lastValue))
    throw new BackupError(`The backup's sequence value for ${s.table}.${s.column} is not a number`, { table: s.table, column: s.column });
  const seq = sql`pg_get_serial_sequence(${`"${s.table.replace(/"/g, '""')}"`}, ${s.column})`;
  const statement: SQL = sql`select setval(${seq},
      greatest(${s.lastValue}::bigint, coalesce((select max(${q(s.column)}) from ${q(s.table)}), 0)::bigint),
      ${s.isCalled} or coalesce((select max(${q(s.column)}) from ${q(s.table)}), 0)::bigint >= ${s.lastValue}::bigint)`;
  await db.execute(statement);
}
