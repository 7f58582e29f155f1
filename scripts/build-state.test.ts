/**
 * How `npm start` runs its build (scripts/build-state.mjs runQuietly, issue 46): the command's output is held
 * back and answered, so the launcher shows it only when the build fails; a command that cannot start fails.
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain JavaScript module of the launcher, without types.
import { runQuietly } from "./build-state.mjs";

type Run = { code: number; output: string; seconds: number };
const run = runQuietly as (command: string, args: string[], options: { label: string; say: (line: string) => void }) => Promise<Run>;

describe("runQuietly", () => {
  it("holds a successful command's output back, and answers it", async () => {
    const said: string[] = [];
    const lines = "for (let i = 0; i < 120; i++) console.log('vite line ' + i); console.error('a warning');";
    const result = await run(process.execPath, ["-e", lines], { label: "building", say: (line) => said.push(line) });
    expect(result.code).toBe(0);
    expect(result.output).toContain("vite line 119");
    expect(result.output).toContain("a warning");
    // Nothing of the command reached the console; only "still building" lines may have.
    expect(said.every((line) => /^ {2}… still building \(\d+ s\)$/.test(line))).toBe(true);
  });

  it("answers a failed command's exit code and output, for the launcher to show", async () => {
    const result = await run(process.execPath, ["-e", "console.error('Build failed: app/root.tsx'); process.exit(3)"], { label: "building", say: () => {} });
    expect(result).toMatchObject({ code: 3, output: expect.stringContaining("Build failed: app/root.tsx") as unknown });
  });

  it("fails, with the reason, when the command cannot start", async () => {
    const result = await run("/nonexistent/npm", [], { label: "building", say: () => {} });
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/ENOENT/);
  });
});
