/**
 * The shared cache in front of the site, for `npm run bench` (scripts/bench.ts, section `cdn`; issue 43): the
 * real Varnish running deploy/varnish/default.vcl (tests/e2e/cdn/varnish.ts) in front of the built server,
 * seeded, with CDN_PURGE=varnish.
 *  - throughput through Varnish of `/`, `/news` and an article (the first the home page links to), each as a
 *    ratio to the same Varnish configuration serving a static file of that page's size (its own gzip bytes,
 *    from a bare node:http origin saying `s-maxage=3600`), measured in the same run: each page's run sits between
 *    two runs of its static file and is divided by their mean. Goal: ≥ 0.9×. `wrk -t2 -c16 -d<s> -H
 *    'Accept-Encoding: gzip'` when wrk is installed, else autocannon (16 connections), saying so;
 *  - origin requests per 10,000 reader requests over those runs (the server's /metrics);
 *  - time from a publish through the admin API to the item visible on `/news` through Varnish (the purge job's
 *    `PURGE` with `xkey-purge`), p50 and p95 over 20 publishes.
 * The origin's own cached pages against a bare node:http server are the `fastpath` section (bench-fastpath.ts).
 */
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { startAuthServer } from "#tests/e2e/auth/support.ts";
import { originRequests, startVarnish, varnishMissing, type RunningVarnish } from "#tests/e2e/cdn/varnish.ts";
import { freePort } from "#tests/e2e/support/server.ts";
import { autocannon } from "./bench-tools.ts";

const CONNECTIONS = 16;
const PUBLISHES = 20;
const GOAL = 0.9;

type Rate = { rps: number; requests: number; bad: number };

function wrkBinary(): string | undefined {
  for (const candidate of [process.env.WRK_PATH, "/usr/bin/wrk", "/usr/local/bin/wrk"]) if (candidate && fs.existsSync(candidate)) return candidate;
  try {
    return execFileSync("sh", ["-c", "command -v wrk"], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** wrk's summary: `N requests in 5.00s`, `Requests/sec: …`, and `Non-2xx or 3xx responses: N` when any. */
export function parseWrk(text: string): Rate {
  const requests = Number(/(\d+) requests in/.exec(text)?.[1] ?? NaN);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? NaN);
  const bad = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(text)?.[1] ?? 0) + Number(/Socket errors:.*?timeout (\d+)/.exec(text)?.[1] ?? 0);
  if (!Number.isFinite(requests) || !Number.isFinite(rps)) throw new Error(`wrk: no summary in\n${text}`);
  return { rps, requests, bad };
}

function rater(durationMs: number): { name: string; rate: (url: string, ms?: number) => Promise<Rate> } {
  const wrk = wrkBinary();
  if (wrk) {
    const run = promisify(execFile);
    return {
      name: `wrk -t2 -c${CONNECTIONS} -d${Math.round(durationMs / 1000)}s, Accept-Encoding: gzip`,
      rate: async (url, ms = durationMs) => {
        const { stdout } = await run(wrk, ["-t2", `-c${CONNECTIONS}`, `-d${Math.max(1, Math.round(ms / 1000))}s`, "-H", "Accept-Encoding: gzip", url]);
        return parseWrk(stdout);
      },
    };
  }
  return {
    name: `autocannon ${CONNECTIONS} connections, ${durationMs} ms, Accept-Encoding: gzip (wrk is not installed: apt-get install wrk; autocannon saturates near 7,000 req/s on 2 cores)`,
    rate: async (url, ms = durationMs) => {
      const r = await autocannon({ url, connections: CONNECTIONS, duration: ms / 1000, headers: { "accept-encoding": "gzip" } });
      const requests = r["2xx"] + r.non2xx;
      return { rps: r["2xx"] / r.duration, requests, bad: r.non2xx + r.errors + r.timeouts };
    },
  };
}

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

// The static origin: every file of a folder at /<name>, gzip bytes, kept by shared caches for an hour.
const STATIC_ORIGIN = `
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
const dir = process.argv[1];
const files = new Map(fs.readdirSync(dir).map((f) => ["/" + f, fs.readFileSync(path.join(dir, f))]));
http.createServer((req, res) => {
  const body = files.get(req.url) ?? Buffer.from("ok");
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", ...(files.has(req.url) ? { "Content-Encoding": "gzip" } : {}), "Content-Length": String(body.length), "Cache-Control": "public, max-age=0, s-maxage=3600", Vary: "Accept-Encoding" });
  res.end(req.method === "HEAD" ? undefined : body);
}).listen(Number(process.argv[2]), "127.0.0.1", () => console.log("listening"));
`;

async function startStaticOrigin(dir: string): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--input-type=module", "-e", STATIC_ORIGIN, dir, String(port)], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (d: Buffer) => d.toString().includes("listening") && resolve());
    child.once("exit", (code) => reject(new Error(`static origin exited with ${code}`)));
  });
  return { port, child };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const fmt = (n: number) => n.toFixed(0).padStart(7);

export async function benchCdn({ durationMs = 5000 }: { durationMs?: number } = {}) {
  console.log(`\n=== cdn — Varnish (deploy/varnish/default.vcl) in front of the server ===`);
  if (varnishMissing) {
    console.log(`skipped: ${varnishMissing}`);
    return;
  }
  const { name: client, rate } = rater(durationMs);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-bench-cdn-"));
  const varnishPort = await freePort();
  const server = await startAuthServer({
    personas: { admin: { email: "chief@bench-cdn.test", password: "Passw0rdA", role: "admin" } },
    seed: true,
    env: { LOG_LEVEL: "warn", CDN_PURGE: "varnish", VARNISH_PURGE_URL: `http://127.0.0.1:${varnishPort}/` },
  });
  const stops: (() => Promise<void>)[] = [() => server.stop()];
  try {
    const varnish: RunningVarnish = await startVarnish({ backendPort: server.port, port: varnishPort, memoryMb: 128 });
    stops.unshift(() => varnish.stop());
    // The demo's news categories (the server seeds them on its first start).
    const listed = (await (await fetch(`${server.url}/api/categories?type=news`)).json()) as { categories: { id: number }[] };
    const categoryId = listed.categories[0]?.id;
    if (!categoryId) throw new Error("no news category on the seeded server");
    const home = await (await fetch(server.url + "/")).text();
    // An article, else a news item: the first the home page links to.
    const article = /href="(\/articles\/[^"#?]+)"/.exec(home)?.[1] ?? /href="(\/news\/[^"#?]+)"/.exec(home)?.[1];
    if (!article) console.log("warning: the home page links to no article or news item; that row measures / instead");
    const pages = [
      { name: "home", path: "/" },
      { name: "news", path: "/news" },
      { name: "article", path: article ?? "/" },
    ];
    // Each page's static twin: its own gzip bytes, behind a second Varnish with the same configuration.
    const files = path.join(dir, "www");
    fs.mkdirSync(files);
    for (const p of pages) fs.writeFileSync(path.join(files, p.name), await gzipBytes(server.url + p.path));
    const origin = await startStaticOrigin(files);
    stops.push(() => Promise.resolve(void origin.child.kill("SIGTERM")));
    const staticVarnish = await startVarnish({ backendPort: origin.port, memoryMb: 64 });
    stops.unshift(() => staticVarnish.stop());

    console.log(`client: ${client}; ${os.availableParallelism()} cores; the static file of each row is that page's gzip bytes`);
    // Warm both caches and the JIT of every process on the way.
    for (const p of pages) {
      await rate(varnish.url + p.path, 1000);
      await rate(`${staticVarnish.url}/${p.name}`, 1000);
    }
    console.log(`\npage      path                          bytes    req/s  static req/s   ratio  goal ≥ ${GOAL}×`);
    let readerRequests = 0;
    const before = await originRequests(server.url);
    for (const p of pages) {
      const staticUrl = `${staticVarnish.url}/${p.name}`;
      const a = await rate(staticUrl);
      const page = await rate(varnish.url + p.path);
      const b = await rate(staticUrl);
      readerRequests += page.requests;
      const baseline = (a.rps + b.rps) / 2;
      const r = page.rps / baseline;
      const bad = page.bad + a.bad + b.bad ? `  (${page.bad + a.bad + b.bad} failed answers)` : "";
      console.log(
        `${p.name.padEnd(9)} ${decodeURIComponent(p.path).slice(0, 28).padEnd(28)} ${String(fs.statSync(path.join(files, p.name)).size).padStart(6)} ${fmt(page.rps)}      ${fmt(baseline)}  ${r.toFixed(2).padStart(5)}×  ${r >= GOAL ? "PASS" : "FAIL"}${bad}`,
      );
    }
    const reached = (await originRequests(server.url)) - before;
    console.log(
      `\norigin requests per 10,000 reader requests: ${((reached / Math.max(1, readerRequests)) * 10_000).toFixed(2)} (${reached} of ${readerRequests})`,
    );

    // Publish → visible on /news through Varnish, with /news kept by Varnish before each publish.
    const delays: number[] = [];
    for (let i = 0; i < PUBLISHES; i++) {
      for (let k = 0; k < 2; k++) await (await fetch(varnish.url + "/news", { headers: { "accept-encoding": "gzip" } })).arrayBuffer();
      const title = `خبر القياس رقم ${i + 1} من ${PUBLISHES} للنشر عبر الذاكرة المشتركة`;
      const started = Date.now();
      const res = await fetch(server.url + "/api/admin/news", {
        method: "POST",
        headers: { cookie: server.personas.admin.cookie, origin: server.url, "content-type": "application/json" },
        body: JSON.stringify({
          title,
          excerpt: `ملخص ${title}`,
          content: `<p>${title}، نص الخبر الكامل للقياس.</p>`,
          category_id: categoryId,
          priority: "high",
          location: "نواكشوط",
          status: "published",
        }),
      });
      if (res.status !== 201) throw new Error(`publish ${i + 1}: HTTP ${res.status} ${await res.text()}`);
      for (;;) {
        const page = await (await fetch(varnish.url + "/news", { headers: { "accept-encoding": "gzip" } })).text();
        if (page.includes(title)) break;
        if (Date.now() - started > 120_000) throw new Error(`publish ${i + 1}: not visible through Varnish after 120 s`);
        await new Promise((r) => setTimeout(r, 20));
      }
      delays.push(Date.now() - started);
    }
    delays.sort((x, y) => x - y);
    console.log(
      `publish → visible on /news through Varnish (${PUBLISHES} publishes): p50 ${percentile(delays, 50)} ms, p95 ${percentile(delays, 95)} ms, max ${delays.at(-1)} ms (goal ≤ 2000 ms: ${percentile(delays, 95) <= 2000 ? "PASS" : "FAIL"})`,
    );
  } finally {
    for (const stop of stops) await stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
