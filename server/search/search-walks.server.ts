/**
 * Which arms of a search walk the date index and which read their posting lists first
 * (docs/decisions/0071-search-ranking-and-scale.md): decided by the search from the frequencies PostgreSQL keeps
 * of the lexemes, not by the planner. Used by server/search/search.server.ts.
 */
import { sql } from "drizzle-orm";
import type { Queryable } from "#server/db/client.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import type { QueryAnalysis } from "#domain/arabic.ts";

/**
 * What PostgreSQL knows of the lexemes (ANALYZE keeps the frequencies of the 10,000 commonest per column: statistics
 * 1,000, migration 0028, decision 0153) and of the table's size, read at most once every few minutes. A lexeme it
 * does not list is rare: far below the share from which a search walks (a few per cent of the texts).
 */
export type LexemeStats = { rows: number; title: Map<string, number>; all: Map<string, number> };
const STATS_TTL_MS = 5 * 60_000;
const statsCache = new WeakMap<Queryable, { at: number; stats: Promise<LexemeStats> }>();

async function readLexemeStats(db: Queryable): Promise<LexemeStats> {
  const columns = rowsOf<{ attname: string; elems: string[] | null; freqs: number[] | null }>(
    await db.execute(sql`select attname, most_common_elems::text::text[] as elems, most_common_elem_freqs as freqs
      from pg_stats where tablename = 'search_items' and attname in ('title_vec', 'all_vec') and schemaname = current_schema()`),
  );
  const [size] = rowsOf<{ rows: number }>(await db.execute(sql`select reltuples::float8 as rows from pg_class where oid = 'search_items'::regclass`));
  const map = (name: string) => {
    const c = columns.find((r) => r.attname === name);
    return new Map((c?.elems ?? []).map((e, i) => [e, Number(c?.freqs?.[i] ?? 0)]));
  };
  return { rows: Math.max(0, Number(size?.rows ?? 0)), title: map("title_vec"), all: map("all_vec") };
}

/**
 * The statistics as last read. Past their few minutes they are read again in the background and the search goes on
 * with the ones it has: a reader's request pays for the read only on a process's first search (decision 0153).
 */
export function lexemeStats(db: Queryable): Promise<LexemeStats> {
  const cached = statsCache.get(db);
  if (cached && Date.now() - cached.at < STATS_TTL_MS) return cached.stats;
  const stats = readLexemeStats(db).catch(() => ({ rows: 0, title: new Map<string, number>(), all: new Map<string, number>() }));
  if (!cached) {
    statsCache.set(db, { at: Date.now(), stats });
    return stats;
  }
  // Marked fresh now, so that one refresh runs at a time; the new figures replace the old once read.
  cached.at = Date.now();
  void stats.then((fresh) => {
    if (statsCache.get(db) === cached) statsCache.set(db, { at: Date.now(), stats: Promise.resolve(fresh) });
  });
  return cached.stats;
}

/**
 * Checking a row's `all_vec` means decompressing it (TOAST), which the planner does not count: left to itself
 * it walks the date index for words in 1 % of the texts, decompressing thousands of rows for twenty matches.
 * So the search decides. Walking finds `limit` matches in about limit / d rows, each costing about `cost`
 * (decompression, a title's vector is small and inline); the posting list gives d × rows rows at about 1 each.
 * Walk when d ≥ √(cost × limit / rows). The share d of a word is the sum of its keys' frequencies; of several
 * words, the product (texts that share common words are more frequent than that, never less often walked
 * wrongly than right).
 */
const ROW_COST = { title: 2, all: 20 } as const;

/** Which of the four full arms walk the date index (true) and which read their posting lists first (false). */
export type Walks = readonly [boolean, boolean, boolean, boolean];

/**
 * Whether an arm whose tsquery is any of these conjunctions of lexeme groups walks: its share is the sum over
 * the conjunctions of the product over their groups of the groups' summed frequencies (at most 1).
 */
export function walks(stats: LexemeStats, column: "title" | "all", anyOf: string[][][], limit: number): boolean {
  if (stats.rows < 1000) return false;
  const freq = stats[column];
  const share = Math.min(
    1,
    anyOf.reduce(
      (sum, groups) =>
        sum +
        groups.reduce(
          (product, any) =>
            product *
            Math.min(
              1,
              any.reduce((s, l) => s + (freq.get(l) ?? 0), 0),
            ),
          1,
        ),
      0,
    ),
  );
  return share >= Math.sqrt((ROW_COST[column] * limit) / stats.rows);
}

export function chooseWalks(stats: LexemeStats, analysis: QueryAnalysis, limit: number): Walks {
  const exact = analysis.exact.map((w) => [`=${w.surface}`]);
  const folded = analysis.content.length ? analysis.content.map((w) => w.keys) : exact;
  return [
    walks(stats, "title", [exact], limit),
    walks(stats, "title", [folded], limit),
    walks(stats, "all", [exact], limit),
    walks(stats, "all", [folded], limit),
  ];
}
