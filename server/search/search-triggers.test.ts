/**
 * The search queue's triggers come from the content-type definitions: every searched table has them after
 * migrate(), running it again changes nothing, a new searchable type gets them (and its items queued)
 * without a migration of its own, and a type no longer searched loses them and its search rows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import type { ContentType } from "#domain/content-types/index.ts";
import { searchedTypes, syncSearchTriggers, wantedSearchTriggers, type SearchedType } from "./search-triggers.server.ts";
import { syncSearchIndex } from "./search-index.server.ts";

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

describe.each(testDatabaseKinds)("search triggers on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => t?.drop());

  const triggers = async () =>
    rowsOf<{ table: string; name: string }>(
      await t.db.execute(sql`select c.relname::text as table, t.tgname::text as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
        join pg_proc p on p.oid = t.tgfoid where not t.tgisinternal and p.proname in ('search_enqueue', 'search_forget') order by 1, 2`),
    ).map((r) => `${r.table}.${r.name}`);
  const queued = async () =>
    rowsOf<{ type: string; item_id: number }>(await t.db.execute(sql`select type, item_id from search_queue order by type, item_id`)).map(
      (r) => `${r.type}:${r.item_id}`,
    );

  it("gives every searched table its three triggers, named by the table, and nothing else", async () => {
    const expected = searchedTypes()
      .flatMap(({ table }) => ["search_truncate", "search_update", "search_write"].map((n) => `${table}.${table}_${n}`))
      .sort();
    expect(await triggers()).toEqual(expected);
    expect(expected).toContain("news.news_search_write");
    expect(expected.some((n) => n.startsWith("media."))).toBe(false);
  });

  it("is idempotent: migrating again replaces nothing", async () => {
    await t.migrate();
    expect(await syncSearchTriggers(t.db)).toEqual([]);
  });

  it("queues an item under its type's key, and not for a change search does not read", async () => {
    const [row] = rowsOf<{ id: number }>(
      await t.db.execute(sql`insert into coverages (title, content, page_slug, status) values ('تغطية', 'نص', 'trigger-coverage', 'published') returning id`),
    );
    expect(await queued()).toEqual([`coverage:${row.id}`]);
    await syncSearchIndex(t.db);
    await t.db.execute(sql`update coverages set updated_at = now(), reporter_name = 'x' where id = ${row.id}`);
    expect(await queued()).toEqual([]);
    await t.db.execute(sql`update coverages set excerpt = 'ملخص' where id = ${row.id}`);
    expect(await queued()).toEqual([`coverage:${row.id}`]);
    await syncSearchIndex(t.db);
  });

  it("attaches a seventh type's triggers from its definition, queues its items, and takes them away when it is no longer searched", async () => {
    await t.db.execute(sql`create table zines (id serial primary key, title text not null, title_fr text, subtitle text, summary text, body text,
      status text not null default 'draft', publish_date timestamptz not null default now(), view_count integer not null default 0)`);
    await t.db.execute(sql`insert into zines (title, body, status) values ('مجلة أولى', 'نص', 'published')`);
    const zine = { type: "zine" as ContentType, table: "zines", search: { title: ["title", "title_fr"], body: ["summary", "body"] } };
    const withZine: SearchedType[] = [...searchedTypes(), zine];

    expect((await syncSearchTriggers(t.db, withZine)).sort()).toEqual(["zines_search_truncate", "zines_search_update", "zines_search_write"]);
    expect(await queued()).toEqual(["zine:1"]); // what the table held already
    expect(await syncSearchTriggers(t.db, withZine)).toEqual([]);
    await t.db.execute(sql`delete from search_queue`);

    await t.db.execute(sql`insert into zines (title, status) values ('مجلة ثانية', 'published')`);
    expect(await queued()).toEqual(["zine:2"]);
    await t.db.execute(sql`delete from search_queue`);
    await t.db.execute(sql`update zines set view_count = view_count + 1`);
    expect(await queued()).toEqual([]);
    await t.db.execute(sql`update zines set summary = 'ملخص' where id = 1`);
    expect(await queued()).toEqual(["zine:1"]);

    // A searched column added to the definition replaces its update trigger and queues its items again.
    await t.db.execute(sql`delete from search_queue`);
    const wider = { ...zine, search: { ...zine.search, body: [...zine.search.body, "subtitle"] } };
    expect(await syncSearchTriggers(t.db, [...searchedTypes(), wider])).toEqual(["zines_search_update"]);
    expect(await queued()).toEqual(["zine:1", "zine:2"]);

    await t.db.execute(
      sql`insert into search_items (type, item_id, status, publish_date, title_vec, all_vec) values ('zine', 1, 'published', now(), ''::tsvector, ''::tsvector)`,
    );
    expect((await syncSearchTriggers(t.db)).sort()).toEqual(["zines_search_truncate", "zines_search_update", "zines_search_write"]);
    expect(await queued()).toEqual([]);
    expect(rowsOf(await t.db.execute(sql`select 1 from search_items where type = 'zine'`))).toEqual([]);
    expect((await triggers()).some((n) => n.startsWith("zines."))).toBe(false);
    await t.db.execute(sql`drop table zines`);
  });

  it("watches the searched columns, the status and the publish date of each type", () => {
    const [update] = wantedSearchTriggers([{ type: "news", table: "news", search: { title: ["title", "title_fr"], body: ["excerpt", "content"] } }]).filter(
      (w) => w.name === "news_search_update",
    );
    expect(update.create).toContain('when ((old."title", old."title_fr", old."excerpt", old."content", old."status", old."publish_date") is distinct from');
    expect(update.create).toContain("execute function search_enqueue('news')");
  });
});
