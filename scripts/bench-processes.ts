/**
 * Two web processes against one, for `npm run bench` (docs/deploy.md): the built server started twice on one
 * PostgreSQL database (demo content) and one Redis, anonymous readers spread round-robin over both as a load
 * balancer would, against the same load on one of them alone. Reported as a ratio (2 processes ÷ 1), with
 * the page cache on and off (every request renders). The load comes from this process over keep-alive
 * connections, on the same machine: a ratio near the number of free cores is the most it can show.
 *
 * Needs PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL) and Redis (BENCH_REDIS_URL, else
 * redis://127.0.0.1:6379); says so and skips without them.
 */
import crypto from "node:crypto";
import http from "node:http";
import os from "node:os";
import pg from "pg";
import { startServer, type RunningServer } from "#tests/e2e/support/server.ts";
import { tcpAnswers } from "#tests/helpers/services.ts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

/** GET a path on a port over the agent's kept-alive connections; resolves when the body has been read. */
function get(agent: http.Agent, port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path, agent, headers: { "accept-encoding": "gzip" } }, (res) => {
      res.on("data", () => {});
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

/**
 * Requests per second with CONNECTIONS connections, each connection going to one port (connection i to
 * ports[i % n]: a balancer spreading connections), walking through `paths`.
 */
async function throughput(ports: number[], paths: string[], durationMs: number): Promise<number> {
  const agents = ports.map(() => new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS }));
  const deadline = Date.now() + durationMs;
  let done = 0;
  const connection = async (i: number) => {
    const port = ports[i % ports.length];
    const agent = agents[i % ports.length];
    for (let n = i; Date.now() < deadline; n++) {
      const status = await get(agent, port, paths[n % paths.length]);
      if (status !== 200) throw new Error(`${paths[n % paths.length]} on ${port}: HTTP ${status}`);
      done++;
    }
  };
  try {
    await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => connection(i)));
  } finally {
    for (const agent of agents) agent.destroy();
  }
  return done / (durationMs / 1000);
}

async function readerPaths(port: number): Promise<string[]> {
  const html = await new Promise<string>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/" }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve(body));
      })
      .on("error", reject);
  });
  const article = /href="(\/articles\/[^"]+)"/.exec(html)?.[1];
  const newsItem = /href="(\/news\/[^"]+)"/.exec(html)?.[1];
  return ["/", "/news", "/culture", ...(article ? [article] : []), ...(newsItem ? [newsItem] : [])];
}

export async function benchProcesses({ durationMs = 3000 } = {}) {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const redisUrl = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
  console.log(`\ntwo web processes against one (PostgreSQL + Redis, ${CONNECTIONS} connections, ${durationMs} ms each, ${os.availableParallelism()} cores)\n`);
  const missing = [
    !(databaseUrl && (await tcpAnswers(databaseUrl, 5432))) && "PostgreSQL (set BENCH_DATABASE_URL or TEST_DATABASE_URL)",
    !(await tcpAnswers(redisUrl, 6379)) && `Redis at ${redisUrl} (set BENCH_REDIS_URL)`,
  ].filter(Boolean);
  if (missing.length) {
    console.log(`skipped: no ${missing.join(" and no ")}`);
    return;
  }

  const name = `bench_${Date.now().toString(36)}_${crypto.randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(databaseUrl!);
  url.pathname = `/${name}`;
  try {
    console.log("page cache   1 process    2 processes   2 ÷ 1");
    for (const cache of ["on", "off"] as const) {
      const env = { DATABASE_URL: url.toString(), REDIS_URL: redisUrl, PAGE_CACHE: cache, JOB_WORKER: "off", LOG_LEVEL: "warn" };
      // One after the other: the first migrates and seeds the demo content, the second finds it there.
      const servers: RunningServer[] = [];
      try {
        servers.push(await startServer(env));
        servers.push(await startServer(env));
        const paths = await readerPaths(servers[0].port);
        const ports = servers.map((s) => s.port);
        // Warm up both (first renders compile and fill caches).
        await throughput(ports, paths, 1000);
        const one = await throughput([ports[0]], paths, durationMs);
        const two = await throughput(ports, paths, durationMs);
        console.log(`${cache.padEnd(10)} ${one.toFixed(0).padStart(7)} req/s ${two.toFixed(0).padStart(9)} req/s   ${(two / one).toFixed(2)}`);
      } finally {
        await Promise.all(servers.map((s) => s.stop()));
      }
    }
  } finally {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    await c.query(`drop database if exists "${name}" with (force)`);
    await c.end();
  }
}
