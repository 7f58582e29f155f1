/**
 * Every skipped test, with why: a run's summary ends with the list, so a skip is never silent (issue 41). The
 * reason is, first, the note a test gave `ctx.skip(note)`; then a `skip reason` annotation; then the condition of
 * the `skipIf`/`runIf` that skipped it or its suite, read at the test's or suite's line and named in words for the
 * conditions the suite uses (no Chromium, no PostgreSQL, no Redis…); any other condition is quoted as written.
 *
 * With SKIP_REPORT_FILE set (scripts/test.mjs), the skips are also written there, one JSON object a line, so
 * `npm test` lists the unit and the browser runs' skips together after its last line of counts.
 */
import fs from "node:fs";
import path from "node:path";
import type { Reporter, TestCase, TestModule, TestSuite } from "vitest/node";

/** A skip condition's words, by the names the tests give their conditions. */
const CONDITIONS: [RegExp, string][] = [
  [/^!hasChromium$/, "no Chromium (CHROMIUM_PATH or /usr/bin/chromium)"],
  [/^!hasFfmpeg$/, "no ffmpeg on PATH"],
  [/^!hasVarnish$/, "no Varnish with its xkey module (apt-get install varnish varnish-modules)"],
  [/^!hasTar$/, "no GNU tar on PATH"],
  [/^!hasProc$/, "no /proc (not Linux)"],
  [/^!(process\.env\.TEST_DATABASE_URL|adminUrl|postgresUp)$/, "no PostgreSQL (TEST_DATABASE_URL unset or not answering)"],
  [/^kind === "postgres"$/, "PostgreSQL only (skipped in the embedded PGlite pass)"],
  [/^!redisUp$/, "no Redis (REDIS_URL not answering)"],
  [/^missing\.length > 0$/, "a service it needs is missing (named in its suite's title)"],
  [/^!outside$/, "no non-loopback address on this machine"],
  [/^!hasKey$/, "no storage credentials in the environment"],
  [/^process\.platform !== "linux"$/, "not Linux"],
  [/^!process\.env\.BENCH_\w+$/, "a benchmark, run on demand (its BENCH_ variable unset)"],
];

export type SkippedTest = { file: string; name: string; reason: string };

/** The words for a `skipIf(condition)` / `runIf(condition)`: each part named when known, else quoted. */
export function reasonOfCondition(kind: "skipIf" | "runIf", condition: string): string {
  // runIf(a && b) skips when a or b is false: a bare name `x` reads as skipIf(!x); the other parts (kind ===
  // "postgres") are named as what the test needs.
  const parts = condition
    .split(/\s*(?:\|\||&&)\s*/)
    .map((part) => part.trim().replace(/^\((.*)\)$/, "$1"))
    .map((part) => (kind === "runIf" && /^[\w.]+$/.test(part) ? `!${part}` : part));
  const named = parts.map((part) => CONDITIONS.find(([pattern]) => pattern.test(part))?.[1]);
  if (named.every(Boolean)) return [...new Set(named)].join(" or ");
  return `${kind}(${condition.trim()})`;
}

const sources = new Map<string, string[]>();
function lineOf(file: string, line: number): string {
  if (!sources.has(file)) sources.set(file, fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n") : []);
  return sources.get(file)![line - 1] ?? "";
}

/** The skip condition written at a test's or suite's line, if any. */
function conditionAt(file: string, line: number | undefined): string | null {
  if (!line) return null;
  const text = lineOf(file, line);
  const match = /\b(?:it|test|describe)\.(skipIf|runIf)\((.*?)\)\s*\(/.exec(text);
  if (match) return reasonOfCondition(match[1] as "skipIf" | "runIf", match[2]);
  if (/\b(?:it|test|describe)\.(skip|todo)\(/.test(text)) return "skipped in its source (.skip/.todo)";
  return null;
}

export function reasonOf(test: TestCase): string {
  const note = test.result().state === "skipped" ? (test.result() as { note?: string }).note : undefined;
  if (note) return note;
  const annotated = test.annotations().find((a) => a.type === "skip reason");
  if (annotated) return annotated.message;
  const file = test.module.moduleId;
  let node: TestCase | TestSuite | TestModule = test;
  while (node.type !== "module") {
    // A suite whose set-up failed leaves its tests skipped: that, not its (false) skip condition, is why.
    if (node.type === "suite" && node.state() === "failed") return "not run: its suite's set-up failed (see the failures above)";
    // A condition counts where it skipped: the test itself, or a suite that was skipped as a whole.
    const reason = node.type === "test" || node.state() === "skipped" ? conditionAt(file, node.location?.line) : null;
    if (reason) return reason;
    node = node.parent;
  }
  if (node.state() === "failed") return "not run: its file failed to load or set up (see the failures above)";
  return "no reason given";
}

export default class SkipReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const skipped: SkippedTest[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests("skipped")) {
        skipped.push({ file: path.relative(process.cwd(), module.moduleId), name: test.fullName, reason: reasonOf(test) });
      }
    }
    const out = process.env.SKIP_REPORT_FILE;
    if (out) fs.appendFileSync(out, skipped.map((s) => `${JSON.stringify(s)}\n`).join(""));
    if (skipped.length) console.log(`\n${formatSkips(skipped)}`);
  }
}

/** The list as the summary prints it: by reason, most skips first, each test named (file > name). */
export function formatSkips(skipped: readonly SkippedTest[]): string {
  const byReason = new Map<string, SkippedTest[]>();
  for (const s of skipped) byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), s]);
  const groups = [...byReason].sort((a, b) => b[1].length - a[1].length);
  return [
    `skipped tests (${skipped.length}), and why:`,
    ...groups.flatMap(([reason, tests]) => [`  ${reason} (${tests.length}):`, ...tests.map((t) => `    ${t.file} > ${t.name}`)]),
  ].join("\n");
}
