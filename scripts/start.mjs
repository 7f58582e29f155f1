/**
 * `npm start`: build when the sources are newer than the last build, then serve the build. The server
 * itself migrates the database and seeds demo content on first start.
 */
import { spawnSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const marker = path.join(root, process.env.BUILD_DIR ?? "build", "server", "index.js");

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

function needsBuild() {
  if (process.env.SKIP_BUILD === "1") return false;
  if (!fs.existsSync(marker)) return true;
  const built = fs.statSync(marker).mtimeMs;
  const sources = ["app", "domain", "server", "public"].map((d) => path.join(root, d)).filter((d) => fs.existsSync(d));
  const files = ["vite.config.ts", "react-router.config.ts", "package.json"].map((f) => path.join(root, f));
  const newest = Math.max(...sources.map(newestMtime), ...files.map((f) => fs.statSync(f).mtimeMs));
  return newest > built;
}

if (needsBuild()) {
  console.log("Building the site…");
  const result = spawnSync("npx", ["react-router", "build"], { cwd: root, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const child = spawn(process.execPath, [path.join(root, "server.js")], {
  cwd: root,
  stdio: "inherit",
  env: { NODE_ENV: "production", ...process.env },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
