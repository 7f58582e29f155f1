/**
 * `npm run bench`: speed and size, as ratios against baselines measured in the same run, never as absolute
 * timings (the machine varies). Sections:
 *  - pages (bench-pages.ts): `/`, `/news`, a news item, an article, `/culture`, `/programs` and `/search?q=…`,
 *    each against `/favicon.svg` of the same server with autocannon, the full-page cache warm and off
 *    (PAGE_CACHE=off, every request renders); JavaScript, CSS, font, image and HTML bytes per page as headless
 *    Chromium downloads them (article JavaScript against its 20 KB budget); Lighthouse mobile performance of the
 *    Arabic home and article pages (bench-lighthouse.ts); PASS/FAIL per criterion. Again on PostgreSQL when
 *    DATABASE_URL (or BENCH_DATABASE_URL, TEST_DATABASE_URL) is set, on a throw-away database;
 *  - newsroom (bench-newsroom.ts), search (bench-search.ts, then suggestions as you type: bench-suggest.ts), upload (bench-upload.ts);
 *  - archive (bench-archive.ts): `/archive/YYYY/MM` and a keyset page of /news ≈ 6,000 items deep against
 *    `/news?page=2`, page cache off, at 100,000 items on PostgreSQL (10,000 on PGlite without it);
 *  - processes (bench-processes.ts): two web processes on PostgreSQL and Redis against one, as a ratio;
 *  - bodies (bench-bodies.ts): the server's peak memory under 20 concurrent 200 MB chunked bodies against its idle memory;
 *  - fastpath, memory (bench-fastpath.ts): cached `/`, `/news` and an article with the page cache's fast path on and
 *    off against a static file served by a bare node:http server and by nginx (when installed); each web process's
 *    resident memory idle and at its peak under BENCH_MEMORY_MS (default 60 s) of load, on PGlite and PostgreSQL.
 *  - cdn (bench-cdn.ts): the real Varnish (deploy/varnish/default.vcl) in front of the server: `/`, `/news` and an
 *    article against Varnish serving a static file of the same size (wrk when installed), origin requests per
 *    10,000 reader requests, and publish → visible through Varnish (p50/p95 over 20 publishes).
 *  - live (bench-live.ts): 2,000 readers of a live coverage's stream on one web process: an entry's POST to its
 *    arrival (p50/p95/max), memory per reader and idle CPU against a bare node:http SSE fan-out of the same bytes;
 *    then the same readers polling the entries JSON behind Varnish: the origin's request rate and the arrival delay.
 *  - analytics (bench-analytics.ts): page throughput with audience collection on against off (each page followed by
 *    its beacon), events ingested per second on one process, and the dashboard's queries over 10 million events
 *    on PostgreSQL (p50/p95 against 200 ms).
 * `BENCH_ONLY=pages` (a comma-separated list of those section names), or the names as arguments (`npm run bench --
 * live`), runs only those sections; BENCH_MS sets
 * the duration of each throughput run (default 3000 ms), BENCH_LIGHTHOUSE=off skips Lighthouse.
 * Requests go to 127.0.0.1 only, bounded in count and time.
 */
// A module (sections are imported on demand below), so top-level await is allowed.
export {};

const CONCURRENCY = 8;
const DURATION_MS = Number(process.env.BENCH_MS ?? 3000);

const SECTIONS = ["pages", "newsroom", "search", "archive", "upload", "processes", "bodies", "fastpath", "memory", "cdn", "live", "analytics"];
const only = (process.env.BENCH_ONLY ?? (process.argv.slice(2).join(",") || undefined))
  ?.split(",")
  .map((s) => s.trim())
  .filter(Boolean);
const unknown = only?.filter((s) => !SECTIONS.includes(s)) ?? [];
if (unknown.length) throw new Error(`BENCH_ONLY: unknown section(s) ${unknown.join(", ")}; sections: ${SECTIONS.join(", ")}`);
const runs = (section: string) => !only?.length || only.includes(section);

if (runs("pages")) {
  const { benchPages, pagesDatabaseFromEnv } = await import("./bench-pages.ts");
  await benchPages({ durationMs: Math.max(1000, DURATION_MS) });
  const postgres = pagesDatabaseFromEnv();
  if (postgres) await benchPages({ databaseUrl: postgres.url, from: postgres.variable, durationMs: Math.max(1000, DURATION_MS) });
  else console.log("\npages on PostgreSQL: skipped (set DATABASE_URL, BENCH_DATABASE_URL or TEST_DATABASE_URL to a PostgreSQL server)");
}

if (runs("newsroom")) {
  const { benchNewsroom } = await import("./bench-newsroom.ts");
  await benchNewsroom({ concurrency: CONCURRENCY, durationMs: DURATION_MS });
}

if (runs("search")) {
  const { benchSearch } = await import("./bench-search.ts");
  await benchSearch();
  // Suggestions as you type on the same database (decision 0128).
  const { benchSuggest } = await import("./bench-suggest.ts");
  await benchSuggest();
}

// The archive by date and the news beyond page 20 at 100,000 items (issue 42; scripts/bench-archive.ts).
if (runs("archive")) {
  const { benchArchive } = await import("./bench-archive.ts");
  await benchArchive();
}

if (runs("upload")) {
  const { benchUpload } = await import("./bench-upload.ts");
  await benchUpload();
}

if (runs("processes")) {
  const { benchProcesses } = await import("./bench-processes.ts");
  await benchProcesses({ durationMs: DURATION_MS });
}

if (runs("bodies")) {
  const { benchBodies } = await import("./bench-bodies.ts");
  await benchBodies();
}

// The page cache's fast path and the web process's memory bounds (issue 30; scripts/bench-fastpath.ts).
if (runs("fastpath")) {
  const { benchFastPath } = await import("./bench-fastpath.ts");
  await benchFastPath({ durationMs: Math.max(1000, DURATION_MS) });
}

if (runs("memory")) {
  const { benchMemory } = await import("./bench-fastpath.ts");
  await benchMemory();
}

// The shared cache in front of the site: Varnish's throughput, origin requests, publish to visible (issue 43).
if (runs("cdn")) {
  const { benchCdn } = await import("./bench-cdn.ts");
  await benchCdn({ durationMs: Math.max(5000, DURATION_MS) });
}

// Live coverage's readers: SSE on one process against a bare fan-out, then polling behind Varnish (issue 44).
if (runs("live")) {
  const { benchLive } = await import("./bench-live.ts");
  await benchLive();
}

// Audience figures: collection on against off, events ingested per second, dashboard queries at 10M events (issue 45).
if (runs("analytics")) {
  const { benchAnalytics } = await import("./bench-analytics.ts");
  await benchAnalytics({ durationMs: Math.max(1000, DURATION_MS) });
}
