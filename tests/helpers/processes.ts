/** A process of ours (server.js, a compiled script) run to its end as an operator or a process manager runs it. */
import { spawn } from "node:child_process";

export function runNode(args: string[], { cwd, env = {} }: { cwd: string; env?: Record<string, string> }) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("close", (code) => resolve({ code, out }));
  });
}
