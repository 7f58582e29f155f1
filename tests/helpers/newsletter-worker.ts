/**
 * A worker process that runs newsletter sends only, for the crash test (server/newsletter/crash.test.ts):
 * it opens the database named by its environment (DATABASE_URL, or the PGlite folder under DATA_DIR), runs the
 * job queue's worker with the newsletter handler, and says "worker started" on its standard output. The test
 * kills it with SIGKILL in the middle of a send.
 */
import { checkConfig } from "#server/config.server.ts";
import { openDatabase } from "#server/db/client.server.ts";
import { startWorker } from "#server/jobs/queue.server.ts";
import { NEWSLETTER_SEND_JOB, newsletterSendHandler } from "#server/newsletter/jobs.server.ts";

const config = checkConfig(process.env).config;
const handle = openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir });
await handle.migrate();
startWorker(handle.db, { [NEWSLETTER_SEND_JOB]: newsletterSendHandler(config) }, { pollMs: 100, leaseMs: 2000 });
console.log("worker started");
