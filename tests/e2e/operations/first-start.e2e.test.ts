/**
 * The first start of `npm start` (scripts/start.mjs) on an empty data folder, as a newcomer sees it (issue 46): a
 * line as each step begins (creating and migrating the database, seeding the demo content, serving), and the
 * one-time set-up link printed last, between two rules of ─, so that it is not lost among the log lines. The
 * build is the suite's (SKIP_BUILD); how the launcher quiets a build is scripts/build-state.test.ts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "#tests/e2e/support/server.ts";

describe.skipIf(process.platform !== "linux")("npm start's first start", () => {
  let server: RunningServer | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-first-start-"));
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // A first start creates the embedded database and seeds the demo content (images, videos when ffmpeg is there):
  // on a loaded machine that is minutes, not the 2 the other tests may take.
  it("says each step, then prints the set-up link last, framed", { timeout: 300_000 }, async () => {
    server = await startServer({ SKIP_BUILD: "1", DATA_DIR: dataDir }, { entry: "scripts/start.mjs" });
    const rule = /\n(─{20,})\n/;
    // The frame follows the "serving" line at once; wait for its closing rule.
    await expect.poll(() => (server!.output().match(/─{20,}/g) ?? []).length).toBe(2);
    const output = server.output();
    const at = (pattern: RegExp) => output.search(pattern);
    const steps = [
      /Starting the server…/,
      /creating the embedded database in \S+ \(first start: about 20 s\)…/,
      /migrations pending[^"]*: migrating/,
      /seeding demo content \(first start only\)…/,
      /serving on http:\/\/localhost:/,
    ];
    const places = steps.map(at);
    expect(
      places.every((p) => p >= 0),
      `${steps.filter((_, i) => places[i] < 0).join(", ")} missing in:\n${output}`,
    ).toBe(true);
    expect([...places].sort((a, b) => a - b)).toEqual(places);

    // The frame: the link between two rules, after every line of the start (what follows are requests' lines).
    const [, top] = rule.exec(output)!;
    const framedAt = output.indexOf(top);
    const closedAt = output.indexOf(top, framedAt + top.length);
    expect(framedAt).toBeGreaterThan(places.at(-1)!);
    const lines = output.slice(framedAt, closedAt + top.length).split("\n");
    expect([lines[0], lines.at(-1)]).toEqual([top, top]);
    const link = lines.find((line) => line.includes("/setup?token="));
    expect(link).toMatch(new RegExp(`^${server.url.replace(/[.]/g, "\\.")}/setup\\?token=[\\w-]{20,}$`));
    expect(top.length).toBeGreaterThanOrEqual(link!.length);
    expect(output.slice(closedAt)).not.toMatch(/No administrator yet|seeding|migrating|serving on/);
    // The link works: the set-up page answers it.
    expect((await fetch(link!)).status).toBe(200);
  });
});
