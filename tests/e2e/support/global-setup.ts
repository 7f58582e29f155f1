import type { TestProject } from "vitest/node";
import { startServer, type RunningServer } from "./server.ts";
import { hasChromium, skipReason } from "./browser.ts";
import { E2E_WORKERS } from "./worker-count.ts";

const servers: RunningServer[] = [];

declare module "vitest" {
  export interface ProvidedContext {
    baseUrls: string[];
    dataDirs: string[];
  }
}

/**
 * One seeded server per test worker, each on its own data folder: files of one worker take turns on its
 * server (their data never interleave), and the workers run side by side.
 */
export async function setup(project: TestProject) {
  if (!hasChromium) console.warn(`\nBrowser tests skipped: ${skipReason}\n`);
  servers.push(...(await Promise.all(Array.from({ length: E2E_WORKERS }, () => startServer()))));
  project.provide(
    "baseUrls",
    servers.map((s) => s.url),
  );
  project.provide(
    "dataDirs",
    servers.map((s) => s.dataDir),
  );
}

export async function teardown() {
  await Promise.all(servers.map((s) => s.stop()));
}
