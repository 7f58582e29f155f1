/**
 * The newsroom's lists at newsroom scale, for `npm run bench`: 10,000 news items in the database, a signed-in
 * administrator, and the throughput of the admin list page (first page, a deep page, a text filter, a status
 * filter) and of the JSON API, each as a ratio to a static file served by the same server in the same run.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { checkConfig } from "#server/config.server.ts";
import { openDatabase, type Database } from "#server/db/client.server.ts";
import { createAuth } from "#server/auth/auth.server.ts";
import { categories, news } from "#server/db/schema.server.ts";
import { createPersona } from "#tests/helpers/auth.ts";
import { startServer } from "#tests/e2e/support/server.ts";

const ITEMS = Number(process.env.BENCH_ADMIN_ITEMS ?? 10_000);
const SECRET = "bench-newsroom-secret-3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e";

/** Requests per second over `durationMs` with `concurrency` workers, each request read to its end. */
async function throughput(url: string, headers: Record<string, string>, concurrency: number, durationMs: number): Promise<number> {
  const deadline = Date.now() + durationMs;
  let done = 0;
  const worker = async () => {
    while (Date.now() < deadline) {
      const res = await fetch(url, { headers: { "Accept-Encoding": "gzip", ...headers } });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return done / (durationMs / 1000);
}

/**
 * A fresh data folder whose database has an administrator signed in (their session cookie), for a bench that
 * then starts the built server on it; `fill` adds what the bench needs before the server opens the database.
 */
export async function databaseWithAdmin(secret: string, name: string, fill: (db: Database) => Promise<void> = async () => {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `sahara-bench-${name}-`));
  const handle = openDatabase({ dataDir });
  try {
    await handle.migrate();
    const { config } = checkConfig({ DATA_DIR: dataDir, BETTER_AUTH_SECRET: secret, LOG_LEVEL: "silent" });
    const admin = await createPersona(createAuth({ db: handle.db, config }), handle.db, { email: `bench@${name}.test`, password: "Passw0rdB", role: "admin" });
    await fill(handle.db);
    return { dataDir, cookie: admin.cookie };
  } finally {
    await handle.close();
  }
}

export async function benchNewsroom({ concurrency = 8, durationMs = 3000 } = {}) {
  const { dataDir, cookie } = await databaseWithAdmin(SECRET, "newsroom", async (db) => {
    const [category] = await db.insert(categories).values({ name: "أخبار", slug: "news", type: "news" }).returning({ id: categories.id });
    const start = Date.now() - ITEMS * 60_000;
    for (let offset = 0; offset < ITEMS; offset += 500) {
      const rows = Array.from({ length: Math.min(500, ITEMS - offset) }, (_, k) => {
        const n = offset + k;
        const at = new Date(start + n * 60_000);
        return {
          title: `خبر رقم ${n} عن الحياة في نواكشوط والمدن الداخلية`,
          excerpt: `ملخص الخبر رقم ${n} في سطرين قصيرين للقارئ`,
          content: `<p>نص الخبر رقم ${n}. ${"كلمات عربية كثيرة في متن الخبر. ".repeat(20)}</p>`,
          categoryId: category.id,
          priority: (["high", "medium", "low"] as const)[n % 3],
          location: "نواكشوط",
          authorName: "bench",
          status: n % 10 === 0 ? ("draft" as const) : ("published" as const),
          pageSlug: `khabar-${n}`,
          publishDate: at,
          createdAt: at,
          updatedAt: at,
        };
      });
      await db.insert(news).values(rows);
    }
  });

  const server = await startServer({ DATA_DIR: dataDir, BETTER_AUTH_SECRET: SECRET, SEED_DEMO: "false", LOG_LEVEL: "warn" });
  try {
    const auth = { cookie };
    const pages = {
      "admin list, page 1": "/admin/news",
      "admin list, page 400": "/admin/news?page=400",
      "admin list, text filter": `/admin/news?q=${encodeURIComponent("رقم 77")}`,
      "admin list, drafts": "/admin/news?status=draft",
      "JSON API, page 1": "/api/admin/news",
    };
    for (const p of Object.values(pages)) {
      const res = await fetch(server.url + p, { headers: auth });
      if (!res.ok) throw new Error(`${p}: HTTP ${res.status}`);
      await res.arrayBuffer();
    }
    const baseline = await throughput(server.url + "/favicon.svg", {}, concurrency, durationMs);
    console.log(`\nnewsroom at ${ITEMS.toLocaleString("en")} news items (signed-in admin); baseline static file ${baseline.toFixed(0)} req/s`);
    console.log("list                       throughput vs static");
    for (const [name, p] of Object.entries(pages)) {
      const rps = await throughput(server.url + p, auth, concurrency, durationMs);
      console.log(`${name.padEnd(26)} ${(rps / baseline).toFixed(3).padStart(8)}`);
    }
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
