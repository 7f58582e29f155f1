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
    // 0005 without queuing every item again.
    const queue = await t.db.execute<{ type: string }>(sql`select type from search_queue order by type`);
    expect(queue.rows.map((r) => r.type)).toEqual(["coverage"]);
    const items = await t.db.execute<{ type: string }>(sql`select type from search_items order by type`);
    expect(items.rows.map((r) => r.type)).toEqual(["article"]);
    await syncSearchIndex(t.db);
    expect((await searchPublished(t.db, "مهرجان")).results.map((r) => [r.type, r.href])).toEqual([["coverages", "/coverage/old-coverage"]]);
    // And they queue under the type's key from now on.
    await t.db.execute(sql`update articles set title = 'مقال عن النخيل والقوافل' where page_slug = 'old-article'`);
    expect((await searchPublished(t.db, "القوافل")).results.map((r) => [r.type, r.href])).toEqual([["articles", "/articles/old-article"]]);
  });
});
