/**
 * `npm start`: build when the sources are newer than the last build, then serve the build. The server
 * itself migrates the database (MIGRATE_ON_START) and seeds demo content on first start.
 */
import { spawnSync, spawn } from "node:child_process";
import path from "node:path";
import { buildDir, isStale, root } from "./build-state.mjs";

// The site's bundle, and the compiled command-line scripts that `npm run build` makes beside it.
const outputs = [path.join(buildDir, "server", "index.js"), path.join(buildDir, "scripts", "migrate.js")];
const sources = ["app", "domain", "server", "public", "scripts", "vite.config.ts", "vite.scripts.config.ts", "react-router.config.ts", "package.json"];

if (process.env.SKIP_BUILD !== "1" && outputs.some((output) => isStale(output, sources))) {
  console.log("Building the site…");
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const child = spawn(process.execPath, [path.join(root, "server.js")], {
  cwd: root,
  stdio: "inherit",
  env: { NODE_ENV: "production", ...process.env },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
