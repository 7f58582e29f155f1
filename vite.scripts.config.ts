/**
 * The second half of `npm run build`: the command-line entry points compiled to plain JavaScript in
 * BUILD_DIR/scripts, so that a production install (`npm prune --omit=dev`) runs them without tsx
 * (docs/decisions/0118-production-runtime.md). An SSR build: packages stay imports of node_modules, our
 * own modules (`#server/…`, `#domain/…`) are bundled; the entries share their common code as chunks.
 * `scripts/run.mjs` starts them.
 */
import path from "node:path";
import { defineConfig } from "vite";

/** The entry points `npm run <name>` starts through scripts/run.mjs (file name without .ts). */
export const COMPILED_SCRIPTS = ["worker", "migrate", "seed", "create-admin", "create-user", "backup", "restore", "search-reindex"];

export default defineConfig({
  // Nothing of the browser side: no public folder to copy, no .env files (the scripts read the environment at run time).
  publicDir: false,
  envDir: false,
  logLevel: "warn",
  build: {
    ssr: true,
    outDir: path.join(process.env.BUILD_DIR || "build", "scripts"),
    emptyOutDir: true,
    target: "node24",
    sourcemap: false,
    // Kept readable: a stack trace of a failed backup or migration points at code an operator can read.
    minify: false,
    reportCompressedSize: false,
    rollupOptions: {
      input: Object.fromEntries(COMPILED_SCRIPTS.map((name) => [name, `scripts/${name}.ts`])),
      output: { entryFileNames: "[name].js", chunkFileNames: "chunks/[name]-[hash].js" },
    },
  },
});
