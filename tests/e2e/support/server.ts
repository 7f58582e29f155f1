/**
 * Starts the built server (`node server.js`) on a free port with its own DATA_DIR, waits until /readyz
 * answers, and stops it afterwards. Used by the e2e global set-up and by tests that need a server with
 * another configuration.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export const projectRoot = path.resolve(import.meta.dirname, "../../..");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

export type RunningServer = { url: string; port: number; dataDir: string; output: () => string; stop: () => Promise<void>; process: ChildProcess };

/** Where the browser suite's global set-up keeps its prepared data folders (support/templates.ts). */
export const TEMPLATES_ENV = "SAHARA_E2E_TEMPLATES";

/**
 * A new data folder for a server: a copy of the suite's prepared one (migrated, and seeded when `seeded`) when
 * the global set-up made them, else empty and the server migrates and seeds it itself. Copying saves each
 * server PGlite's cluster creation, the migrations and the demo seed (ffmpeg included).
 */
export function newDataDir({ seeded }: { seeded: boolean }): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-e2e-"));
  const templates = process.env[TEMPLATES_ENV];
  const template = templates && path.join(templates, seeded ? "seeded" : "empty");
  if (template && fs.existsSync(template)) fs.cpSync(template, dataDir, { recursive: true });
  return dataDir;
}

export async function startServer(
  env: Record<string, string> = {},
  { timeoutMs = 240_000, entry = "server.js" }: { timeoutMs?: number; /** `scripts/start.mjs` for `npm start`'s launcher */ entry?: string } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? newDataDir({ seeded: env.SEED_DEMO !== "false" });
  let output = "";
  const child = spawn(process.execPath, [path.join(projectRoot, entry)], {
    cwd: projectRoot,
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // The browser files share two cores: a test server's event loop waits on the others' work, which is not the
      // load that should send its live readers to polling (server/http/live-stream.test.ts tests that shedding).
      LIVE_LAG_LIMIT_MS: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  if (Date.now() - started >= timeoutMs) {
    child.kill("SIGKILL");
    throw new Error(`server did not become ready:\n${output}`);
  }
  return {
    url,
    port,
    dataDir,
    process: child,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        // A process ended by a signal (a test's SIGKILL) has no exit code, only its signal.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      }),
  };
}

/** Runs the server expecting it to exit (for configuration failures); resolves with its code and output. */
export async function runServerExpectingExit(env: Record<string, string>, timeoutMs = 60_000): Promise<{ code: number | null; output: string }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-exit-"));
  return new Promise((resolve, reject) => {
    let output = "";
    const child = spawn(process.execPath, [path.join(projectRoot, "server.js")], {
      cwd: projectRoot,
      env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not exit:\n${output}`));
    }, timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
