/**
 * `npm run bench`: speed and size, as ratios against baselines measured in the same run, never as absolute
 * timings (the machine varies). Starts the built server on a fresh data folder, then:
 *  - throughput of each page relative to a static file served by the same server (higher is better, 1.0 =
 *    as fast as a static file), with the full-page cache warm and with it off (every request renders);
 *  - compressed JavaScript each page makes the browser download, against the 100 KB article-page budget;
 *  - (bench-processes.ts) two web processes on PostgreSQL and Redis against one, as a ratio;
 *  - (bench-bodies.ts) the server's peak memory under 20 concurrent 200 MB chunked bodies against its idle memory.
 * Requests go to 127.0.0.1 only, bounded in count and time.
 */
import { gzipSync } from "node:zlib";
import { startServer } from "../tests/e2e/support/server.ts";

const CONCURRENCY = 8;
const DURATION_MS = Number(process.env.BENCH_MS ?? 3000);
const BUDGET_KB = 100;

let sent = 0;

async function throughput(url: string): Promise<number> {
  const deadline = Date.now() + DURATION_MS;
  let done = 0;
  const worker = async () => {
    while (Date.now() < deadline) {
      // Each request from another address (the server trusts a proxy on loopback): the search page's
      // per-address rate limit would otherwise answer 429 after 60 requests.
      const n = ++sent;
      const res = await fetch(url, { headers: { "Accept-Encoding": "gzip", "X-Forwarded-For": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` } });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
      done++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return done / (DURATION_MS / 1000);
}

async function pageJavaScriptKb(base: string, path: string): Promise<number> {
  const html = await (await fetch(base + path)).text();
  const urls = new Set([...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g), ...html.matchAll(/import\("([^"]+\.js)"\)/g)].map((m) => m[1]));
  let bytes = 0;
  for (const u of urls) bytes += gzipSync(Buffer.from(await (await fetch(base + u)).arrayBuffer()), { level: 9 }).length;
  return bytes / 1024;
}

/** Throughput of each page against the static file, measured in the same server run. */
async function pageTable(base: string, pages: Record<string, string>, baseline: number, { js }: { js: boolean }) {
  console.log(`page            throughput vs static${js ? "   JS (gz)   JS vs budget" : ""}`);
  for (const [name, path] of Object.entries(pages)) {
    const rps = await throughput(base + path);
    const row = `${name.padEnd(15)} ${(rps / baseline).toFixed(3).padStart(10)}   ${rps.toFixed(0).padStart(6)} req/s`;
    if (!js) {
      console.log(row);
      continue;
    }
    const kb = await pageJavaScriptKb(base, path);
    console.log(`${row}   ${kb.toFixed(1).padStart(6)} KB   ${(kb / BUDGET_KB).toFixed(2)}`);
  }
}

async function pagesOf(base: string) {
  const news = await (await fetch(base + "/news")).text();
  const articleHref = /href="(\/articles\/[a-z0-9-]+)"/.exec(await (await fetch(base + "/")).text())?.[1] ?? "/";
  const newsHref = /href="(\/news\/[a-z0-9-]+)"/.exec(news)?.[1] ?? "/news";
  return {
    home: "/",
    news: "/news",
    "news item": newsHref,
    article: articleHref,
    section: "/culture",
    programs: "/programs",
    search: "/search?q=" + encodeURIComponent("الصحراء"),
  };
}

// The full-page cache (docs/decisions/0106-page-cache.md): anonymous pages warm from memory, against the same
// pages rendered on every request (PAGE_CACHE=off: the cold path, as before the cache), each against the
// static file of its own run.
for (const mode of ["warm", "cold"] as const) {
  const server = await startServer({ LOG_LEVEL: "warn", ...(mode === "cold" ? { PAGE_CACHE: "off" } : {}) });
  try {
    const base = server.url;
    const pages = await pagesOf(base);
    // Warm up (first renders compile and fill caches).
    for (const p of Object.values(pages)) await fetch(base + p);
    const baseline = await throughput(base + "/favicon.svg");
    console.log(
      `\n${mode === "warm" ? "page cache warm" : "page cache off (every request renders)"} — baseline: static file ${baseline.toFixed(0)} req/s (concurrency ${CONCURRENCY}, ${DURATION_MS} ms each)\n`,
    );
    await pageTable(base, pages, baseline, { js: mode === "warm" });
  } finally {
    await server.stop();
  }
}

const { benchNewsroom } = await import("./bench-newsroom.ts");
await benchNewsroom({ concurrency: CONCURRENCY, durationMs: DURATION_MS });

const { benchSearch } = await import("./bench-search.ts");
await benchSearch();

const { benchUpload } = await import("./bench-upload.ts");
await benchUpload();

const { benchProcesses } = await import("./bench-processes.ts");
await benchProcesses({ durationMs: DURATION_MS });

const { benchBodies } = await import("./bench-bodies.ts");
await benchBodies();
