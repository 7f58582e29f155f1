/** Shared steps of the media browser tests: is the seeded sample there, and does a <video> really play. */
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { seriousA11yViolations, type AxeViolation } from "#tests/e2e/support/a11y.ts";

export const SAMPLE_VIDEO = "/uploads/demo/video/sample.mp4";
export const SAMPLE_MISSING =
  "the seeded sample video is missing (ffmpeg was not available when the e2e server seeded its data), so playback cannot be checked";

/** Whether the e2e server has the sample video the demo rows play. */
export async function sampleAvailable(base: string): Promise<boolean> {
  const res = await fetch(base + SAMPLE_VIDEO, { method: "HEAD" });
  return res.ok;
}

/** Waits until the <video> inside `scope` has played past its first half second. */
export async function expectVideoPlays(scope: Locator) {
  const video = scope.locator("video");
  await video.waitFor({ state: "attached" });
  await expect
    .poll(
      () =>
        video.evaluate((v: HTMLVideoElement) =>
          v.paused && v.currentTime === 0
            ? v.play().then(
                () => v.currentTime,
                () => v.currentTime,
              )
            : v.currentTime,
        ),
      {
        timeout: 20_000,
        interval: 250,
      },
    )
    .toBeGreaterThan(0.5);
  return video;
}

/**
 * hls.js's light build as the build names it (assets/hls.light.min-<hash>.mjs, decision 0132): by its name, never by "hls" anywhere in a URL,
 * which another chunk's content hash can hold (root-DZUo2hlS.js did, and failed two tests).
 */
export const HLS_CHUNK = /\/assets\/hls[.-][\w.-]*\.m?js(?:$|\?)/;

/** The script and module-preload URLs a server-rendered page names. */
export async function scriptUrlsOf(base: string, path: string, headers: Record<string, string> = {}): Promise<string[]> {
  const html = await (await fetch(base + path, { headers })).text();
  return [...html.matchAll(/<(?:script|link)\b[^>]*(?:src|href)="([^"]+\.js)"/g)].map((m) => m[1]);
}

export async function testIdsText(page: Page, testId: string): Promise<string[]> {
  return page.getByTestId(testId).allTextContents();
}

/**
 * Serious axe violations of the page's own content (inside <main>). The header and footer around it are
 * checked by the layout tests (tests/e2e/layout), so a problem there is reported once, not on every page.
 */
export async function contentA11yViolations(page: Page): Promise<AxeViolation[]> {
  const violations = await seriousA11yViolations(page);
  const kept: AxeViolation[] = [];
  for (const v of violations) {
    const nodes = [];
    for (const n of v.nodes) {
      const inMain = await page.evaluate((selector) => {
        const el = document.querySelector(selector);
        return !el || el.closest("main") !== null;
      }, n.target.join(" "));
      if (inMain) nodes.push(n);
    }
    if (nodes.length) kept.push({ ...v, nodes });
  }
  return kept;
}

/** Whether the server-rendered filter link with this test id is the active one (attribute order does not matter). */
export function isActiveChip(html: string, testId: string): boolean {
  return new RegExp(`<a\\b(?=[^>]*aria-current="true")(?=[^>]*data-testid="${testId}")`).test(html);
}
