/**
 * The audit log's cost on a bulk action (issue 40, decision 0140): "publish now" of 1,000 news drafts in one
 * transaction, with its one audit row (every id in it) and, for comparison, with the audit write made a no-op (the
 * action as it was before the audit log). Alternating runs on fresh drafts, the median of each printed. Only with
 * BENCH_BULK_AUDIT=1 (it takes a minute): `BENCH_BULK_AUDIT=1 TEST_DATABASE_URL=… npx vitest run server/content/bulk-audit.bench.test.ts`.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { auditLog, categories, news } from "#server/db/schema.server.ts";
import { runBulkAction } from "./bulk.server.ts";
import type * as AuditModule from "./audit.server.ts";

const state = vi.hoisted(() => ({ audit: true }));
vi.mock("./audit.server.ts", async (importOriginal) => {
  const original = await importOriginal<typeof AuditModule>();
  return { ...original, recordAudit: (...args: Parameters<typeof original.recordAudit>) => (state.audit ? original.recordAudit(...args) : Promise.resolve()) };
});

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ITEMS = 1000;
const editor = { id: "bench-editor", email: "bench@example.org" };

for (const kind of testDatabaseKinds) {
  describe.skipIf(!process.env.BENCH_BULK_AUDIT)(`bulk publish of ${ITEMS} items with its audit row (${kind})`, () => {
    let h: TestDatabase;
    let category: number;
    let batch = 0;
    beforeAll(async () => {
      h = await createTestDatabase(kind);
      const [row] = await h.db.insert(categories).values({ name: "سياسة", slug: "politics", type: "news" }).returning({ id: categories.id });
      category = row.id;
    });
    afterAll(async () => {
      await h?.drop();
    });

    async function drafts(): Promise<number[]> {
      batch++;
      const rows = await h.db
        .insert(news)
        .values(
          Array.from({ length: ITEMS }, (_, i) => ({
            title: `خبر ${batch}-${i}`,
            excerpt: "مقتطف الخبر التجريبي",
            content: "<p>نص الخبر الكامل الذي يتجاوز عشرين حرفًا بكثير.</p>",
            categoryId: category,
            status: "draft" as const,
            pageSlug: `bench-${batch}-${i}`,
            publishDate: new Date(Date.now() - 86_400_000),
          })),
        )
        .returning({ id: news.id });
      return rows.map((r) => r.id);
    }

    it("times both", { timeout: 900_000 }, async () => {
      const times: Record<"without" | "with", number[]> = { without: [], with: [] };
      for (let run = 0; run < RUNS; run++) {
        for (const mode of run % 2 ? (["with", "without"] as const) : (["without", "with"] as const)) {
          const ids = await drafts();
          state.audit = mode === "with";
          const start = performance.now();
          const done = await runBulkAction(h.db, "news", { action: "publish", selection: { ids } }, editor);
          times[mode].push(performance.now() - start);
          expect(done.count).toBe(ITEMS);
        }
      }
      state.audit = true;
      const rows = await h.db.select({ n: auditLog.id }).from(auditLog);
      expect(rows).toHaveLength(RUNS);
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      console.log(
        `[bench] ${kind}: bulk publish of ${ITEMS} items — without the audit write ${times.without.map((t) => t.toFixed(0)).join("/")} ms (median ${median(times.without).toFixed(0)}), with it ${times.with.map((t) => t.toFixed(0)).join("/")} ms (median ${median(times.with).toFixed(0)})`,
      );
    });
  });
}
