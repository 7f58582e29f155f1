/**
 * An import is searchable within a minute whatever wrote it (issue 31, docs/decisions/0128-search-limits-queue-suggestions.md):
 * 10,000 articles written by SQL into the database of a running server — no newsroom, no restart, no search to
 * pull them in — are indexed by the recurring `search.drain` job and found by `GET /search`.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL): a second process cannot write to the embedded database of a running
 * server. Skipped, saying so, without it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { openDatabase } from "#server/db/client.server.ts";
import { startServer, type RunningServer } from "#tests/e2e/support/server.ts";
import { createScratchDatabase } from "#tests/helpers/db.ts";
import { tcpAnswers } from "#tests/helpers/services.ts";

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const postgresUp = await tcpAnswers(DATABASE_URL, 5432);
if (!postgresUp) console.warn("import test skipped: no PostgreSQL (set TEST_DATABASE_URL)");

const ROWS = 10_000;
const DEADLINE_MS = 60_000;

describe.skipIf(!postgresUp)("10,000 rows imported by SQL into a running server", () => {
  let server: RunningServer;
  let url = "";
  let dropDatabase = async () => {};

  beforeAll(async () => {
    const database = await createScratchDatabase("import");
    url = database.url;
    dropDatabase = database.drop;
    const handle = openDatabase({ url });
    await handle.migrate();
    await handle.close();
    server = await startServer({ DATABASE_URL: url, SEED_DEMO: "false", BETTER_AUTH_SECRET: "import-e2e-secret-7d1f3b5a9c2e4f6a8b0d1c3e5f7a9b2d" });
  });

  afterAll(async () => {
    await server?.stop();
    await dropDatabase();
  });

  it("finds them by GET /search within a minute", async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // One statement, as a migration from another system would write them: each item has a word of its own.
      await client.query(
        `insert into articles (title, content, excerpt, page_slug, status, publish_date)
         select 'أرشيف الواحات رقم ' || i, '<p>نص مستورد من نظام آخر عن الواحات والقوافل، الوثيقة wahadoc' || i || '.</p>',
           'وثيقة من الأرشيف', 'imported-' || i, 'published', now() - make_interval(mins => i)
         from generate_series(1, $1::int) as i`,
        [ROWS],
      );
      const imported = Date.now();
      const queued = async () => Number((await client.query<{ n: string }>("select count(*) as n from search_queue")).rows[0].n);
      expect(await queued()).toBeGreaterThan(0);

      // Nothing searches meanwhile: only the job can index them.
      await expect.poll(queued, { timeout: DEADLINE_MS, interval: 500 }).toBe(0);
      const drained = Date.now() - imported;
      const indexed = await client.query<{ n: string }>("select count(*) as n from search_items where type = 'article' and status = 'published'");
      expect(Number(indexed.rows[0].n)).toBe(ROWS);

      // The first, the last and some between, each by the word only it has, the page and the JSON alike.
      for (const n of [1, 2500, 7777, ROWS]) {
        const res = await fetch(`${server.url}/search?q=${encodeURIComponent(`wahadoc${n}`)}`);
        expect(res.status).toBe(200);
        expect(await res.text()).toContain(`href="/articles/imported-${n}"`);
      }
      const json = (await (await fetch(`${server.url}/api/search?q=${encodeURIComponent("أرشيف الواحات")}`)).json()) as {
        hasMore: boolean;
        results: { url: string }[];
      };
      expect(json.results[0].url).toBe("/articles/imported-1");
      expect(json.hasMore).toBe(true);
      const found = Date.now() - imported;
      expect(found).toBeLessThan(DEADLINE_MS);
      console.log(
        `import e2e: ${ROWS} rows indexed by search.drain in ${(drained / 1000).toFixed(1)} s, found by /search after ${(found / 1000).toFixed(1)} s`,
      );
      expect(server.output()).toContain("search queue drained");
    } finally {
      await client.end();
    }
  });
});
