/**
 * What the bench sections share: autocannon's programmatic API with the types it does not ship, a process's CPU
 * time, and percentiles — one copy each (scripts/bench-*.ts).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";

export type AutocannonRequest = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
export type AutocannonResult = {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  "2xx": number;
  statusCodeStats: Record<string, { count: number }>;
};
/** The part of autocannon's API the sections use; `Context` is each connection's own state (initialContext). */
export type Autocannon = <Context extends object = object>(opts: {
  url: string;
  connections: number;
  duration: number;
  workers?: number;
  headers?: Record<string, string>;
  initialContext?: Context;
  requests?: (AutocannonRequest & {
    setupRequest?: (req: AutocannonRequest & { headers: Record<string, string> }, context: Context) => AutocannonRequest;
    onResponse?: (status: number, body: string, context: Context, headers: Record<string, string | string[]>) => void;
  })[];
}) => Promise<AutocannonResult>;

export const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU time of a process so far, in seconds (/proc/<pid>/stat fields 14 and 15). */
export function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** The p-th percentile of ascending values (nearest rank). */
export const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
