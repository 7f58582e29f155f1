import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startServer, TEMPLATES_ENV, type RunningServer } from "./server.ts";
import { prepareTemplates } from "./templates.ts";
import { hasChromium, skipReason } from "./browser.ts";
import { E2E_WORKERS } from "./worker-count.ts";

const servers: RunningServer[] = [];
let templates: string | undefined;

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
  // Made before the workers start, so they inherit the variable with the rest of the environment.
  templates = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-e2e-templates-"));
  await prepareTemplates(templates);
  process.env[TEMPLATES_ENV] = templates;
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
  if (templates) fs.rmSync(templates, { recursive: true, force: true });
}
