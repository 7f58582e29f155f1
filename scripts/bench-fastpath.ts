/**
 * The page cache's fast path and the web process's memory, for `npm run bench` (scripts/bench.ts, sections
 * `fastpath` and `memory`; docs/decisions/0130-fast-path-and-memory-bounds.md).
 *
 * fastpath — cached-page throughput of `/`, `/news` and an article (the first the home page links to), each
 * with the fast path (the default) and without it (PAGE_CACHE_FAST_PATH=off: Express's stack answers the
 * hits, as before issue 30), against baselines measured on the same machine in the same run (issue 43):
 *  - a bare `node:http` server (a child process) answering each page's path with that page's gzip bytes from
 *    memory and every header our answer carries (CSP, security headers, ETag, Vary, Cache-Control, surrogate
 *    keys…, but the connection's and Date, which Node adds to both), given to writeHead as one object: the goal
 *    is a cached page at ≥ 0.5× that server;
 *  - nginx (one worker, access log off, each page's bytes as a file, sendfile) when `nginx` is installed, for
 *    scale; it runs on a free port with its own configuration in a temporary folder; without it, it says so.
 * The client must not be the bottleneck: wrk (`-t2 -c16`, Debian's `wrk`, WRK_PATH) when installed, else
 * autocannon in two worker threads, which the header line says (on 2 cores one autocannon thread saturates near
 * 7,000 requests a second, below the bare server). `Accept-Encoding: gzip`, BENCH_MS per run (wrk: whole
 * seconds). Each page's run sits between two runs of each baseline on that page and is divided by their mean
 * (the machine's load drifts). "hits" and "fast" are the shares of the run's requests the page cache answered
 * from memory and its fast path answered (from /metrics): a figure is only valid near 100%.
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
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort, startServer, type RunningServer } from "#tests/e2e/support/server.ts";
import { memoryOf, resetPeakMemory, settledMemory } from "#tests/helpers/raw-http.ts";
import { pagesDatabaseFromEnv } from "./bench-pages.ts";
import { autocannon, type AutocannonResult } from "./bench-tools.ts";

const CONNECTIONS = 16;
const MEMORY_GOAL_MB = 256;
/** A V8 old-space bound (NODE_OPTIONS=--max-old-space-size) whose effect the memory section shows beside the default. */
const HEAP_MB = Number(process.env.BENCH_HEAP_MB ?? 256);

type Rate = { rps: number; requests: number; bad: number };

/** The load client: wrk (Debian's `wrk`, C, two threads) when installed, else autocannon in worker threads. */
function wrkBinary(): string | undefined {
  for (const candidate of [process.env.WRK_PATH, "/usr/bin/wrk", "/usr/local/bin/wrk"]) if (candidate && fs.existsSync(candidate)) return candidate;
  return undefined;
}
const WRK = wrkBinary();
const CLIENT = WRK
  ? `wrk -t2 -c${CONNECTIONS}, Accept-Encoding: gzip`
  : `autocannon in 2 worker threads, ${CONNECTIONS} connections, Accept-Encoding: gzip (wrk not installed: apt-get install wrk; autocannon may be the bottleneck)`;

/** wrk's figures: `N requests in 5.00s`, `Non-2xx or 3xx responses: M`, `Socket errors: connect a, read b, write c, timeout d`. */
function parseWrk(output: string): Rate {
  const requests = Number(/(\d+) requests in ([\d.]+)(m?s)/.exec(output)?.[1] ?? NaN);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? NaN);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const errors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  if (!Number.isFinite(rps)) throw new Error(`wrk: no figure in its output:\n${output}`);
  return { rps, requests, bad: non2xx + errors };
}

/** Requests per second of one URL with `Accept-Encoding: gzip` over CONNECTIONS kept-alive connections. */
async function rate(url: string, durationMs: number): Promise<Rate> {
  if (WRK) {
    const seconds = Math.max(1, Math.round(durationMs / 1000));
    const output = await new Promise<string>((resolve, reject) =>
      execFile(WRK, ["-t2", `-c${CONNECTIONS}`, `-d${seconds}s`, "-H", "Accept-Encoding: gzip", url], { encoding: "utf8" }, (error, stdout, stderr) =>
        error ? reject(new Error(`wrk failed: ${stderr || error.message}`)) : resolve(stdout),
      ),
    );
    return parseWrk(output);
  }
  const result = await autocannon({ url, connections: CONNECTIONS, workers: 2, duration: durationMs / 1000, headers: { "accept-encoding": "gzip" } });
  const requests = result["2xx"] + result.non2xx;
  return { rps: result["2xx"] / result.duration, requests, bad: result.non2xx + result.errors + result.timeouts };
}

// ---------------------------------------------------------------------------------------------------------
// Baselines: a bare node:http server sending each page's bytes with that page's headers, and nginx; each a
// process of its own.

type StaticServer = { name: string; url: (path: string) => string; stop: () => Promise<void> };

/**
 * What a hand-written server does at best: every header of our answer, as one object given to writeHead (the
 * request id fixed, the Date Node's own), and the page's gzip bytes from memory. It does none of our work per
 * request: no request id, no access log, no metrics, no checks.
 */
const BARE_SERVER = `
import http from "node:http";
import fs from "node:fs";
const pages = new Map(Object.entries(JSON.parse(fs.readFileSync(process.argv[1], "utf8"))).map(([path, page]) => [path, { headers: page.headers, body: Buffer.from(page.body, "base64") }]));
const server = http.createServer((req, res) => {
  const page = pages.get(req.url);
  if (!page) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, page.headers);
  res.end(req.method === "HEAD" ? undefined : page.body);
});
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

/** A page as the cache sends it with `Accept-Encoding: gzip`: its headers (but the connection's and Date) and bytes. */
type Captured = { headers: Record<string, string | string[]>; body: Buffer };

async function startBareNode(dir: string, pages: Map<string, Captured>): Promise<StaticServer> {
  const port = await freePort();
  const file = path.join(dir, "bare-pages.json");
  fs.writeFileSync(file, JSON.stringify(Object.fromEntries([...pages].map(([p, c]) => [p, { headers: c.headers, body: c.body.toString("base64") }]))));
  const child = spawn(process.execPath, ["--input-type=module", "-e", BARE_SERVER, file, String(port)], { stdio: ["ignore", "pipe", "inherit"] });
  await waitForOutput(child, "listening");
  return { name: "bare node:http", url: (p) => `http://127.0.0.1:${port}${p}`, stop: () => stopChild(child) };
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
async function startNginx(binary: string, dir: string, files: Map<string, Buffer>): Promise<StaticServer> {
  const port = await freePort();
  const www = path.join(dir, "www");
  fs.mkdirSync(www, { recursive: true });
  const names = new Map([...files.keys()].map((p, i) => [p, `page-${i}.html`]));
  for (const [p, body] of files) fs.writeFileSync(path.join(www, names.get(p)!), body, { mode: 0o644 });
  // Started as root, nginx's worker runs as another user: it must be able to read the files (mkdtemp makes 0700).
  for (const p of [path.dirname(dir), dir, www]) fs.chmodSync(p, 0o755);
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
    location ~ ^/page-[0-9]+[.]html$ { types { } default_type text/html; charset utf-8; add_header Content-Encoding gzip; }
  }
}
`,
  );
  const child = spawn(binary, ["-c", conf, "-p", dir, "-e", tmp("error.log")], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const url = (p: string) => `http://127.0.0.1:${port}/${names.get(p)}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${output}`);
    try {
      const res = await fetch(url([...files.keys()][0]), { method: "HEAD" });
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

/** Headers of the connection, not of the page: the bare server's own Node adds them as ours does. */
const CONNECTION_HEADERS = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

/** A page's answer as sent with `Accept-Encoding: gzip` (fetch would decompress it and merge headers). */
function capture(url: string): Promise<Captured> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": "gzip" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          if (res.headers["content-encoding"] !== "gzip") return reject(new Error(`${url}: not gzip`));
          const headers: Record<string, string | string[]> = {};
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            const [name, value] = [res.rawHeaders[i], res.rawHeaders[i + 1]];
            if (CONNECTION_HEADERS.has(name.toLowerCase())) continue;
            const had = headers[name];
            headers[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
          }
          resolve({ headers, body: Buffer.concat(chunks) });
        });
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

/** Requests the page cache answered from memory so far, and those its fast path answered (from /metrics). */
async function cacheCounts(base: string): Promise<{ hits: number; fast: number }> {
  const text = await (await fetch(base + "/metrics")).text();
  const hits = Number(/^sahara_page_cache_requests_total\{result="hit"\} (\d+)/m.exec(text)?.[1] ?? 0);
  const fast = Number(/^sahara_page_cache_fast_path_total (\d+)/m.exec(text)?.[1] ?? 0);
  return { hits, fast };
}

const fmt = (n: number) => n.toFixed(0).padStart(7);
const ratio = (n: number) => `${n.toFixed(2)}×`.padStart(7);
const share = (part: number, whole: number) => (whole ? `${Math.min(100, (part / whole) * 100).toFixed(0)}%` : "–").padStart(5);

/**
 * Each page, with the fast path on (the default) and off (PAGE_CACHE_FAST_PATH=off, Express's stack answers
 * hits), against a bare node:http server sending that page's bytes with that page's headers (and nginx sending
 * the bytes as a file, for scale), measured right before and after it: the ratio is the cost of our work per
 * request. By default the server logs at warn: each answer's access-log line is made and counted in /metrics but
 * not written; `BENCH_ACCESS_LOG=on` writes it too (LOG_LEVEL=info, to the pipe the bench reads the server's
 * output from, kept in memory: for a run of a few pages).
 */
export async function benchFastPath({ durationMs = 5000 }: { durationMs?: number } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-bench-static-"));
  const statics: StaticServer[] = [];
  const results = new Map<string, { fast: number; slow: number }>();
  const logged = process.env.BENCH_ACCESS_LOG === "on";
  const env = { LOG_LEVEL: logged ? "info" : "warn", PAGE_CACHE: "on" };
  try {
    console.log(
      `\n=== fast path — cached pages against a bare node:http server sending the same bytes and headers (${CLIENT}, ${durationMs} ms per run, ${os.availableParallelism()} cores, access log ${logged ? "written" : "not written"}) ===`,
    );
    // BENCH_FASTPATH_MODES=on measures the fast path alone (the "off" column changes only with Express's stack).
    const modes = (process.env.BENCH_FASTPATH_MODES ?? "on,off").split(",").filter((m): m is "on" | "off" => m === "on" || m === "off");
    for (const mode of modes) {
      const server = await startServer({ ...env, PAGE_CACHE_FAST_PATH: mode });
      try {
        const pages = await cachedPages(server.url);
        for (const p of pages) for (let i = 0; i < 3; i++) await (await fetch(server.url + p.path, { headers: { "accept-encoding": "gzip" } })).arrayBuffer();
        if (!statics.length) {
          const captured = new Map<string, Captured>();
          for (const p of pages) captured.set(p.path, await capture(server.url + p.path));
          const home = captured.get("/")!;
          console.log(
            `the bare server's answers: each page's gzip bytes (home ${home.body.length} bytes) and its ${Object.keys(home.headers).length} headers (${Object.keys(home.headers).join(", ")})`,
          );
          statics.push(await startBareNode(dir, captured));
          const nginx = nginxBinary();
          if (nginx) statics.push(await startNginx(nginx, path.join(dir, "nginx"), new Map([...captured].map(([p, c]) => [p, c.body]))));
          else console.log("nginx: not installed (apt-get install nginx, or NGINX_PATH): skipped");
        }
        // Warm: the JIT compiles the path a hit takes (a first run measures less than half the warm rate).
        for (const p of pages) {
          for (const s of statics) await rate(s.url(p.path), 1000);
          await rate(server.url + p.path, 2000);
        }
        console.log(`\nfast path ${mode === "on" ? "ON (the default)" : "OFF (PAGE_CACHE_FAST_PATH=off: Express's stack answers hits)"}\n`);
        console.log(`page      path                              req/s   hits  fast  ${statics.map((s) => `${s.name} req/s  × it`.padStart(24)).join("  ")}`);
        for (const p of pages) {
          const before: Rate[] = [];
          for (const s of statics) before.push(await rate(s.url(p.path), durationMs));
          const counted = await cacheCounts(server.url);
          const run = await rate(server.url + p.path, durationMs);
          const now = await cacheCounts(server.url);
          const after: Rate[] = [];
          for (const s of statics) after.push(await rate(s.url(p.path), durationMs));
          const baselines = statics.map((_, i) => (before[i].rps + after[i].rps) / 2);
          const shown = p.path.length > 32 ? p.path.slice(0, 31) + "…" : p.path;
          const bad = [run, ...before, ...after].reduce((sum, r) => sum + r.bad, 0);
          console.log(
            `${p.name.padEnd(9)} ${shown.padEnd(32)} ${fmt(run.rps)}  ${share(now.hits - counted.hits, run.requests)} ${share(now.fast - counted.fast, run.requests)}  ` +
              baselines.map((b) => `${fmt(b)}       ${ratio(run.rps / b)}`.padStart(24)).join("  ") +
              (bad ? `   (${bad} non-2xx/errors: not a valid figure)` : ""),
          );
          const kept = results.get(p.name) ?? { fast: 0, slow: 0 };
          if (mode === "on") kept.fast = run.rps / baselines[0];
          else kept.slow = run.rps / baselines[0];
          results.set(p.name, kept);
        }
      } finally {
        await server.stop();
        fs.rmSync(server.dataDir, { recursive: true, force: true });
      }
    }
    console.log(`\nsummary — cached pages, × a bare node:http server with the same bytes and headers (fast path off → on; goal on ≥ 0.5×)`);
    for (const [name, r] of results)
      console.log(
        `  ${name.padEnd(8)} ${r.slow ? `${r.slow.toFixed(2)}×` : "–"} → ${r.fast ? `${r.fast.toFixed(2)}×` : "–"}   ${r.fast >= 0.5 ? "goal met" : "BELOW the goal"}`,
      );
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
