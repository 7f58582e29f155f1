/**
 * The suggestions' script (app/enhance/suggest.js) is served as it is and loaded on the header field's first
 * focus: at most 2 KB gzip (issue 31), and nothing on a page loads it before that — it is not among a page's
 * scripts, only named by the field's data-suggest-src. Its behaviour is tested in Chromium
 * (tests/e2e/search/suggest.e2e.test.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

const source = fs.readFileSync(path.join(import.meta.dirname, "suggest.js"));

describe("app/enhance/suggest.js", () => {
  it("weighs at most 2 KB gzip, as sent", () => {
    expect(gzipSync(source).length).toBeLessThanOrEqual(2048);
    expect(gzipSync(source, { level: 1 }).length).toBeLessThanOrEqual(2048);
  });

  it("imports nothing: one request on focus, nothing after", () => {
    expect(source.toString()).not.toMatch(/^\s*import\s|\bimport\(/m);
  });
});
