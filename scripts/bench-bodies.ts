/**
 * Bounded input, for `npm run bench`: 20 concurrent chunked bodies of 200 MB each (no Content-Length, so
 * nothing can be refused before reading) sent to the account forms and better-auth's API, and the server's
 * resident memory at its peak against its idle memory in the same run, as a ratio (1.00 = no growth). Each
 * body must be answered 413 and cut off well before its end (docs/decisions/0107-bounded-input.md).
 */
import { startServer } from "#tests/e2e/support/server.ts";
import { memoryOf, resetPeakMemory, sendChunked } from "#tests/helpers/raw-http.ts";

const MB = 1024 * 1024;
const BODIES = Number(process.env.BENCH_BODIES ?? 20);
const BODY_MB = Number(process.env.BENCH_BODY_MB ?? 200);
const ROUTES = ["/auth", "/auth/forgot", "/auth/reset", "/setup", "/auth/sign-out", "/language", "/api/auth/sign-in/email"];

export async function benchBodies() {
  // The demo content seeded, as a site in use: its idle memory is the baseline.
  const server = await startServer({ LOG_LEVEL: "warn" });
  try {
    const pid = server.process.pid!;
    for (const path of ["/", "/news", "/auth", "/setup"]) await (await fetch(server.url + path)).arrayBuffer();
    const idle = memoryOf(pid).rss;
    const resetWorked = resetPeakMemory(pid);
    let sampled = idle;
    const sampler = setInterval(() => (sampled = Math.max(sampled, memoryOf(pid).rss)), 10);
    const started = performance.now();
    let answers;
    try {
      answers = await Promise.all(
        Array.from({ length: BODIES }, (_, i) => sendChunked(server.port, ROUTES[i % ROUTES.length], BODY_MB * MB, { Origin: server.url })),
      );
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - started) / 1000;
    const peak = Math.max(sampled, resetWorked ? memoryOf(pid).peak : 0);
    const refused = answers.filter((a) => a.status === 413).length;
    const sentMb = answers.reduce((sum, a) => sum + a.sent, 0) / answers.length / MB;
    console.log(`\n${BODIES} concurrent ${BODY_MB} MB chunked bodies to the account forms and /api/auth (${ROUTES.length} routes), against the idle server`);
    console.log(`server memory     idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB   ratio to idle ${(peak / idle).toFixed(3)}`);
    console.log(
      `answers           ${refused} of ${BODIES} refused with 413; each body cut after ${sentMb.toFixed(1)} MB on average (of ${BODY_MB}), in ${seconds.toFixed(1)} s`,
    );
    if (refused !== BODIES) console.log(`statuses: ${answers.map((a) => a.status ?? a.ended).join(", ")}`);
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchBodies();
