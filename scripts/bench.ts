/**
 * `npm run bench`: speed and size, as ratios against baselines measured in the same run, never as absolute
 * timings (the machine varies). Starts the built server on a fresh data folder, then:
 *  - throughput of each page relative to a static file served by the same server (higher is better, 1.0 =
 *    as fast as a static file);
 *  - compressed JavaScript each page makes the browser download, against the 100 KB article-page budget.
 * Requests go to 127.0.0.1 only, bounded in count and time.
 */
import { gzipSync } from "node:zlib";
import { startServer } from "../tests/e2e/support/server.ts";

const CONCURRENCY = 8;
const DURATION_MS = Number(process.env.BENCH_MS ?? 3000);
const BUDGET_KB = 100;

async function throughput(url: string): Promise<number> {
  const deadline = Date.now() + DURATION_MS;
  let done = 0;
  const worker = async () => {
    while (Date.now() < deadline) {
      const res = await fetch(url, { headers: { "Accept-Encoding": "gzip" } });
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

const server = await startServer({ LOG_LEVEL: "warn" });
try {
  const base = server.url;
  const news = await (await fetch(base + "/news")).text();
  const articleHref = /href="(\/articles\/[a-z0-9-]+)"/.exec(await (await fetch(base + "/")).text())?.[1] ?? "/";
  const newsHref = /href="(\/news\/[a-z0-9-]+)"/.exec(news)?.[1] ?? "/news";
  const pages = { home: "/", news: "/news", "news item": newsHref, article: articleHref, programs: "/programs" };

  // Warm up (first renders compile and fill caches).
  for (const p of Object.values(pages)) await fetch(base + p);
  const baseline = await throughput(base + "/favicon.svg");
  console.log(`baseline: static file ${baseline.toFixed(0)} req/s (concurrency ${CONCURRENCY}, ${DURATION_MS} ms each)\n`);
  console.log("page            throughput vs static   JS (gz)   JS vs budget");
  for (const [name, path] of Object.entries(pages)) {
    const rps = await throughput(base + path);
    const kb = await pageJavaScriptKb(base, path);
    console.log(`${name.padEnd(15)} ${(rps / baseline).toFixed(3).padStart(10)}          ${kb.toFixed(1).padStart(6)} KB   ${(kb / BUDGET_KB).toFixed(2)}`);
  }
} finally {
  await server.stop();
}

const { benchNewsroom } = await import("./bench-newsroom.ts");
await benchNewsroom({ concurrency: CONCURRENCY, durationMs: DURATION_MS });

const { benchSearch } = await import("./bench-search.ts");
await benchSearch();

const { benchUpload } = await import("./bench-upload.ts");
await benchUpload();
