/**
 * `npm start`: build when the sources are newer than the last build (quietly: a line when it starts, one every
 * few seconds while it runs, its output only when it fails), then serve the build. The server itself migrates
 * the database (MIGRATE_ON_START), seeds demo content on first start, says each step as it begins, and prints
 * the first start's set-up link last, framed (server.js).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { buildDir, isStale, root, runQuietly } from "./build-state.mjs";

// The site's bundle, and the compiled command-line scripts that `npm run build` makes beside it.
const outputs = [path.join(buildDir, "server", "index.js"), path.join(buildDir, "scripts", "migrate.js")];
const sources = ["app", "domain", "server", "public", "scripts", "vite.config.ts", "vite.scripts.config.ts", "react-router.config.ts", "package.json"];

if (process.env.SKIP_BUILD !== "1" && outputs.some((output) => isStale(output, sources))) {
  // The build's own hundred lines are shown only when it fails: on a good day they would bury the lines that
  // matter, the first start's set-up link above all (issue 46).
  console.log("Building the site (its sources are newer than the last build; a minute or two)…");
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const result = await runQuietly(npm, ["run", "build"], { label: "building", env: { ...process.env, NODE_ENV: "production" } });
  if (result.code !== 0) {
    process.stderr.write(result.output);
    console.error(`The build failed (exit code ${result.code}); its output is above.`);
    process.exit(result.code);
  }
  console.log(`Built in ${result.seconds} s. Starting the server…`);
} else {
  console.log("Starting the server…");
}

// Memory bounds that Node and glibc read only when a process starts, so they cannot be settings of the config
// module: V8's old space (256 MB; at 160 MB the process spends its time collecting garbage), a small young
// generation, and two malloc arenas instead of eight per core (docs/operations.md, "Memory"). Each is the
// operator's to change: a NODE_OPTIONS that already bounds the old space, or a MALLOC_ARENA_MAX, is kept as it is.
const memoryBounds = {};
if (!/--max-old-space-size\b/.test(process.env.NODE_OPTIONS ?? ""))
  memoryBounds.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --max-old-space-size=256 --max-semi-space-size=8`.trim();
if (!process.env.MALLOC_ARENA_MAX) memoryBounds.MALLOC_ARENA_MAX = "2";

const child = spawn(process.execPath, [path.join(root, "server.js")], {
  cwd: root,
  stdio: "inherit",
  env: { NODE_ENV: "production", ...process.env, ...memoryBounds },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
