/**
 * Backup and restore on real databases and real files (issue 15, "Backups"): a demo site with extra rows of
 * every kind is backed up by `npm run backup` (a child process), restored by `npm run restore` into a fresh
 * PGlite data dir and, with TEST_DATABASE_URL, into PostgreSQL and back; every table's rows, every sequence,
 * the search index and every file's bytes must come back identical. Broken archives are refused and leave
 * the target exactly as it was.
 */
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { openDatabase, type Database, type DatabaseHandle } from "#server/db/client.server.ts";
import {
  articles,
  categories,
  contacts,
  contentRevisions,
  contentViews,
  jobs,
  newsletterSubscribers,
  profiles,
  rateLimit,
  session,
  slugRedirects,
  user,
} from "#server/db/schema.server.ts";
import { seedDemoContent } from "#server/db/seed.server.ts";
import { reindexSearch } from "#server/search/search-index.server.ts";
import { createBackup } from "./backup.server.ts";
import { ArchiveError, readArchive, writeTarGz } from "./backup-archive.server.ts";
import { BackupError, DERIVED_TABLES, TRANSIENT_TABLES, walkFiles, type BackupManifest } from "./backup-format.server.ts";
import { restoreBackup } from "./restore.server.ts";
import { createTestDatabase } from "#tests/helpers/db.ts";
import { INVALIDATION_CHANNEL } from "#server/content/cache-bus.server.ts";
import { CACHE_TAG_NAMES } from "#server/content/cache.server.ts";
import { Redis } from "ioredis";
import pg from "pg";
import { REDIS_URL, redisAnswers } from "#tests/helpers/redis.ts";
import { rowsOf } from "#server/db/rows.server.ts";

const root = path.resolve(import.meta.dirname, "../..");
const redisUp = await redisAnswers();
if (!process.env.TEST_DATABASE_URL) console.warn("backup tests on PostgreSQL skipped: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)");
else if (!redisUp) console.warn(`backup test of the cache notice skipped: no Redis at ${REDIS_URL} (start one, or set TEST_REDIS_URL)`);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "backup-test-"));
const dirs = { source: path.join(tmp, "source") };
let source: DatabaseHandle;
let archive: string;
let expected: Snapshot;
const opened: { close: () => Promise<void> }[] = [];

/** Runs one of our scripts as the operator would, with this environment on top of the test's. */
function runScript(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", script), ...args], {
      cwd: root,
      env: { ...process.env, NODE_ENV: "test", DATABASE_URL: "", STORAGE_DRIVER: "local", VIDEO_DRIVER: "local", REDIS_URL: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

type Snapshot = { tables: Record<string, string[]>; sequences: Record<string, string>; search: string[]; terms: number; files: Record<string, string> };

/** Everything a restore must give back, in a form two databases can be compared by. */
async function snapshot(db: Database, dataDir: string): Promise<Snapshot> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local timezone = 'UTC'`);
    const names = rowsOf<{ name: string }>(
      await tx.execute(sql`select relname::text as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind = 'r' order by 1`),
    ).map((r) => r.name);
    const tables: Snapshot["tables"] = {};
    for (const name of names) {
      if ((DERIVED_TABLES as readonly string[]).includes(name) || (TRANSIENT_TABLES as readonly string[]).includes(name)) continue;
      const rows = rowsOf<{ j: string }>(await tx.execute(sql`select row_to_json(t)::text as j from ${sql.identifier(name)} t`)).map((r) => r.j);
      tables[name] = rows.sort();
    }
    const sequences: Snapshot["sequences"] = {};
    for (const { seq } of rowsOf<{ seq: string }>(
      await tx.execute(
        sql`select c.relname::text as seq from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind = 'S'`,
      ),
    )) {
      const [v] = rowsOf<{ v: string }>(await tx.execute(sql`select last_value::text || '/' || is_called::text as v from ${sql.identifier(seq)}`));
      sequences[seq] = v.v;
    }
    const search = rowsOf<{ r: string }>(
      await tx.execute(
        sql`select concat_ws('|', type, item_id, status, publish_date, title_vec::text, all_vec::text) as r from search_items order by type, item_id`,
      ),
    ).map((r) => r.r);
    const [terms] = rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from search_terms`));
    const files: Snapshot["files"] = {};
    for (const section of ["uploads", "videos"]) {
      for await (const rel of walkFiles(path.join(dataDir, section))) {
        const file = path.join(dataDir, section, rel);
        const stat = fs.statSync(file);
        // The whole second of stat.mtime, as the backup stores it: stat.mtimeMs keeps a fraction of a millisecond
        // that the Date rounds, so a file written in the last half millisecond of a second read one second apart.
        files[`${section}/${rel}`] =
          `${crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex")} ${stat.size} ${Math.floor(stat.mtime.getTime() / 1000)}`;
      }
    }
    return { tables, sequences, search, terms: Number(terms.n), files };
  });
}

/** Rows of every kind the demo seed does not write: users, sessions, arrays, jsonb, microseconds, odd text. */
async function addEverything(db: Database, dataDir: string) {
  // A child category whose parent comes later in key order: the restore cannot rely on insertion order.
  const [child] = await db.insert(categories).values({ name: "فرع", slug: "backup-child", type: "culture" }).returning({ id: categories.id });
  const [parent] = await db.insert(categories).values({ name: "أصل", slug: "backup-parent", type: "culture" }).returning({ id: categories.id });
  await db.execute(sql`update categories set parent_id = ${parent.id} where id = ${child.id}`);
  await db.insert(user).values({ id: "u-backup", name: "محررة", email: "editor@backup.test", emailVerified: true });
  await db
    .insert(profiles)
    .values({ id: "u-backup", role: "editor", permissions: ["content.write", "videos.manage", 'quote"and,comma'], fullName: "محررة النسخ" });
  await db.insert(session).values({ id: "s-backup", token: "tok-backup", userId: "u-backup", expiresAt: new Date("2031-01-01T00:00:00Z"), userAgent: "tests" });
  await db
    .insert(contacts)
    .values({ name: "قارئ", email: "reader@backup.test", subject: "سؤال", message: "سطر أول\nسطر ثانٍ\t«مقتبس» \\ \u200f ✓ 😀", kind: "article_proposal" });
  await db.insert(newsletterSubscribers).values({ email: "n@backup.test", status: "confirmed", confirmedAt: new Date() });
  // jsonb with a number past 2^53, which a trip through a JavaScript number would round.
  await db.execute(sql`insert into ${contentRevisions} (content_type, item_id, data, author_name)
    values ('articles', 1, '{"title": "عنوان", "nested": {"list": [1, 2.5, null, true], "big": 9007199254740993}}'::jsonb, 'x')`);
  await db.insert(contentViews).values({ contentType: "articles", contentId: 1, readerKey: "k", day: "2026-02-28" });
  await db.insert(slugRedirects).values({ contentType: "articles", oldSlug: "قديم-عنوان", itemId: 1 });
  await db.insert(rateLimit).values({ id: "rl", key: "ip:1", count: 3, lastRequest: Date.now() });
  // Microseconds, which a trip through a JavaScript Date would lose.
  await db.execute(sql`update articles set updated_at = '2026-03-04 05:06:07.123456+00' where id = 1`);
  await db
    .insert(jobs)
    .values({ name: "video.process", payload: { guid: "x" }, state: "running", lockedBy: "old-worker", lockedUntil: new Date(Date.now() + 60_000) });
  await db.insert(jobs).values({ name: "views.prune", state: "done", finishedAt: new Date() });
  // The last article deleted: its id must not be handed out again after a restore (sequence > max(id)).
  await db.execute(sql`delete from ${articles} where id = (select max(id) from ${articles})`);

  const uploads = path.join(dataDir, "uploads");
  fs.mkdirSync(path.join(uploads, "articles"), { recursive: true });
  fs.writeFileSync(path.join(uploads, "articles", "1700000000000-abc123-صورة-الغلاف.jpg"), crypto.randomBytes(70_000));
  fs.writeFileSync(path.join(uploads, "articles", `1700000000001-abc124-${"طويل-".repeat(20)}.png`), crypto.randomBytes(1000));
  fs.writeFileSync(path.join(uploads, "articles", "empty.txt"), "");
  // Work in progress (a partial upload) is not part of a backup.
  fs.writeFileSync(path.join(uploads, "articles", ".partial.jpg.part"), "half");
}

beforeAll(async () => {
  fs.mkdirSync(dirs.source);
  source = openDatabase({ dataDir: dirs.source });
  await source.migrate();
  await seedDemoContent(source.db, { uploadsDir: path.join(dirs.source, "uploads"), videosDir: path.join(dirs.source, "videos") });
  await addEverything(source.db, dirs.source);
  // A restore rebuilds the search index from the content, so the source's is rebuilt too: its vocabulary
  // still holds the words of the article deleted above.
  await reindexSearch(source.db);
  const before = await snapshot(source.db, dirs.source);
  // The job the old site's worker was running is handed back to the queue by a restore.
  expected = {
    ...before,
    tables: {
      ...before.tables,
      jobs: before.tables.jobs.map((row) =>
        row.includes('"state":"running"')
          ? row
              .replace('"state":"running"', '"state":"queued"')
              .replace(/"locked_until":"[^"]+"/, '"locked_until":null')
              .replace('"locked_by":"old-worker"', '"locked_by":null')
          : row,
      ),
    },
  };
  await source.close();

  archive = path.join(tmp, "out", "site.tar.gz");
  const backup = await runScript("backup.ts", ["--output", archive], { DATA_DIR: dirs.source });
  expect(backup.err).toBe("");
  expect(backup.code).toBe(0);
  expect(backup.out).toMatch(/wrote .*site\.tar\.gz/);

  // Held open from here on, as a running server would hold it.
  source = openDatabase({ dataDir: dirs.source });
}, 240_000);

afterAll(async () => {
  await source?.close();
  for (const h of opened) await h.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function freshPglite(name: string) {
  const dataDir = path.join(tmp, name);
  fs.mkdirSync(dataDir);
  return dataDir;
}

describe("npm run backup and npm run restore", () => {
  it("writes a portable archive: manifest first, a table per file, the files, their index last", async () => {
    const names: string[] = [];
    let manifest: BackupManifest | undefined;
    await readArchive(archive, async (entries) => {
      for await (const entry of entries) {
        names.push(entry.name);
        if (entry.name === "manifest.json") {
          const chunks: Buffer[] = [];
          for await (const c of entry.body) chunks.push(c);
          manifest = JSON.parse(Buffer.concat(chunks).toString()) as BackupManifest;
        }
      }
    });
    expect(names[0]).toBe("manifest.json");
    expect(names.at(-1)).toBe("files.jsonl");
    expect(manifest!.database.driver).toBe("pglite");
    expect(manifest!.database.migrations.last).toMatch(/^\d{4}_/);
    // Parents before children.
    const order = manifest!.tables.map((t) => t.name);
    expect(order.indexOf("categories")).toBeLessThan(order.indexOf("articles"));
    expect(order.indexOf("user")).toBeLessThan(order.indexOf("session"));
    for (const t of manifest!.tables) expect(t.rows).toBe(expected.tables[t.name].length);
    expect(order).not.toContain("search_items");
    expect(order).not.toContain("rate_limit");
    expect(names).toContain("files/uploads/articles/1700000000000-abc123-صورة-الغلاف.jpg");
    expect(names.some((n) => n.includes(".partial"))).toBe(false);
    expect(names.filter((n) => n.startsWith("files/")).length).toBe(Object.keys(expected.files).length);
  });

  it("refuses to open a PGlite data dir a running process holds, and says what to do", async () => {
    const backup = await runScript("backup.ts", ["--output", path.join(tmp, "held.tar.gz")], { DATA_DIR: dirs.source });
    expect(backup.code).toBe(1);
    expect(backup.err).toMatch(/refused/);
    expect(backup.err).toMatch(/stop the server/);
    expect(fs.existsSync(path.join(tmp, "held.tar.gz"))).toBe(false);
    const restore = await runScript("restore.ts", [archive, "--force"], { DATA_DIR: dirs.source });
    expect(restore.code).toBe(1);
    expect(restore.err).toMatch(/stop the server/);
  });

  it("PGlite → PGlite: identical rows, sequences, search index and files; a second restore needs --force", async () => {
    const target = freshPglite("pglite-target");
    const first = await runScript("restore.ts", [archive], { DATA_DIR: target });
    expect(first.err).toBe("");
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/uploads\/ replaced/);

    const again = await runScript("restore.ts", [archive], { DATA_DIR: target });
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already holds content .*--force/);

    const forced = await runScript("restore.ts", [archive, "--force"], { DATA_DIR: target });
    expect(forced.code).toBe(0);

    const h = openDatabase({ dataDir: target });
    opened.push(h);
    const got = await snapshot(h.db, target);
    expect(got).toEqual(expected);
    // New ids continue after the old ones, the deleted article's included.
    const [{ max }] = rowsOf<{ max: number }>(await source.db.execute(sql`select max(id)::int as max from articles`));
    const [next] = rowsOf<{ id: number }>(await h.db.execute(sql`select nextval(pg_get_serial_sequence('articles', 'id'))::int as id`));
    expect(next.id).toBeGreaterThan(max + 1);
    expect(fs.readdirSync(target).filter((n) => n.startsWith("."))).toEqual([]);
  }, 180_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "PGlite → PostgreSQL → PGlite: identical both ways (needs TEST_DATABASE_URL)",
    async () => {
      const pg = await createTestDatabase("postgres", { migrate: false });
      opened.push({ close: pg.drop });
      const pgDir = freshPglite("postgres-files");
      await restoreBackup({ handle: pg, file: archive, dataDir: pgDir });
      expect(await snapshot(pg.db, pgDir)).toEqual(expected);

      const fromPg = path.join(tmp, "from-postgres.tar.gz");
      const summary = await createBackup({
        handle: pg,
        output: fromPg,
        files: { uploads: { dir: path.join(pgDir, "uploads") }, videos: { dir: path.join(pgDir, "videos") } },
      });
      expect(summary.files).toBe(Object.keys(expected.files).length);
      const back = freshPglite("back-to-pglite");
      const h = openDatabase({ dataDir: back });
      opened.push(h);
      await restoreBackup({ handle: h, file: fromPg, dataDir: back });
      expect(await snapshot(h.db, back)).toEqual(expected);
    },
    180_000,
  );

  it.skipIf(!process.env.TEST_DATABASE_URL || !redisUp)(
    "npm run restore on PostgreSQL tells running processes through Redis to drop their caches",
    async () => {
      // A database of its own (the child process needs its URL), dropped at the end.
      const admin = process.env.TEST_DATABASE_URL!;
      const name = `t_backup_${crypto.randomBytes(4).toString("hex")}`;
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      await client.query(`create database "${name}"`);
      await client.end();
      const url = new URL(admin);
      url.pathname = `/${name}`;
      const subscriber = new Redis(REDIS_URL, { lazyConnect: true });
      try {
        await subscriber.connect();
        await subscriber.subscribe(INVALIDATION_CHANNEL);
        const heard = new Promise<string[]>((resolve) =>
          subscriber.on("message", (_channel: string, message: string) => {
            const { tags } = JSON.parse(message) as { tags: string[] };
            if (CACHE_TAG_NAMES.every((t) => tags.includes(t))) resolve(tags);
          }),
        );
        const dataDir = freshPglite("postgres-cli-files");
        const restore = await runScript("restore.ts", [archive], { DATABASE_URL: url.toString(), REDIS_URL, DATA_DIR: dataDir });
        expect(restore.err).toBe("");
        expect(restore.code).toBe(0);
        expect(restore.out).toMatch(/were told \(REDIS_URL\)/);
        expect((await heard).sort()).toEqual([...CACHE_TAG_NAMES].sort());
        const h = openDatabase({ url: url.toString() });
        try {
          expect(await snapshot(h.db, dataDir)).toEqual(expected);
        } finally {
          await h.close();
        }
      } finally {
        subscriber.disconnect();
        const c = new pg.Client({ connectionString: admin });
        await c.connect();
        await c.query(`drop database if exists "${name}" with (force)`);
        await c.end();
      }
    },
    120_000,
  );

  describe("a damaged or foreign archive is refused and the target is left as it was", () => {
    let target: string;
    let handle: DatabaseHandle;
    let before: Snapshot;

    beforeAll(async () => {
      target = freshPglite("guarded-target");
      handle = openDatabase({ dataDir: target });
      opened.push(handle);
      await restoreBackup({ handle, file: archive, dataDir: target });
      // Changed after the restore, so that "untouched" cannot be confused with "restored again".
      await handle.db.execute(sql`update articles set title = 'تعديل بعد الاستعادة' where id = 2`);
      fs.writeFileSync(path.join(target, "uploads", "articles", "later.jpg"), "later");
      before = await snapshot(handle.db, target);
    }, 120_000);

    const attempt = (file: string) => restoreBackup({ handle, file, dataDir: target, force: true });
    async function expectUntouched() {
      expect(await snapshot(handle.db, target)).toEqual(before);
      expect(fs.readdirSync(target).filter((n) => n.startsWith(".restore"))).toEqual([]);
    }

    it("truncated", async () => {
      const bytes = fs.readFileSync(archive);
      for (const keep of [100, Math.floor(bytes.length / 2), bytes.length - 10]) {
        const file = path.join(tmp, `truncated-${keep}.tar.gz`);
        fs.writeFileSync(file, bytes.subarray(0, keep));
        await expect(attempt(file)).rejects.toThrow(ArchiveError);
        await expect(attempt(file)).rejects.toThrow(/truncated/);
      }
      await expectUntouched();
    });

    it("corrupted in the middle", async () => {
      const bytes = Buffer.from(fs.readFileSync(archive));
      const at = Math.floor(bytes.length * 0.6);
      bytes[at] ^= 0xff;
      bytes[at + 1] ^= 0x55;
      const file = path.join(tmp, "corrupted.tar.gz");
      fs.writeFileSync(file, bytes);
      await expect(attempt(file)).rejects.toThrow(/corrupted|truncated/);
      await expectUntouched();
    });

    it("not a backup at all", async () => {
      const random = path.join(tmp, "random.bin");
      fs.writeFileSync(random, crypto.randomBytes(5000));
      await expect(attempt(random)).rejects.toThrow(ArchiveError);
      const other = path.join(tmp, "other.tar.gz");
      await writeTarGz(other, [{ name: "notes.txt", data: Buffer.from("hello") }]);
      await expect(attempt(other)).rejects.toThrow(/not a backup of this site/);
      await expect(attempt(path.join(tmp, "missing.tar.gz"))).rejects.toThrow(/No such backup file/);
      await expectUntouched();
    });

    it("a table whose rows do not match the manifest", async () => {
      const file = path.join(tmp, "edited-rows.tar.gz");
      await rewrite(archive, file, (name, data) => (name === "database/news.jsonl" ? Buffer.from(data.toString().split("\n").slice(1).join("\n")) : data));
      await expect(attempt(file)).rejects.toThrow(/table news holds/);
      await expectUntouched();
    });

    it("a file whose bytes do not match the index", async () => {
      const file = path.join(tmp, "edited-file.tar.gz");
      await rewrite(archive, file, (name, data) => (name === "files/uploads/articles/empty.txt" ? Buffer.from("x") : data));
      await expect(attempt(file)).rejects.toThrow(/does not match its checksum/);
      await expectUntouched();
    });

    it("a consistent archive whose rows the database refuses: nothing is written (one transaction)", async () => {
      const file = path.join(tmp, "bad-row.tar.gz");
      // A foreign key to a category that does not exist, with the manifest updated to match: only the database can object.
      await rewrite(
        archive,
        file,
        (name, data) => (name === "database/articles.jsonl" ? Buffer.from(data.toString().replace(/"category_id":\d+/, '"category_id":987654')) : data),
        true,
      );
      await expect(attempt(file)).rejects.toThrow();
      await expectUntouched();
    });

    it("another release's backup", async () => {
      const file = path.join(tmp, "old-release.tar.gz");
      await rewrite(
        archive,
        file,
        (_name, data) => data,
        true,
        (m) => ({ ...m, database: { ...m.database, migrations: { count: 5, last: "0004_newsroom", lastCreatedAt: "1" } } }),
      );
      await expect(attempt(file)).rejects.toThrow(BackupError);
      await expect(attempt(file)).rejects.toThrow(/0004_newsroom .*this release is at/);
      await expectUntouched();
    });
  });
});

/**
 * Copies an archive entry by entry through `edit`; with `fixManifest`, the manifest's counts and checksums
 * are recomputed so that only the database can notice the change.
 */
async function rewrite(
  from: string,
  to: string,
  edit: (name: string, data: Buffer) => Buffer,
  fixManifest = false,
  changeManifest: (m: BackupManifest) => BackupManifest = (m) => m,
) {
  const entries: { name: string; data: Buffer }[] = [];
  await readArchive(from, async (all) => {
    for await (const entry of all) {
      const chunks: Buffer[] = [];
      for await (const c of entry.body) chunks.push(c);
      entries.push({ name: entry.name, data: edit(entry.name, Buffer.concat(chunks)) });
    }
  });
  if (fixManifest) {
    let manifest = JSON.parse(entries[0].data.toString()) as BackupManifest;
    for (const t of manifest.tables) {
      const data = entries.find((e) => e.name === `database/${t.name}.jsonl`)!.data;
      t.bytes = data.length;
      t.rows = data.toString().split("\n").length - 1;
      t.sha256 = crypto.createHash("sha256").update(data).digest("hex");
    }
    manifest = changeManifest(manifest);
    entries[0].data = Buffer.from(JSON.stringify(manifest));
  }
  await writeTarGz(to, entries);
}
