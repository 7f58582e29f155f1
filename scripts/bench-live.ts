/**
 * Live coverage at scale, for `npm run bench` (scripts/bench.ts, section `live`; issue 44):
 *  - SSE: BENCH_LIVE_READERS (2,000) readers hold a coverage's stream open on one web process (the built server, on
 *    a throw-away PostgreSQL database when BENCH_DATABASE_URL or TEST_DATABASE_URL answers, else PGlite); the readers live in a child process of their own, so the server's memory and CPU are its own. Reported:
 *    the time from an entry's POST through the admin API to its arrival at each reader (p50, p95, max over
 *    BENCH_LIVE_ENTRIES entries, 10), the server's resident memory per connected reader (VmRSS after − before, ÷
 *    readers) and its CPU while idle with them connected (/proc over 10 s). Baseline, in the same run: a bare
 *    node:http SSE fan-out writing the same event bytes (the real entry's JSON) and the same heartbeat to the same
 *    readers, its POST to arrival, memory and CPU measured alike; each figure is also given as a ratio to it.
 *  - polling behind Varnish (tests/e2e/cdn/varnish.ts, the shipped VCL): the same readers on the fallback, each
 *    asking `entries?after=<cursor>` at the pace the answers give (`retry_ms`, LIVE_POLL_MS), for BENCH_LIVE_POLL_S
 *    (60 s) while entries are posted; reported: the origin's request rate against the readers' (the server's
 *    /metrics), and each entry's delay from its POST to its arrival at each reader.
 * Readers on the same machine as the server: on 2 shared cores the figures are the machine's as much as ours.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import type { LiveEntriesAnswer, LiveEntry } from "#domain/live.ts";
import pg from "pg";
import { checkConfig } from "#server/config.server.ts";
import { openDatabase } from "#server/db/client.server.ts";
import { createAuth } from "#server/auth/auth.server.ts";
import { startAuthServer } from "#tests/e2e/auth/support.ts";
import { createPersona } from "#tests/helpers/auth.ts";
import { tcpAnswers } from "#tests/helpers/services.ts";
import { originRequests, startVarnish, varnishMissing, type RunningVarnish } from "#tests/e2e/cdn/varnish.ts";
import { freePort, startServer, type RunningServer } from "#tests/e2e/support/server.ts";
import { validInput } from "#tests/helpers/content.ts";
import { cpuSeconds, percentile } from "./bench-tools.ts";

const READERS = Number(process.env.BENCH_LIVE_READERS ?? 2000);
const ENTRIES = Number(process.env.BENCH_LIVE_ENTRIES ?? 10);
const POLL_S = Number(process.env.BENCH_LIVE_POLL_S ?? 60);
const IDLE_S = 10;
/** The production defaults (server/config.server.ts), given explicitly so that the baseline matches them. */
const HEARTBEAT_MS = 20_000;
const POLL_MS = 10_000;
/** How long one entry may take to reach every reader before the bench reports those it reached. */
const ARRIVAL_LIMIT_MS = 20_000;

// The readers' process: `sse <url> <n>` holds n streams, `poll <url> <n> <cursor> <ms> <pollMs>` polls. Plain
// node:http (each stream its own socket; pollers share kept-alive sockets), so the readers cost little themselves.
const READERS_SCRIPT = `
import http from "node:http";
const [mode, url, nArg, ...rest] = process.argv.slice(1);
const n = Number(nArg);
const arrivals = new Map();
// Readers still listening: a stream the server sheds (a slow event, then its end) no longer counts.
let listening = n;
const arrived = (id, at) => {
  let list = arrivals.get(id);
  if (!list) arrivals.set(id, (list = []));
  list.push(at);
  if (list.length === listening) process.send({ type: "arrived", id, times: list });
};
process.on("message", (m) => {
  if (m.type === "report") process.send({ type: "arrived", id: m.id, times: arrivals.get(m.id) ?? [] });
  if (m.type === "close") process.exit(0);
});
if (mode === "sse") {
  let connected = 0, failed = 0, slow = 0, shed = 0;
  const open = () => new Promise((resolve) => {
    const req = http.get(url, { agent: false, headers: { accept: "text/event-stream" } }, (res) => {
      if (res.statusCode !== 200) { failed++; listening--; res.resume(); return resolve(); }
      res.on("end", () => { shed++; listening--; });
      res.setEncoding("utf8");
      let pending = "", first = true;
      res.on("data", (text) => {
        pending += text;
        let end;
        while ((end = pending.indexOf("\\n\\n")) >= 0) {
          const block = pending.slice(0, end);
          pending = pending.slice(end + 2);
          if (first && block.startsWith("retry:")) { first = false; connected++; resolve(); continue; }
          if (block.includes("event: slow")) slow++;
          if (!block.includes("event: entry")) continue;
          const data = block.split("\\n").find((l) => l.startsWith("data:"));
          if (data) arrived(JSON.parse(data.slice(5)).id, Date.now());
        }
      });
      res.on("error", () => {});
    });
    req.on("error", () => { failed++; listening--; resolve(); });
  });
  // 20 at a time: a crowd arriving, not one SYN flood.
  for (let i = 0; i < n; i += 20) await Promise.all(Array.from({ length: Math.min(20, n - i) }, open));
  process.send({ type: "connected", connected, failed });
  setInterval(() => process.send({ type: "slow", slow, shed }), 1000).unref();
} else {
  const [cursorArg, msArg, pollArg] = rest;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const deadline = Date.now() + Number(msArg);
  let requests = 0, bad = 0;
  const get = (path) => new Promise((resolve) => {
    http.get(path, { agent, headers: { "accept-encoding": "identity" } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve(res.statusCode === 200 ? JSON.parse(body) : null));
    }).on("error", () => resolve(null));
  });
  const reader = async () => {
    let cursor = Number(cursorArg);
    // Readers opened the page at different moments: their polls are spread over one period.
    await new Promise((r) => setTimeout(r, Math.random() * Number(pollArg)));
    while (Date.now() < deadline) {
      requests++;
      const answer = await get(url + "?after=" + cursor);
      const at = Date.now();
      let wait = Number(pollArg);
      if (!answer) bad++;
      else {
        for (const e of answer.entries) if (e.id > cursor) arrived(e.id, at);
        cursor = answer.cursor;
        wait = answer.retry_ms || wait;
      }
      await new Promise((r) => setTimeout(r, Math.min(wait, Math.max(0, deadline - Date.now()))));
    }
  };
  await Promise.all(Array.from({ length: n }, reader));
  process.send({ type: "done", requests, bad });
}
`;

// The baseline: a bare SSE fan-out. GET: a stream (retry line, then pings); POST <entry JSON>: that entry's event to all.
const BASELINE_SCRIPT = `
import http from "node:http";
const [port, heartbeat] = process.argv.slice(1).map(Number);
const clients = new Set();
http.createServer((req, res) => {
  if (req.method === "POST") {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const bytes = "id: " + JSON.parse(body).version + "\\nevent: entry\\ndata: " + body + "\\n\\n";
      for (const c of clients) c.write(bytes);
      res.end("ok");
    });
    return;
  }
  res.writeHead(200, { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store", "X-Accel-Buffering": "no" });
  res.write("retry: 10000\\n\\n");
  clients.add(res);
  req.on("close", () => clients.delete(res));
}).listen(port, "127.0.0.1", () => console.log("listening"));
setInterval(() => { for (const c of clients) c.write(": ping\\n\\n"); }, heartbeat);
`;

type ReaderMessage =
  | { type: "arrived"; id: number; times: number[] }
  | { type: "connected"; connected: number; failed: number }
  | { type: "slow"; slow: number; shed: number }
  | { type: "done"; requests: number; bad: number };

/** The readers' child process, and a way to wait for its messages. */
function startReaders(args: string[]) {
  const child = spawn(process.execPath, ["--input-type=module", "-e", READERS_SCRIPT, ...args], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const inbox: ReaderMessage[] = [];
  let wake = () => {};
  let slow = { slow: 0, shed: 0 };
  child.on("message", (m: ReaderMessage) => {
    if (m.type === "slow") slow = m;
    else inbox.push(m);
    wake();
  });
  const next = async <T extends ReaderMessage["type"]>(type: T, match: (m: Extract<ReaderMessage, { type: T }>) => boolean = () => true, limitMs = 600_000) => {
    const started = Date.now();
    for (;;) {
      const i = inbox.findIndex((m) => m.type === type && match(m as Extract<ReaderMessage, { type: T }>));
      if (i >= 0) return inbox.splice(i, 1)[0] as Extract<ReaderMessage, { type: T }>;
      if (child.exitCode !== null) throw new Error(`the readers' process exited (${child.exitCode}) before "${type}"`);
      if (Date.now() - started > limitMs) return null;
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, 1000).unref();
      });
    }
  };
  return {
    child,
    next,
    slow: () => slow,
    send: (m: unknown) => child.send(m as never),
    stop: () => {
      if (child.exitCode === null) child.kill("SIGTERM");
    },
  };
}

/** The arrival times of an entry at every reader, or at those it reached within ARRIVAL_LIMIT_MS. */
async function arrivalsOf(readers: ReturnType<typeof startReaders>, id: number): Promise<number[]> {
  const all = await readers.next("arrived", (m) => m.id === id, ARRIVAL_LIMIT_MS);
  if (all) return all.times;
  readers.send({ type: "report", id });
  return (await readers.next("arrived", (m) => m.id === id))?.times ?? [];
}

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

type SseFigures = {
  p50: number;
  p95: number;
  max: number;
  missed: number;
  perReaderKb: number;
  idleCpu: number;
  /** The same without readers, measured just before they connect. */
  quietCpu: number;
  connected: number;
  failed: number;
  /** Streams the server ended with a `slow` event (shed while loaded), and those still open at the end. */
  shed: number;
  shedWhen: string;
  listening: number;
};

/**
 * Connects READERS streams to `streamUrl` of process `pid`, posts ENTRIES entries with `post` (which answers the
 * entry's id once it is sent), and measures arrival, memory and idle CPU.
 */
async function measureSse(pid: number, streamUrl: string, post: (i: number) => Promise<{ id: number; at: number }>): Promise<SseFigures> {
  await settle(2000);
  const before = rssKb(pid);
  // The process's own idle (timers, the job worker's polling, the database's keep-alive): what the readers add is the rest.
  const quiet0 = cpuSeconds(pid);
  await settle(IDLE_S * 1000);
  const quietCpu = (cpuSeconds(pid) - quiet0) / IDLE_S;
  const readers = startReaders(["sse", streamUrl, String(READERS)]);
  try {
    const hello = await readers.next("connected");
    await settle(2000);
    const after = rssKb(pid);
    const cpu0 = cpuSeconds(pid);
    await settle(IDLE_S * 1000);
    const idleCpu = (cpuSeconds(pid) - cpu0) / IDLE_S;
    // When streams were shed: while the crowd connected (and the 2 s after), while idle, or while entries were sent.
    const shedBy = [readers.slow().shed];
    const delays: number[] = [];
    let missed = 0;
    for (let i = 0; i < ENTRIES; i++) {
      const { id, at } = await post(i);
      const times = await arrivalsOf(readers, id);
      missed += hello!.connected - readers.slow().shed - times.length;
      delays.push(...times.map((t) => t - at));
      await settle(500);
    }
    delays.sort((x, y) => x - y);
    return {
      p50: percentile(delays, 50),
      p95: percentile(delays, 95),
      max: delays.at(-1) ?? NaN,
      missed,
      perReaderKb: (after - before) / Math.max(1, hello!.connected),
      idleCpu,
      quietCpu,
      connected: hello!.connected,
      failed: hello!.failed,
      shed: readers.slow().shed,
      shedWhen: `${shedBy[0]} by the end of the idle period, ${readers.slow().shed - shedBy[0]} while entries were sent`,
      listening: hello!.connected - readers.slow().shed,
    };
  } finally {
    readers.send({ type: "close" });
    readers.stop();
  }
}

async function startBaseline(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--input-type=module", "-e", BASELINE_SCRIPT, String(port), String(HEARTBEAT_MS)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (d: Buffer) => d.toString().includes("listening") && resolve());
    child.once("exit", (code) => reject(new Error(`baseline exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

const PERSONA = { email: "chief@bench-live.test", password: "Passw0rdA", role: "admin", name: "مريم بنت أحمد" } as const;

/**
 * The web process, on PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL answers (a throw-away database: how
 * a site with thousands of readers runs, and the database's work leaves the process's event loop), else on PGlite,
 * whose queries run on that loop.
 */
async function startLiveServer(env: Record<string, string>): Promise<{ server: RunningServer; cookie: string; database: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl || !(await tcpAnswers(adminUrl, 5432))) {
    const server = await startAuthServer({ personas: { admin: PERSONA }, env });
    return { server, cookie: server.personas.admin.cookie, database: "PGlite (set BENCH_DATABASE_URL for PostgreSQL)", drop: async () => {} };
  }
  const name = `bench_live_${Date.now().toString(36)}`;
  const query = async (sql: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await query(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const secret = "bench-live-secret-4f2a9c7e1b3d5f7a9c1e3b5d7f9a2c4e";
  const handle = openDatabase({ url: url.toString() });
  let cookie: string;
  try {
    await handle.migrate();
    const { config } = checkConfig({ DATABASE_URL: url.toString(), BETTER_AUTH_SECRET: secret, LOG_LEVEL: "silent" });
    cookie = (await createPersona(createAuth({ db: handle.db, config }), handle.db, { ...PERSONA })).cookie;
  } finally {
    await handle.close();
  }
  const server = await startServer({ ...env, DATABASE_URL: url.toString(), BETTER_AUTH_SECRET: secret, SEED_DEMO: "false" });
  return { server, cookie, database: "PostgreSQL", drop: () => query(`drop database if exists "${name}" with (force)`) };
}

const ms = (n: number) => `${Math.round(n)} ms`.padStart(8);
const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : "—");

export async function benchLive() {
  console.log(`\n=== live — ${READERS} readers of a live coverage on one web process (SSE), then polling behind Varnish ===`);
  const limit = Number(execFileSync("sh", ["-c", "ulimit -n"], { encoding: "utf8" }).trim());
  if (Number.isFinite(limit) && limit < READERS + 500) {
    console.log(`skipped: ${READERS} readers need more open files than this shell's limit (${limit}); run \`ulimit -n ${Math.max(8192, READERS * 2)}\` first`);
    return;
  }
  const varnishPort = await freePort();
  const env: Record<string, string> = {
    LOG_LEVEL: "warn",
    LIVE_HEARTBEAT_MS: String(HEARTBEAT_MS),
    LIVE_POLL_MS: String(POLL_MS),
    // Far from the cap: the bench measures a process at ease, not one that asks its readers to slow down.
    LIVE_MAX_STREAMS: String(Math.max(5000, READERS * 2)),
  };
  if (!varnishMissing) Object.assign(env, { CDN_PURGE: "varnish", VARNISH_PURGE_URL: `http://127.0.0.1:${varnishPort}/` });
  const { server, cookie, database, drop } = await startLiveServer(env);
  console.log(`database: ${database}`);
  const stops: (() => Promise<void>)[] = [() => server.stop(), drop];
  try {
    const api = async <T>(method: string, path: string, body: unknown, status = 200) => {
      const res = await fetch(server.url + path, {
        method,
        headers: { cookie, origin: server.url, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (res.status !== status) throw new Error(`${method} ${path}: HTTP ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    };
    const coverage = await api<{ id: number; url: string }>("POST", "/api/admin/coverage", validInput("coverage", 0, "تغطية مباشرة لقياس عدد القراء"), 201);
    await api("PATCH", `/api/admin/coverage/${coverage.id}`, { live: true });
    let sample: LiveEntry | null = null;
    const postEntry = async (i: number) => {
      const at = Date.now();
      const { id, entry } = await api<{ id: number; entry: LiveEntry }>(
        "POST",
        `/api/admin/coverage/${coverage.id}/entries`,
        { body: `<p>السطر رقم ${i + 1}: وصلت نتائج مكتب التصويت في مقاطعة تفرغ زينة، والفرز مستمر في بقية المكاتب.</p>` },
        201,
      );
      sample ??= entry;
      return { id, at };
    };
    const serverPid = server.process.pid!;
    const live = await measureSse(serverPid, `${server.url}${coverage.url}/stream`, postEntry);

    // The bare fan-out, sending the real entry's bytes.
    const baseline = await startBaseline();
    let base: SseFigures;
    try {
      base = await measureSse(baseline.child.pid!, `${baseline.url}/`, async (i) => {
        const id = 1_000_000 + i;
        const body = JSON.stringify({ ...sample!, id, version: id });
        const at = Date.now();
        await (await fetch(baseline.url, { method: "POST", body })).text();
        return { id, at };
      });
    } finally {
      baseline.child.kill("SIGTERM");
    }

    console.log(`\nreaders connected: ${live.connected} (refused or failed: ${live.failed}); bare fan-out: ${base.connected} (${base.failed})`);
    console.log(`${ENTRIES} entries, POST → arrival at every reader; ${IDLE_S} s idle with the readers connected (heartbeat every ${HEARTBEAT_MS / 1000} s)\n`);
    console.log(`                          server     bare fan-out   ratio`);
    console.log(`POST → arrival p50      ${ms(live.p50)}     ${ms(base.p50)}      ${ratio(live.p50, base.p50)}`);
    console.log(`POST → arrival p95      ${ms(live.p95)}     ${ms(base.p95)}      ${ratio(live.p95, base.p95)}`);
    console.log(`POST → arrival max      ${ms(live.max)}     ${ms(base.max)}      ${ratio(live.max, base.max)}`);
    console.log(
      `memory per reader      ${live.perReaderKb.toFixed(1).padStart(6)} KB    ${base.perReaderKb.toFixed(1).padStart(6)} KB     ${ratio(live.perReaderKb, base.perReaderKb)}`,
    );
    console.log(
      `CPU idle, readers on   ${(live.idleCpu * 100).toFixed(2).padStart(6)} %     ${(base.idleCpu * 100).toFixed(2).padStart(6)} %      ${ratio(live.idleCpu, base.idleCpu)}`,
    );
    console.log(
      `CPU idle, no readers   ${(live.quietCpu * 100).toFixed(2).padStart(6)} %     ${(base.quietCpu * 100).toFixed(2).padStart(6)} %      (% of one core; the readers' share is the difference)`,
    );
    if (live.missed || base.missed) console.log(`arrivals missing after ${ARRIVAL_LIMIT_MS / 1000} s: server ${live.missed}, bare ${base.missed}`);
    if (live.shed || base.shed)
      console.log(
        `streams the server shed (a slow event, then polling): ${live.shed} of ${live.connected} (${live.shedWhen}), ${live.listening} still open at the end`,
      );

    // The same readers on the polling fallback, behind Varnish.
    if (varnishMissing) {
      console.log(`\npolling behind Varnish: skipped: ${varnishMissing}`);
      return;
    }
    const varnish: RunningVarnish = await startVarnish({ backendPort: server.port, port: varnishPort, memoryMb: 128 });
    stops.unshift(() => varnish.stop());
    const path = `${coverage.url}/entries`;
    const start = (await (await fetch(server.url + path)).json()) as LiveEntriesAnswer;
    const before = await originRequests(server.url);
    const started = Date.now();
    const pollers = startReaders(["poll", varnish.url + path, String(READERS), String(start.cursor), String(POLL_S * 1000), String(POLL_MS)]);
    stops.unshift(() => Promise.resolve(pollers.stop()));
    // Entries through the run, none in its last two periods (every reader polls at least once after each).
    const posted: { id: number; at: number }[] = [];
    const postEvery = Math.max(2000, Math.floor((POLL_S * 1000 - 2 * POLL_MS) / 5));
    while (Date.now() - started < POLL_S * 1000 - 2 * POLL_MS) {
      await settle(postEvery);
      posted.push(await postEntry(posted.length + ENTRIES));
    }
    const done = await pollers.next("done", () => true, POLL_S * 1000 + 120_000);
    const elapsedS = (Date.now() - started) / 1000;
    const reached = (await originRequests(server.url)) - before;
    const delays: number[] = [];
    let missed = 0;
    for (const p of posted) {
      pollers.send({ type: "report", id: p.id });
      const times = (await pollers.next("arrived", (m) => m.id === p.id, 10_000))?.times ?? [];
      missed += READERS - times.length;
      delays.push(...times.map((t) => t - p.at));
    }
    delays.sort((x, y) => x - y);
    const readerRate = (done?.requests ?? 0) / elapsedS;
    console.log(
      `\npolling behind Varnish: ${READERS} readers, ${POLL_S} s, each at the pace the answers give (retry_ms; LIVE_POLL_MS ${POLL_MS / 1000} s), ${posted.length} entries`,
    );
    console.log(
      `readers' requests: ${done?.requests ?? "?"} (${readerRate.toFixed(1)}/s, ${done?.bad ?? "?"} failed); reaching the origin: ${reached} (${(reached / elapsedS).toFixed(2)}/s) — ${((reached / Math.max(1, done?.requests ?? 0)) * 10_000).toFixed(1)} per 10,000`,
    );
    console.log(
      `POST → arrival by polling: p50 ${ms(percentile(delays, 50))}, p95 ${ms(percentile(delays, 95))}, max ${ms(delays.at(-1) ?? NaN)}${missed ? `; ${missed} arrivals missing` : ""}`,
    );
  } finally {
    for (const stop of stops) await stop();
  }
}
