import { defineConfig } from "vitest/config";
import { E2E_WORKERS } from "./tests/e2e/support/worker-count.ts";

/** Browser tests: a real Chromium (playwright-core) against the built server, started once for the run. */
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.e2e.test.ts"],
    globalSetup: ["tests/e2e/support/global-setup.ts"],
    environment: "node",
    // Each file's duration, slowest first; then every skipped test and why (tests/support/skip-reporter.ts).
    reporters: ["default", "./tests/e2e/support/durations-reporter.ts", "./tests/support/skip-reporter.ts"],
    includeTaskLocation: true,
    // Upper bounds for a busy machine (the suite is checked with `stress-ng --cpu 2` beside it), not expected
    // durations: every test waits for states the page shows, so on a fast machine it finishes long before these.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // expect.poll gives up after 1 s by default: less than a client navigation takes on a loaded machine.
    expect: { poll: { timeout: 30_000 } },
    pool: "forks",
    // One seeded server per worker (support/global-setup.ts): files of a worker take turns on its server so
    // their data does not interleave, and the workers run side by side.
    fileParallelism: E2E_WORKERS > 1,
    maxWorkers: E2E_WORKERS,
  },
});
