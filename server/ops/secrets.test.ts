import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkConfig } from "#server/config.server.ts";
import { AuthSecretError, authSecret, authSecretUsable } from "./secrets.server.ts";

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "secret-"));
const configFor = (dataDir: string, env: Record<string, string> = {}) => checkConfig({ DATA_DIR: dataDir, ...env }).config;
const secretFile = (dataDir: string) => path.join(dataDir, ".auth-secret");
const leftovers = (dataDir: string) => fs.readdirSync(dataDir).filter((f) => f !== ".auth-secret");
const isRoot = process.getuid?.() === 0;

/** Runs `code` in another Node process with checkConfig and authSecret in scope; resolves with its output. */
function inChild(code: string, { unprivileged = false } = {}): Promise<string> {
  const modules = { config: new URL("../config.server.ts", import.meta.url).href, secrets: new URL("./secrets.server.ts", import.meta.url).href };
  const script =
    `const { checkConfig } = await import(${JSON.stringify(modules.config)});` +
    `const { authSecret } = await import(${JSON.stringify(modules.secrets)});` +
    code;
  // As root the folder's permissions would not apply: the child runs as nobody (65534) then.
  const user = unprivileged && isRoot ? { uid: 65534, gid: 65534 } : {};
  return new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, LOG_LEVEL: "silent" },
      ...user,
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    // Node itself out of the user's reach (installed under a closed home) fails here at once, not by time-out.
    child.once("error", (error) => reject(new Error(`cannot start ${process.execPath}${unprivileged ? " as an unprivileged user" : ""}: ${error.message}`)));
    child.once("exit", (status) => (status === 0 ? resolve(out) : reject(new Error(`exit ${status}: ${err}`))));
  });
}

/** Whether user 65534 can read `file` (every parent folder open to others). */
function readableByNobody(file: string): boolean {
  const probe = spawnSync(process.execPath, ["-e", `require("node:fs").accessSync(${JSON.stringify(file)}, 4)`], { uid: 65534, gid: 65534 });
  return probe.status === 0;
}

describe("the generated auth secret", () => {
  it("is generated once, kept readable by the owner only, and read back on every call", () => {
    const dataDir = tempDir();
    const config = configFor(dataDir);
    const secret = authSecret(config);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(fs.readFileSync(secretFile(dataDir), "utf8")).toBe(secret);
    expect(fs.statSync(secretFile(dataDir)).mode & 0o777).toBe(0o600);
    expect(authSecret(config)).toBe(secret);
    expect(leftovers(dataDir)).toEqual([]);
  });

  it("never uses an empty or truncated file: a new secret replaces it", () => {
    for (const damaged of ["", "\n", "Zr4k9_short-0123456789"]) {
      const dataDir = tempDir();
      fs.writeFileSync(secretFile(dataDir), damaged);
      const secret = authSecret(configFor(dataDir));
      expect(secret).toMatch(/^[A-Za-z0-9_-]{64}$/);
      expect(secret.startsWith(damaged.trim()) && damaged.trim() !== "").toBe(false);
      expect(fs.readFileSync(secretFile(dataDir), "utf8")).toBe(secret);
      expect(leftovers(dataDir)).toEqual([]);
    }
  });

  it("keeps a secret of 32 characters or more that someone put there", () => {
    const dataDir = tempDir();
    const own = "an-operator-chosen-secret-of-40-chars-xx";
    fs.writeFileSync(secretFile(dataDir), `${own}\n`);
    expect(authSecret(configFor(dataDir))).toBe(own);
  });

  it("uses BETTER_AUTH_SECRET when set, and writes nothing", () => {
    const dataDir = tempDir();
    const set = "b".repeat(40);
    expect(authSecret(configFor(dataDir, { BETTER_AUTH_SECRET: set }))).toBe(set);
    expect(fs.existsSync(secretFile(dataDir))).toBe(false);
  });

  it("refuses loudly, leaving nothing behind, when it cannot be stored", () => {
    // A data folder that cannot hold files (a path through a file: ENOTDIR, whoever runs the test).
    const file = path.join(tempDir(), "not-a-folder");
    fs.writeFileSync(file, "");
    const config = configFor(path.join(file, "data"));
    expect(() => authSecret(config)).toThrow(AuthSecretError);
    expect(() => authSecret(config)).toThrow(
      /auth secret in .*\.auth-secret \(ENOTDIR\)\. Free space in DATA_DIR, make it writable, or set BETTER_AUTH_SECRET/,
    );
    expect(authSecretUsable(config)).toBe(false);
  });

  it("refuses an empty secret in a read-only folder instead of using it (as an unprivileged user: permissions do not bind root)", async (ctx) => {
    // The unprivileged child must read the project's modules: a checkout inside a folder only root may enter
    // (a `mktemp -d` clone, mode 700) cannot be run by it, whatever the code does.
    if (isRoot && !readableByNobody(path.resolve(import.meta.dirname, "../../package.json"))) {
      ctx.skip("the project's folder cannot be read by an unprivileged user (a parent folder is closed to others)");
    }
    const dataDir = tempDir();
    fs.writeFileSync(secretFile(dataDir), "");
    fs.chmodSync(dataDir, 0o555);
    const answer = await inChild(
      `try { authSecret(checkConfig({ DATA_DIR: ${JSON.stringify(dataDir)} }).config); process.stdout.write("used"); } catch (e) { process.stdout.write(e.code + ": " + e.message); }`,
      {
        unprivileged: true,
      },
    );
    fs.chmodSync(dataDir, 0o755);
    expect(answer).toMatch(/^AUTH_SECRET_UNUSABLE: Could not store the auth secret .*\(EACCES\)/);
    expect(fs.readFileSync(secretFile(dataDir), "utf8")).toBe("");
  });

  it("gives processes starting together on a fresh folder the same secret", async () => {
    const dataDir = tempDir();
    const run = () => inChild(`process.stdout.write(authSecret(checkConfig({ DATA_DIR: ${JSON.stringify(dataDir)} }).config));`);
    const secrets = await Promise.all([run(), run(), run(), run()]);
    expect(new Set(secrets).size).toBe(1);
    expect(fs.readFileSync(secretFile(dataDir), "utf8")).toBe(secrets[0]);
    expect(leftovers(dataDir)).toEqual([]);
  });
});
