/**
 * A crash in the middle of a newsletter send (decision 0126): a worker process mails a send through the real
 * SMTP receiver and is killed with SIGKILL while a batch is in flight; a new worker resumes the job. Everyone
 * gets the newsletter, and nobody gets it more than once except the recipients of that one batch in flight.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import { createScratchDatabase, testDatabaseKinds } from "#tests/helpers/db.ts";
import { news, newsletterSubscribers } from "#server/db/schema.server.ts";
import { checkConfig } from "#server/config.server.ts";
import { openDatabase } from "#server/db/client.server.ts";
import { closeBulkMail } from "#server/ops/mail.server.ts";
import { releaseOrphanedJobs, startWorker } from "#server/jobs/queue.server.ts";
import { NEWSLETTER_SEND_JOB, newsletterSendHandler, queueNewsletterSend } from "./jobs.server.ts";
import { createSend, deliveryCounts, listSends } from "./sends.server.ts";

const WORKER = fileURLToPath(new URL("../../tests/helpers/newsletter-worker.ts", import.meta.url));
const RECIPIENTS = 60;
const BATCH = 5;
const SECRET = "a-test-secret-of-at-least-thirty-two-characters";

/**
 * An SMTP receiver that counts every message it has been handed (the worst case: a message whose DATA arrived
 * counts as delivered even if the sender never heard back) and, once `holdAfter` messages have arrived, stops
 * answering: the sender's batch stays in flight until the process is killed.
 */
async function holdingReceiver(holdAfter: number) {
  const received = new Map<string, number>();
  let count = 0;
  let holding = true;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        for (const to of session.envelope.rcptTo) received.set(to.address, (received.get(to.address) ?? 0) + 1);
        count++;
        if (holding && count > holdAfter) return; // never answered: in flight
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
    release: () => void (holding = false),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
});

describe.each(testDatabaseKinds)("a newsletter send killed mid-send on %s", (kind) => {
  it("resumes after SIGKILL: everyone gets one mail; at most one batch gets a second", { timeout: 120_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "newsletter-crash-"));
    const scratch = kind === "postgres" ? await createScratchDatabase("nlcrash") : null;
    const holdAfter = 2 * BATCH + 2; // two batches through, the third in flight
    const smtp = await holdingReceiver(holdAfter);
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      PUBLIC_URL: "https://sahara.test",
      BETTER_AUTH_SECRET: SECRET,
      SMTP_URL: smtp.url,
      NEWSLETTER_BATCH_SIZE: String(BATCH),
      NEWSLETTER_RATE_PER_MINUTE: "100000",
      NEWSLETTER_SMTP_CONNECTIONS: "2",
      LOG_LEVEL: "warn",
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    };
    const config = checkConfig(env).config;

    // The send, queued by "the back-office": its deliveries and its job.
    let handle = openDatabase({ url: scratch?.url, dataDir });
    await handle.migrate();
    const [item] = await handle.db
      .insert(news)
      .values({
        title: "خبر النشرة",
        content: "محتوى الخبر التجريبي للنشرة",
        pageSlug: "crash-news",
        status: "published",
        publishDate: new Date(Date.now() - 60_000),
      })
      .returning({ id: news.id });
    await handle.db
      .insert(newsletterSubscribers)
      .values(Array.from({ length: RECIPIENTS }, (_, i) => ({ email: `reader-${i}@sahara.test`, status: "confirmed" as const, language: "ar" })));
    const { id: sendId, total } = await createSend(
      handle.db,
      { kind: "digest", period: "daily", language: "ar", subject: "النشرة اليومية", intro: null, items: [{ type: "news", id: item.id }] },
      { enqueueJob: queueNewsletterSend },
    );
    expect(total).toBe(RECIPIENTS);
    await handle.close();

    // A worker process sends until a batch is in flight, and is killed there.
    const child = spawn(process.execPath, ["--import", "tsx", WORKER], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let output = "";
    child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    await expect
      .poll(() => smtp.count(), { timeout: 60_000, interval: 50, message: `the worker did not get to the third batch:\n${output}` })
      .toBeGreaterThan(holdAfter);
    child.kill("SIGKILL");
    await exited;
    const beforeResume = smtp.count();
    smtp.release();

    // What the dead worker left: two batches sent, the third "sending" (in flight), the rest pending.
    handle = openDatabase({ url: scratch?.url, dataDir });
    await handle.migrate();
    const left = await deliveryCounts(handle.db, sendId);
    expect(left.sent).toBe(2 * BATCH);
    expect(left.sending).toBe(BATCH);
    expect(left.pending).toBe(RECIPIENTS - 3 * BATCH);

    // A new worker: with the embedded database the job held by the dead process is handed back at once; on
    // PostgreSQL its lease (2 s in the child) lapses.
    if (kind === "pglite") await releaseOrphanedJobs(handle.db);
    const worker = startWorker(handle.db, { [NEWSLETTER_SEND_JOB]: newsletterSendHandler(config) }, { pollMs: 100 });
    try {
      await expect.poll(async () => (await listSends(handle.db)).find((s) => s.id === sendId)?.state, { timeout: 60_000, interval: 200 }).toBe("sent");
    } finally {
      await worker.stop();
      closeBulkMail();
    }

    const counts = [...smtp.received.values()];
    const twice = [...smtp.received.entries()].filter(([, n]) => n > 1).map(([to]) => to);
    expect(smtp.received.size).toBe(RECIPIENTS);
    expect(Math.min(...counts)).toBe(1);
    expect(Math.max(...counts)).toBe(2);
    // Only the batch in flight went twice: at most BATCH recipients, and only those the dead worker had handed over.
    expect(twice.length).toBeGreaterThan(0);
    expect(twice.length).toBeLessThanOrEqual(BATCH);
    expect(beforeResume - 2 * BATCH).toBeGreaterThanOrEqual(twice.length);
    expect(await deliveryCounts(handle.db, sendId)).toEqual({ sent: RECIPIENTS });
    const [summary] = (await listSends(handle.db)).filter((s) => s.id === sendId);
    expect(summary).toMatchObject({ sent: RECIPIENTS, failed: 0, pending: 0 });
    await handle.close();
    await smtp.close();
    await scratch?.drop();
  });
});
