/**
 * Site search over the published items of the searched types: every content-type definition with `search`
 * (articles, news, coverage, podcasts and programs; media is not searched).
 *
 * What is searched lives in `search_items` (drizzle/0005_search_index.sql): one row per item, keyed by its
 * type's key, with two lexeme sets made by the analysis of domain/arabic.ts, kept current by
 * server/search/search-index.server.ts from the queue that triggers on the searched tables fill
 * (server/search/search-triggers.server.ts), so writers need to do nothing. The `type` parameter and the
 * results name a type by its search name (domain/search.ts). A query is analysed by the same code into two tsqueries:
 * - folded: every content word by any of its keys (particles, article, stem, spelling folds);
 * - exact: the words as typed (their surface forms), for ranking.
 * Results rank title-exact, title, exact, then the rest; newest first within each (decision 0071). Each rank
 * is one arm of a UNION ALL limited to the page it can fill, so a word in half the texts reads an index in
 * date order and stops, and a rare one reads its posting list: no plan reads every row.
 * Every search runs in a transaction whose statement_timeout is one second; a search that needs more
 * answers SearchTimeoutError (503), never a 500.
 */
import crypto from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { alias, integer, PgDialect, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import pg from "pg";
import type { Database, Queryable } from "#server/db/client.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { isPublished } from "#server/content/published.server.ts";
import { syncSearchIndexIfPending } from "./search-index.server.ts";
import { publicUrl, type ContentType } from "#domain/content-types/index.ts";
import { expandQuery, TYPO_SIMILARITY, type ExpandedWord } from "./search-forgiving.server.ts";
import { cardsSql, snippetOf, type CardRow, type Hit } from "./search-cards.server.ts";
import { chooseWalks, lexemeStats, walks, type LexemeStats, type Walks } from "./search-walks.server.ts";
import { parseSearchQuery, parseSearchTypes, SearchInputError, SearchTimeoutError } from "./search-input.server.ts";
import { analyzeQuery, CONFUSABLE_FROM, CONFUSABLE_TO, foldArabic, matchRanges, type QueryAnalysis, type QueryWord } from "#domain/arabic.ts";
import {
  CLOSENESS,
  QUERY_MAX_LENGTH,
  QUERY_MIN_LENGTH,
  SEARCH_MAX_PAGE,
  SEARCH_PAGE_SIZE,
  SEARCH_TOTAL,
  SEARCH_TYPES,
  contentTypeOfSearchName,
  highlightQuery,
  searchNameOf,
  type Alternative,
  type Closeness,
  type MatchKind,
  type SearchPage,
  type SearchResult,
  type SearchType,
} from "#domain/search.ts";

export { SEARCH_TYPES, SEARCH_TOTAL, SEARCH_PAGE_SIZE, SEARCH_MAX_PAGE, QUERY_MIN_LENGTH, QUERY_MAX_LENGTH, type SearchType, type MatchKind };
export { CLOSENESS, type Alternative, type Closeness };
// The input and its errors (./search-input.server.ts) and snippets (./search-cards.server.ts), where callers have always found them.
export {
  displayedQuery,
  parseSearchPage,
  parseSearchQuery,
  parseSearchTypes,
  SEARCH_ERROR_CODES,
  SEARCH_ERROR_KEYS,
  SearchInputError,
  SearchTimeoutError,
  type SearchErrorCode,
} from "./search-input.server.ts";
export { snippetOf } from "./search-cards.server.ts";

/** No search holds the database longer than this (PostgreSQL; PGlite has no statement time-out). */
export const SEARCH_TIMEOUT_MS = 1000;

// The result and the page, shared with the page's components (domain/search.ts).
export type { SearchPage, SearchResult } from "#domain/search.ts";

// ---- The query as tsqueries ----

/** search_items, as created by the migration (derived from the five tables by server/search/search-index.server.ts, so not in schema.ts). */
export const searchItems = pgTable("search_items", {
  type: text("type").notNull(),
  itemId: integer("item_id").notNull(),
  status: text("status").notNull(),
  publishDate: timestamp("publish_date", { withTimezone: true }).notNull(),
});

/** A lexeme quoted for the tsquery input syntax: taken verbatim, never re-parsed. */
const lexeme = (l: string) => `'${l.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;

export type SearchTsqueries = { folded: string; exact: string };

/**
 * The two tsqueries of an analysed query, or null when it has no word to look for. A query made only of
 * stop-words looks for their exact forms (folded = exact).
 */
export function searchTsqueries(analysis: QueryAnalysis): SearchTsqueries | null {
  if (analysis.words.length === 0) return null;
  const exact = analysis.exact.map((w) => lexeme(`=${w.surface}`)).join(" & ");
  if (analysis.content.length === 0) return { folded: exact, exact };
  const folded = analysis.content.map((w) => `(${w.keys.map(lexeme).join(" | ")})`).join(" & ");
  return { folded, exact };
}

// ---- The search ----

/** An arm of the hits: a rank, the column it reads, its tsquery, and whether it walks the date index. */
type Arm = { rank: number; column: "title" | "all"; tsquery: string; walk: boolean };
type Plan = { arms: Arm[]; types: ContentType[]; offset: number; size: number };

/** The keys of the types of these search names (parsed by parseSearchTypes). */
const keysOf = (types: readonly SearchType[]) => types.map((t) => contentTypeOfSearchName(t)!);

/** The rows of search_items of these types: no condition when they are all of them. */
const typesFilter = (types: readonly ContentType[]) =>
  types.length === SEARCH_TYPES.length
    ? undefined
    : sql`s.type in (${sql.join(
        types.map((t) => sql`${t}`),
        sql`, `,
      )})`;

/**
 * The page's hits. Each rank is one arm of a UNION ALL, "rows matching this, newest first, limit n", read one
 * of two ways, chosen per arm by how common its words are (`chooseWalks`): a common word walks
 * `search_items_recent_idx` and stops at the n-th match, a few dozen rows in (its match is written so that no
 * index but the date's can serve it); any other reads its posting list in the GIN index and sorts the rows it
 * finds (OFFSET 0 keeps that subquery apart, so the date order of the outer query cannot turn it into a walk).
 * The arms overlap (an exact title also matches the folded title, the text…): an item takes its best rank,
 * and since each arm holds the newest `offset + size + 1` of its rows, the page is exact. Only positive
 * conditions: PostgreSQL cannot estimate "folded and not exact" (it takes the two as independent) and walked
 * the whole table for it. Every value is a parameter, so one statement text serves every query of a shape
 * (which arms, which walk, which types): it is prepared once per connection and planned once (`executeHits`).
 */
function hitsSql({ arms, types, offset, size }: Plan): SQL {
  const limit = offset + size + 1;
  const inTypes = typesFilter(types);
  const s = alias(searchItems, "s");
  const arm = ({ rank, column, tsquery, walk }: Arm) => {
    const vec = sql.raw(column === "title" ? "s.title_vec" : "s.all_vec");
    const match = walk ? sql`(${vec} @@ ${tsquery}::tsquery) is true` : sql`${vec} @@ ${tsquery}::tsquery`;
    const rows = sql`select s.type, s.item_id, s.publish_date from search_items s where ${isPublished(s, match, inTypes)}`;
    const from = walk ? sql`(${rows}) as m` : sql`(${rows} offset 0) as m`;
    return sql`(select ${sql.raw(String(rank))}::int as rank, m.type, m.item_id, m.publish_date from ${from}
      order by m.publish_date desc, m.type, m.item_id desc limit ${limit})`;
  };
  return sql`select min(rank) as rank, type, item_id, publish_date from (${sql.join(arms.map(arm), sql` union all `)}) as hits
    group by type, item_id, publish_date
    order by rank, publish_date desc, type, item_id desc offset ${offset} limit ${size + 1}`;
}

const dialect = new PgDialect();
/** The name of the prepared statement of a statement text: one per shape. */
const statementName = (text: string) => `search_${crypto.createHash("sha1").update(text).digest("hex").slice(0, 20)}`;

/**
 * The driver's own connection under a transaction: node-postgres' client (a named prepared statement needs it), or
 * PGlite's. Drizzle types its session's `client` as private; it is read by name, as the driver holds it.
 */
const driverClientOf = (tx: Queryable): unknown => Reflect.get(tx._.session, "client");

/**
 * A search's transaction on PostgreSQL or PGlite, and the settings its statements run under now: the plan mode
 * (the hits' statement wants `force_generic_plan`, the other lookups of a search (is a word anywhere? LIMIT 1)
 * need their values planned (`auto`), or a generic plan reads the table hoping for an early match) and the
 * trigram threshold of the `%` operator (pg_trgm: the typos' candidates, "did you mean"). A setting is changed
 * only when the next statement needs another value, and what changes together is set in one statement, so that
 * a search whose page the full matches fill makes no round trip for them (decision 0153).
 */
type SearchTx = { tx: Queryable; client: pg.Client | null; generic: boolean; similarity: number | null };

async function settle(s: SearchTx, want: { generic?: boolean; similarity?: number }): Promise<void> {
  const changes: string[] = [];
  const generic = s.client && want.generic !== undefined && want.generic !== s.generic ? want.generic : undefined;
  if (generic !== undefined) changes.push(`set_config('plan_cache_mode', '${generic ? "force_generic_plan" : "auto"}', true)`);
  const similarity = want.similarity !== undefined && want.similarity !== s.similarity ? want.similarity : undefined;
  if (similarity !== undefined) changes.push(`set_config('pg_trgm.similarity_threshold', '${similarity}', true)`);
  if (!changes.length) return;
  const statement = `select ${changes.join(", ")}`;
  if (s.client) await s.client.query(statement);
  else await s.tx.execute(sql.raw(statement));
  if (generic !== undefined) s.generic = generic;
  if (similarity !== undefined) s.similarity = similarity;
}

/**
 * Runs a statement of the search whose text is the same for every query of a shape (the hits', the cards') as a
 * named prepared statement on PostgreSQL (named by a hash of its text), so that it is parsed and planned once per
 * connection: planning the hits read the statistics of 10,000 lexemes for each arm, 12–22 ms a search. The hits
 * run under force_generic_plan (`settle`), which keeps that one plan; the walks are chosen by the search, not by
 * the planner. The cards are read by primary key: any plan mode serves them. PGlite runs either as it is.
 */
async function executePrepared<T>(s: SearchTx, query: SQL, { generic }: { generic: boolean }): Promise<T[]> {
  if (s.client) {
    const { sql: text, params } = dialect.sqlToQuery(query);
    if (generic) await settle(s, { generic: true });
    const { rows } = await s.client.query<T & pg.QueryResultRow>({ name: statementName(text), text, values: params });
    return rows;
  }
  return rowsOf<T>(await s.tx.execute(query));
}

const executeHits = (s: SearchTx, query: SQL) => executePrepared<Hit>(s, query, { generic: true });

/** The ranks of the arms, best first: four full, then near (title, text), then partial (title, text). */
const FULL_RANKS = 4;
const RANK_MATCH: readonly MatchKind[] = ["title-exact", "title", "exact", "text", "title", "text", "title", "text"];
const closenessOf = (rank: number): Closeness => (rank < FULL_RANKS ? "full" : rank < 6 ? "near" : "partial");

/** A group of a tsquery: any of its lexemes, or (words run together) every one of its split's groups. */
type Group = { lexemes: string[]; split?: string[][] | null };
const anyOf = (lexemes: string[]) => `(${lexemes.map(lexeme).join(" | ")})`;
const groupOf = ({ lexemes, split }: Group) => (split ? `(${[...lexemes.map(lexeme), `(${split.map(anyOf).join(" & ")})`].join(" | ")})` : anyOf(lexemes));
/** A tsquery of lexeme groups: every group. */
const allOf = (groups: Group[]) => groups.map(groupOf).join(" & ");

/** The four full arms of a query (the folded ones left out when they are the exact ones). */
function fullArms(queries: SearchTsqueries, walks: Walks): Arm[] {
  const { folded, exact } = queries;
  return [
    { rank: 0, column: "title" as const, tsquery: exact, walk: walks[0] },
    ...(folded === exact ? [] : [{ rank: 1, column: "title" as const, tsquery: folded, walk: walks[1] }]),
    { rank: 2, column: "all" as const, tsquery: exact, walk: walks[2] },
    ...(folded === exact ? [] : [{ rank: 3, column: "all" as const, tsquery: folded, walk: walks[3] }]),
  ];
}

/** Partial matches look for all words but one; beyond this many words, a query is a sentence and has none. */
const PARTIAL_MAX_WORDS = 8;

/**
 * The near and partial arms, from the expanded words: near when some word has an alternative (every word,
 * each by its keys or its alternatives'), partial for two words or more (all but one, any one).
 */
function forgivingArms(stats: LexemeStats, expanded: ExpandedWord[], limit: number): Arm[] {
  const { near, partial } = forgivingShapes(expanded);
  const arms: Arm[] = [];
  if (near)
    for (const [rank, column] of [
      [4, "title"],
      [5, "all"],
    ] as const)
      arms.push({ rank, column, tsquery: allOf(near), walk: walks(stats, column, [near.map((g) => g.lexemes)], limit) });
  if (partial) {
    const tsquery = partial.map((g) => `(${allOf(g)})`).join(" | ");
    for (const [rank, column] of [
      [6, "title"],
      [7, "all"],
    ] as const)
      arms.push({
        rank,
        column,
        tsquery,
        walk: walks(
          stats,
          column,
          partial.map((groups) => groups.map((g) => g.lexemes)),
          limit,
        ),
      });
  }
  return arms;
}

/** The lexeme groups of the near match (every word, by its keys or an alternative's) and of the partial one (any conjunction of all words but one). */
function forgivingShapes(expanded: ExpandedWord[]): { near: Group[] | null; partial: Group[][] | null } {
  const groups = expanded.map((e): Group => ({ lexemes: e.lexemes, split: e.split }));
  const near = expanded.some((e) => e.lexemes.length > e.word.keys.length || e.split) ? groups : null;
  const partial = groups.length >= 2 && groups.length <= PARTIAL_MAX_WORDS ? groups.map((_, skip) => groups.filter((__, i) => i !== skip)) : null;
  return { near, partial };
}

/**
 * The tsqueries a query's text matches by, at each closeness: full (the folded one), near and partial (null
 * when the query has none), for the corpus of the tests and the bench, which ask them of single texts.
 */
export async function closenessTsqueries(db: Queryable, analysis: QueryAnalysis): Promise<Record<Closeness, string | null>> {
  const queries = searchTsqueries(analysis);
  if (!queries || !analysis.content.length) return { full: queries?.folded ?? null, near: null, partial: null };
  const { near, partial } = forgivingShapes((await expandQuery(db, analysis)).words);
  return { full: queries.folded, near: near && allOf(near), partial: partial && partial.map((g) => `(${allOf(g)})`).join(" | ") };
}

/** Whether `error` (or what it wraps) is PostgreSQL's query_canceled: our statement_timeout fired. */
function isStatementTimeout(error: unknown): boolean {
  for (let e = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "57014") return true;
  }
  return false;
}

type RunOptions = { timeoutMs?: number };

/**
 * Runs `work` in a transaction whose statements may each take at most `timeoutMs`; one round trip sets that
 * time-out and the plan mode the search starts in (generic on PostgreSQL, for its hits), both ended with it.
 */
async function withTimeout<T>(db: Database, { timeoutMs = SEARCH_TIMEOUT_MS }: RunOptions, work: (s: SearchTx) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      const found = driverClientOf(tx);
      const client = found instanceof pg.Client ? found : null;
      const timeout = String(Math.max(1, Math.round(timeoutMs)));
      await tx.execute(
        sql`select set_config('statement_timeout', ${timeout}, true), set_config('plan_cache_mode', ${client ? "force_generic_plan" : "auto"}, true)`,
      );
      return work({ tx, client, generic: Boolean(client), similarity: null });
    });
  } catch (error) {
    if (isStatementTimeout(error)) throw new SearchTimeoutError({ cause: error });
    throw error;
  }
}

/**
 * One page of published items matching `query`, best first (title-exact, title, exact, text; newest first
 * within each), SEARCH_PAGE_SIZE a page. When the full matches do not fill the page, the near ones follow
 * (Latin ↔ Arabic spellings, typos read as the written words), then the partial ones (all words but one):
 * each result says which (`closeness`). Throws SearchInputError (400) for a query, type or page that is not
 * acceptable and SearchTimeoutError (503) when the database needs more than a second.
 */
export async function searchPublished(
  db: Database,
  query: string,
  options: { types?: readonly string[]; page?: number } & RunOptions = {},
): Promise<SearchPage> {
  const q = parseSearchQuery(query);
  const types = parseSearchTypes(options.types);
  const page = options.page ?? 1;
  if (!Number.isInteger(page) || page < 1 || page > SEARCH_MAX_PAGE) throw new SearchInputError("INVALID_PAGE");
  const analysis = analyzeQuery(q);
  const queries = searchTsqueries(analysis);
  if (!queries) return { query: q, page, results: [], hasMore: false, suggestion: null, alternatives: [] };
  const offset = (page - 1) * SEARCH_PAGE_SIZE;
  // What a writer outside the newsroom (an import, a script) queued is indexed before it is searched.
  await syncSearchIndexIfPending(db);
  const stats = await lexemeStats(db);
  const limit = offset + SEARCH_PAGE_SIZE + 1;
  const full = fullArms(queries, chooseWalks(stats, analysis, limit));
  const plan = (arms: Arm[]): Plan => ({ arms, types: keysOf(types), offset, size: SEARCH_PAGE_SIZE });
  return withTimeout(db, options, async (s) => {
    let hits = await executeHits(s, hitsSql(plan(full)));
    const fullHits = hits.length;
    let alternatives: Alternative[] = [];
    /** Each mistyped word's nearest written word, which "did you mean" proposes. */
    const nearest = new Map<string, string>();
    /** The words the forgiving lookup found written somewhere: "did you mean" need not ask again. */
    const foundWords = new Set<QueryWord>();
    // The full matches leave room on this page: the near and partial ones follow them.
    if (hits.length <= SEARCH_PAGE_SIZE && analysis.content.length) {
      // The forgiving lookups' settings in one round trip: the typos' threshold too, which they may need.
      await settle(s, { generic: false, similarity: TYPO_SIMILARITY });
      const expanded = await expandQuery(s.tx, analysis, stats.all, (similarity) => settle(s, { similarity }));
      expanded.found.forEach((found, i) => found && foundWords.add(analysis.content[i]));
      for (const a of expanded.alternatives) if (a.kind === "typo") nearest.set(a.word, a.forms[0]);
      const more = forgivingArms(stats, expanded.words, limit);
      if (more.length) {
        hits = await executeHits(s, hitsSql(plan([...full, ...more])));
        // Said only when some result came through them.
        if (hits.some((h) => closenessOf(h.rank) === "near")) alternatives = expanded.alternatives;
      }
    }
    const shown = hits.slice(0, SEARCH_PAGE_SIZE);
    let nearAnalysis: QueryAnalysis | undefined;
    // The cards and their bylines (issue 29) in one statement, read by primary key: any plan mode serves it.
    const cards = shown.length ? await executePrepared<CardRow>(s, cardsSql(shown), { generic: false }) : [];
    const results = shown.flatMap((hit) => {
      const card = cards.find((c) => c.type === hit.type && Number(c.id) === Number(hit.item_id));
      // A near result's snippet is cut around the written words its alternatives stand for (أطار for «Atar»).
      const near = closenessOf(hit.rank) === "near" && alternatives.length;
      return card ? [resultOf(hit, card, near ? (nearAnalysis ??= analyzeQuery(highlightQuery(q, alternatives, "near"))) : analysis)] : [];
    });
    // "Did you mean" is for the query as a whole: proposed when no item matched it fully.
    let suggestion: string | null = null;
    if (fullHits === 0 && page === 1) {
      suggestion = await suggest(s, analysis, keysOf(types), { nearest, found: foundWords });
    }
    return { query: q, page, results, hasMore: hits.length > SEARCH_PAGE_SIZE, suggestion, alternatives };
  });
}

function resultOf(hit: Hit, r: CardRow, analysis: QueryAnalysis): SearchResult {
  // The excerpt shows the match already: no snippet. Otherwise the body's first match, if the start of it has one.
  const excerptShows = (excerpt: string | null) => Boolean(excerpt && matchRanges(excerpt, analysis, 1).length);
  return {
    type: searchNameOf(hit.type),
    id: Number(hit.item_id),
    title: r.title,
    titleFr: r.title_fr,
    excerpt: r.excerpt,
    excerptFr: r.excerpt_fr,
    snippet: excerptShows(r.excerpt) ? null : snippetOf(r.content, analysis),
    snippetFr: excerptShows(r.excerpt_fr) ? null : snippetOf(r.content_fr, analysis),
    imageUrl: r.image_url,
    publishDate: new Date(hit.publish_date),
    href: publicUrl(hit.type, r.page_slug, Number(hit.item_id)),
    match: RANK_MATCH[hit.rank],
    closeness: closenessOf(hit.rank),
    bylines: r.bylines ?? [],
  };
}

// ---- Did you mean ----

/** How alike a word must be (trigram similarity of the folded forms) to be proposed. */
const SUGGESTION_SIMILARITY = 0.3;

/** The index expression of search_terms_confusable_idx: the letters readers confuse, folded. */
const confusable = (term: SQL) => sql`translate(${term}, ${sql.raw(`'${CONFUSABLE_FROM}'`)}, ${sql.raw(`'${CONFUSABLE_TO}'`)})`;

/**
 * For a query that no item matched fully: each word that finds nothing by itself replaced by a word of the
 * stored texts (search_terms, the vocabulary server/search/search-index.server.ts keeps): the nearest the typo
 * arm found for it (`nearest`, by the weighted distance of decision 0129), else one that differs only by
 * letters readers confuse (ظابط → ضابط), else the most similar by trigrams (pg_trgm). Proposed only when the
 * new query finds something published. A word the forgiving lookup found written (`found`) is not asked again.
 */
async function suggest(
  s: SearchTx,
  analysis: QueryAnalysis,
  types: ContentType[],
  known: { nearest: ReadonlyMap<string, string>; found: ReadonlySet<QueryWord> },
): Promise<string | null> {
  const { tx } = s;
  let changed = false;
  const words: string[] = [];
  for (const w of analysis.words) {
    // The typo arm read this word already (decision 0129): its nearest written word, by the weighted distance.
    const read = known.nearest.get(w.surface);
    if (read) {
      changed = true;
      words.push(read);
      continue;
    }
    const term = foldArabic(w.surface);
    if (w.stop || [...term].length < 3 || !/[\u0621-\u064Aa-z]/.test(term) || known.found.has(w)) {
      words.push(w.surface);
      continue;
    }
    await settle(s, { generic: false, similarity: SUGGESTION_SIMILARITY });
    const finds = rowsOf(await tx.execute(sql`select 1 from search_items where all_vec @@ ${w.keys.map(lexeme).join(" | ")}::tsquery limit 1`)).length > 0;
    if (finds) {
      words.push(w.surface);
      continue;
    }
    const [best] = rowsOf<{ word: string }>(
      await tx.execute(sql`select word from (
          (select word, 0 as choice from search_terms where ${confusable(sql`term`)} = ${confusable(sql`${term}`)} and term <> ${term} and not stop
            order by term, word limit 1)
          union all
          (select word, 1 from search_terms where term % ${term} and term <> ${term} and not stop
            order by similarity(term, ${term}) desc, abs(length(term) - ${[...term].length}), term, word limit 1)
        ) as candidates order by choice limit 1`),
    );
    changed ||= Boolean(best);
    words.push(best ? best.word : w.surface);
  }
  if (!changed) return null;
  const suggestion = words.join(" ");
  const queries = searchTsqueries(analyzeQuery(suggestion));
  if (!queries) return null;
  await settle(s, { generic: false });
  const a = alias(searchItems, "s");
  const inTypes = typesFilter(types);
  const found = rowsOf(
    await tx.execute(sql`select 1 from search_items s where ${isPublished(a, sql`s.all_vec @@ ${queries.folded}::tsquery`, inTypes)} limit 1`),
  );
  return found.length ? suggestion : null;
}

// ---- Upkeep and measurement ----

/** EXPLAIN (ANALYZE, BUFFERS) of the statement that finds a search's hits (the cards are read by primary key after), for the bench. */
export async function explainSearch(
  db: Database,
  query: string,
  options: { types?: readonly string[]; page?: number; forgiving?: boolean } = {},
): Promise<string> {
  const analysis = analyzeQuery(parseSearchQuery(query));
  const queries = searchTsqueries(analysis);
  if (!queries) return "(no word to search)";
  const offset = ((options.page ?? 1) - 1) * SEARCH_PAGE_SIZE;
  const stats = await lexemeStats(db);
  const limit = offset + SEARCH_PAGE_SIZE + 1;
  let arms = fullArms(queries, chooseWalks(stats, analysis, limit));
  // The forgiving arms too, when the search would run them (the full ones leave room on the page).
  if (options.forgiving) arms = [...arms, ...forgivingArms(stats, (await expandQuery(db, analysis, stats.all)).words, limit)];
  const plan: Plan = { arms, types: keysOf(parseSearchTypes(options.types)), offset, size: SEARCH_PAGE_SIZE };
  return withTimeout(db, { timeoutMs: 10_000 }, async (s) => {
    const { client } = s;
    if (!client) {
      const rows = rowsOf<{ "QUERY PLAN": string }>(await s.tx.execute(sql`explain (analyze, buffers, costs off) ${hitsSql(plan)}`));
      return rows.map((r) => r["QUERY PLAN"]).join("\n");
    }
    // PostgreSQL: the plan the search runs, the generic one of its prepared statement (executeHits).
    const query = hitsSql(plan);
    await executeHits(s, query);
    const { sql: text, params } = dialect.sqlToQuery(query);
    const literal = (v: unknown) => (typeof v === "number" ? String(v) : `'${String(v).replaceAll("'", "''")}'`);
    const res = await client.query<{ "QUERY PLAN": string }>(
      `explain (analyze, buffers, costs off) execute ${statementName(text)}(${params.map(literal).join(", ")})`,
    );
    return res.rows.map((r) => r["QUERY PLAN"]).join("\n");
  });
}
