/**
 * The archive and the deep news pages at newsroom scale (issue 42, decision 0144), for `npm run bench` (section
 * `archive`; `npx tsx scripts/bench-archive.ts` runs it alone).
 *
 * With TEST_DATABASE_URL or DATABASE_URL pointing at PostgreSQL: 100,000 published items (40,000 news, 30,000
 * articles, 10,000 each of programs, podcasts and coverage, one every few minutes over five years, each with its own
 * creation time) in a database of their own, `<name>_bench_archive`, made with generate_series in seconds and kept
 * while the migrations stay the same (BENCH_ARCHIVE_RESEED=1 makes it again). Without PostgreSQL: 10,000 items in
 * PGlite (BENCH_ARCHIVE_ITEMS changes either count).
 *
 * On the built server (BUILD_DIR, default build/), page cache off (every request renders): `/archive/YYYY/MM` of a
 * full month, its third keyset page, and the news page of keyset depth ≈ 6,000 items (what `?page=500` would be)
 * against `/news?page=2`, as ratios of their median times, with the JSON API's `?page=500` (an OFFSET) beside them
 * for scale. Then the plans of the archive's and the keyset's queries (no sequential scan expected). No timing is
 * asserted anywhere: the figures are printed.
 */
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { benchDatabaseUrl, benchFingerprint, keptBenchDatabase } from "./bench-database.ts";
import { sql } from "drizzle-orm";
import { openDatabase, type DatabaseHandle } from "#server/db/client.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const GENERATOR = "archive-bench-v1";
/** The month the archive page is measured on: inside the generated five years. */
const MONTH = "2023/06";

/** Each type's share of the items, and its columns beyond the common ones. */
const SHARES = [
  { table: "news", share: 0.4, text: "excerpt, content", values: "'مقتطف خبر للقياس', 'نص خبر للقياس'" },
  { table: "articles", share: 0.3, text: "excerpt, content", values: "'مقتطف مقال للقياس', 'نص مقال للقياس'" },
  { table: "programs", share: 0.1, text: "description, content", values: "'وصف برنامج للقياس', 'نص'" },
  { table: "podcasts", share: 0.1, text: "description, content", values: "'وصف حلقة للقياس', 'نص'" },
  { table: "coverages", share: 0.1, text: "excerpt, content", values: "'مقتطف تغطية', 'نص تغطية للقياس'" },
] as const;

/** One statement per type: spread over 2021–2025 in order, each created a few seconds before it was published. */
async function seed(handle: DatabaseHandle, items: number, log: (line: string) => void) {
  const started = performance.now();
  const span = 5 * 365 * 24 * 60; // minutes
  for (const [k, { table, share, text, values }] of SHARES.entries()) {
    const n = Math.round(items * share);
    const step = span / n;
    await handle.db.execute(
      sql.raw(`insert into ${table} (title, title_fr, ${text}, page_slug, status, publish_date, created_at, updated_at)
        select 'عنوان للقياس رقم ' || g, 'Titre de mesure ' || g, ${values}, '${table}-bench-' || g, 'published',
          timestamptz '2021-01-01 00:00:00+00' + ((g * ${step.toFixed(4)} + ${k}) * interval '1 minute'),
          timestamptz '2021-01-01 00:00:00+00' + ((g * ${step.toFixed(4)} + ${k}) * interval '1 minute') - (g % 97) * interval '1 second',
          now()
        from generate_series(1, ${n}) g`),
    );
    log(`  ${table}: ${n.toLocaleString("en")} items`);
  }
  // The search queue the triggers filled is not this bench's concern.
  await handle.db.execute(sql`delete from search_queue`);
  await handle.db.execute(sql`vacuum analyze`);
  return (performance.now() - started) / 1000;
}

/** The bench's own database on the PostgreSQL server of `url` (scripts/bench-database.ts), made unless kept from a run with the same fingerprint. */
function postgresDatabase(url: string, items: number, log: (line: string) => void): Promise<{ handle: DatabaseHandle; url: string }> {
  return keptBenchDatabase({
    url,
    suffix: "archive",
    fingerprint: benchFingerprint(root, GENERATOR, items),
    reseed: Boolean(process.env.BENCH_ARCHIVE_RESEED),
    log,
    seed: async (handle) => {
      log(`database ${benchDatabaseUrl(url, "archive").name}: seeding ${items.toLocaleString("en")} published items…`);
      log(`  seeded in ${(await seed(handle, items, log)).toFixed(1)} s`);
    },
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Median time of `rounds` sequential GETs after two warm-ups; any answer but 200 is an error of the bench. */
async function timed(base: string, pathAndQuery: string, rounds: number): Promise<number> {
  const once = async () => {
    const t0 = performance.now();
    const res = await fetch(base + pathAndQuery);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${pathAndQuery}: ${res.status}`);
    return performance.now() - t0;
  };
  await once();
  await once();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) times.push(await once());
  return median(times);
}

/** The href of a `<link rel>` of a page. */
async function relLink(base: string, pathAndQuery: string, rel: string): Promise<string | null> {
  const html = await (await fetch(base + pathAndQuery)).text();
  return new RegExp(`<link[^>]*rel="${rel}"[^>]*href="([^"]+)"`).exec(html)?.[1]?.replace(/&amp;/g, "&") ?? null;
}

export async function benchArchive({ log = (line: string) => console.log(line) } = {}) {
  const url = [process.env.TEST_DATABASE_URL, process.env.DATABASE_URL].find((u) => u && /^postgres(ql)?:/.test(u));
  const items = Number(process.env.BENCH_ARCHIVE_ITEMS ?? (url ? 100_000 : 10_000));
  const rounds = Number(process.env.BENCH_ARCHIVE_ROUNDS ?? 30);
  log(`\n── archive and deep news pages: ${items.toLocaleString("en")} published items on ${url ? "PostgreSQL" : "PGlite"} ──`);
  const buildDir = path.join(root, process.env.BUILD_DIR || "build");
  if (!fs.existsSync(path.join(buildDir, "server"))) {
    log(`skipped (no build in ${path.relative(root, buildDir)}; run npm run build)`);
    return;
  }
  const { newDataDir, startServer } = await import("#tests/e2e/support/server.ts");
  let handle: DatabaseHandle;
  let env: Record<string, string>;
  let dataDir: string | null = null;
  if (url) {
    const made = await postgresDatabase(url, items, log);
    handle = made.handle;
    env = { DATABASE_URL: made.url };
  } else {
    dataDir = newDataDir({ seeded: false });
    handle = openDatabase({ dataDir });
    await handle.migrate();
    log(`seeding ${items.toLocaleString("en")} items in PGlite…`);
    log(`  seeded in ${(await seed(handle, items, log)).toFixed(1)} s`);
    env = { DATA_DIR: dataDir };
  }
  // The news item about 6,000 deep (what `?page=500` shows) and the plans, read while the handle is open.
  const deep = rowsOf<{ id: number }>(
    await handle.db.execute(
      sql`select id from news where status = 'published' and publish_date <= now() order by created_at desc, id desc offset 5999 limit 1`,
    ),
  )[0];
  const { cursorOfCard, keysetPageOfCards } = await import("#server/content/listings.server.ts");
  const { readArchivePage } = await import("#server/content/archive.server.ts");
  const { LISTINGS } = await import("#domain/listings.ts");
  const cursor = deep ? await cursorOfCard(handle.db, LISTINGS.news, deep.id) : null;
  if (!cursor) throw new Error("bench-archive: fewer than 6,000 news items");
  const plans = await explainBoth(handle, cursor);
  // Warm the functions once on the handle (checks they read, before the server measures).
  await keysetPageOfCards(handle.db, LISTINGS.news, null);
  await readArchivePage(handle.db, { year: 2023, month: 6 }, null, 30);
  await handle.close();

  const server = await startServer({ ...env, SEED_DEMO: "false", PAGE_CACHE: "off", LOG_LEVEL: "warn" });
  try {
    const base = server.url;
    const month = `/archive/${MONTH}`;
    let third = month;
    for (let i = 0; i < 2; i++) third = (await relLink(base, third, "next")) ?? third;
    const rows: [string, string][] = [
      ["/news?page=2 (baseline)", "/news?page=2"],
      [`${month}`, month],
      [`${month}, third keyset page`, third],
      ["/news?before=<cursor ≈ item 6,000>", `/news?before=${cursor}`],
      ["/api/news?page=500 (OFFSET 5,988, for scale)", "/api/news?page=500"],
    ];
    const times: number[] = [];
    for (const [, p] of rows) times.push(await timed(base, p, rounds));
    log(`median of ${rounds} sequential requests each, page cache off, ratio to /news?page=2:`);
    for (const [i, [label]] of rows.entries()) log(`  ${label.padEnd(48)} ${times[i].toFixed(1).padStart(7)} ms   × ${(times[i] / times[0]).toFixed(2)}`);
  } finally {
    await server.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
  log(plans);
}

/**
 * EXPLAIN ANALYZE of the statements the two pages run per table, as server/content/archive.server.ts and
 * listings.server.ts (keysetPageOfCards) write them: an index range scan from the bound, a page and one row read.
 */
async function explainBoth(handle: DatabaseHandle, cursor: string): Promise<string> {
  const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString()) as [string, number];
  const queries = [
    [
      `archive ${MONTH}, the news branch`,
      sql`select id from news where status = 'published' and publish_date <= now() and publish_date >= '2023-06-01T00:00:00Z' and publish_date < '2023-07-01T00:00:00Z' order by publish_date, id limit 31`,
    ],
    [
      "news keyset ≈ 6,000 deep",
      sql`select id from news where status = 'published' and publish_date <= now() and created_at <= ${at}::timestamptz and (created_at < ${at}::timestamptz or id < ${id}) order by created_at desc, id desc limit 13`,
    ],
  ] as const;
  const out: string[] = [];
  for (const [label, query] of queries) {
    const plan = rowsOf<{ "QUERY PLAN": string }>(await handle.db.execute(sql`explain (analyze, costs off) ${query}`)).map((r) => r["QUERY PLAN"]);
    out.push(`\nEXPLAIN ANALYZE, ${label}:${plan.some((l) => /Seq Scan/.test(l)) ? " (reads the table sequentially!)" : ""}\n  ${plan.join("\n  ")}`);
  }
  return out.join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await benchArchive();
