/**
 * Shared pieces of the newsroom's browser tests: a seeded server with staff personas, a signed-in page, a
 * small PNG made here, the editor's form filled the way an editor fills it, and what an anonymous reader
 * gets from the public site.
 */
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { expect } from "vitest";
import { hydrated, launchBrowser, newPage } from "#tests/e2e/support/browser.ts";
import { makePng } from "#tests/helpers/png.ts";
import { projectRoot } from "#tests/e2e/support/server.ts";
import { seriousA11yViolations } from "#tests/e2e/support/a11y.ts";
import type { PersonaSpec, Persona } from "#tests/helpers/auth.ts";
import { browserCookies, startAuthServer, type AuthServer } from "#tests/e2e/auth/support.ts";

export type NewsroomServer<K extends string> = AuthServer<K>;

/** A server on a fresh database with the demo content (categories, items for the lists) and the personas. */
export function startNewsroomServer<K extends string>(personas: Record<K, PersonaSpec>): Promise<NewsroomServer<K>> {
  return startAuthServer({ personas, seed: true });
}

/** An editor who writes and deletes content (password "Ed1torPassword"), by email and, when given, display name. */
export const contentEditor = (email: string, name?: string): PersonaSpec => ({
  email,
  password: "Ed1torPassword",
  role: "editor",
  // What an editor who wrote and deleted held before issue 40, with the rights migration 0019 gave them.
  permissions: ["content.write", "content.delete", "content.publish", "content.others", "tags.manage"],
  ...(name ? { name } : {}),
});

/** What a describe block of browser tests works with: the seeded server, its address and a Chromium. */
export type NewsroomBrowser<K extends string> = { server: NewsroomServer<K>; base: string; browser: Browser };

/** For a describe block's beforeAll: a seeded server with `personas` (startNewsroomServer) and a Chromium. */
export async function startNewsroomBrowser<K extends string>(personas: Record<K, PersonaSpec>): Promise<NewsroomBrowser<K>> {
  const server = await startNewsroomServer(personas);
  try {
    return { server, base: server.url, browser: await launchBrowser() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** For its afterAll: closes what startNewsroomBrowser opened (either may be missing when the start failed). */
export async function stopNewsroomBrowser(browser: Browser | undefined, server: { stop: () => Promise<unknown> } | undefined) {
  await browser?.close();
  await server?.stop();
}

/** A page signed in as `persona`, in Arabic unless told. */
export async function signedInPage(
  browser: Browser,
  server: { url: string },
  persona: Persona,
  opts: { viewport?: { width: number; height: number }; javaScriptEnabled?: boolean; locale?: string } = {},
) {
  const made = await newPage(browser, opts);
  await made.context.addCookies([...browserCookies(persona, server.url), { name: "i18nextLng", value: opts.locale ?? "ar", url: server.url }]);
  return made;
}

/** Goes to a back-office page and waits until React has hydrated it. */
export async function open(page: Page, url: string) {
  await page.goto(url);
  await hydrated(page);
}

/**
 * Runs a test's steps and, when one fails, keeps a screenshot and the page's HTML in tests/e2e/screenshots/
 * (git-ignored), with the server's log when given, so the failure can be looked at.
 */
export async function keepEvidence<T>(page: Page, name: string, steps: () => Promise<T>, serverOutput?: () => string): Promise<T> {
  try {
    return await steps();
  } catch (error) {
    const dir = path.join(projectRoot, "tests/e2e/screenshots");
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `newsroom-${name.replace(/[^a-z0-9]+/gi, "-")}`);
    await page.screenshot({ path: `${file}.png`, fullPage: true }).catch(() => undefined);
    fs.writeFileSync(`${file}.html`, await page.content().catch(() => ""));
    if (serverOutput) fs.writeFileSync(`${file}.log`, serverOutput());
    throw error;
  }
}

/** Serious accessibility problems inside the page's <main> (the admin shell is tested with the accounts). */
export async function mainViolations(page: Page) {
  const all = await seriousA11yViolations(page);
  const inMain = await Promise.all(
    all.map((v) =>
      page.evaluate(
        (targets) => targets.some((t) => document.querySelector(t)?.closest("#main")),
        v.nodes.map((n) => n.target.at(-1)!),
      ),
    ),
  );
  return all.filter((_, i) => inMain[i]);
}

/** A `size`×`size` PNG of one colour: what an editor's camera would send, only smaller. */
export const tinyPng = (size = 8, rgb: [number, number, number] = [196, 102, 42]) => makePng(size, size, rgb);

// ---- The editor ----

/** Waits for the rich-text editor to replace the plain textarea (its code arrives on demand). */
export async function richEditorReady(page: Page, field = "content") {
  await page.waitForSelector(`[data-testid="editor-${field}"]`);
}

/** Replaces the rich-text body with `text`, typed as an editor types. */
export async function typeBody(page: Page, text: string, field = "content") {
  const editable = page.locator(`[data-testid="editor-${field}"]`);
  await editable.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(text);
}

/**
 * Waits until the editor's own document (the hidden input it posts, written from its state) holds `text`.
 * The editable's DOM shows typed text before ProseMirror has read it; a key pressed in between (Enter, Shift+Home)
 * acts on the editor's older selection, so a split or a selection lands before the text just typed.
 */
export async function bodyHolds(page: Page, text: string, field = "content") {
  await page.waitForFunction(([f, t]) => (document.querySelector<HTMLInputElement>(`[data-testid="input-${f}"]`)?.value ?? "").includes(t), [
    field,
    text,
  ] as const);
}

/** A datetime-local value `ms` from now in the site's time (UTC), to the second. */
export function siteTimeIn(ms: number): string {
  return new Date(Date.now() + ms).toISOString().slice(0, 19);
}

/** Saves the form and waits for the list with the toast that says so. */
export async function saveAndExpectToast(page: Page, segment: string, text: string) {
  await page.click('[data-testid="save"]');
  await page.waitForURL((url) => url.pathname === `/admin/${segment}`);
  await expectToast(page, text);
}

export async function expectToast(page: Page, text: string) {
  const toast = page.locator('[data-testid="toast"]', { hasText: text });
  await toast.waitFor();
  return toast;
}

// ---- What readers get ----

/** An anonymous GET of a public page: its status and body. */
export async function publicPage(base: string, path: string): Promise<{ status: number; text: string }> {
  const res = await fetch(base + path, { redirect: "manual" });
  return { status: res.status, text: await res.text() };
}

/** Every URL listed by the sitemap (following a sitemap index to its files). */
export async function sitemapUrls(base: string): Promise<string> {
  const root = await (await fetch(`${base}/sitemap.xml`)).text();
  if (!root.includes("<sitemapindex")) return root;
  const files = [...root.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
  const parts = await Promise.all(files.map(async (f) => (await fetch(base + f)).text()));
  return parts.join("\n");
}

/** An item as the JSON API gives it to staff (its slug, public URL, status). */
export async function staffItem(base: string, cookie: string, segment: string, id: number) {
  const res = await fetch(`${base}/api/admin/${segment}/${id}`, { headers: { cookie } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { item?: Record<string, unknown> } & Record<string, unknown>;
  return (body.item ?? body) as { id: number; page_slug: string; url: string; status: string; title: string; image_url?: string | null };
}
