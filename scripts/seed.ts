/**
 * `npm run seed`: loads the demo content into the configured database (PGlite in DATA_DIR/db, or
 * PostgreSQL at DATABASE_URL) and writes its files under DATA_DIR/uploads/demo. Safe to run any number of
 * times: existing rows, including ones an editor changed, are left alone.
 *
 * Runs regardless of SEED_DEMO: that flag governs the automatic seed at start-up, while running this script
 * is itself the explicit request.
 */
import path from "node:path";
import { getConfig } from "#server/config.server.ts";
import { openDatabase } from "#server/db/client.server.ts";
import { seedDemoContent } from "#server/db/seed.server.ts";

const config = getConfig();
const handle = openDatabase({
  url: config.drivers.database === "postgres" ? config.DATABASE_URL : undefined,
  dataDir: config.dataDir,
});
const where = handle.driver === "postgres" ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${path.join(config.dataDir, "db")}`;

try {
  console.log(`seed: database ${where}`);
  await handle.migrate();
  const uploadsDir = path.join(config.dataDir, "uploads");
  const videosDir = path.join(config.dataDir, "videos");
  const { inserted } = await seedDemoContent(handle.db, { uploadsDir, videosDir, log: (m) => console.log(`seed: ${m}`) });
  const width = Math.max(...Object.keys(inserted).map((k) => k.length));
  for (const [table, n] of Object.entries(inserted)) console.log(`  ${table.padEnd(width)}  ${n}`);
} catch (err) {
  console.error("seed failed:", err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  await handle.close();
}
