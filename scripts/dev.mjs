import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const child = spawn(process.execPath, [path.join(root, "server.js"), "--dev"], {
  cwd: root,
  stdio: "inherit",
  env: { NODE_ENV: "development", ...process.env },
});
child.on("exit", (code) => process.exit(code ?? 0));
