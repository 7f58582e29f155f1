/**
 * Whether a build is older than what it was made from: `npm start` builds again, and scripts/run.mjs runs a
 * command from its TypeScript source rather than from a build that no longer matches it.
 */
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
