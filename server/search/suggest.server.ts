/**
 * Suggestions as you type (issue 31, docs/decisions/0128-search-limits-queue-suggestions.md): for what the
 * header's search field holds, the newest published items whose title matches it — the word being typed as a
 * prefix, the others whole — and the tags whose names start with it, each with its URL, in the reader's
 * language. `GET /api/search/suggest?q=` answers it as JSON (app/routes/api/search-suggest.ts).
 *
 * The words are analysed by the search's own analysis (domain/arabic.ts `analyzeQuery`), so a suggestion and
 * the search it leads to agree: particles, the article and spelling folds are dropped the same way. The
 * titles come from `search_items.title_vec` (its GIN index reads prefix queries), newest first; a word being
 * typed is read as a prefix only from SUGGEST_PREFIX_MIN letters after its particles and article (a shorter
 * prefix would read the postings of thousands of words for six suggestions). Every read is bounded by SUGGEST_TIMEOUT_MS: a
 * suggestion that would come late is no suggestion, and the answer is then empty rather than an error.
 * Answers are kept SUGGEST_CACHE_MS in this process (and briefly by the browser), forgotten on any write of
 * the searched types or tags.
 */
import { sql, type SQL } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "#server/db/client.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { isPublished } from "#server/content/published.server.ts";
import { onInvalidate } from "#server/content/cache.server.ts";
import { analyzeQuery, exactLexeme, type QueryAnalysis } from "#domain/arabic.ts";
import { publicUrl, type ContentType } from "#domain/content-types/index.ts";
import { searchNameOf, type SearchType } from "#domain/search.ts";
import { localized } from "#domain/localized.ts";
import { tagMatchKey, tagPath, tagQueryCore, rankTagSuggestions } from "#domain/tags.ts";
import type { Language } from "#domain/language.ts";
import { searchItems } from "./search.server.ts";
import { searchedTypes } from "./search-triggers.server.ts";

export const SUGGEST_TITLES = 6;
export const SUGGEST_TAGS = 3;
/** A word being typed is completed from this many letters; shorter, it must be whole. */
export const SUGGEST_PREFIX_MIN = 3;
export const SUGGEST_TIMEOUT_MS = 250;
export const SUGGEST_CACHE_MS = 30_000;
/** How long browsers and shared caches may keep an answer (the same for everyone who types the same). */
export const SUGGEST_MAX_AGE_S = 30;

export type Suggestion = { kind: "title"; type: SearchType; label: string; url: string } | { kind: "tag"; label: string; url: string };
export type SuggestAnswer = { query: string; suggestions: Suggestion[] };

/** A lexeme quoted for the tsquery input syntax, optionally as a prefix. */
const lexeme = (l: string, prefix = false) => `'${l.replaceAll("\\", "\\\\").replaceAll("'", "''")}'${prefix ? ":*" : ""}`;

/**
 * The tsquery of the titles to suggest, or null when there is nothing to look for. `typing`: the last word is
 * still being typed (the field does not end with a space), so it is a prefix when long enough.
 */
/**
 * The article at a word's start, with the particles before it: «ال», «وال», «بال», «فبال», «لل», «ولل»… (a lone
 * «و» or «ب» is as often the word's own first letter: «بيروت» must complete from «بير»).
 */
const CLITICS = /^(?:[وف]?[بكل]?ال|[وف]?لل)/u;
const prefixable = (word: string) => [...word.replace(CLITICS, "")].length >= SUGGEST_PREFIX_MIN;

export function suggestTsquery(analysis: QueryAnalysis, typing: boolean): string | null {
  const { words } = analysis;
  if (!words.length) return null;
  const last = words.at(-1)!;
  // Whole words: the content words (stop-words are not searched), as the search folds them.
  const whole = (typing ? analysis.content.filter((w) => w !== last) : analysis.content)
    .filter((w) => w.keys.length)
    .map((w) => `(${w.keys.map((k) => lexeme(k)).join(" | ")})`);
  if (typing) {
    // The word as typed, and each of its keys (its article or particle off, its spelling folded), as prefixes when
    // what follows their particles and article has SUGGEST_PREFIX_MIN letters: «وال» or «للم» would read the
    // postings of thousands of words for six suggestions; one more letter narrows them.
    const forms = new Set([
      lexeme(exactLexeme(last.surface), prefixable(last.surface)),
      ...last.keys.filter((k) => [...k].length >= 2).map((k) => lexeme(k, prefixable(k))),
    ]);
    whole.push(`(${[...forms].join(" | ")})`);
  }
  return whole.length ? whole.join(" & ") : null;
}

const answers = new LRUCache<string, SuggestAnswer>({ max: 5000, ttl: SUGGEST_CACHE_MS });
let following = false;
function follow() {
  if (following) return;
  following = true;
  // Any write of what suggestions show (a searched type, the tags) makes every kept answer doubtful.
  onInvalidate(() => answers.clear());
}

const keyOf = (query: string, lang: Language) => `${lang}\n${query}`;

/** The answer this process keeps for this query, if any (what a suggestion costs nothing for). */
export function keptSuggestions(query: string, lang: Language, { typing = true }: { typing?: boolean } = {}): SuggestAnswer | undefined {
  return answers.get(keyOf(`${query}${typing ? "" : " "}`, lang));
}

/**
 * The suggestions for `query` (checked by the caller: server/search/search.server.ts `parseSearchQuery`),
 * titles then tags, in `lang`. `typing`: whether the last word is still being typed.
 */
export async function suggestPublished(db: Database, query: string, lang: Language, { typing = true }: { typing?: boolean } = {}): Promise<SuggestAnswer> {
  follow();
  const key = keyOf(`${query}${typing ? "" : " "}`, lang);
  const kept = answers.get(key);
  if (kept) return kept;
  const analysis = analyzeQuery(query);
  const tsquery = suggestTsquery(analysis, typing);
  const rows = await db
    .transaction(async (tx) => {
      await tx.execute(sql.raw(`set local statement_timeout = ${SUGGEST_TIMEOUT_MS}`));
      const read = suggestionsSql(tsquery, query);
      return read ? rowsOf<SuggestRow>(await tx.execute(read)) : [];
    })
    .catch((error: unknown) => {
      if (isStatementTimeout(error)) return null;
      throw error;
    });
  if (!rows) return { query, suggestions: [] };
  const tags = rankTagSuggestions(
    query,
    rows.filter((r) => r.kind === "tag").map((r) => ({ ...r, name: r.title, count: Number(r.count) })),
    SUGGEST_TAGS,
  );
  const suggestions: Suggestion[] = [
    ...rows
      .filter((r) => r.kind === "title")
      .map((r): Suggestion => ({
        kind: "title",
        type: searchNameOf(r.type!),
        label: localized(lang, r.title, r.title_fr),
        url: publicUrl(r.type!, r.slug, Number(r.id)),
      })),
    ...tags.map((t): Suggestion => ({ kind: "tag", label: t.name, url: tagPath(t.slug) })),
  ];
  const answer = { query, suggestions };
  answers.set(key, answer);
  return answer;
}

/** A row of the one read: a title (in the hits' order) or a tag that matches (with its published items' count). */
type SuggestRow = { kind: "title" | "tag"; type: ContentType | null; id: number; title: string; title_fr: string | null; slug: string; count: number };

/**
 * Titles and tags in one statement (one round trip, which counts on a busy machine):
 * - the newest published items whose title matches, SUGGEST_TITLES at most, with their titles and slugs read
 *   from their own tables by primary key;
 * - the tags that match what is typed (domain/tags.ts, as the newsroom's tag field: the query's core letters
 *   narrow them, the ranking is `rankTagSuggestions`) and are on a published item.
 */
function suggestionsSql(tsquery: string | null, query: string): SQL | null {
  const parts: SQL[] = [];
  if (tsquery) {
    const s = alias(searchItems, "s");
    const cards = sql.join(
      searchedTypes().map(({ type, table }) => sql`select title, title_fr, page_slug from ${sql.identifier(table)} where h.type = ${type} and id = h.item_id`),
      sql` union all `,
    );
    parts.push(sql`(select 'title'::text as kind, h.type, h.item_id as id, c.title, c.title_fr, c.page_slug as slug, 0 as count, h.n
      from (select s.type, s.item_id, row_number() over (order by s.publish_date desc, s.type, s.item_id desc) as n
        from search_items s where ${isPublished(s, sql`s.title_vec @@ ${tsquery}::tsquery`)}
        order by s.publish_date desc, s.type, s.item_id desc limit ${SUGGEST_TITLES}) as h
      cross join lateral (${cards}) as c)`);
  }
  const core = tagQueryCore(query);
  if (core && tagMatchKey(query)) {
    const like = `%${core.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const s = alias(searchItems, "s");
    parts.push(sql`(select 'tag'::text as kind, null::text as type, t.id, t.name as title, null::text as title_fr, t.slug, count(*)::int as count, 0::bigint as n from (
        select id, slug, name from tags where match_key like ${like} order by length(match_key), id limit 200
      ) as t
      join item_tags it on it.tag_id = t.id
      join search_items s on s.type = it.content_type and s.item_id = it.item_id and ${isPublished(s)}
      group by t.id, t.slug, t.name)`);
  }
  return parts.length ? sql`select * from (${sql.join(parts, sql` union all `)}) as found order by kind desc, n` : null;
}

function isStatementTimeout(error: unknown): boolean {
  for (let e = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "57014") return true;
  }
  return false;
}
