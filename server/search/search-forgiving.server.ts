/**
 * What a search looks for beyond the words as analysed, when the full matches do not fill the page
 * (docs/decisions/0129-forgiving-search.md): for each content word of the query,
 * - **Latin ↔ Arabic**: a Latin word («Atar», «Ould») → the Arabic forms of the kept list of Mauritanian
 *   names (domain/search-lexicon.ts), else those the site's own bilingual titles pair with it (a title whose
 *   French half has the word and whose Arabic half has a word of the same consonant skeleton), else the
 *   vocabulary's words of that skeleton nearest in their vowels (search_terms.sound); an Arabic word → the
 *   Latin spellings the same three sources give, for the French texts;
 * - **typos**: a word that finds nothing by itself → the words of the vocabulary nearest to it, by a
 *   distance weighted by how readers mistype (a dot, a sound, a key beside, a letter dropped or doubled),
 *   among the candidates of the trigram index (search_terms_trgm_idx).
 * Each yields lexemes of search_items (keys, or exact forms where a key would meet another word: أطار, not
 * اطار, which إطار also folds to), used by the "near" and "partial" arms of server/search/search.server.ts.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Queryable } from "#server/db/client.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import {
  CONFUSABLE_FROM,
  CONFUSABLE_TO,
  exactLexeme,
  foldArabic,
  isLatinWord,
  queryWordKeys,
  stemFrench,
  type QueryAnalysis,
  type QueryWord,
} from "#domain/arabic.ts";
import { latinNamesOf, latinReading, PLACE_NAMES, readingDistance, soundOf, typoCost, typoLimit } from "#domain/search-lexicon.ts";

import type { Alternative } from "#domain/search.ts";

/**
 * A content word with every lexeme that finds it: its keys, and those of its alternatives; and, for words run
 * together, the key groups of its pieces, all of which a text must hold (`split`).
 */
export type ExpandedWord = { word: QueryWord; lexemes: string[]; split: string[][] | null };

/** Particles a name may carry in Arabic copy (بأطار، لروصو، وللزويرات): its exact forms are looked for with them. */
const NAME_PARTICLES = ["", "و", "ف", "ب", "ل", "ك", "وب", "ول", "فب", "فل", "وك"];

/** The exact lexemes of an Arabic form with the particles copy attaches to it. */
function exactForms(form: string): string[] {
  const out = NAME_PARTICLES.map((p) => exactLexeme(p + form));
  if (form.startsWith("ال")) for (const p of ["", "و", "ف"]) out.push(exactLexeme(`${p}لل${form.slice(2)}`));
  return out;
}

/** The particle a stored Arabic word may carry, read off when what remains has the wanted skeleton. */
function coreWithSound(word: string, sound: string): string | null {
  const folded = foldArabic(word);
  if (soundOf(folded) === sound) return word;
  for (const p of ["وب", "ول", "فب", "فل", "و", "ف", "ب", "ل", "ك"]) {
    if (word.startsWith(p) && soundOf(foldArabic(word.slice(p.length))) === sound) return word.slice(p.length);
  }
  return null;
}

/** How many alternatives of one word are kept at most (the best first). */
const MAX_FORMS = 8;
/** The least trigram similarity of a typo's candidates (pg_trgm), before the weighted distance decides. */
export const TYPO_SIMILARITY = 0.25;

/** Latin word → Arabic forms: kept names, then the bilingual titles, then the vocabulary's skeletons. */
async function arabicFormsOf(tx: Queryable, latin: string): Promise<string[]> {
  const kept = PLACE_NAMES.get(latin);
  if (kept) return [...kept];
  const sound = soundOf(latin);
  if (!sound) return [];
  // Titles whose French half has the word: the Arabic words of the same skeleton in them, commonest first.
  const titles = rowsOf<{ lexemes: string[] }>(
    await tx.execute(sql`select tsvector_to_array(title_vec) as lexemes from search_items
      where title_vec @@ ${`'${stemFrench(latin).replaceAll("'", "''")}'`}::tsquery limit 50`),
  );
  const learned = new Map<string, number>();
  for (const { lexemes } of titles) {
    for (const l of lexemes) {
      if (!l.startsWith("=") || !/[\u0621-\u064A]/.test(l)) continue;
      const core = coreWithSound(l.slice(1), sound);
      if (core) learned.set(core, (learned.get(core) ?? 0) + 1);
    }
  }
  if (learned.size) {
    return [...learned]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([w]) => w);
  }
  // The vocabulary's Arabic words of that skeleton whose vowels are nearest to the Latin ones.
  const reading = latinReading(latin);
  const words = rowsOf<{ word: string; term: string }>(
    await tx.execute(sql`select word, term from search_terms where sound = ${sound} and not stop limit 300`),
  ).filter((w) => /[\u0621-\u064A]/.test(w.term));
  const scored = words.map((w) => ({ word: w.word, d: readingDistance(reading, latinReading(w.term)) })).filter((w) => w.d <= 1);
  if (!scored.length) return [];
  const best = Math.min(...scored.map((w) => w.d));
  return scored
    .filter((w) => w.d <= best + 0.35)
    .sort((a, b) => a.d - b.d || a.word.localeCompare(b.word))
    .slice(0, MAX_FORMS)
    .map((w) => w.word);
}

/** Arabic word → Latin spellings (for the French texts): kept names, then bilingual titles, then the vocabulary. */
function latinFormsOf(word: QueryWord, titles: { lexemes: string[] }[]): string[] {
  const kept = latinNamesOf(word.surface, foldArabic);
  if (kept.length) return kept;
  const sound = soundOf(foldArabic(word.surface));
  if (!sound) return [];
  const learned = new Map<string, number>();
  for (const { lexemes } of titles) {
    for (const l of lexemes)
      if (l.startsWith("=") && isLatinWord(l.slice(1)) && soundOf(l.slice(1)) === sound) learned.set(l.slice(1), (learned.get(l.slice(1)) ?? 0) + 1);
  }
  // A title pairs a word with its spelling once at least twice, or when it is the only one of that skeleton.
  const sure = [...learned].filter(([, n]) => n >= 2 || learned.size === 1);
  return sure
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([w]) => w);
}

/** A tsquery of any of a word's own keys. */
const keysQuery = (w: QueryWord) => w.keys.map((k) => `'${k.replaceAll("'", "''")}'`).join(" | ");

/**
 * What the forgiving lookups need to know of the stored texts first, in one statement:
 * - which words' own keys find a text (a word found as typed is no typo): those with a key among the commonest
 *   lexemes (`common`, the planner's statistics) are known at once, the others asked;
 * - for each Arabic word that is not a kept name, the lexemes of up to 50 titles that hold it (where a French
 *   half may spell it); none for the other words.
 */
async function readWords(
  tx: Queryable,
  words: readonly QueryWord[],
  common: ReadonlyMap<string, number>,
): Promise<{ found: boolean[]; titles: { lexemes: string[] }[][] }> {
  const found = words.map((w) => !w.keys.length || w.keys.some((k) => common.has(k)));
  const titles = words.map((): { lexemes: string[] }[] => []);
  const asked = words.flatMap((w, i) => (found[i] ? [] : [{ i, tsquery: keysQuery(w) }]));
  const titled = words.flatMap((w, i) =>
    !isLatinWord(foldArabic(w.surface)) &&
    /[\u0621-\u064A]/.test(w.surface) &&
    w.keys.length &&
    !latinNamesOf(w.surface, foldArabic).length &&
    soundOf(foldArabic(w.surface))
      ? [{ i, tsquery: keysQuery(w) }]
      : [],
  );
  if (!asked.length && !titled.length) return { found, titles };
  const columns = asked.map(({ tsquery }, n) => sql`exists (select 1 from search_items where all_vec @@ ${tsquery}::tsquery) as ${sql.identifier(`w${n}`)}`);
  if (titled.length) {
    const parts = titled.map(
      ({ i, tsquery }) =>
        sql`(select ${sql.raw(String(i))} as i, tsvector_to_array(title_vec) as lexemes from search_items where title_vec @@ ${tsquery}::tsquery limit 50)`,
    );
    columns.push(sql`(select coalesce(json_agg(json_build_object('i', t.i, 'lexemes', t.lexemes)), '[]'::json)
      from (${sql.join(parts, sql` union all `)}) as t) as titles`);
  }
  const [row] = rowsOf<Record<string, unknown>>(await tx.execute(sql`select ${sql.join(columns, sql`, `)}`));
  asked.forEach(({ i }, n) => (found[i] = Boolean(row?.[`w${n}`])));
  for (const t of (row?.titles ?? []) as { i: number; lexemes: string[] }[]) titles[Number(t.i)].push({ lexemes: t.lexemes });
  return { found, titles };
}

/** The index expression of search_terms_confusable_idx (drizzle/0005_search_index.sql). */
const confusable = (term: SQL) => sql`translate(${term}, ${sql.raw(`'${CONFUSABLE_FROM}'`)}, ${sql.raw(`'${CONFUSABLE_TO}'`)})`;

const stripArticle = (w: string) => w.replace(/^(وال|فال|بال|كال|ال|لل)(?=...)/, "");

/** What is asked of the vocabulary for a mistyped word: the folded word, its typo limit, and its candidates' query. */
type TypoLookup = { typed: string; limit: number; candidates: SQL };

function typoLookup(word: QueryWord): TypoLookup | null {
  const typed = foldArabic(word.surface);
  const limit = typoLimit([...stripArticle(typed)].length);
  if (limit === 0) return null;
  // Trigram neighbours; the words that differ only by letters readers confuse (ظابط: ضابط shares too few
  // trigrams with it), from the index "did you mean" reads; and two letters swapped (مكبتة: مكتبة shares
  // two trigrams of seven), by the primary key.
  const letters = [...word.surface];
  const swapped = letters.slice(1).map((_, i) => [...letters.slice(0, i), letters[i + 1], letters[i], ...letters.slice(i + 2)].join(""));
  const candidates = sql`(select word, term from search_terms where term % ${typed} and term <> ${typed} and not stop
        order by similarity(term, ${typed}) desc, term limit 60)
      union
      (select word, term from search_terms where ${confusable(sql`term`)} = ${confusable(sql`${typed}`)} and term <> ${typed} and not stop limit 20)
      union
      (select word, term from search_terms where word = any(${sql.param(swapped)}::text[]) and not stop)`;
  return { typed, limit, candidates };
}

/** The written words nearest to a mistyped one, by the weighted distance, among its candidates (`typoLookup`). */
function typoForms({ typed, limit }: TypoLookup, candidates: readonly { word: string; term: string }[]): string[] {
  const scored = candidates
    .map((c) => ({ word: c.word, d: Math.min(typoCost(typed, c.term, limit), typoCost(stripArticle(typed), stripArticle(c.term), limit)) }))
    .filter((c) => c.d <= limit);
  if (!scored.length) return [];
  const best = Math.min(...scored.map((c) => c.d));
  return scored
    .filter((c) => c.d <= best + 0.3)
    .sort((a, b) => a.d - b.d || a.word.localeCompare(b.word))
    .slice(0, MAX_FORMS)
    .map((c) => c.word);
}

const confusableOf = (term: string) => [...term].map((c) => CONFUSABLE_TO[CONFUSABLE_FROM.indexOf(c)] ?? c).join("");

/** The ways to cut `letters` into `n` pieces of `least` letters at least, in order. */
function cutsOf(letters: readonly string[], n: number, least: number): string[][] {
  if (n === 1) return letters.length >= least ? [[letters.join("")]] : [];
  const out: string[][] = [];
  for (let i = least; letters.length - i >= least * (n - 1); i++) {
    for (const rest of cutsOf(letters.slice(i), n - 1, least)) out.push([letters.slice(0, i).join(""), ...rest]);
  }
  return out;
}

/**
 * What is asked of the vocabulary for a word that may be words run together: its cuts, and the query of which of
 * their pieces are words (stop-words or not). Two pieces of two letters at least, else three of three letters at
 * least (shorter pieces would cut most long words into some three words).
 */
type GluedLookup = { cuts: string[][]; terms: SQL };

function gluedLookup(word: QueryWord): GluedLookup | null {
  const letters = [...word.surface];
  if (letters.length < 5 || !/^[\u0621-\u064A]+$/.test(word.surface)) return null;
  const cuts = [...cutsOf(letters, 2, 2), ...cutsOf(letters, 3, 3)];
  const terms = [...new Set(cuts.flat().map(foldArabic))];
  return {
    cuts,
    terms: sql`select term, bool_and(stop) as stop from search_terms
        where ${confusable(sql`term`)} = any(${sql.param(terms.map(confusableOf))}::text[]) and term = any(${sql.param(terms)}::text[]) group by term`,
  };
}

/**
 * Words run together by missed spaces (وزارةالثقافة, مهرجانشنقيط; three: مهرجانالمدنالقديمة): its pieces, when all
 * are words of the vocabulary (`known`: each with whether it is a stop-word) and the whole is not (it found
 * nothing). Of several cuts: the fewest pieces, then the most content words among them, then the most even. A
 * stop-word piece (فيالمدينة) says nothing: only the others are looked for.
 */
function gluedPieces({ cuts }: GluedLookup, known: ReadonlyMap<string, boolean>): { pieces: string[]; content: string[] } | null {
  const contentOf = (cut: string[]) => cut.filter((piece) => !known.get(foldArabic(piece)));
  const shortest = (cut: string[]) => Math.min(...cut.map((piece) => piece.length));
  const [best] = cuts
    .filter((cut) => cut.every((piece) => known.has(foldArabic(piece))) && contentOf(cut).length > 0)
    .sort((a, b) => a.length - b.length || contentOf(b).length - contentOf(a).length || shortest(b) - shortest(a));
  return best ? { pieces: best, content: contentOf(best) } : null;
}

type Misspelt = { typo: TypoLookup | null; glued: GluedLookup | null };
type MisspeltRead = { candidates: { word: string; term: string }[]; known: Map<string, boolean> };

/**
 * The vocabulary near the words found nowhere, in one statement: each one's typo candidates and which pieces of its
 * cuts are words. Needs the typos' trigram threshold set (the `%` operator reads it).
 */
async function readMisspelt(tx: Queryable, words: readonly Misspelt[]): Promise<MisspeltRead[]> {
  const columns = words.flatMap(({ typo, glued }, n) => [
    ...(typo
      ? [
          sql`(select coalesce(json_agg(json_build_object('word', c.word, 'term', c.term)), '[]'::json) from (${typo.candidates}) as c) as ${sql.identifier(`t${n}`)}`,
        ]
      : []),
    ...(glued
      ? [
          sql`(select coalesce(json_agg(json_build_object('term', k.term, 'stop', k.stop)), '[]'::json) from (${glued.terms}) as k) as ${sql.identifier(`p${n}`)}`,
        ]
      : []),
  ]);
  const [row] = columns.length ? rowsOf<Record<string, unknown>>(await tx.execute(sql`select ${sql.join(columns, sql`, `)}`)) : [];
  return words.map((_, n) => ({
    candidates: (row?.[`t${n}`] ?? []) as { word: string; term: string }[],
    known: new Map(((row?.[`p${n}`] ?? []) as { term: string; stop: boolean }[]).map((k) => [k.term, k.stop])),
  }));
}

/**
 * Every content word of the query with the lexemes of its alternatives, the alternatives found, and which words
 * are written somewhere as typed (`found`, by the content words' order). Reads search_terms (two indexes) and a
 * few titles; a word with no alternative keeps its own keys. `setSimilarity` sets the trigram threshold of the
 * typos' candidates for this transaction (a search sets it with its other settings, in one statement).
 */
export async function expandQuery(
  tx: Queryable,
  analysis: QueryAnalysis,
  common: ReadonlyMap<string, number> = new Map(),
  setSimilarity: (similarity: number) => Promise<unknown> = (similarity) => tx.execute(sql.raw(`set local pg_trgm.similarity_threshold = ${similarity}`)),
): Promise<{ words: ExpandedWord[]; alternatives: Alternative[]; found: boolean[] }> {
  const alternatives: Alternative[] = [];
  const words: ExpandedWord[] = [];
  const { found, titles } = await readWords(tx, analysis.content, common);
  // The words found nowhere: their typos' candidates and their pieces, read together.
  const unfound = analysis.content.filter((_, n) => !found[n]);
  const lookups = unfound.map((word): Misspelt => ({ typo: typoLookup(word), glued: gluedLookup(word) }));
  // The `%` operator of the typos' candidates reads it.
  if (lookups.some((l) => l.typo)) await setSimilarity(TYPO_SIMILARITY);
  const reads = await readMisspelt(tx, lookups);
  const misspelt = new Map(unfound.map((word, i) => [word, { ...lookups[i], ...reads[i] }]));
  for (const [n, word] of analysis.content.entries()) {
    const lexemes = new Set(word.keys);
    const folded = foldArabic(word.surface);
    const latin = isLatinWord(folded);
    const other = latin ? await arabicFormsOf(tx, folded) : /[\u0621-\u064A]/.test(folded) ? latinFormsOf(word, titles[n]) : [];
    if (other.length) {
      alternatives.push({ word: word.surface, forms: other, kind: "latin" });
      for (const form of other) for (const l of latin ? exactForms(form) : queryWordKeys(form)) lexemes.add(l);
    }
    let split: string[][] | null = null;
    const lookup = misspelt.get(word);
    if (lookup) {
      const near = lookup.typo ? typoForms(lookup.typo, lookup.candidates) : [];
      if (near.length) {
        alternatives.push({ word: word.surface, forms: near, kind: "typo" });
        for (const form of near) for (const k of queryWordKeys(form)) lexemes.add(k);
      }
      // A missed space is a typo too: "did you mean" proposes the words apart (issue 47).
      const glued = lookup.glued && gluedPieces(lookup.glued, lookup.known);
      if (glued) {
        alternatives.push({ word: word.surface, forms: [glued.pieces.join(" ")], kind: "typo" });
        split = glued.content.map(queryWordKeys);
      }
    }
    words.push({ word, lexemes: [...lexemes].sort(), split });
  }
  return { words, alternatives, found };
}
