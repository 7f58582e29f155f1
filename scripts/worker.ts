/**
 * `npm run worker`: a job worker process (video processing, daily pruning) for a scaled-out site, beside web
 * processes started with JOB_WORKER=off. It needs DATABASE_URL (the embedded database is one process's) and
 * the same DATA_DIR or storage settings as the web processes. Like a web process, it waits for the schema to be
 * current, migrating it under the migration lock unless MIGRATE_ON_START=off (then `npm run db:migrate` does).
 */
import { startupCheck } from "#server/config.server.ts";
import { ensureSchema, getDatabaseHandle } from "#server/db/client.server.ts";
import { startJobWorker } from "#server/jobs/index.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { startCacheBus } from "#server/content/cache-bus.server.ts";
import { followInvalidationsToCdn } from "#server/cdn/purge.server.ts";

const config = startupCheck({ ...process.env, JOB_WORKER: "embedded" }, logger);
if (config.drivers.database !== "postgres") {
  logger.error("npm run worker needs DATABASE_URL: the embedded database can only be opened by the server itself");
  process.exit(1);
}
const handle = await getDatabaseHandle();
try {
  await ensureSchema(handle, { migrate: config.MIGRATE_ON_START, log: (m) => logger.info(m) });
} catch (error) {
  logger.error(error instanceof Error ? error.message : String(error));
  await handle.close();
  process.exit(1);
}
// A video that becomes ready here must reach the web processes' caches.
const bus = config.REDIS_URL ? startCacheBus({ url: config.REDIS_URL }) : undefined;
// …and the shared cache in front (CDN_PURGE): a scheduled publish or a video made ready here is purged from here.
const purges = followInvalidationsToCdn(handle.db, config);
const worker = startJobWorker(handle.db, config);
const stop = async () => {
  await purges?.stop();
  await worker.stop();
  await bus?.stop();
  await handle.close();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
