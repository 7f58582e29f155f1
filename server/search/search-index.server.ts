/**
 * Keeps `search_items` and `search_terms` (drizzle/0005_search_index.sql) in step with the tables of the
 * searched types: every content-type definition with `search` (domain/content-types/), whose columns it
 * names. Triggers (./search-triggers.server.ts) put every changed item on `search_queue`, under its type's
 * key; `syncSearchIndex` reads the queue, runs the analysis of domain/arabic.ts on each item and writes its
 * two lexeme sets. The analysis exists once, in TypeScript: the query, the stored texts and the
 * highlighting cannot disagree (decision 0071).
 *
 * Who drains the queue: the newsroom in the transaction of each save (so a saved item is found at once),
 * the demo seed, the server at start-up (what a bulk import or a migration queued), a search that finds
 * the queue not empty (one indexed lookup per search), and the recurring job `search.drain`
 * (server/jobs/index.server.ts, `drainSearchQueue`): whatever wrote the rows, they are searchable within a
 * minute while the server runs (docs/decisions/0128-search-limits-queue-suggestions.md).
 */
import { sql, type SQL } from "drizzle-orm";
import type { Database, Queryable } from "#server/db/client.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { foldArabic, indexedWords, isStopWord, nameKeys, searchWords, wordLexemes } from "#domain/arabic.ts";
import { soundOf } from "#domain/search-lexicon.ts";
import type { ContentType } from "#domain/content-types/index.ts";
import { searchedTypes, type SearchedType } from "./search-triggers.server.ts";

/** A type's indexed text as SQL on its table: the title (its `search.title` columns) and everything (title and body). */
export function searchText({ search }: SearchedType): { title: SQL; all: SQL } {
  const columns = (names: readonly string[]) =>
    sql.join(
      names.map((n) => sql.identifier(n)),
      sql`, `,
    );
  return { title: sql`concat_ws(' ', ${columns(search.title)})`, all: sql`concat_ws(' ', ${columns([...search.title, ...search.body])})` };
}

/** Items analysed per transaction: small enough that a drain never holds many locks or much memory. */
const BATCH = 500;

/**
 * The lexemes of each word seen, kept between drains: news copy repeats its words, so most words are
 * analysed once per process. Bounded: emptied when it reaches MEMO_LIMIT words.
 */
const MEMO_LIMIT = 200_000;
const lexemeMemo = new Map<string, string[]>();

function lexemesOf(words: readonly string[]): string[] {
  // The keys of the text's spaced compound names (nameKeys) depend on word pairs: no memo.
  const out = new Set<string>(nameKeys(words));
  for (const word of indexedWords(words)) {
    let lexemes = lexemeMemo.get(word);
    if (!lexemes) {
      if (lexemeMemo.size >= MEMO_LIMIT) lexemeMemo.clear();
      lexemes = wordLexemes(word);
      lexemeMemo.set(word, lexemes);
    }
    for (const l of lexemes) out.add(l);
  }
  return [...out].sort();
}

type SourceRow = { id: number; status: string; publish_date: Date | string; title: string | null; all_text: string | null };
type QueueRow = { type: string; item_id: number; version: number };

/** Which queued items a drain takes: all of them, or one item (what a save of the newsroom indexes at once). */
export type SyncScope = { type: ContentType; id: number };

/** One batch of the queue, analysed and written in one transaction; the number of queued items it took. */
async function drainBatch(db: Database, scope?: SyncScope, limit = BATCH): Promise<number> {
  return db.transaction(async (tx) => {
    const only = scope ? sql`where type = ${scope.type} and item_id = ${scope.id}` : sql``;
    // SKIP LOCKED: two drains at once share the queue instead of waiting for each other.
    const queued = rowsOf<QueueRow>(
      await tx.execute(sql`select type, item_id, version from search_queue ${only} order by type, item_id limit ${limit} for update skip locked`),
    );
    if (!queued.length) return 0;
    // Words already in search_terms are offered again and skipped by the primary key: a cache of what is
    // stored would have to know which database and which transaction it describes.
    const newWords = new Map<string, { term: string; stop: boolean; sound: string }>();
    for (const searched of searchedTypes()) {
      const { type, table } = searched;
      const ids = queued.filter((q) => q.type === type).map((q) => Number(q.item_id));
      if (!ids.length) continue;
      const { title, all } = searchText(searched);
      const rows = rowsOf<SourceRow>(
        await tx.execute(
          sql`select id, status, publish_date, ${title} as title, ${all} as all_text from ${sql.identifier(table)} where id = any(${sql.param(ids)}::int[])`,
        ),
      );
      const found = new Set(rows.map((r) => Number(r.id)));
      const gone = ids.filter((id) => !found.has(id));
      if (gone.length) await tx.execute(sql`delete from search_items where type = ${type} and item_id = any(${sql.param(gone)}::int[])`);
      if (!rows.length) continue;
      const values = rows.map((r) => {
        const words = searchWords(r.all_text ?? "");
        for (const w of words) {
          if (!newWords.has(w)) {
            const term = foldArabic(w);
            // The skeleton of the Latin ↔ Arabic arm (decision 0129); none for a stop-word.
            newWords.set(w, { term, stop: isStopWord(w), sound: isStopWord(w) ? "" : soundOf(term) });
          }
        }
        // With the glued form of each compound name written spaced (عبد الله: عبدالله) and its keys, as textLexemes.
        const titleLexemes = lexemesOf(searchWords(r.title ?? ""));
        const allLexemes = lexemesOf(words);
        return sql`(${type}, ${Number(r.id)}, ${r.status}, ${new Date(r.publish_date).toISOString()}::timestamptz,
          array_to_tsvector(${sql.param(titleLexemes)}::text[]), array_to_tsvector(${sql.param(allLexemes)}::text[]))`;
      });
      await tx.execute(sql`insert into search_items (type, item_id, status, publish_date, title_vec, all_vec) values ${sql.join(values, sql`, `)}
        on conflict (type, item_id) do update set status = excluded.status, publish_date = excluded.publish_date,
          title_vec = excluded.title_vec, all_vec = excluded.all_vec`);
    }
    if (newWords.size) {
      const words = [...newWords.keys()];
      await tx.execute(sql`insert into search_terms (word, term, stop, sound)
        select * from unnest(${sql.param(words)}::text[], ${sql.param(words.map((w) => newWords.get(w)!.term))}::text[],
          ${sql.param(words.map((w) => newWords.get(w)!.stop))}::boolean[], ${sql.param(words.map((w) => newWords.get(w)!.sound))}::text[])
        on conflict (word) do nothing`);
    }
    // Only the versions read: an item changed again meanwhile stays queued for the next batch.
    await tx.execute(sql`delete from search_queue q using unnest(${sql.param(queued.map((r) => r.type))}::text[],
        ${sql.param(queued.map((r) => Number(r.item_id)))}::int[], ${sql.param(queued.map((r) => Number(r.version)))}::int[]) as d(type, item_id, version)
      where q.type = d.type and q.item_id = d.item_id and q.version = d.version`);
    return queued.length;
  });
}

/**
 * Analyses every queued item and writes its search row; returns how many items it indexed. Safe to call
 * from several places at once. Inside a caller's transaction it sees (and indexes) that transaction's writes.
 */
export async function syncSearchIndex(db: Queryable, scope?: SyncScope): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await drainBatch(db, scope);
    total += n;
    if (n < BATCH) return total;
  }
}

// ---- search.drain (docs/decisions/0128): the recurring job's bounded drain ----

/**
 * Drains the queue in batches of BATCH items, each its own transaction, until it is empty or `budgetMs` has
 * passed: a long import is indexed over several runs of the job, so other jobs (a video to encode) take their
 * turn between them. Returns how many items it indexed and whether it left some queued.
 */
export async function drainSearchQueue(db: Database, { budgetMs = 20_000 }: { budgetMs?: number } = {}): Promise<{ indexed: number; more: boolean }> {
  const started = Date.now();
  let indexed = 0;
  for (;;) {
    const n = await drainBatch(db);
    indexed += n;
    if (n < BATCH) return { indexed, more: false };
    if (Date.now() - started >= budgetMs) return { indexed, more: true };
  }
}

// ---- end of search.drain ----

/**
 * What a search calls first: an index lookup when the queue is empty, else a few items indexed (what a script
 * or an import wrote a moment ago). A long queue (after a bulk import or a migration) is left to the drain
 * that start-up runs in the background, so that no reader waits minutes for it.
 */
export const SEARCH_TIME_DRAIN = 50;
export async function syncSearchIndexIfPending(db: Database): Promise<void> {
  const pending = rowsOf(await db.execute(sql`select 1 from search_queue limit 1`));
  if (pending.length) await drainBatch(db, undefined, SEARCH_TIME_DRAIN);
}

/** Every item queued again and the vocabulary forgotten: after a change of the analysis (a new migration or release). */
export async function reindexSearch(db: Database): Promise<number> {
  await db.execute(sql`delete from search_terms`);
  lexemeMemo.clear();
  const every = searchedTypes().map(({ type, table }) => sql`select ${type}::text, id from ${sql.identifier(table)}`);
  await db.execute(sql`insert into search_queue (type, item_id) ${sql.join(every, sql` union all `)}
    on conflict (type, item_id) do update set version = search_queue.version + 1`);
  return syncSearchIndex(db);
}
