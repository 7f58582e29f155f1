/**
 * The page cache's fast path and the web process's memory, for `npm run bench` (scripts/bench.ts, sections
 * `fastpath` and `memory`; docs/decisions/0130-fast-path-and-memory-bounds.md).
 *
 * fastpath — cached-page throughput of `/`, `/news` and an article (the first the home page links to), each
 * with the fast path (the default) and without it (PAGE_CACHE_FAST_PATH=off: Express's stack answers the
 * hits, as before issue 30), against a static file measured on the same machine in the same run:
 *  - served by a bare `node:http` server (a child process that answers every request with the file's bytes
 *    from memory, with Content-Type, Content-Encoding, Content-Length and ETag), and
 *  - served by nginx (one worker, access log off, the file from disk, sendfile) when `nginx` is installed; it
 *    runs on a free port with its own configuration in a temporary folder; without it, it says so and skips.
 * The static file is the home page's own gzip bytes, so the same bytes cross the wire: the ratio is the cost of
 * the work per request. autocannon, 16 connections, `Accept-Encoding: gzip`, BENCH_MS per run; each page's run
 * sits between two runs of each static server and is divided by their mean (the machine's load drifts).
 *
 * memory — each web process's resident memory (VmRSS) idle (ready, before its first reader, settled) and at its
 * peak under BENCH_MEMORY_MS (default 60 000) of load, on the embedded database (PGlite) and on PostgreSQL (a
 * throw-away database on BENCH_DATABASE_URL / DATABASE_URL / TEST_DATABASE_URL; skipped, saying so, without
 * one): 16 connections walking every public URL of the sitemaps in three languages, /news pages and search
 * queries (each a page of its own for the page cache: it must stay within PAGE_CACHE_MAX_BYTES), mixed with the
 * hot pages. What holds the memory is read from /metrics: V8's heap, memory outside it (Buffers, PGlite's
 * WebAssembly memory), the page cache's bytes. The goal: 256 MB per web process under load on PostgreSQL. On
 * PostgreSQL the load runs again with V8's old space bounded (BENCH_HEAP_MB, default 256), an 8 MB young
 * generation and MALLOC_ARENA_MAX=2, and with BENCH_TIGHT_HEAP=on once more with a 160 MB old space.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort, startServer, type RunningServer } from "#tests/e2e/support/server.ts";
import { memoryOf, resetPeakMemory, settledMemory } from "#tests/helpers/raw-http.ts";
import { pagesDatabaseFromEnv } from "./bench-pages.ts";

const CONNECTIONS = 16;
const MEMORY_GOAL_MB = 256;
/** A V8 old-space bound (NODE_OPTIONS=--max-old-space-size) whose effect the memory section shows beside the default. */
const HEAP_MB = Number(process.env.BENCH_HEAP_MB ?? 256);

// autocannon ships no types: the part of its programmatic API used here.
type AutocannonRequest = { method?: string; path?: string; headers?: Record<string, string> };
type AutocannonResult = { duration: number; errors: number; timeouts: number; non2xx: number; "2xx": number };
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  requests?: (AutocannonRequest & {
    setupRequest?: (req: AutocannonRequest & { headers: Record<string, string> }) => AutocannonRequest;
    onResponse?: (status: number, body: string, context: object, headers: Record<string, string | string[]>) => void;
  })[];
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

type Rate = { rps: number; bad: number; cached?: number };

/** Requests per second of 2xx answers on one URL; `cached`: the share answered HIT by the page cache. */
async function rate(url: string, durationMs: number): Promise<Rate> {
  let hits = 0;
  let marked = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: durationMs / 1000,
    headers: { "accept-encoding": "gzip" },
    requests: [
      {
        method: "GET",
        onResponse: (_status, _body, _context, headers) => {
          const name = Object.keys(headers).find((h) => h.toLowerCase() === "x-page-cache");
          if (!name) return;
          const value = headers[name];
          marked++;
          if (String(value).startsWith("HIT")) hits++;
        },
      },
    ],
  });
  return { rps: result["2xx"] / result.duration, bad: result.non2xx + result.errors + result.timeouts, cached: marked ? hits / marked : undefined };
}

// ---------------------------------------------------------------------------------------------------------
// Static baselines: a bare node:http server and nginx, each a process of its own.

type StaticServer = { name: string; url: string; stop: () => Promise<void> };

const BARE_SERVER = `
import http from "node:http";
import fs from "node:fs";
const body = fs.readFileSync(process.argv[1]);
const headers = { "Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip", "Content-Length": String(body.length), ETag: '"static"' };
const server = http.createServer((req, res) => { res.writeHead(200, headers); res.end(req.method === "HEAD" ? undefined : body); });
server.keepAliveTimeout = 65000;
server.listen(Number(process.argv[2]), "127.0.0.1", () => console.log("listening"));
`;

function waitForOutput(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`no "${text}" within 10 s: ${seen}`)), 10_000);
    child.stdout?.on("data", (d: Buffer) => {
      seen += d.toString();
      if (seen.includes(text)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code}: ${seen}`)));
  });
}

const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 5000).unref();
  });

async function startBareNode(file: string): Promise<StaticServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--input-type=module", "-e", BARE_SERVER, file, String(port)], { stdio: ["ignore", "pipe", "inherit"] });
  await waitForOutput(child, "listening");
  return { name: "bare node:http", url: `http://127.0.0.1:${port}/page.html`, stop: () => stopChild(child) };
}

function nginxBinary(): string | undefined {
  for (const candidate of [process.env.NGINX_PATH, "/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx"]) {
    if (candidate && fs.existsSync(candidate)) return candidate;
  }
  try {
    return execFileSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** nginx on a free port, its configuration, pid, logs and temporary files in `dir`; one worker, like one Node process. */
async function startNginx(binary: string, dir: string, file: string): Promise<StaticServer> {
  const port = await freePort();
  const www = path.join(dir, "www");
  fs.mkdirSync(www, { recursive: true });
  fs.copyFileSync(file, path.join(www, "page.html"));
  // Started as root, nginx's worker runs as another user: it must be able to read the file (mkdtemp makes 0700).
  for (const p of [path.dirname(dir), dir, www]) fs.chmodSync(p, 0o755);
  fs.chmodSync(path.join(www, "page.html"), 0o644);
  const conf = path.join(dir, "nginx.conf");
  const tmp = (name: string) => path.join(dir, name);
  fs.writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${tmp("nginx.pid")};
error_log ${tmp("error.log")} warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 65;
  keepalive_requests 100000;
  client_body_temp_path ${tmp("body")};
  proxy_temp_path ${tmp("proxy")};
  fastcgi_temp_path ${tmp("fastcgi")};
  uwsgi_temp_path ${tmp("uwsgi")};
  scgi_temp_path ${tmp("scgi")};
  server {
    listen 127.0.0.1:${port};
    root ${www};
    location = /page.html { types { } default_type text/html; charset utf-8; add_header Content-Encoding gzip; }
  }
}
`,
  );
  const child = spawn(binary, ["-c", conf, "-p", dir, "-e", tmp("error.log")], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}/page.html`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${output}`);
    try {
      const res = await fetch(url, { method: "HEAD" });
      if (res.ok) break;
      output ||= `HTTP ${res.status}`;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`nginx did not answer within 10 s: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { name: "nginx", url, stop: () => stopChild(child) };
}

// ---------------------------------------------------------------------------------------------------------
// fastpath section

type Page = { name: string; path: string };

/** A page's body as sent with `Accept-Encoding: gzip` (fetch would decompress it). */
function gzipBytes(url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": "gzip" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => (res.headers["content-encoding"] === "gzip" ? resolve(Buffer.concat(chunks)) : reject(new Error(`${url}: not gzip`))));
      })
      .on("error", reject);
  });
}

async function cachedPages(base: string): Promise<Page[]> {
  const home = await (await fetch(base + "/")).text();
  const article = /href="(\/articles\/[^"#?]+)"/.exec(home)?.[1];
  if (!article) console.log("warning: the home page links to no article; the article row measures / instead");
  return [
    { name: "home", path: "/" },
    { name: "news", path: "/news" },
    { name: "article", path: article ?? "/" },
  ];
}

const fmt = (n: number) => n.toFixed(0).padStart(7);
const ratio = (n: number) => `${n.toFixed(2)}×`.padStart(8);

export async function benchFastPath({ durationMs = 3000 }: { durationMs?: number } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-bench-static-"));
  const statics: StaticServer[] = [];
  const results = new Map<string, { fast: number; slow: number }>();
  try {
    console.log(
      `\n=== fast path — cached pages against a static file of the same machine, same run (autocannon ${CONNECTIONS} connections, Accept-Encoding: gzip, ${durationMs} ms per run, ${os.availableParallelism()} cores) ===`,
    );
    for (const mode of ["on", "off"] as const) {
      const server = await startServer({ LOG_LEVEL: "warn", PAGE_CACHE: "on", PAGE_CACHE_FAST_PATH: mode });
      try {
        const pages = await cachedPages(server.url);
        if (!statics.length) {
          // The static file: the home page's gzip bytes as the cache keeps them.
          const file = path.join(dir, "page.html.gz");
          fs.writeFileSync(file, await gzipBytes(server.url + "/"));
          console.log(`static file: the home page's gzip bytes, ${fs.statSync(file).size} bytes`);
          statics.push(await startBareNode(file));
          const nginx = nginxBinary();
          if (nginx) statics.push(await startNginx(nginx, path.join(dir, "nginx"), file));
          else console.log("nginx: not installed (apt-get install nginx, or NGINX_PATH): skipped; the bare node:http server is the baseline");
        }
        for (const p of pages) for (let i = 0; i < 3; i++) await (await fetch(server.url + p.path, { headers: { "accept-encoding": "gzip" } })).arrayBuffer();
        // Warm: the JIT compiles the path a hit takes (a first run measures less than half the warm rate).
        for (const s of statics) await rate(s.url, 1000);
        for (const p of pages) await rate(server.url + p.path, 1500);
        console.log(`\nfast path ${mode === "on" ? "ON (the default)" : "OFF (PAGE_CACHE_FAST_PATH=off: Express's stack answers hits, as before)"}\n`);
        console.log(`page      path                              req/s  from cache  ${statics.map((s) => `${s.name} req/s   × it`.padStart(26)).join("  ")}`);
        let before = await Promise.all(statics.map(async (s) => rate(s.url, durationMs)));
        for (const p of pages) {
          const run = await rate(server.url + p.path, durationMs);
          const after: Rate[] = [];
          for (const s of statics) after.push(await rate(s.url, durationMs));
          const baselines = statics.map((_, i) => (before[i].rps + after[i].rps) / 2);
          const shown = p.path.length > 32 ? p.path.slice(0, 31) + "…" : p.path;
          console.log(
            `${p.name.padEnd(9)} ${shown.padEnd(32)} ${fmt(run.rps)}  ${(run.cached === undefined ? "–" : `${(run.cached * 100).toFixed(0)}%`).padStart(10)}  ` +
              baselines.map((b) => `${fmt(b)}        ${ratio(run.rps / b)}`.padStart(26)).join("  ") +
              (run.bad ? `   (${run.bad} non-2xx/errors: not a valid figure)` : ""),
          );
          const kept = results.get(p.name) ?? { fast: 0, slow: 0 };
          if (mode === "on") kept.fast = run.rps / baselines[0];
          else kept.slow = run.rps / baselines[0];
          results.set(p.name, kept);
          before = after;
        }
        if (mode === "on") {
          const metrics = await (await fetch(server.url + "/metrics")).text();
          console.log(`answered by the fast path: ${/^sahara_page_cache_fast_path_total (\d+)/m.exec(metrics)?.[1] ?? "0"} requests`);
        }
      } finally {
        await server.stop();
        fs.rmSync(server.dataDir, { recursive: true, force: true });
      }
    }
    console.log(`\nsummary — cached pages, × the bare node:http static file (before: fast path off → after: on)`);
    for (const [name, r] of results)
      console.log(`  ${name.padEnd(8)} ${r.slow.toFixed(2)}× → ${r.fast.toFixed(2)}×   (${(r.fast / r.slow).toFixed(2)}× faster)`);
  } finally {
    for (const s of statics) await s.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------
// memory section

/** Every public URL the sitemaps list, as paths. */
async function sitemapPaths(base: string): Promise<string[]> {
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1].replace(/&amp;/g, "&")).pathname + new URL(m[1]).search);
  const index = await (await fetch(base + "/sitemap.xml")).text();
  const paths: string[] = [];
  for (const sitemap of locs(index)) {
    if (!sitemap.endsWith(".xml")) {
      paths.push(sitemap);
      continue;
    }
    paths.push(...locs(await (await fetch(base + sitemap)).text()));
  }
  return [...new Set(paths)];
}

type Metrics = { heapUsed: number; heapTotal: number; external: number; pageCache: number; pages: number };

async function scrape(base: string): Promise<Metrics> {
  const text = await (await fetch(base + "/metrics")).text();
  const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([\\d.e+-]+)`, "m").exec(text)?.[1] ?? NaN) / 1024 / 1024;
  return {
    heapUsed: value("nodejs_heap_size_used_bytes"),
    heapTotal: value("nodejs_heap_size_total_bytes"),
    external: value("nodejs_external_memory_bytes"),
    pageCache: value("sahara_page_cache_bytes"),
    pages: value("sahara_page_cache_entries") * 1024 * 1024,
  };
}

const mb = (n: number) => `${n.toFixed(0)} MB`;

async function memoryRun(label: string, env: Record<string, string>, durationMs: number) {
  // The first start migrates and seeds the demo content (images, videos): what it leaves in memory is the first
  // start's, measured apart. The figures are a process started again on that database, as after any deploy.
  const first: RunningServer = await startServer({ LOG_LEVEL: "warn", ...env });
  const firstIdle = await settledMemory(first.process.pid!);
  await first.stop();
  const server: RunningServer = await startServer({ LOG_LEVEL: "warn", ...env, DATA_DIR: first.dataDir });
  try {
    const pid = server.process.pid!;
    const idle = await settledMemory(pid);
    const idleMetrics = await scrape(server.url);
    const urls = await sitemapPaths(server.url);
    const words = ["الصحراء", "موريتانيا", "نواكشوط", "شنقيط", "الثقافة", "الشعر", "المخطوطات", "الإبل", "الموسيقى", "التراث"];
    const paths = [
      ...urls,
      ...Array.from({ length: 20 }, (_, i) => `/news?page=${i + 1}`),
      ...Array.from({ length: 200 }, (_, i) => `/search?q=${encodeURIComponent(`${words[i % words.length]} ${i}`)}`),
    ];
    const hot = ["/", "/news", "/culture", ...urls.filter((u) => u.startsWith("/articles/")).slice(0, 3)];
    const languages = ["ar", "fr", "en"];
    resetPeakMemory(pid);
    let peak = idle;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, memoryOf(pid).rss);
      } catch {
        // the process ended: reported below
      }
    }, 100);
    let n = 0;
    let sent = 0;
    const statuses = new Map<number, number>();
    let result: AutocannonResult;
    try {
      result = await autocannon({
        url: server.url,
        connections: CONNECTIONS,
        duration: durationMs / 1000,
        requests: [
          {
            method: "GET",
            setupRequest: (req) => {
              const i = n++;
              sent++;
              // Half the requests to the few hot pages (cached), half walking every page in every language.
              const path = i % 2 ? hot[(i >> 1) % hot.length] : paths[(i >> 1) % paths.length];
              const lang = languages[Math.floor(i / 2 / paths.length) % languages.length];
              return {
                ...req,
                path,
                headers: {
                  ...req.headers,
                  "accept-encoding": i % 3 ? "gzip" : "br",
                  "accept-language": lang,
                  "x-forwarded-for": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
                },
              };
            },
            onResponse: (status) => void statuses.set(status, (statuses.get(status) ?? 0) + 1),
          },
        ],
      });
    } finally {
      clearInterval(sampler);
    }
    const hwm = memoryOf(pid).peak;
    peak = Math.max(peak, hwm);
    const loaded = await scrape(server.url);
    const after = await settledMemory(pid);
    const status = peak <= MEMORY_GOAL_MB ? "within" : "OVER";
    const others = [...statuses].filter(([code]) => code >= 300).map(([code, count]) => `${count}×${code}`);
    console.log(
      `${label.padEnd(26)} idle ${mb(idle).padStart(7)}   peak ${mb(peak).padStart(7)}   after ${mb(after).padStart(7)}   ` +
        `${(result["2xx"] / result.duration).toFixed(0)} req/s, ${sent} sent${others.length ? ` (${others.join(" ")})` : ""}, ${result.errors} errors   ${status} ${MEMORY_GOAL_MB} MB`,
    );
    console.log(`${"".padEnd(26)} first start on this database (migrating and seeding it when new) idle ${mb(firstIdle)}`);
    console.log(
      `${"".padEnd(26)} heap used/total idle ${mb(idleMetrics.heapUsed)}/${mb(idleMetrics.heapTotal)}, after load ${mb(loaded.heapUsed)}/${mb(loaded.heapTotal)}; ` +
        `outside the heap (Buffers, PGlite's WebAssembly memory) idle ${mb(idleMetrics.external)}, after ${mb(loaded.external)}; ` +
        `page cache ${mb(loaded.pageCache)} in ${loaded.pages.toFixed(0)} pages (bound PAGE_CACHE_MAX_BYTES)`,
    );
    return { idle, peak };
  } finally {
    if (server.process.exitCode !== null && server.process.exitCode !== 0)
      console.log(`${label}: the server exited with ${server.process.exitCode}:\n${server.output().slice(-2000)}`);
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}

export async function benchMemory({ durationMs = Number(process.env.BENCH_MEMORY_MS ?? 60_000) }: { durationMs?: number } = {}) {
  console.log(
    `\n=== memory — each web process's resident memory (VmRSS) idle (ready, before its first reader) and at its peak under ${durationMs / 1000} s of load (${CONNECTIONS} connections: hot pages and every sitemap URL in 3 languages, /news pages, search queries) ===\n`,
  );
  await memoryRun("embedded database (PGlite)", { DATABASE_URL: "" }, durationMs);
  const postgres = pagesDatabaseFromEnv();
  if (!postgres) {
    console.log("PostgreSQL: skipped (set BENCH_DATABASE_URL, DATABASE_URL or TEST_DATABASE_URL to a PostgreSQL server)");
    return;
  }
  const name = `bench_memory_${Date.now().toString(36)}_${crypto.randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: postgres.url });
  try {
    await admin.connect();
    await admin.query(`create database "${name}"`);
  } catch (error) {
    console.log(`PostgreSQL (${postgres.variable}): skipped, ${String(error)}`);
    return;
  } finally {
    await admin.end().catch(() => {});
  }
  const url = new URL(postgres.url);
  url.pathname = `/${name}`;
  try {
    await memoryRun(`PostgreSQL (${postgres.variable})`, { DATABASE_URL: url.toString() }, durationMs);
    // V8's heap and glibc's allocator are Node's and the system's to bound (docs/operations.md, "Memory"): the same
    // load with V8's old space bounded, a smaller young generation and two malloc arenas, to show what they change.
    const flags = `--max-old-space-size=${HEAP_MB} --max-semi-space-size=8`;
    await memoryRun(
      `PostgreSQL, as npm start runs it (${flags}, MALLOC_ARENA_MAX=2)`,
      { DATABASE_URL: url.toString(), NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} ${flags}`.trim(), MALLOC_ARENA_MAX: "2" },
      durationMs,
    );
    if (process.env.BENCH_TIGHT_HEAP === "on") {
      const tight = "--max-old-space-size=160";
      await memoryRun(`PostgreSQL, ${tight}`, { DATABASE_URL: url.toString(), NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} ${tight}`.trim() }, durationMs);
    }
  } finally {
    const c = new pg.Client({ connectionString: postgres.url });
    await c.connect();
    await c.query(`drop database if exists "${name}" with (force)`);
    await c.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchFastPath();
  await benchMemory();
}
