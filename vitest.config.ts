import { defineConfig } from "vitest/config";
import os from "node:os";

export default defineConfig({
  test: {
    include: ["app/**/*.test.ts", "domain/**/*.test.ts", "server/**/*.test.ts", "scripts/**/*.test.ts", "tests/integration/**/*.test.ts"],
    environment: "node",
    setupFiles: ["tests/support/fresh-read-cache.ts"],
    // The summary ends with every skipped test and why (the reporter reads skipIf/runIf at the test's line).
    reporters: ["default", "./tests/support/skip-reporter.ts"],
    includeTaskLocation: true,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Vitest's default leaves one core to itself (one worker on a 2-core machine), but these files mostly wait on
    // databases, servers and ffmpeg: one worker per core runs them side by side.
    maxWorkers: Number(process.env.UNIT_WORKERS) || os.availableParallelism(),
  },
});
