import os from "node:os";

/**
 * How many browser test files run at once (E2E_WORKERS, default: one more than the cores, at most 4). Each
 * worker has its own server. A browser test mostly waits (navigations, hydration, a scheduled item coming due,
 * a video being processed): measured alone, the newsroom files kept a third of one core busy, so a worker
 * beyond the cores fills time the others leave idle. Read by the vitest config and the global set-up, so it
 * has no test-runner import.
 */
export const E2E_WORKERS = Math.max(1, Math.min(4, Number(process.env.E2E_WORKERS) || os.availableParallelism() + 1));
