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

  // Eight processes, each opening the embedded database: its WebAssembly start takes seconds on a loaded 2-core machine.
  it("user:create makes a confirmed writer, editor or administrator, refuses a bad role, e-mail or password clearly, and admin:create still works", async () => {
    const userCreate = path.join(buildDir, "scripts", "create-user.js");
    const bad = await node([userCreate, "--email", "not-an-address", "--password", "short", "--role", "boss"], pglite);
    expect(bad.code, bad.out).toBe(2);
    expect(bad.out).toMatch(/role: unknown role "boss" \(one of writer\|editor\|admin\)/);
    expect(bad.out).toMatch(/email: Invalid e-mail address/);
    expect(bad.out).toMatch(/password: The password must be at least 8 characters/);
    expect(bad.out).toMatch(/usage: npm run user:create -- --email <address> --password <password> --role writer\|editor\|admin/);
    const noRole = await node([userCreate, "--email", "writer@example.org", "--password", "Passw0rd-w"], pglite);
    expect(noRole.code, noRole.out).toBe(2);
    expect(noRole.out).toMatch(/--role is required/);
    const weak = await node([userCreate, "--email", "writer@example.org", "--password", "alllowercase1", "--role", "writer"], pglite);
    expect(weak.code, weak.out).toBe(2);
    expect(weak.out).toMatch(/^password: /m);
    // A new account without a password cannot sign in: refused, exit code 1.
    const noPassword = await node([userCreate, "--email", "nobody@example.org", "--role", "editor"], pglite);
    expect(noPassword.code, noPassword.out).toBe(1);
    expect(noPassword.out).toMatch(/user:create failed: a new editor needs --password/);
    // Through the launcher npm runs, as an operator types it.
    const launcher = path.join(root, "scripts", "run.mjs");
    const writer = await node([launcher, "create-user", "--email", "Writer@Example.org", "--password", "Passw0rd-w", "--role", "writer"], {
      ...pglite,
      BUILD_DIR: buildDir,
    });
    expect(writer.code, writer.out).toBe(0);
    expect(writer.out).toMatch(/user:create: writer@example\.org created as a confirmed writer \(content\.write\)/);
    expect(writer.out).not.toContain("Passw0rd-w");
    const promoted = await node([launcher, "create-user", "--email", "writer@example.org", "--role", "editor"], { ...pglite, BUILD_DIR: buildDir });
    expect(promoted.code, promoted.out).toBe(0);
    expect(promoted.out).toMatch(
      /writer@example\.org updated as a confirmed editor \(content\.write, content\.delete, content\.publish, content\.others, tags\.manage/,
    );
    const admin = await node([userCreate, "--email", "owner@example.org", "--password", "Passw0rd-a", "--role", "admin"], pglite);
    expect(admin.out).toMatch(/owner@example\.org created as a confirmed admin \(every permission\)/);
    const alias = await node([path.join(buildDir, "scripts", "create-admin.js"), "--email", "owner@example.org"], pglite);
    expect(alias).toMatchObject({ code: 0, out: expect.stringMatching(/owner@example\.org is now a confirmed administrator/) as unknown });
  }, 180_000);
});
