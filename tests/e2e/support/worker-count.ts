import os from "node:os";

/**
 * How many browser test files run at once (E2E_WORKERS, default: one per core, at least 1, at most 4). Each
 * worker has its own server; more than the cores only makes every file slower. Read by the vitest config and
 * the global set-up, so it has no test-runner import.
 */
export const E2E_WORKERS = Math.max(1, Math.min(4, Number(process.env.E2E_WORKERS) || os.availableParallelism()));
