import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import { checkConfig, PRODUCTION_REFUSAL } from "#server/config.server.ts";
import { projectRoot, runServerExpectingExit } from "#tests/e2e/support/server.ts";

const base = sharedServer().baseUrl;

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe("secrets never reach the browser", () => {
  // npm test builds and serves with these set (scripts/test.mjs), so a leak would show here.
  const { config } = checkConfig(process.env);

  it("has secrets configured for this check", () => {
    expect(config.secretValues.length).toBeGreaterThanOrEqual(3);
  });

  it("finds no configured secret value in any built client asset", () => {
    const files = filesUnder(path.join(projectRoot, process.env.BUILD_DIR ?? "build", "client"));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const content = fs.readFileSync(file, "latin1");
      for (const secret of config.secretValues) expect(content.includes(secret), `${secret.slice(0, 4)}… in ${file}`).toBe(false);
    }
  });

  it("finds none in rendered pages either", async () => {
    for (const p of ["/", "/404"]) {
      const html = await (await fetch(base + p)).text();
      for (const secret of config.secretValues) expect(html.includes(secret)).toBe(false);
    }
  });
});

describe("start-up configuration check", () => {
  it("refuses to start in production with an invalid configuration", async () => {
    const { code, output } = await runServerExpectingExit({
      NODE_ENV: "production",
      VIDEO_DRIVER: "bunny",
      BUNNY_STREAM_LIBRARY_ID: "1",
      BUNNY_STREAM_CDN_HOSTNAME: "vz-1.b-cdn.net",
      BUNNY_STREAM_API_KEY: "",
    });
    expect(code).not.toBe(0);
    expect(output).toContain(PRODUCTION_REFUSAL);
    expect(output).toContain("Missing required environment variable: BUNNY_STREAM_API_KEY");
  });

  it("refuses a malformed database URL in production", async () => {
    const { code, output } = await runServerExpectingExit({ NODE_ENV: "production", DATABASE_URL: "mysql://nope" });
    expect(code).not.toBe(0);
    expect(output).toContain(PRODUCTION_REFUSAL);
  });
});
