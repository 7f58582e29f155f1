/**
 * The operations fault tests' own way to run the built server: like support/server.ts, but the process can
 * be started through `sh -c '…; exec node server.js'` (so a lock can name the server's own pid before it
 * starts) or as an unprivileged user (so file permissions bind it), and it can be killed with SIGKILL.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, projectRoot } from "#tests/e2e/support/server.ts";

export type OpsServer = {
  url: string;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  /** SIGKILL: no clean-up runs, the lock file and the database stay as they were. */
  kill: () => Promise<void>;
  stop: () => Promise<void>;
};

export type OpsServerOptions = {
  dataDir?: string;
  env?: Record<string, string>;
  /** Shell commands run in the server's own process before `exec node server.js` ($$ is the server's pid). */
  before?: string;
  /** Runs the server as this user (the test runs as root: permissions only bind someone else). */
  user?: { uid: number; gid: number };
  /** Waits for /readyz 200; off for servers expected to fail. */
  waitReady?: boolean;
};

export async function startOpsServer({ dataDir, env = {}, before, user, waitReady = true }: OpsServerOptions = {}): Promise<OpsServer> {
  const port = await freePort();
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "sahara-ops-"));
  const serverEnv = {
    ...process.env,
    NODE_ENV: "production",
    LOG_LEVEL: "info",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SEED_DEMO: "false",
    ...env,
  };
  const child = before
    ? spawn("sh", ["-c", `${before}\nexec "$NODE_BIN" server.js`], {
        cwd: projectRoot,
        env: { ...serverEnv, NODE_BIN: process.execPath },
        stdio: ["ignore", "pipe", "pipe"],
        ...user,
      })
    : spawn(process.execPath, [path.join(projectRoot, "server.js")], { cwd: projectRoot, env: serverEnv, stdio: ["ignore", "pipe", "pipe"], ...user });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const ended = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const server: OpsServer = {
    url,
    dataDir: dir,
    process: child,
    output: () => output,
    kill: async () => {
      if (exited()) return;
      child.kill("SIGKILL");
      await ended;
    },
    stop: async () => {
      if (exited()) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await ended;
      clearTimeout(timer);
    },
  };
  if (waitReady) {
    const deadline = Date.now() + 240_000;
    for (;;) {
      if (exited()) throw new Error(`server exited with ${child.exitCode ?? child.signalCode}:\n${output}`);
      if (Date.now() > deadline) {
        await server.kill();
        throw new Error(`server did not become ready:\n${output}`);
      }
      const ready = await fetch(`${url}/readyz`).then(
        (res) => res.ok,
        () => false,
      );
      if (ready) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return server;
}

/** The user tests run servers as when they need permissions to bind (nobody), or none when not root. */
export const unprivilegedUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;

/** Makes a tree owned by `user` (so an unprivileged server can use it). */
export function chownTree(dir: string, user: { uid: number; gid: number } | undefined) {
  if (!user) return;
  fs.chownSync(dir, user.uid, user.gid);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(p, user);
    else fs.lchownSync(p, user.uid, user.gid);
  }
}

/** Session cookie and API calls as a browser would make them (same-origin Origin header). */
export async function apiCall(base: string, method: string, pathname: string, { cookie, body }: { cookie?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = { origin: base };
  if (cookie) headers.cookie = cookie;
  if (body !== undefined) headers["content-type"] = "application/json";
  return fetch(base + pathname, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: "manual" });
}
