/**
 * `npm start` (scripts/start.mjs) starts the web process with memory bounds Node and glibc read only at start
 * (V8's old space and young generation, two malloc arenas; docs/operations.md, "Memory"), unless the operator's
 * environment already sets them, which it keeps as they are. Read from the started process's own environment.
 */
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "#tests/e2e/support/server.ts";

/** The environment of the process `npm start` started (the launcher's only child). */
function serverEnvironment(launcher: number): Map<string, string> {
  const [child] = fs.readFileSync(`/proc/${launcher}/task/${launcher}/children`, "utf8").trim().split(/\s+/);
  const entries = fs.readFileSync(`/proc/${child}/environ`, "utf8").split("\0").filter(Boolean);
  return new Map(entries.map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]));
}

describe.skipIf(process.platform !== "linux")("npm start's memory bounds", () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.stop();
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
    server = undefined;
  });

  it("bounds V8's heap and malloc's arenas by default", async () => {
    const env: Record<string, string> = { SKIP_BUILD: "1", NODE_OPTIONS: "", MALLOC_ARENA_MAX: "" };
    server = await startServer(env, { entry: "scripts/start.mjs" });
    const started = serverEnvironment(server.process.pid!);
    expect(started.get("NODE_OPTIONS")).toBe("--max-old-space-size=256 --max-semi-space-size=8");
    expect(started.get("MALLOC_ARENA_MAX")).toBe("2");
    expect((await fetch(server.url + "/")).status).toBe(200);
  });

  it("keeps the operator's own bounds", async () => {
    server = await startServer(
      { SKIP_BUILD: "1", NODE_OPTIONS: "--max-old-space-size=384 --enable-source-maps", MALLOC_ARENA_MAX: "4" },
      { entry: "scripts/start.mjs" },
    );
    const started = serverEnvironment(server.process.pid!);
    expect(started.get("NODE_OPTIONS")).toBe("--max-old-space-size=384 --enable-source-maps");
    expect(started.get("MALLOC_ARENA_MAX")).toBe("4");
  });
});
