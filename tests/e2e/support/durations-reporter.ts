/**
 * Prints each browser test file's time, slowest first, at the end of the run, so that a file growing slow is seen
 * in every run's output (`npm test`, `npm run test:e2e`, or vitest with vitest.e2e.config.ts). The time is the
 * file's import plus its tests and hooks (a file's beforeAll often starts a server of its own); the shared server
 * of global-setup is outside every file.
 */
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

export default class DurationsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const rows = testModules
      .map((module) => {
        const d = module.diagnostic();
        return {
          name: path.relative(process.cwd(), module.moduleId),
          seconds: (d.collectDuration + d.setupDuration + d.duration) / 1000,
          tests: [...module.children.allTests()].length,
          ok: module.ok(),
        };
      })
      .sort((a, b) => b.seconds - a.seconds);
    if (!rows.length) return;
    const total = rows.reduce((sum, r) => sum + r.seconds, 0);
    const lines = [`\nbrowser test files by duration: ${rows.length} files, ${total.toFixed(1)} s in all, slowest first`];
    for (const r of rows) lines.push(`${r.seconds.toFixed(1).padStart(8)} s  ${String(r.tests).padStart(3)} tests  ${r.ok ? "  " : "✗ "}${r.name}`);
    console.log(lines.join("\n"));
  }
}
