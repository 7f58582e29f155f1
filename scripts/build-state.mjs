/**
 * Whether a build is older than what it was made from: `npm start` builds again, and scripts/run.mjs runs a
 * command from its TypeScript source rather than from a build that no longer matches it. And how `npm start`
 * runs that build: quietly (runQuietly).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..");
export const buildDir = path.resolve(root, process.env.BUILD_DIR || "build");

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * True when `output` is missing, or older than a file under `sources` (folders and files of the project).
 * Sources that do not exist (a production copy without tests, say) are left out.
 */
export function isStale(output, sources) {
  if (!fs.existsSync(output)) return true;
  const built = fs.statSync(output).mtimeMs;
  for (const source of sources.map((s) => path.join(root, s))) {
    if (!fs.existsSync(source)) continue;
    const newest = fs.statSync(source).isDirectory() ? newestMtime(source) : fs.statSync(source).mtimeMs;
    if (newest > built) return true;
  }
  return false;
}

/**
 * Runs a command with its output held back (a build prints a hundred lines nobody needs on a good day): every
 * `every` ms `say` is told it is still going, so a long step never looks like a hang; the output is answered,
 * for the caller to show when the command failed. Resolves with the exit code (1 when it could not start).
 */
export function runQuietly(command, args, { label, cwd = root, env = process.env, every = 15_000, say = (line) => console.log(line) } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const seconds = () => Math.round((Date.now() - started) / 1000);
    const chunks = [];
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (d) => chunks.push(d));
    child.stderr.on("data", (d) => chunks.push(d));
    const timer = setInterval(() => say(`  … still ${label} (${seconds()} s)`), every);
    let settled = false;
    const settle = (code, extra = "") => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      resolve({ code, output: Buffer.concat(chunks).toString() + extra, seconds: seconds() });
    };
    child.on("error", (error) => settle(1, String(error?.message ?? error)));
    child.on("close", (code) => settle(code ?? 1));
  });
}
