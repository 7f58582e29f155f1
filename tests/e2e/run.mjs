/**
 * `npm run test:e2e`: the production build, then the browser tests, with the per-file durations and the summary
 * line of `npm test` — the same step, from scripts/test.mjs, not a second runner.
 */
process.argv[2] = "e2e";
await import("../../scripts/test.mjs");
