import type { TestProject } from "vitest/node";
import { startServer, type RunningServer } from "./server.ts";
import { hasChromium, skipReason } from "./browser.ts";

let server: RunningServer | undefined;

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

/** One seeded server for the browser tests, on a fresh data folder. */
export async function setup(project: TestProject) {
  if (!hasChromium) console.warn(`\nBrowser tests skipped: ${skipReason}\n`);
  server = await startServer();
  project.provide("baseUrl", server.url);
  project.provide("dataDir", server.dataDir);
}

export async function teardown() {
  await server?.stop();
}
