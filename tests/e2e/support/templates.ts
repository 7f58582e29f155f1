/**
 * The data folders the browser suite's servers start from, made once by the global set-up: one migrated and
 * empty, one migrated and seeded with the demo content (files included). A server then starts from a copy
 * (support/server.ts newDataDir) instead of creating a PGlite cluster, migrating and seeding each time,
 * which was most of a server's start.
 */
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase } from "#server/db/client.server.ts";
import { seedDemoContent } from "#server/db/seed.server.ts";

export async function prepareTemplates(dir: string): Promise<void> {
  const empty = path.join(dir, "empty");
  const seeded = path.join(dir, "seeded");
  fs.mkdirSync(path.join(empty, "uploads"), { recursive: true });
  const handle = openDatabase({ dataDir: empty });
  try {
    await handle.migrate();
  } finally {
    await handle.close();
  }
  fs.cpSync(empty, seeded, { recursive: true });
  const seedHandle = openDatabase({ dataDir: seeded });
  try {
    await seedDemoContent(seedHandle.db, { uploadsDir: path.join(seeded, "uploads"), videosDir: path.join(seeded, "videos") });
    await seedHandle.db.execute(sql`analyze`);
  } finally {
    await seedHandle.close();
  }
}
