/**
 * `npm run worker | db:migrate | seed | admin:create | user:create | backup | restore | search:reindex`: runs the command compiled by
 * `npm run build` (BUILD_DIR/scripts/<name>.js), which is all a production install has (no tsx after
 * `npm prune --omit=dev`); in a checkout whose sources are newer than that build, or never built, it runs
 * the TypeScript source through tsx instead, so a developer never runs yesterday's code. Both in this
 * process: signals and the exit code are the command's own. See docs/decisions/0118-production-runtime.md.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildDir, isStale, root } from "./build-state.mjs";

const name = process.argv[2] ?? "";
const compiled = path.join(buildDir, "scripts", `${name}.js`);
const source = path.join(root, "scripts", `${name}.ts`);
if (!/^[a-z][a-z-]*$/.test(name) || !(fs.existsSync(compiled) || fs.existsSync(source))) {
  console.error(`usage: node scripts/run.mjs <worker | migrate | seed | create-admin | create-user | backup | restore | search-reindex> [arguments]`);
  process.exit(2);
}
// The command reads its own arguments from process.argv (node:util parseArgs), as if started directly.
process.argv.splice(2, 1);

let tsx = true;
try {
  import.meta.resolve("tsx/esm/api");
} catch {
  tsx = false; // a production install: dev dependencies pruned
}
// What the compiled scripts are made from (vite.scripts.config.ts bundles server/, domain/ and scripts/).
const stale = fs.existsSync(source) && isStale(compiled, ["server", "domain", "scripts", "package.json", "vite.scripts.config.ts"]);

if (fs.existsSync(compiled) && (!stale || !tsx)) {
  if (stale) console.warn(`${name}: the sources are newer than ${path.relative(root, compiled)}; running it as built (npm run build to update it)`);
  await import(pathToFileURL(compiled).href);
} else if (tsx) {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(source).href);
} else {
  console.error(`${name}: ${path.relative(root, compiled)} is missing: run npm run build first`);
  process.exit(1);
}
