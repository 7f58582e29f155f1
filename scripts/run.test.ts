import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPILED_SCRIPTS } from "../vite.scripts.config.ts";
import { runNode } from "#tests/helpers/processes.ts";

const root = path.resolve(import.meta.dirname, "..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "scripts-build-"));
// Inside the project, as every build folder must be: the compiled files import their packages from its node_modules.
const buildDir = fs.mkdtempSync(path.join(root, "build-scripts-test-"));

const node = (args: string[], env: Record<string, string> = {}) => runNode(args, { cwd: root, env });

/** The embedded database in a folder of its own: the compiled commands as a one-machine site runs them. */
const pglite = { NODE_ENV: "production", DATABASE_URL: "", DATA_DIR: path.join(tmp, "data"), REDIS_URL: "", LOG_LEVEL: "warn" };

describe("the command-line scripts compiled by npm run build", () => {
  beforeAll(async () => {
    const built = await node([path.join(root, "node_modules", "vite", "bin", "vite.js"), "build", "--config", "vite.scripts.config.ts"], {
      BUILD_DIR: buildDir,
    });
    expect(built.code, built.out).toBe(0);
  });
  afterAll(() => {
    for (const dir of [tmp, buildDir]) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("are plain JavaScript in BUILD_DIR/scripts, one file per command", () => {
    for (const name of COMPILED_SCRIPTS) expect(fs.existsSync(path.join(buildDir, "scripts", `${name}.js`)), name).toBe(true);
  });

  it("run on Node alone, without tsx: db:migrate migrates the embedded database; backup and restore read their arguments", async () => {
    // No loader: a TypeScript file or a `#server/…` import left in the output would fail here.
    const migrate = path.join(buildDir, "scripts", "migrate.js");
    const first = await node([migrate], pglite);
    expect(first.code, first.out).toBe(0);
    expect(first.out).toMatch(/db:migrate: applied 0000_initial/);
    expect(first.out).toMatch(/search triggers made or dropped/);
    const help = await node([path.join(buildDir, "scripts", "backup.js"), "--help"], pglite);
    expect(help).toMatchObject({ code: 0, out: expect.stringMatching(/usage: npm run backup/) as unknown });
    // Through the launcher npm runs, which hands the command its own arguments.
    const viaLauncher = await node([path.join(root, "scripts", "run.mjs"), "restore", "--help"], { ...pglite, BUILD_DIR: buildDir });
    expect(viaLauncher).toMatchObject({ code: 0, out: expect.stringMatching(/usage: npm run restore -- <backup.tar.gz>/) as unknown });
  });
});
