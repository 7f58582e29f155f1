/**
 * Measures a newsletter send (decision 0126): the time and the worker's peak memory (RSS) to mail a digest to
 * N subscribers (10,000 by default) through a local SMTP receiver, and how many messages go out twice when the
 * worker is killed with SIGKILL in the middle of a send and a new one resumes it.
 *
 *   node --import tsx scripts/bench-newsletter.ts [--subscribers 10000] [--batch 50] [--rate 1000000] [--connections 3]
 *
 * The database is the embedded PGlite in a temporary folder (DATABASE_URL: that PostgreSQL instead; the tables
 * are emptied first, so give it a database of its own). The worker runs in a child process of its own (this script
 * with --worker), as `npm run worker` does, so its RSS is the send's alone. The receiver counts messages per
 * recipient and does not parse them. Not part of `npm test`: it takes a minute or more.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { checkConfig } from "#server/config.server.ts";
import { openDatabase } from "#server/db/client.server.ts";
import { news, newsletterSubscribers } from "#server/db/schema.server.ts";
import { releaseOrphanedJobs, startWorker } from "#server/jobs/queue.server.ts";
import { NEWSLETTER_SEND_JOB, newsletterSendHandler, queueNewsletterSend } from "#server/newsletter/jobs.server.ts";
import { createSend, deliveryCounts } from "#server/newsletter/sends.server.ts";

const SELF = fileURLToPath(import.meta.url);
const SECRET = "bench-newsletter-secret-of-at-least-32-characters";

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

/** --worker: the child process: runs newsletter jobs until killed, reporting its peak RSS on request (SIGUSR2). */
async function workerMode() {
  const config = checkConfig(process.env).config;
  const handle = openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir });
  await handle.migrate();
  if (handle.driver === "pglite") await releaseOrphanedJobs(handle.db);
  const worker = startWorker(handle.db, { [NEWSLETTER_SEND_JOB]: newsletterSendHandler(config) }, { pollMs: 100, leaseMs: 2000 });
  process.on("SIGUSR2", () => console.log(`peak-rss ${process.resourceUsage().maxRSS * 1024}`));
  // SIGTERM: finishes the send in hand (its bookkeeping), then exits, as `npm run worker` does.
  process.once("SIGTERM", () => {
    void worker
      .stop()
      .then(() => handle.close())
      .then(() => process.exit(0));
  });
  console.log("worker started");
}

async function receiver() {
  const received = new Map<string, number>();
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        for (const to of session.envelope.rcptTo) received.set(to.address, (received.get(to.address) ?? 0) + 1);
        count++;
        callback();
      });
    },
  });
  // A sender killed mid-conversation resets its connection: expected here.
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    received,
    count: () => count,
    reset: () => {
      received.clear();
      count = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function startChild(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", SELF, "--worker"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    exited,
    ready: () => waitFor(() => out.includes("worker started"), 120_000),
    peakRss: async () => {
      const mark = out.length;
      child.kill("SIGUSR2");
      await waitFor(() => /peak-rss \d+/.test(out.slice(mark)), 10_000);
      return Number(/peak-rss (\d+)/.exec(out.slice(mark))![1]);
    },
  };
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function main() {
  const subscribers = option("subscribers", 10_000);
  const batch = option("batch", 50);
  const rate = option("rate", 1_000_000);
  const connections = option("connections", 3);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-newsletter-"));
  const smtp = await receiver();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PUBLIC_URL: "https://sahara.example",
    BETTER_AUTH_SECRET: SECRET,
    SMTP_URL: smtp.url,
    NEWSLETTER_BATCH_SIZE: String(batch),
    NEWSLETTER_RATE_PER_MINUTE: String(rate),
    NEWSLETTER_SMTP_CONNECTIONS: String(connections),
    LOG_LEVEL: "warn",
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  };
  const config = checkConfig(env).config;

  /** Queues a send to every subscriber (the database closed again: PGlite is one process's at a time). */
  const queue = async (subject: string) => {
    const handle = openDatabase({ url: config.DATABASE_URL, dataDir });
    await handle.migrate();
    const [{ n }] = (await handle.db.select({ n: sql<number>`count(*)::int` }).from(newsletterSubscribers)) as { n: number }[];
    if (Number(n) === 0) {
      for (let i = 0; i < subscribers; i += 1000) {
        await handle.db.insert(newsletterSubscribers).values(
          Array.from({ length: Math.min(1000, subscribers - i) }, (_, j) => ({
            email: `reader-${i + j}@bench.example`,
            status: "confirmed" as const,
            language: "ar",
          })),
        );
      }
      await handle.db.insert(news).values({
        title: "خبر القياس",
        content: "محتوى خبر القياس للنشرة البريدية",
        excerpt: "مقتطف خبر القياس",
        pageSlug: "bench-newsletter",
        status: "published",
        publishDate: new Date(Date.now() - 60_000),
      });
    }
    const [item] = (await handle.db
      .select({ id: news.id })
      .from(news)
      .where(sql`page_slug = 'bench-newsletter'`)) as { id: number }[];
    const send = await createSend(
      handle.db,
      { kind: "digest", period: "daily", language: "ar", subject, intro: "مقدمة", items: [{ type: "news", id: item.id }] },
      { enqueueJob: queueNewsletterSend },
    );
    await handle.close();
    return send.id;
  };
  const counts = async (sendId: number) => {
    const handle = openDatabase({ url: config.DATABASE_URL, dataDir });
    try {
      return await deliveryCounts(handle.db, sendId);
    } finally {
      await handle.close();
    }
  };

  console.log(
    `newsletter bench: ${subscribers} subscribers, batch ${batch}, rate ${rate}/min, ${connections} SMTP connections, ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"}`,
  );

  // 1. A whole send, timed from the moment the worker is up to the last message received.
  const first = await queue("قياس الإرسال");
  const worker = startChild(env);
  await worker.ready();
  const idleRss = await worker.peakRss();
  const started = process.hrtime.bigint();
  await waitFor(() => smtp.count() >= subscribers, 30 * 60_000);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const rss = await worker.peakRss();
  worker.child.kill("SIGTERM");
  await worker.exited;
  console.log(
    `send: ${subscribers} messages in ${seconds.toFixed(1)} s (${Math.round(subscribers / seconds)} a second); worker peak RSS ${(rss / 1048576).toFixed(0)} MB (${(idleRss / 1048576).toFixed(0)} MB before the send: the database opened and migrated)`,
  );
  const firstCounts = await counts(first);
  console.log(`deliveries: ${JSON.stringify(firstCounts)}`);

  // 2. kill -9 in the middle of a second send, then a new worker resumes it.
  smtp.reset();
  const second = await queue("قياس الانقطاع");
  const doomed = startChild(env);
  await doomed.ready();
  // Half way, in the middle of a batch (not on a batch's boundary).
  await waitFor(() => smtp.count() >= Math.floor(subscribers / 2) + Math.floor(batch / 2), 30 * 60_000);
  doomed.child.kill("SIGKILL");
  await doomed.exited;
  const atKill = smtp.count();
  const resumed = startChild(env);
  await resumed.ready();
  await waitFor(() => smtp.received.size >= subscribers, 30 * 60_000);
  resumed.child.kill("SIGTERM");
  await resumed.exited;
  const twice = [...smtp.received.values()].filter((n) => n > 1).length;
  const missing = subscribers - smtp.received.size;
  console.log(`kill -9 after ${atKill} messages: ${twice} recipients got a second copy (batch size ${batch}), ${missing} got none`);
  console.log(`deliveries: ${JSON.stringify(await counts(second))}`);
  await smtp.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

if (process.argv.includes("--worker")) await workerMode();
else await main();
