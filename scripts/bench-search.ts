/**
 * The site search at newsroom scale, for `npm run bench` (scripts/bench.ts calls it; `npx tsx
 * scripts/bench-search.ts` runs it alone).
 *
 * With TEST_DATABASE_URL or DATABASE_URL pointing at PostgreSQL: 100,000 published items (and 2,000 drafts)
 * in a database of their own on that server, `<name>_bench_search`, made once and kept for the next runs
 * while the migrations and this generator stay the same (BENCH_SEARCH_RESEED=1 makes it again). Without
 * PostgreSQL: 5,000 items in an in-memory PGlite (BENCH_SEARCH_ITEMS changes either count).
 *
 * The texts are generated, deterministically: words of the demo content (as written, with their particles,
 * hamzas and plurals) and a long tail of rarer words, in Zipf's proportions, with stop-words as often as in
 * Arabic news copy. Prints p50/p95 of `searchPublished` per kind of query (one and two words, the most
 * frequent words included), the recall and precision of the test corpus, whether any plan reads search_items
 * without an index, and EXPLAIN ANALYZE of the three slowest queries.
 *
 * Then what a reader waits for (issue 47): the built server (BUILD_DIR) on that database, the HTML page
 * `/search?q=` and the JSON `/api/search` side by side, each query once after a restart ("cold"; three restarts
 * per path, BENCH_SEARCH_COLD_RUNS) and again warm, p50/p95/max and the p95 as a multiple of the same servers'
 * `/favicon.svg`, with a PASS/FAIL line for the page's cold p95 against 50 ms. BENCH_SEARCH_SHORT=1 runs that
 * part alone, once; BENCH_SEARCH_KEEP=1 keeps the database as it is when only the analysis changed.
 */
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { benchDatabaseUrl, benchFingerprint, keptBenchDatabase } from "./bench-database.ts";
import { sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase, type Database, type DatabaseHandle } from "#server/db/client.server.ts";
import { articles, coverages, news, podcasts, programs } from "#server/db/schema.server.ts";
import { explainSearch, searchPublished } from "#server/search/search.server.ts";
import { syncSearchIndex } from "#server/search/search-index.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { isStopWord, surfaceArabic } from "#domain/arabic.ts";
import { evaluateCorpus, formatCorpusReport } from "#tests/helpers/search-corpus.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Bumped whenever the generator changes, so that a kept database is made again. */
const GENERATOR = "search-bench-v2";

// ---- The generated corpus ----

function mulberry32(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws ranks 0..n-1 with probability ∝ 1/(rank+1)^s, by binary search in the cumulative weights. */
function zipf(n: number, s: number, random: () => number) {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cumulative[i] = sum += 1 / Math.pow(i + 1, s);
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const STOP_ORDER = `في من على إلى أن عن مع هذا التي الذي ما لا كان قد هذه بين بعد كما وفي ثم أو كل حيث ذلك عند إن منذ خلال حتى له لها فيه منها
  قبل هو هي لم لن الذين وقد غير أيضا إذا`.split(/\s+/);
const ARABIC_LETTERS = "ابتثجحخدذرزسشصضطظعغفقكلمنهوي";

type Vocabulary = { content: string[]; french: string[]; tail: string[] };

/** Words of the demo texts as written (content words only), French words of their French variants, and a rare tail. */
function vocabulary(random: () => number): Vocabulary {
  const dir = path.join(root, "server/db/seed-data");
  const text = fs
    .readdirSync(dir)
    .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
    .join("\n");
  const shuffle = <T>(list: T[]) => {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [list[i], list[j]] = [list[j], list[i]];
    }
    return list;
  };
  // Harakat belong to the words they sit on: each one is matched on its own, never as a pair with its letter.
  // eslint-disable-next-line no-misleading-character-class
  const arabic = [...new Set(text.match(/[\u0621-\u064A\u064B-\u0652]{2,}/g) ?? [])].filter((w) => !isStopWord(surfaceArabic(w))).sort();
  const french = [...new Set((text.match(/[A-Za-zÀ-ÿ]{4,}/g) ?? []).filter((w) => /[a-zà-ÿ]/.test(w) && !/^[a-z]+[A-Z]/.test(w)))].sort();
  // Names, places and words the demo never uses: made of letters, five to eight of them.
  const tail = Array.from({ length: 40_000 }, () =>
    Array.from({ length: 5 + Math.floor(random() * 4) }, () => ARABIC_LETTERS[Math.floor(random() * 28)]).join(""),
  );
  return { content: shuffle(arabic), french: shuffle(french), tail: [...new Set(tail)] };
}

type Item = {
  type: "articles" | "news" | "programs" | "podcasts" | "coverages";
  title: string;
  titleFr: string | null;
  excerpt: string;
  body: string;
  date: Date;
  status: "published" | "draft";
};

function generator(items: number) {
  const random = mulberry32(20_261_123);
  const vocab = vocabulary(random);
  // One list in Zipf's order: the demo's words first, then the tail.
  const words = [...vocab.content, ...vocab.tail];
  const content = zipf(words.length, 1.05, random);
  const stop = zipf(STOP_ORDER.length, 1, random);
  const french = zipf(vocab.french.length, 1, random);
  const span = 5 * 365 * 24 * 3600 * 1000;
  const start = Date.UTC(2021, 0, 1);
  const sentence = (n: number, stopShare: number) => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(random() < stopShare ? STOP_ORDER[stop()] : words[content()]);
    return out;
  };
  const item = (n: number): Item => {
    // 80 to 200 words, in sentences of 8 to 17: a short news item to a short article.
    const body: string[] = [];
    const length = 80 + Math.floor(random() * 120);
    for (let words = 0; words < length;) {
      const n = 8 + Math.floor(random() * 10);
      body.push(`${sentence(n, 0.4).join(" ")}${random() < 0.5 ? "،" : "."}`);
      words += n;
    }
    // A name that folds like the commonest preposition, in one text in a hundred.
    if (random() < 0.01) body.splice(Math.floor(random() * body.length), 0, "وقال علي");
    const type = (["articles", "articles", "news", "news", "news", "news", "programs", "podcasts", "coverages", "articles"] as const)[n % 10];
    return {
      type,
      title: sentence(5 + Math.floor(random() * 6), 0.25).join(" "),
      titleFr: random() < 0.25 ? Array.from({ length: 5 + Math.floor(random() * 5) }, () => vocab.french[french()]).join(" ") : null,
      excerpt: body.slice(0, 2).join(" "),
      body: body.join(" "),
      date: new Date(start + Math.floor(random() * span)),
      status: n < items ? "published" : "draft",
    };
  };
  return { item, words, vocab };
}

// ---- Databases ----

const tables = { articles, news, programs, podcasts, coverages } as const;

export async function seed(db: Database, items: number, log: (line: string) => void) {
  const { item } = generator(items);
  const total = items + Math.round(items / 50);
  const started = performance.now();
  const BATCH = 2000;
  for (let offset = 0; offset < total; offset += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, total - offset) }, (_, k) => ({ n: offset + k, ...item(offset + k) }));
    for (const type of Object.keys(tables) as (keyof typeof tables)[]) {
      const rows = batch.filter((b) => b.type === type);
      if (!rows.length) continue;
      const values = rows.map((b) => {
        const common = { title: b.title, titleFr: b.titleFr, pageSlug: `bench-${b.n}`, publishDate: b.date, status: b.status };
        return type === "programs" || type === "podcasts"
          ? { ...common, description: b.excerpt, content: b.body }
          : { ...common, excerpt: b.excerpt, content: b.body };
      });
      await db.insert(tables[type] as typeof articles).values(values as (typeof articles.$inferInsert)[]);
    }
    if ((offset / BATCH) % 5 === 4) log(`  seeded ${offset + BATCH} of ${total} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  const inserted = performance.now();
  log(`  inserted in ${((inserted - started) / 1000).toFixed(0)} s; analysing and indexing…`);
  const indexed = await syncSearchIndex(db);
  log(`  ${indexed} items analysed and indexed in ${((performance.now() - inserted) / 1000).toFixed(0)} s`);
  // What autovacuum does on a live server: the GIN pending lists merged, the planner's statistics taken.
  await db.execute(sql`vacuum analyze`);
  return (performance.now() - started) / 1000;
}

/** The analysis itself is hashed too: a change of its rules changes every stored row. */
const ANALYSIS_FILES = ["domain/arabic.ts", "domain/search-lexicon.ts", "domain/search-plurals.ts", "domain/search-words.ts"];

/** The bench's own database on the PostgreSQL server of `url` (scripts/bench-database.ts), made unless kept from a run with the same fingerprint. */
export async function postgresDatabase(url: string, items: number, log: (line: string) => void): Promise<DatabaseHandle> {
  const fingerprint = benchFingerprint(root, GENERATOR, items, ANALYSIS_FILES);
  const kept = process.env.BENCH_SEARCH_KEEP ? await keptFingerprint(url) : null;
  if (kept && kept !== fingerprint) log(`BENCH_SEARCH_KEEP: the database is kept as it is, made by another analysis (${kept}, not ${fingerprint})`);
  const made = await keptBenchDatabase({
    url,
    suffix: "search",
    fingerprint: kept ?? fingerprint,
    reseed: Boolean(process.env.BENCH_SEARCH_RESEED),
    log,
    seed: async (handle) => {
      log(`database ${benchDatabaseUrl(url, "search").name}: seeding ${items} published items and ${Math.round(items / 50)} drafts…`);
      log(`  seeded in ${(await seed(handle.db, items, log)).toFixed(0)} s`);
    },
  });
  return made.handle;
}

/**
 * The fingerprint the bench's database was made with, or null when there is none. BENCH_SEARCH_KEEP=1 keeps
 * that database whatever the analysis files say now: measuring the speed of a change to the search's code
 * while the analysis changes beside it need not wait for 100,000 items to be analysed again.
 */
async function keptFingerprint(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: benchDatabaseUrl(url, "search").url });
  try {
    await client.connect();
    const { rows } = await client.query<{ fingerprint: string }>("select fingerprint from bench_search_meta");
    return rows[0]?.fingerprint ?? null;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

// ---- Measuring ----

type Kind = { kind: string; queries: string[]; page?: number };

export function queryKinds(items: number): Kind[] {
  const { words, vocab } = generator(items);
  const bare = (from: number, n: number) =>
    words
      .slice(from)
      .filter((w) => !/^(و|ف|ب|ك|ل|ال)/.test(w) && w.length >= 4)
      .slice(0, n);
  const frequent = bare(0, 5);
  const common = bare(50, 5);
  const mid = bare(600, 5);
  const rare = vocab.tail.slice(20_000, 20_005);
  const twoLetters = words.filter((w) => [...w].length === 2 && !isStopWord(surfaceArabic(w))).slice(0, 4);
  const misspelt = frequent.map((w) => `${w.slice(0, -2)}${ARABIC_LETTERS[(ARABIC_LETTERS.indexOf(w.at(-2) ?? "ا") + 3) % 28]}${w.slice(-1)}`);
  return [
    { kind: "stop-word", queries: ["في", "من", "على", "إلى", "أن"] },
    { kind: "علي (name)", queries: ["علي"] },
    { kind: "frequent word", queries: frequent },
    { kind: "common word", queries: common },
    { kind: "mid word", queries: mid },
    { kind: "rare word", queries: rare },
    { kind: "two letters", queries: [...twoLetters, "مع"] },
    { kind: "particles", queries: frequent.map((w, i) => `${["ال", "بال", "لل", "وال", "فال"][i]}${w}`) },
    { kind: "2 frequent", queries: [0, 1, 2, 3].map((i) => `${frequent[i]} ${frequent[i + 1]}`) },
    { kind: "frequent+rare", queries: frequent.map((w, i) => `${w} ${rare[i]}`) },
    { kind: "stop+word", queries: frequent.map((w, i) => `${w} ${["في", "من", "على", "إلى", "أن"][i]}`) },
    { kind: "no result", queries: misspelt },
    // issue 31: the forgiving arms (typos above are read as the written words now).
    { kind: "latin name", queries: ["Atar", "Rosso", "Nouakchott", "Kiffa", "Chinguetti"] },
    { kind: "partial", queries: frequent.map((w, i) => `${w} ${rare[i]} ${mid[i]}`) },
    { kind: "page 10", queries: frequent.slice(0, 3), page: 10 },
  ];
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/**
 * The baseline of the same run: one search row read by its primary key through the same client, so that the
 * figures below also read as multiples of the cheapest round trip this database and machine make.
 */
async function baseline(db: Database, rounds: number): Promise<number> {
  const times: number[] = [];
  for (let r = 0; r < rounds * 10; r++) {
    const t0 = performance.now();
    await db.execute(sql`select type, item_id from search_items where type = 'article' and item_id = ${1 + (r % 100)}`);
    times.push(performance.now() - t0);
  }
  return percentile(
    times.sort((a, b) => a - b),
    50,
  );
}

async function measure(db: Database, kinds: Kind[], rounds: number, log: (line: string) => void) {
  const perQuery: { query: string; page: number; times: number[] }[] = [];
  // issue 31 (decision 0129): each query's first run ("cold": never searched, its results in no cache) apart from its repeats ("warm").
  const cold: number[] = [];
  const base = await baseline(db, rounds);
  log(`\nbaseline: a primary-key read of search_items, p50 ${base.toFixed(2)} ms (the "p95 ×" column divides by it)`);
  log("\nkind              queries  runs    p50 ms   p95 ms   max ms   p95 ×   results (first query)");
  for (const { kind, queries, page = 1 } of kinds) {
    const times: number[] = [];
    let first = "";
    for (const query of queries) {
      const own: number[] = [];
      const c0 = performance.now();
      await searchPublished(db, query, { page }); // cold: the first time this query is asked
      cold.push(performance.now() - c0);
      for (let r = 0; r < rounds; r++) {
        const t0 = performance.now();
        const result = await searchPublished(db, query, { page });
        own.push(performance.now() - t0);
        if (!first)
          first = `${result.results.length}${result.hasMore ? "+" : ""}${result.suggestion ? `, did you mean «${result.suggestion}»` : ""} for «${query}»`;
      }
      times.push(...own);
      perQuery.push({ query, page, times: own.sort((a, b) => a - b) });
    }
    times.sort((a, b) => a - b);
    log(
      `${kind.padEnd(17)} ${String(queries.length).padStart(5)} ${String(times.length).padStart(6)} ${percentile(times, 50).toFixed(1).padStart(9)} ${percentile(
        times,
        95,
      )
        .toFixed(1)
        .padStart(8)} ${times.at(-1)!.toFixed(1).padStart(8)} ${(percentile(times, 95) / base).toFixed(0).padStart(7)}   ${first}`,
    );
  }
  const all = perQuery.flatMap((q) => q.times).sort((a, b) => a - b);
  cold.sort((a, b) => a - b);
  log(
    `cold (each query's first run, ${cold.length}): p50 ${percentile(cold, 50).toFixed(1)} ms, p95 ${percentile(cold, 95).toFixed(1)} ms, max ${cold.at(-1)!.toFixed(1)} ms; ` +
      `warm (repeats, ${all.length}): p50 ${percentile(all, 50).toFixed(1)} ms, p95 ${percentile(all, 95).toFixed(1)} ms`,
  );
  log(
    `${"all".padEnd(17)} ${String(perQuery.length).padStart(5)} ${String(all.length).padStart(6)} ${percentile(all, 50).toFixed(1).padStart(9)} ${percentile(all, 95).toFixed(1).padStart(8)} ${all.at(-1)!.toFixed(1).padStart(8)} ${(percentile(all, 95) / base).toFixed(0).padStart(7)}`,
  );
  return perQuery;
}

async function sizes(db: Database): Promise<string> {
  const rows = rowsOf<{ name: string; size: string }>(
    await db.execute(
      sql`select c.relname as name, pg_size_pretty(pg_total_relation_size(c.oid)) as size from pg_class c
        where c.relname in ('search_items', 'search_terms', 'search_items_all_idx', 'search_items_title_idx', 'search_terms_trgm_idx') order by c.relname`,
    ),
  );
  return rows.map((r) => `${r.name} ${r.size}`).join(", ");
}

// ---- issue 31 (decision 0129) and issue 47: cold and warm through HTTP ----

type Timings = { p50: number; p95: number; max: number; n: number };
const timings = (t: number[]): Timings => {
  const sorted = [...t].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1)!, n: sorted.length };
};

/** The goal of issue 47: what a reader waits for, the HTML page's first answer to a query, at the 95th percentile. */
const HTML_COLD_P95_GOAL_MS = 50;

/** How many times the cold pass runs, each on a server of its own (BENCH_SEARCH_COLD_RUNS; 1 in the short mode). */
const coldRuns = () => Math.max(1, Number(process.env.BENCH_SEARCH_COLD_RUNS ?? (shortMode() ? 1 : 3)));
/** BENCH_SEARCH_SHORT=1: the HTTP pass only, once, for a quick figure (no in-process rounds, plans, corpus or EXPLAIN). */
const shortMode = () => Boolean(process.env.BENCH_SEARCH_SHORT) && process.env.BENCH_SEARCH_SHORT !== "0";

/** `cold` in the order asked, with `coldQueries` naming each answer's query and its place after the restart (the slowest are listed). */
type HttpPass = { cold: number[]; coldQueries: { q: string; nth: number }[]; warm: number[]; baseline: number[]; refused: string[] };

/**
 * Each distinct query once on a server just started (a restart: no page cache, no prepared statement, no kept
 * answer, no statistics read), after one warm-up request on another query that spends the process's own
 * first-request costs (its modules, the root loader's first reads); then, on the same server, each query three
 * more times ("warm"), then the baseline of this server: `/favicon.svg`, a static file, the cheapest answer it
 * makes (the ratios divide by its median, as the pages section does).
 */
async function coldAndWarm(url: string, path: "/search" | "/api/search", queries: { q: string; page: number }[], pass: HttpPass) {
  const { startServer } = await import("#tests/e2e/support/server.ts");
  const server = await startServer({ DATABASE_URL: url, SEED_DEMO: "false", LOG_LEVEL: "warn", SEARCH_RATE_LIMIT: "10000,100000" });
  try {
    const time = async (target: string) => {
      const t0 = performance.now();
      const res = await fetch(`${server.url}${target}`);
      await res.arrayBuffer();
      // A search the database could not finish in time (503) is counted and said, not timed.
      if (res.status !== 200) pass.refused.push(`${decodeURIComponent(target)}: ${res.status}`);
      return performance.now() - t0;
    };
    const get = (q: string, page = 1) => time(`${path}?q=${encodeURIComponent(q)}${page > 1 ? `&page=${page}` : ""}`);
    await get("مرحبا بالعالم");
    for (const [nth, { q, page }] of queries.entries()) {
      pass.cold.push(await get(q, page));
      pass.coldQueries.push({ q: page > 1 ? `${q} (page ${page})` : q, nth: nth + 1 });
    }
    for (let r = 0; r < 3; r++) for (const { q, page } of queries) pass.warm.push(await get(q, page));
    for (let r = 0; r < 50; r++) pass.baseline.push(await time("/favicon.svg"));
  } finally {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}

/**
 * The built server (BUILD_DIR, default build/) on the bench's database, no demo seed, the limit out of the way:
 * the HTML page `GET /search` (what a reader waits for: the search, the root loader, the rendering) and the JSON
 * `GET /api/search` beside it, each on a server of its own, cold and warm (coldAndWarm), the two taking turns
 * over `coldRuns()` restarts so that a busy machine weighs on both alike. Skipped when no build exists.
 */
async function searchOverHttp(url: string, kinds: Kind[], log: (line: string) => void) {
  const buildDir = path.join(root, process.env.BUILD_DIR || "build");
  if (!fs.existsSync(path.join(buildDir, "server"))) {
    log(`\nsearch through HTTP: skipped (no build in ${path.relative(root, buildDir)}; run npm run build)`);
    return;
  }
  const queries = kinds.flatMap((k) => k.queries.map((q) => ({ q, page: k.page ?? 1 })));
  const pass = (): HttpPass => ({ cold: [], coldQueries: [], warm: [], baseline: [], refused: [] });
  const html = pass();
  const api = pass();
  const runs = coldRuns();
  for (let r = 0; r < runs; r++) {
    await coldAndWarm(url, "/search", queries, html);
    await coldAndWarm(url, "/api/search", queries, api);
  }
  const base = timings([...html.baseline, ...api.baseline]).p50;
  const times = (label: string, t: Timings) =>
    `${label} p50 ${t.p50.toFixed(1).padStart(6)}  p95 ${t.p95.toFixed(1).padStart(6)}  max ${t.max.toFixed(1).padStart(6)} ms  (p95 ${(t.p95 / base).toFixed(0)}× baseline)`;
  log(
    `\nsearch through HTTP at ${(await publishedCount(url)).toLocaleString("en")} published items: ${queries.length} distinct queries, each once after a restart ` +
      `(${runs} restart${runs > 1 ? "s" : ""} per path), then 3 times warm; baseline /favicon.svg of the same servers, p50 ${base.toFixed(2)} ms`,
  );
  for (const [label, p] of [
    ["GET /search    ", html],
    ["GET /api/search", api],
  ] as const) {
    log(`  ${label}  ${times("cold", timings(p.cold))}`);
    log(`  ${" ".repeat(label.length)}  ${times("warm", timings(p.warm))}`);
  }
  const [htmlCold, apiCold] = [timings(html.cold), timings(api.cold)];
  log(`  the page over the API, cold: p50 ${(htmlCold.p50 / apiCold.p50).toFixed(2)}×, p95 ${(htmlCold.p95 / apiCold.p95).toFixed(2)}×`);
  log(`  the page's slowest cold answers (the 5 % the p95 is read from), each with the API's median for the same query:`);
  for (const line of slowest(html, api, Math.max(1, Math.ceil(html.cold.length * 0.05)))) log(`    ${line}`);
  for (const [path, refused] of [
    ["/search", html.refused],
    ["/api/search", api.refused],
  ] as const)
    if (refused.length) log(`  ${path}: ${refused.length} request(s) not answered 200 (${refused.slice(0, 5).join(", ")})`);
  log(
    `  ${htmlCold.p95 <= HTML_COLD_P95_GOAL_MS ? "PASS" : "FAIL"}: the HTML page cold at p95 ${htmlCold.p95.toFixed(1)} ms (goal ≤ ${HTML_COLD_P95_GOAL_MS} ms, issue 47)`,
  );
}

/** The `count` slowest cold answers of `pass`: the query, its place after the restart, and the median cold answer of `other` to it. */
function slowest(pass: HttpPass, other: HttpPass, count: number): string[] {
  const byQuery = new Map<string, number[]>();
  other.cold.forEach((ms, i) => byQuery.set(other.coldQueries[i].q, [...(byQuery.get(other.coldQueries[i].q) ?? []), ms]));
  return pass.cold
    .map((ms, i) => ({ ms, ...pass.coldQueries[i] }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map(({ ms, q, nth }) => {
      const beside = byQuery.get(q);
      const api = beside
        ? `, API ${percentile(
            [...beside].sort((a, b) => a - b),
            50,
          ).toFixed(1)} ms`
        : "";
      return `${ms.toFixed(1).padStart(6)} ms  ${q}  (#${nth} after the restart${api})`;
    });
}

/** The published items the servers search (the bench's database, counted, not assumed). */
async function publishedCount(url: string): Promise<number> {
  const handle = openDatabase({ url });
  try {
    const [row] = rowsOf<{ n: number }>(await handle.db.execute(sql`select count(*)::int as n from search_items where status = 'published'`));
    return Number(row?.n ?? 0);
  } finally {
    await handle.close();
  }
}

export async function benchSearch({ log = (line: string) => console.log(line) } = {}) {
  const url = [process.env.TEST_DATABASE_URL, process.env.DATABASE_URL].find((u) => u && /^postgres(ql)?:/.test(u));
  const items = Number(process.env.BENCH_SEARCH_ITEMS ?? (url ? 100_000 : 5_000));
  log(`\n── search: ${items.toLocaleString("en")} published items on ${url ? "PostgreSQL" : "PGlite (in memory)"} ──`);
  let handle: DatabaseHandle;
  if (url) handle = await postgresDatabase(url, items, log);
  else {
    handle = openDatabase({ inMemory: true });
    await handle.migrate();
    log(`seeding ${items} items…`);
    log(`  seeded in ${(await seed(handle.db, items, log)).toFixed(0)} s`);
  }
  try {
    const db = handle.db;
    log(`sizes: ${await sizes(db)}`);
    const kinds = queryKinds(items);
    if (shortMode()) {
      if (url) await searchOverHttp(benchDatabaseUrl(url, "search").url, kinds, log);
      else log("\nsearch through HTTP: skipped (the short mode measures the built server on PostgreSQL only)");
      return;
    }
    const perQuery = await measure(db, kinds, Number(process.env.BENCH_SEARCH_ROUNDS ?? 10), log);

    // Every plan: no statement reads search_items without an index.
    const scans: string[] = [];
    for (const { query, page } of perQuery) {
      const plan = await explainSearch(db, query, { page });
      if (/Seq Scan on search_items/.test(plan)) scans.push(query);
    }
    log(
      scans.length
        ? `\nplans reading search_items without an index: ${scans.join(", ")}`
        : `\nevery plan reads search_items through an index (${perQuery.length} queries)`,
    );

    log(`\n${formatCorpusReport(await evaluateCorpus(db), url ? "PostgreSQL" : "PGlite")}`);
    if (url) await searchOverHttp(benchDatabaseUrl(url, "search").url, kinds, log);

    const slowest = [...perQuery].sort((a, b) => percentile(b.times, 95) - percentile(a.times, 95)).slice(0, 3);
    for (const q of slowest) {
      log(`\nEXPLAIN ANALYZE of «${q.query}»${q.page > 1 ? ` page ${q.page}` : ""} (p95 ${percentile(q.times, 95).toFixed(1)} ms):`);
      log(await explainSearch(db, q.query, { page: q.page }));
    }
  } finally {
    await handle.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await benchSearch();
