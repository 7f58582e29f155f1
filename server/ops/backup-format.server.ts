/**
 * What a backup is, as both sides read it (docs/decisions/0108-backups.md): the archive's format and manifest,
 * the tables it leaves out, what the database's catalog says of the tables, the migration levels, and the
 * local folders whose files travel with it. Written by server/ops/backup.server.ts, read back by
 * server/ops/restore.server.ts.
 *
 * The archive, in this order:
 *   manifest.json            format, version, time, driver, migration level, and per table its columns, row
 *                            count, byte count and SHA-256 (dependency order: parents before children)
 *   database/<table>.jsonl   one row per line, as PostgreSQL's own row_to_json wrote it, in primary-key order
 *   files/uploads/…          DATA_DIR/uploads (STORAGE_DRIVER=local)
 *   files/videos/…           DATA_DIR/videos (VIDEO_DRIVER=local)
 *   files.jsonl              last: path, size, mtime and SHA-256 of every file above
 *
 * Rows travel as JSON made and read by the database (row_to_json out, json_populate_recordset in), so no
 * value passes through a JavaScript type on the way: microseconds of timestamps, bigints, arrays and jsonb
 * come back exactly, and either driver reads what the other wrote. Derived tables (the search index) and
 * short-lived ones (rate-limit counters) are left out and rebuilt or started afresh.
 */
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Config } from "#server/config.server.ts";
import type { Database } from "#server/db/client.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { CodedError, type ErrorContext } from "#server/errors.server.ts";
import { migrationsFolder } from "#server/paths.server.ts";

export const BACKUP_FORMAT = "sahara-media-backup";
export const BACKUP_VERSION = 1;

/** Rebuilt from the content after a restore (server/search/search-index.server.ts): a copy would only go stale. */
export const DERIVED_TABLES = ["search_items", "search_terms", "search_queue"] as const;
/** Counters that only matter for the next minutes (better-auth's rate limits): a restored site starts them afresh. */
export const TRANSIENT_TABLES = ["rate_limit"] as const;

export type FileSection = "uploads" | "videos";
export const FILE_SECTIONS: readonly FileSection[] = ["uploads", "videos"];

export type TableManifest = {
  name: string;
  columns: { name: string; type: string }[];
  primaryKey: string[];
  /** Columns referencing the same table (categories.parent_id): restored in a second pass, after every row exists. */
  selfReferences: string[];
  rows: number;
  bytes: number;
  sha256: string;
};

export type BackupManifest = {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  database: { driver: "pglite" | "postgres"; migrations: MigrationLevel };
  tables: TableManifest[];
  sequences: { table: string; column: string; lastValue: string; isCalled: boolean }[];
  /** Per folder: "included", or why not (the files live on a hosted service). */
  files: Record<FileSection, string>;
  excludedTables: string[];
};

export type MigrationLevel = { count: number; last: string | null; lastCreatedAt: string | null };

/** A refusal or failure with a message meant for the operator; `context` names the table, file or level at stake. */
export class BackupError extends CodedError {
  constructor(message: string, context: ErrorContext = {}) {
    super("BACKUP_FAILED", message, { context });
  }
}

export const q = (name: string) => sql.raw(`"${name.replace(/"/g, '""')}"`);
export type Executor = Pick<Database, "execute">;

// ---- What the database holds ----

export type TableShape = {
  name: string;
  columns: { name: string; type: string; generated: boolean }[];
  primaryKey: string[];
  references: string[];
  selfReferences: string[];
};

/** The tables of the current schema, their columns, keys and references, read from the catalog (both drivers). */
export async function readCatalog(db: Executor): Promise<Map<string, TableShape>> {
  const tables = new Map<string, TableShape>();
  const cols = rowsOf<{ table: string; name: string; type: string; generated: boolean }>(
    await db.execute(sql`select c.relname::text as table, a.attname::text as name, format_type(a.atttypid, a.atttypmod) as type,
        a.attgenerated <> '' as generated
      from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
      order by c.relname, a.attnum`),
  );
  for (const col of cols) {
    let t = tables.get(col.table);
    if (!t) tables.set(col.table, (t = { name: col.table, columns: [], primaryKey: [], references: [], selfReferences: [] }));
    t.columns.push({ name: col.name, type: col.type, generated: Boolean(col.generated) });
  }
  const keys = rowsOf<{ table: string; kind: string; target: string; columns: string[] }>(
    await db.execute(sql`select c.relname::text as table, con.contype::text as kind, coalesce(r.relname::text, '') as target,
        json_agg(a.attname::text order by k.ord) as columns
      from pg_constraint con join pg_class c on c.oid = con.conrelid join pg_namespace n on n.oid = c.relnamespace
      left join pg_class r on r.oid = con.confrelid
      cross join lateral unnest(con.conkey) with ordinality as k(attnum, ord)
      join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
      where n.nspname = current_schema() and con.contype in ('p', 'f')
      group by con.oid, c.relname, con.contype, r.relname`),
  );
  for (const key of keys) {
    const t = tables.get(key.table);
    if (!t) continue;
    const columns = typeof key.columns === "string" ? (JSON.parse(key.columns) as string[]) : key.columns;
    if (key.kind === "p") t.primaryKey = columns;
    else if (key.target === key.table) t.selfReferences.push(...columns);
    else t.references.push(key.target);
  }
  return tables;
}

/** The migrations this code ships (drizzle/meta/_journal.json). */
export function codeMigrationLevel(folder = migrationsFolder()): MigrationLevel & { tags: Map<string, string> } {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as { entries: { tag: string; when: number }[] };
  const last = journal.entries.at(-1);
  return {
    count: journal.entries.length,
    last: last?.tag ?? null,
    lastCreatedAt: last ? String(last.when) : null,
    tags: new Map(journal.entries.map((e) => [String(e.when), e.tag])),
  };
}

/** The migrations applied to a database, named by this code's journal when it knows them. */
export async function databaseMigrationLevel(db: Executor): Promise<MigrationLevel> {
  let row: { n: number; last: string | null } | undefined;
  try {
    [row] = rowsOf<{ n: number; last: string | null }>(
      await db.execute(sql`select count(*)::int as n, max(created_at)::text as last from drizzle.__drizzle_migrations`),
    );
  } catch {
    return { count: 0, last: null, lastCreatedAt: null };
  }
  const lastCreatedAt = row?.last ?? null;
  return {
    count: Number(row?.n ?? 0),
    last: lastCreatedAt ? (codeMigrationLevel().tags.get(lastCreatedAt) ?? `unknown (${lastCreatedAt})`) : null,
    lastCreatedAt,
  };
}

// ---- The local folders ----

/** Which folders this site keeps on its own disk: the hosted drivers keep theirs at the provider. */
export function localFolders(config: Pick<Config, "dataDir" | "drivers">): Record<FileSection, { dir: string } | { skipped: string }> {
  const { storage, video } = config.drivers;
  return {
    uploads:
      storage === "local"
        ? { dir: path.join(config.dataDir, "uploads") }
        : { skipped: `not included: STORAGE_DRIVER=${storage} keeps uploaded files at the provider; back them up there` },
    videos:
      video === "local"
        ? { dir: path.join(config.dataDir, "videos") }
        : { skipped: `not included: VIDEO_DRIVER=${video} keeps the videos in the Bunny Stream library; back them up there` },
  };
}

/**
 * Every regular file below `root` as a relative path with "/", in a stable order. Names starting with a dot
 * are work in progress (partial uploads, encoder scratch folders) and are left out; symbolic links are not
 * followed.
 */
export async function* walkFiles(root: string, prefix = ""): AsyncGenerator<string> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(path.join(root, ...prefix.split("/").filter(Boolean)), { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* walkFiles(root, rel);
    else if (entry.isFile()) yield rel;
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}
