import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";

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
