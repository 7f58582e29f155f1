/**
 * The Chromium the machine has (CHROMIUM_PATH or /usr/bin/chromium), never a downloaded one. When there is
 * none, browser tests are skipped with the reason printed once.
 */
import fs from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

export const chromiumPath = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => p && fs.existsSync(p));
export const hasChromium = Boolean(chromiumPath);
export const skipReason = "no Chromium found at CHROMIUM_PATH or /usr/bin/chromium (install it with: apt-get install -y chromium)";

export async function launchBrowser(): Promise<Browser> {
  if (!chromiumPath) throw new Error(skipReason);
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--autoplay-policy=no-user-gesture-required",
    ],
  });
}

export const PHONE = { width: 375, height: 740 };
export const DESKTOP = { width: 1280, height: 900 };

export async function newPage(
  browser: Browser,
  opts: { viewport?: { width: number; height: number }; locale?: string; javaScriptEnabled?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: opts.viewport ?? DESKTOP,
    locale: opts.locale ?? "ar",
    javaScriptEnabled: opts.javaScriptEnabled ?? true,
  });
  // Playwright's 30 s default is too tight for a page action on a loaded 2-core machine; tests wait for states,
  // so this only bounds how long a real failure takes to report.
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  return { context, page, errors };
}

/** Waits until React has hydrated the page, so clicks reach their handlers. */
export async function hydrated(page: Page) {
  await page.waitForSelector("html[data-hydrated]", { state: "attached" });
}

/**
 * Waits until the page has rendered `count` more frames: what a test waits for before checking that something did
 * NOT happen after a change it made (work a change schedules — observers, effects — lands within a frame or two).
 * A state, not a duration: on a slow machine the frames simply come later.
 */
export async function renderedFrames(page: Page, count = 2) {
  await page.evaluate(
    (n) =>
      new Promise<void>((resolve) => {
        const step = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1)));
        step(n);
      }),
    count,
  );
}

/**
 * The URLs of the forms' posts a page sends from now on: every POST but the page's view beacon (POST /api/views,
 * decision 0147), which a reading page sends once shown, whenever that is.
 */
export function recordFormPosts(page: Page): string[] {
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname !== "/api/views") posts.push(r.url());
  });
  return posts;
}
