/**
 * `npm test`: every check, in order — type-check, unit and integration tests (PGlite, and PostgreSQL
 * when TEST_DATABASE_URL is set), the production build, then the browser tests against that build.
 * Ends with the skipped tests and why (tests/support/skip-reporter.ts), then one summary line, "tests: N passed,
 * N failed, N skipped".
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
// Node 24 runs the TypeScript module as it is (its types are stripped): the reporter's own list format.
import { formatSkips } from "../tests/support/skip-reporter.ts";

const root = path.resolve(import.meta.dirname, "..");
const reports = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-test-"));
const totals = { passed: 0, failed: 0, skipped: 0 };
// Both runs' skip reporters append here: one JSON object a line, { file, name, reason }.
const skipReport = path.join(reports, "skipped.jsonl");
let failedSteps = [];
// Failed tests are named again in the summary: a CI log is often read from its tail only.
const failedTests = [];

/** A step in the foreground: its output goes straight to the terminal. Asynchronous, so steps beside it keep draining their output. */
function run(name, command, args, env = {}) {
  console.log(`\n━━ ${name}: ${command} ${args.join(" ")}`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
    child.on("close", (status) => {
      console.log(`━━ ${name}: ${status === 0 ? "ok" : `failed (exit ${status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      if (status !== 0) failedSteps.push(name);
      resolve(status === 0);
    });
  });
}

/**
 * A step run beside another: its output is kept and printed in one block when it ends, so it does not
 * interleave with the step running in the foreground.
 */
function runBeside(name, command, args, env = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    let output = "";
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env } });
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (status) => {
      console.log(`\n━━ ${name}: ${command} ${args.join(" ")} (beside the tests)\n${output.trimEnd()}`);
      console.log(`━━ ${name}: ${status === 0 ? "ok" : `failed (exit ${status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      if (status !== 0) failedSteps.push(name);
      resolve(status === 0);
    });
  });
}

function readReport(reportFile) {
  try {
    return JSON.parse(fs.readFileSync(reportFile, "utf8"));
  } catch {
    return null; // the step failed before writing its report; the failed step is reported below
  }
}

function count(report) {
  if (!report) return;
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += report.numFailedTests ?? 0;
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const file of report.testResults ?? []) {
    const failed = (file.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failed) {
      const reason = String(test.failureMessages?.[0] ?? "")
        .split("\n")[0]
        .slice(0, 300);
      failedTests.push(`${path.relative(root, file.name)} > ${test.fullName}\n    ${reason}`);
    }
    // a file that failed outside any test (an import, a hook) has no failed test to name
    if (!failed.length && file.status === "failed")
      failedTests.push(
        `${path.relative(root, file.name)}\n    ${String(file.message ?? "")
          .split("\n")[0]
          .slice(0, 300)}`,
      );
  }
}

/** Every skipped test of both runs, by reason. */
function printSkips() {
  if (!fs.existsSync(skipReport)) return;
  const skipped = fs
    .readFileSync(skipReport, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  if (skipped.length) console.log(formatSkips(skipped));
}

const only = process.argv[2];

// Secret values present while building and serving, so the browser-side leak check has something to find.
const buildSecrets = {
  BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET ?? "test-only-auth-secret-7c1d9e2f4a6b8c0d1e3f5a7b",
  BUNNY_STORAGE_API_KEY: process.env.BUNNY_STORAGE_API_KEY ?? "test-only-storage-key-5e8f1a",
  BUNNY_STREAM_API_KEY: process.env.BUNNY_STREAM_API_KEY ?? "test-only-stream-key-9b2c4d",
  S3_SECRET_ACCESS_KEY: process.env.S3_SECRET_ACCESS_KEY ?? "test-only-s3-secret-3a7e6f",
  // The social feed configured against a Graph host that refuses connections: its page token is scanned for like
  // the other secrets, and every page must render while Facebook is unreachable (tests/e2e/social has a working one).
  FACEBOOK_PAGE_ID: process.env.FACEBOOK_PAGE_ID ?? "104857600123",
  FACEBOOK_PAGE_TOKEN: process.env.FACEBOOK_PAGE_TOKEN ?? "test-only-facebook-page-token-4f8a2c9e1b7d",
  FACEBOOK_GRAPH_URL: process.env.FACEBOOK_GRAPH_URL ?? "http://127.0.0.1:1",
};
const vitest = path.join(root, "node_modules", "vitest", "vitest.mjs");

// The whole production build: the site and the compiled command-line scripts (vite.scripts.config.ts).
const buildStep = () => runBeside("build", "npm", ["run", "build"], { NODE_ENV: "production", ...buildSecrets });
// In a full run the type-check and the build go beside the unit tests, which spend much of their time waiting
// on databases, servers and ffmpeg; the browser tests need the build and start after both.
const typecheck = !only || only === "typecheck" ? runBeside("type-check", "sh", ["-c", "npx react-router typegen && npx tsc"]) : Promise.resolve(true);
const build = !only ? buildStep() : only === "e2e" ? undefined : Promise.resolve(false);
if (!only || only === "unit") {
  const file = path.join(reports, "unit.json");
  await run(
    "unit and integration tests",
    process.execPath,
    [vitest, "run", "--reporter=default", "--reporter=./tests/support/skip-reporter.ts", "--reporter=json", `--outputFile.json=${file}`],
    { NODE_ENV: "test", SKIP_REPORT_FILE: skipReport },
  );
  count(readReport(file));
}
await typecheck;
if (!only || only === "e2e") {
  const built = await (build ?? buildStep());
  if (built) {
    const file = path.join(reports, "e2e.json");
    await run(
      "browser tests",
      process.execPath,
      [
        vitest,
        "run",
        "--config",
        "vitest.e2e.config.ts",
        "--reporter=default",
        // each file's duration, slowest first (tests/e2e/support/durations-reporter.ts)
        "--reporter=./tests/e2e/support/durations-reporter.ts",
        "--reporter=./tests/support/skip-reporter.ts",
        "--reporter=json",
        `--outputFile.json=${file}`,
      ],
      { ...buildSecrets, SKIP_REPORT_FILE: skipReport },
    );
    count(readReport(file));
  }
}

console.log("");
printSkips();
if (failedTests.length) console.log(`failed tests:\n  ${failedTests.join("\n  ")}`);
if (failedSteps.length) console.log(`failed steps: ${[...new Set(failedSteps)].join(", ")}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length ? 1 : 0);
