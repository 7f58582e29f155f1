import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { migrationsFolder } from "#server/paths.server.ts";
import { syncSearchIndex } from "#server/search/search-index.server.ts";
import { searchPublished } from "#server/search/search.server.ts";
import { ensureSchema, isDatabaseEmpty, openDatabase } from "./client.server.ts";
import { runNode } from "#tests/helpers/processes.ts";

describe.each(testDatabaseKinds)("migrations on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => t?.drop());

  it("creates every table of the spec", async () => {
    const res = await t.db.execute<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    const names = res.rows.map((r) => r.table_name);
    for (const table of [
      "categories",
      "articles",
      "news",
      "coverages",
      "podcasts",
      "programs",
      "media",
      "contacts",
      "profiles",
      "newsletter_subscribers",
      "videos",
      "user",
      "session",
      "account",
      "verification",
    ]) {
      expect(names).toContain(table);
    }
  });

  it("is idempotent: running the migrations again changes nothing", async () => {
    await t.migrate();
    const res = await t.db.execute<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(Number(res.rows[0].n)).toBeGreaterThan(0);
  });

  it("keeps page_slug unique per table", async () => {
    await t.db.execute(sql`insert into news (title, content, page_slug) values ('a', 'b', 'same-slug')`);
    await expect(t.db.execute(sql`insert into news (title, content, page_slug) values ('c', 'd', 'same-slug')`)).rejects.toThrow();
    // The same slug in another table is fine.
    await t.db.execute(sql`insert into articles (title, content, page_slug) values ('a', 'b', 'same-slug')`);
  });

  it("has the listing indexes", async () => {
    const res = await t.db.execute<{ indexname: string }>(sql`select indexname from pg_indexes where schemaname = 'public'`);
    const names = res.rows.map((r) => r.indexname);
    for (const i of ["articles_status_publish_idx", "news_status_created_idx", "articles_category_idx", "news_page_slug_unique", "media_type_idx"]) {
      expect(names).toContain(i);
    }
  });
});

/** A copy of drizzle/ whose journal stops at `lastTag`: a database as an earlier release left it. */
function migrationsUpTo(lastTag: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));
  fs.cpSync(migrationsFolder(), folder, { recursive: true });
  const file = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(file, "utf8")) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === lastTag) + 1);
  fs.writeFileSync(file, JSON.stringify(journal));
  return folder;
}

describe.each(testDatabaseKinds)("a database of the release before 0008_type_keys on %s", (kind) => {
  let t: TestDatabase;
  let folder: string;
  beforeAll(async () => {
    t = await createTestDatabase(kind, { migrate: false });
    folder = migrationsUpTo("0007_captions_and_transcripts");
    if (t.driver === "pglite") await migratePglite(t.db as never, { migrationsFolder: folder });
    else await migratePg(t.db, { migrationsFolder: folder });
  });
  afterAll(async () => {
    await t?.drop();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it("keeps media's view counter under its new name and re-keys the search rows by type key", async () => {
    await t.db.execute(sql`insert into media (title, media_type, page_slug, status, views) values ('صورة', 'image', 'old-media', 'published', 42)`);
    // The triggers of 0005 queue these under the table's name, as that release did; one is indexed already.
    await t.db.execute(sql`insert into coverages (title, excerpt, content, page_slug, status, publish_date)
      values ('تغطية مهرجان الجمال', 'ملخص', 'نص', 'old-coverage', 'published', now() - interval '1 hour')`);
    await t.db.execute(sql`insert into articles (title, content, page_slug, status, publish_date)
      values ('مقال عن النخيل', 'نص', 'old-article', 'published', now() - interval '1 hour')`);
    await t.db.execute(sql`insert into search_items (type, item_id, status, publish_date, title_vec, all_vec)
      select 'articles', id, status, publish_date, ''::tsvector, ''::tsvector from articles`);
    await t.db.execute(sql`delete from search_queue where type = 'articles'`);

    await t.migrate();

    const media = await t.db.execute<{ view_count: number }>(sql`select view_count from media where page_slug = 'old-media'`);
    expect(media.rows[0].view_count).toBe(42);
    // The rows are renamed, and the triggers made from the definitions after the migrations replace those of
    // 0005 without queuing every item again: the article is queued again only by 0017, which changed the
    // analysis (decision 0129), and under its type's key.
    const queue = await t.db.execute<{ type: string }>(sql`select type from search_queue order by type`);
    expect(queue.rows.map((r) => r.type)).toEqual(["article", "coverage"]);
    const items = await t.db.execute<{ type: string }>(sql`select type from search_items order by type`);
    expect(items.rows.map((r) => r.type)).toEqual(["article"]);
    await syncSearchIndex(t.db);
    expect((await searchPublished(t.db, "مهرجان")).results.map((r) => [r.type, r.href])).toEqual([["coverages", "/coverage/old-coverage"]]);
    // And they queue under the type's key from now on.
    await t.db.execute(sql`update articles set title = 'مقال عن النخيل والقوافل' where page_slug = 'old-article'`);
    expect((await searchPublished(t.db, "القوافل")).results.map((r) => [r.type, r.href])).toEqual([["articles", "/articles/old-article"]]);
  });
});

describe.each(testDatabaseKinds)("the schema check of a starting process on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind, { migrate: false });
  });
  afterAll(async () => t?.drop());

  it("names every migration and the search triggers before the first run, nothing after, and a trigger that differs", async () => {
    const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder(), "meta", "_journal.json"), "utf8")) as { entries: { tag: string }[] };
    expect(await t.pendingSchemaChanges()).toEqual([...journal.entries.map((e) => e.tag), "search triggers"]);
    // MIGRATE_ON_START=off: PGlite belongs to this process, so nobody can migrate it meanwhile: no wait.
    if (kind === "pglite") await expect(ensureSchema(t, { migrate: false })).rejects.toThrow(/not current .*npm run db:migrate/);

    const changes = await ensureSchema(t, { migrate: true });
    expect(changes?.migrations).toEqual(journal.entries.map((e) => e.tag));
    expect(await t.pendingSchemaChanges()).toEqual([]);
    expect(await ensureSchema(t, { migrate: false })).toBeUndefined();

    await t.db.execute(sql`drop trigger news_search_update on news`);
    expect(await t.pendingSchemaChanges()).toEqual(["search triggers"]);
    expect(await t.migrate()).toEqual({ migrations: [], triggers: ["news_search_update"] });
    expect(await t.pendingSchemaChanges()).toEqual([]);
  });
});

const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) console.warn("migration lock tests on PostgreSQL skipped: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)");

const root = path.resolve(import.meta.dirname, "../..");

const start = (args: string[], env: Record<string, string> = {}) => runNode(args, { cwd: root, env });

/** What server.js does before it serves: prepare() of server/app.server.ts (check, migrate, first-run seed). */
const startWebProcess = (env: Record<string, string>) => {
  const app = new URL("../app.server.ts", import.meta.url).href;
  const client = new URL("./client.server.ts", import.meta.url).href;
  const script = `const { prepare, shutdown } = await import(${JSON.stringify(app)});
    await prepare();
    await shutdown();
    await (await import(${JSON.stringify(client)})).getDatabaseHandle().then((h) => h.close());
    process.exit(0);`;
  return start(["--import", "tsx", "--input-type=module", "-e", script], env);
};

describe.skipIf(!adminUrl)("processes starting at once on a fresh PostgreSQL database", () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => {});
  });

  it("all come up: two db:migrate and two web processes, the schema migrated once and the demo content seeded once", async () => {
    const database = await createTestDatabase("postgres", { migrate: false });
    cleanup.push(database.drop);
    const env = (dataDir: string) => ({
      NODE_ENV: "test",
      DATABASE_URL: database.url!,
      DATA_DIR: dataDir,
      SEED_DEMO: "on",
      JOB_WORKER: "off",
      REDIS_URL: "",
      STORAGE_DRIVER: "local",
      VIDEO_DRIVER: "local",
      LOG_LEVEL: "info",
    });
    const dataDirs = [1, 2, 3, 4].map(() => fs.mkdtempSync(path.join(os.tmpdir(), "start-at-once-")));
    cleanup.push(() => Promise.all(dataDirs.map((d) => fs.promises.rm(d, { recursive: true, force: true }))).then(() => {}));

    const runs = await Promise.all([
      start([path.join(root, "scripts", "run.mjs"), "migrate"], env(dataDirs[0])),
      start([path.join(root, "scripts", "run.mjs"), "migrate"], env(dataDirs[1])),
      startWebProcess(env(dataDirs[2])),
      startWebProcess(env(dataDirs[3])),
    ]);
    for (const run of runs) expect(run.code, run.out).toBe(0);

    // Exactly one process applied the migrations; the others found them applied (or waited for the lock).
    const applied = runs.filter((r) => /db:migrate: applied|"msg":"database migrated"/.test(r.out));
    expect(applied, runs.map((r) => r.out).join("\n────\n")).toHaveLength(1);
    const seeded = runs.filter((r) => r.out.includes("demo content seeded on first start"));
    expect(seeded, runs.map((r) => r.out).join("\n────\n")).toHaveLength(1);

    const h = database;
    const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder(), "meta", "_journal.json"), "utf8")) as { entries: unknown[] };
    const rows = await h.db.execute<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(Number(rows.rows[0].n)).toBe(journal.entries.length);
    expect(await h.pendingSchemaChanges()).toEqual([]);
    expect(await isDatabaseEmpty(h.db)).toBe(false);
  });

  it("with MIGRATE_ON_START=off, waits for the migration another process runs, and gives up with a clear error when none does", async () => {
    const waiting = await createTestDatabase("postgres", { migrate: false });
    cleanup.push(waiting.drop);
    // Another process on the same database: the release step's `npm run db:migrate`.
    const migrating = openDatabase({ url: waiting.url });
    cleanup.push(() => migrating.close());

    await expect(ensureSchema(waiting, { migrate: false, waitMs: 200, pollMs: 50 })).rejects.toThrow(
      /database schema is not current \(\d+ migrations pending, search triggers to update\) and MIGRATE_ON_START=off: run npm run db:migrate/,
    );

    const said: string[] = [];
    let saidWaiting!: () => void;
    const started = new Promise<void>((resolve) => (saidWaiting = resolve));
    const waited = ensureSchema(waiting, {
      migrate: false,
      waitMs: 600_000,
      pollMs: 50,
      log: (m) => {
        said.push(m);
        saidWaiting();
      },
    });
    await started;
    // The release step, run while the web process waits.
    await migrating.migrate();
    await expect(waited).resolves.toBeUndefined();
    expect(said[0]).toMatch(/waiting up to 600 s for npm run db:migrate/);
  });
});
