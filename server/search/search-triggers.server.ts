/**
 * The triggers that fill `search_queue`, made from the content-type definitions (domain/content-types/):
 * every table of a type whose definition has `search` gets three, which call the two generic functions of
 * drizzle/0005_search_index.sql with the type's key:
 * - {table}_search_write: after an insert or a delete, the item is queued;
 * - {table}_search_update: after an update of a searched column, the status or the publish date (a view
 *   counted is no reason to analyse a text again);
 * - {table}_search_truncate: after a truncate, the type's search rows are forgotten.
 *
 * `syncSearchTriggers` runs after the migrations (DatabaseHandle.migrate): a new searchable type, or a
 * searched column added to one, gets its triggers without a hand-written migration. It is idempotent and
 * cheap when nothing changed: each trigger carries (as its comment) a fingerprint of what it was made from,
 * and only one whose fingerprint differs is replaced; the items of its type are then queued again, since
 * what is indexed of them may have changed (not when it replaces one of the hand-written triggers of
 * drizzle/0005, which watched what the definitions name). Triggers of a type search no longer reads are dropped and its
 * search rows forgotten. Works on PGlite and PostgreSQL (CREATE OR REPLACE TRIGGER: PostgreSQL 14 and later).
 */
import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database } from "#server/db/database.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { CONTENT_TYPES, definitionOf, type ContentType } from "#domain/content-types/index.ts";

/** The searched types: every definition with `search` (media has none), with its table and columns. */
export type SearchedType = { type: ContentType; table: string; search: { title: readonly string[]; body: readonly string[] } };

export function searchedTypes(): SearchedType[] {
  return CONTENT_TYPES.map(definitionOf).flatMap((d) => (d.search ? [{ type: d.type as ContentType, table: d.table, search: d.search }] : []));
}

/** Marks the comment of a trigger this module made; what follows is its fingerprint. */
const NOTE = "search:";
/** Two starting processes (PostgreSQL) attach the triggers one after the other. */
const LOCK_KEY = 0x5ea7c4;

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

type Trigger = { table: string; name: string; type: ContentType; create: string };

/** The triggers the definitions ask for, each with the statement that makes it. */
export function wantedSearchTriggers(types = searchedTypes()): Trigger[] {
  return types.flatMap(({ type, table, search }) => {
    const watched = [...new Set([...search.title, ...search.body, "status", "publish_date"])];
    const row = (which: "old" | "new") => `(${watched.map((c) => `${which}.${ident(c)}`).join(", ")})`;
    const on = (name: string, when: string, action: string) =>
      `create or replace trigger ${ident(`${table}_${name}`)} ${when.replace("%t", ident(table))} execute function ${action}(${literal(type)})`;
    return [
      { name: "search_write", create: on("search_write", "after insert or delete on %t for each row", "search_enqueue") },
      {
        name: "search_update",
        create: on("search_update", `after update on %t for each row when (${row("old")} is distinct from ${row("new")})`, "search_enqueue"),
      },
      { name: "search_truncate", create: on("search_truncate", "after truncate on %t for each statement", "search_forget") },
    ].map((t) => ({ ...t, table, type, name: `${table}_${t.name}` }));
  });
}

const fingerprint = (statement: string) => NOTE + crypto.createHash("sha256").update(statement).digest("hex").slice(0, 16);

/** The search triggers in the database, with the fingerprint each carries. */
async function presentSearchTriggers(db: Pick<Database, "execute">) {
  return rowsOf<{ table: string; name: string; note: string | null }>(
    await db.execute(sql`select c.relname::text as table, t.tgname::text as name, obj_description(t.oid, 'pg_trigger') as note
      from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
      where not t.tgisinternal and p.proname in ('search_enqueue', 'search_forget')
        and c.relnamespace = (select oid from pg_namespace where nspname = current_schema())`),
  );
}

/**
 * Whether the triggers already match the definitions, without changing anything: a process that does not
 * migrate (MIGRATE_ON_START=off) checks the schema is current with this.
 */
export async function searchTriggersCurrent(db: Database, types = searchedTypes()): Promise<boolean> {
  const wanted = wantedSearchTriggers(types);
  const present = await presentSearchTriggers(db);
  return (
    present.length === wanted.length && wanted.every((w) => present.some((p) => p.table === w.table && p.name === w.name && p.note === fingerprint(w.create)))
  );
}

/**
 * Makes the search triggers match the definitions: creates or replaces what differs, drops what no type asks
 * for, queues again the items of a type whose triggers changed. Returns the names of the triggers it made or dropped.
 */
export async function syncSearchTriggers(db: Database, types = searchedTypes()): Promise<string[]> {
  const wanted = wantedSearchTriggers(types);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_KEY})`);
    const present = await presentSearchTriggers(tx);
    const changed: string[] = [];
    const requeue = new Set<SearchedType>();
    for (const trigger of wanted) {
      const note = fingerprint(trigger.create);
      const before = present.find((p) => p.table === trigger.table && p.name === trigger.name);
      if (before?.note === note) continue;
      await tx.execute(sql.raw(trigger.create));
      await tx.execute(sql.raw(`comment on trigger ${ident(trigger.name)} on ${ident(trigger.table)} is ${literal(note)}`));
      changed.push(trigger.name);
      // A trigger of drizzle/0005 (no fingerprint) watched the columns the definitions name: what it queued
      // is current, and 0008 renamed it. Any other new or changed trigger may mean other text to index.
      const handWritten = before && !before.note?.startsWith(NOTE);
      if (!handWritten && !trigger.name.endsWith("_search_truncate")) requeue.add(types.find((t) => t.type === trigger.type)!);
    }
    const stale = present.filter((p) => !wanted.some((w) => w.table === p.table && w.name === p.name));
    for (const p of stale) {
      await tx.execute(sql.raw(`drop trigger ${ident(p.name)} on ${ident(p.table)}`));
      changed.push(p.name);
    }
    if (stale.length) {
      // What a type no longer searched left behind.
      const keys = types.map((t) => t.type);
      await tx.execute(sql`delete from search_items where type <> all(${sql.param(keys)}::text[])`);
      await tx.execute(sql`delete from search_queue where type <> all(${sql.param(keys)}::text[])`);
    }
    for (const { type, table } of requeue) {
      await tx.execute(sql`insert into search_queue (type, item_id) select ${type}, id from ${sql.identifier(table)}
        on conflict (type, item_id) do update set version = search_queue.version + 1`);
    }
    return changed;
  });
}
