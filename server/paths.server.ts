import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

let root: string | undefined;

/**
 * The project folder (the one holding package.json), whether this code runs from source (tests, scripts)
 * or from the bundle in build/server. Migrations and static assets are found from here.
 */
export function projectRoot(): string {
  if (root) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) return (root = process.cwd());
    dir = parent;
  }
  return (root = dir);
}

export const migrationsFolder = () => path.join(projectRoot(), "drizzle");
