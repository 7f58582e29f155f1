/**
 * The video library and the forms' controls in the page's language (issue 28), in Chromium against the built
 * server: the spec's toast for an empty form (never the browser's English bubble), the size hint and the card
 * details laid out in both directions, both buttons disabled while a file goes, an upload cut by a reload shown
 * as interrupted with what arrived and resumed from there with «استئناف», the file and date controls in Arabic
 * and French; and the first run at 127.0.0.1 (a set-up and the language toggle on a server without PUBLIC_URL),
 * while a form posted from another site is still refused, with a page that says why.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { DESKTOP, hasChromium, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import { seriousA11yViolations } from "#tests/e2e/support/a11y.ts";
import { startAuthServer, type AuthServer } from "#tests/e2e/auth/support.ts";
import { projectRoot } from "#tests/e2e/support/server.ts";
import { fillDateTime } from "#tests/e2e/support/date-time.ts";
import { expectToast, keepEvidence, open, signedInPage } from "./support.ts";
import { announceFirstRunSetup } from "#server/auth/setup.server.ts";
import { hasFfmpeg, makeClip } from "#tests/helpers/video.ts";
import ar from "#domain/locales/ar/common.json" with { type: "json" };
import fr from "#domain/locales/fr/common.json" with { type: "json" };

const V = ar.newsroom.ui.videos;
const SHOTS = path.join(projectRoot, "tests/e2e/screenshots");

/** A real video over one tus chunk (8 MB): random pictures, losslessly coded, so the upload takes two requests. */
function makeLargeClip(dir: string): string {
  const file = path.join(dir, "large.mp4");
  const made = spawnSync(
    "ffmpeg",
    [
      ...["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "nullsrc=s=640x360:r=25:d=2,geq=lum='random(1)*255':cb=128:cr=128"],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-pix_fmt", "yuv420p", file],
    ],
    { stdio: "inherit" },
  );
  if (made.status !== 0) throw new Error("ffmpeg could not make the large clip");
  return file;
}

describe.skipIf(!hasChromium || !hasFfmpeg)("the video library and the forms' controls (issue 28)", () => {
  let server: AuthServer<"admin">;
  let browser: Browser;
  const clips = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-library-"));
  let shortClip: string;
  let largeClip: string;

  beforeAll(async () => {
    shortClip = makeClip(clips, { seconds: 2 });
    largeClip = makeLargeClip(clips);
    server = await startAuthServer({ personas: { admin: { email: "library-chief@newsroom.test", password: "Passw0rdL", role: "admin" } } });
    browser = await launchBrowser();
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    fs.rmSync(clips, { recursive: true, force: true });
  });

  it("answers an empty form with the spec's toast, marks the fields and focuses the first; the file input speaks Arabic", async () => {
    const { page, context } = await signedInPage(browser, server, server.personas.admin);
    await keepEvidence(page, "video-library-empty", async () => {
      await open(page, `${server.url}/admin/videos`);
      const file = page.locator('[data-testid="video-file"]');
      expect(await file.getAttribute("type")).toBe("file");
      const chooser = page.locator('[data-testid="video-upload-form"] [data-file-button]');
      expect(await chooser.textContent()).toBe(ar.formControls.file.choose);
      expect(await page.textContent('[data-testid="video-file-name"]')).toBe(ar.formControls.file.none);

      await page.click('[data-testid="video-upload-submit"]');
      const toast = await expectToast(page, V.missingFields);
      expect(await toast.textContent()).toContain(V.missingFieldsTitle);
      expect(await page.getAttribute('[data-testid="video-title"]', "aria-invalid")).toBe("true");
      expect(await file.getAttribute("aria-invalid")).toBe("true");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("video-title");
      // The browser's own bubble never shows: the form checks itself.
      expect(await page.evaluate(() => document.querySelector<HTMLFormElement>('[data-testid="video-upload-form"]')!.noValidate)).toBe(true);

      // Title filled, file still missing: the file field takes the focus.
      await page.fill('[data-testid="video-title"]', "نشرة المساء");
      await page.click('[data-testid="video-upload-submit"]');
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("video-file");
      expect(await page.getAttribute('[data-testid="video-title"]', "aria-invalid")).toBeNull();

      // The hidden input is still the keyboard's: focus shows on the button-like label.
      await page.setInputFiles('[data-testid="video-file"]', shortClip);
      expect(await page.textContent('[data-testid="video-file-name"]')).toBe("clip.mp4");
      expect(await file.getAttribute("aria-invalid")).toBeNull();
      await page.click('[data-testid="video-upload-cancel"]');
      expect(await page.textContent('[data-testid="video-file-name"]')).toBe(ar.formControls.file.none);
    });
    await context.close();
  });

  it("keeps the size hint's formats and '500 MB' whole, in the sentence's order", async () => {
    for (const lang of ["ar", "fr"] as const) {
      const { page, context } = await signedInPage(browser, server, server.personas.admin, { locale: lang });
      await open(page, `${server.url}/admin/videos`);
      const hint = page.locator("#video-file-hint");
      const parts = hint.locator("bdi");
      expect(await parts.count()).toBe(2);
      expect(await parts.nth(0).textContent()).toBe("MP4, AVI, MOV, WMV");
      expect(await parts.nth(1).textContent()).toBe(lang === "ar" ? "500 MB" : "500 Mo");
      const [formats, size] = [await parts.nth(0).boundingBox(), await parts.nth(1).boundingBox()];
      // Each Latin run on one line, and the formats come first in the reading direction.
      expect(formats!.height).toBeLessThan(30);
      if (lang === "ar") expect(formats!.x).toBeGreaterThan(size!.x);
      else expect(formats!.x).toBeLessThan(size!.x);
      expect(await hint.evaluate((el) => getComputedStyle(el).direction)).toBe(lang === "ar" ? "rtl" : "ltr");
      await context.close();
    }
  });

  it("disables both buttons during an upload, shows a reload's interrupted upload with what arrived, and resumes it to ready", async () => {
    const { page, context } = await signedInPage(browser, server, server.personas.admin);
    await keepEvidence(page, "video-library-resume", async () => {
      await open(page, `${server.url}/admin/videos`);
      await page.fill('[data-testid="video-title"]', "حوار مقطوع");
      await page.setInputFiles('[data-testid="video-file"]', largeClip);
      // The first chunk (8 MB) goes through; the next ones are cut (the link is lost) until the page is reloaded.
      let patches = 0;
      await page.route("**/api/admin/videos/tus/**", async (route) => {
        if (route.request().method() === "PATCH" && ++patches > 1) return route.abort("connectionreset");
        await route.continue();
      });
      const firstChunk = page.waitForResponse((r) => r.request().method() === "PATCH" && r.status() === 204);
      await page.click('[data-testid="video-upload-submit"]');
      await page.locator('[data-testid="video-upload-progress"]').waitFor();
      expect(await page.isDisabled('[data-testid="video-upload-submit"]')).toBe(true);
      expect(await page.isDisabled('[data-testid="video-upload-cancel"]')).toBe(true);
      await firstChunk;
      await expect.poll(() => patches).toBe(2);
      expect(await page.isDisabled('[data-testid="video-upload-cancel"]')).toBe(true);

      // The link stays cut until the reload: tus-js-client retries on its own, and would finish the upload if the
      // link came back first.
      const card = page.locator('[data-testid="admin-video"]', { hasText: "حوار مقطوع" });
      // What arrived before the cut (the server keeps the bytes of a request cut short too): part of the file. The
      // server may still be closing the cut request when the page first reloads; a reader reloading again sees it.
      const received = async () => {
        await page.reload();
        const shown = await card
          .locator('[data-testid="video-received"]')
          .waitFor({ timeout: 10_000 })
          .then(() => true)
          .catch(() => false);
        return shown ? Number((await card.locator('[data-testid="video-received"]').getAttribute("data-offset")) ?? 0) : 0;
      };
      await expect.poll(received, { timeout: 50_000, interval: 1_000 }).toBeGreaterThan(0);
      expect(await card.getAttribute("data-interrupted")).toBe("");
      expect(await card.locator('[data-testid="video-status"]').textContent()).toBe(V.interrupted);
      const size = fs.statSync(largeClip).size;
      const offset = Number(await card.locator('[data-testid="video-received"]').getAttribute("data-offset"));
      expect(offset).toBeGreaterThan(0);
      expect(offset).toBeLessThan(size);
      expect(await card.locator('[data-testid="video-received"]').textContent()).toContain(`${Math.floor((offset * 100) / size)}%`);
      await page.screenshot({ path: path.join(SHOTS, "issue28-videos-interrupted-ar-1280.png"), fullPage: true });
      expect(await seriousA11yViolations(page)).toEqual([]);

      // Another file: a clear message, nothing sent.
      let picker = page.waitForEvent("filechooser");
      await card.locator('[data-testid="video-resume"]').click();
      await (await picker).setFiles(shortClip);
      await expectToast(page, V.notSameFileTitle);

      // The same file, the link back: it goes on from the offset the server holds (the first request is a HEAD, no
      // new upload).
      await page.unroute("**/api/admin/videos/tus/**");
      const sent: { method: string; offset?: string }[] = [];
      page.on("request", (r) => r.url().includes("/api/admin/videos/tus") && sent.push({ method: r.method(), offset: r.headers()["upload-offset"] }));
      picker = page.waitForEvent("filechooser");
      await card.locator('[data-testid="video-resume"]').click();
      await (await picker).setFiles(largeClip);
      await expectToast(page, V.uploadSucceeded);
      expect(sent.map((r) => r.method)).not.toContain("POST");
      expect(sent.find((r) => r.method === "PATCH")?.offset).toBe(String(offset));
      await page.locator('[data-testid="admin-video"][data-status="4"]', { hasText: "حوار مقطوع" }).waitFor({ timeout: 120_000 });
    });
    await context.close();
  });

  it("aligns every card detail to the start side, in Arabic and in French, at 375 and 1280 px", async () => {
    for (const lang of ["ar", "fr"] as const) {
      for (const viewport of [PHONE, DESKTOP]) {
        const { page, context } = await signedInPage(browser, server, server.personas.admin, { locale: lang, viewport });
        await open(page, `${server.url}/admin/videos`);
        await page.locator('[data-testid="video-details"]').first().waitFor();
        const cells = await page
          .locator('[data-testid="video-details"]')
          .first()
          .evaluate((dl) =>
            [...dl.querySelectorAll("dd")].map((dd) => {
              const value = dd.querySelector("bdi")!.getBoundingClientRect();
              const cell = dd.getBoundingClientRect();
              return { left: value.left - cell.left, right: cell.right - value.right, align: getComputedStyle(dd).textAlign };
            }),
          );
        expect(cells).toHaveLength(4);
        for (const c of cells) {
          expect(c.align).toBe("start");
          // The value touches the start edge of its cell: the right one in Arabic, the left one in French.
          expect(lang === "ar" ? c.right : c.left).toBeLessThan(1);
        }
        await page.screenshot({ path: path.join(SHOTS, `issue28-videos-${lang}-${viewport.width}.png`), fullPage: true });
        expect(await seriousA11yViolations(page)).toEqual([]);
        await context.close();
      }
    }
  });

  it("has a date control in the page's language in the content forms, posting the ISO date", async () => {
    for (const lang of ["ar", "fr"] as const) {
      for (const viewport of [PHONE, DESKTOP]) {
        const { page, context } = await signedInPage(browser, server, server.personas.admin, { locale: lang, viewport });
        await keepEvidence(page, `date-control-${lang}`, async () => {
          await open(page, `${server.url}/admin/programs/new`);
          expect(await page.locator('input[type="date"], input[type="datetime-local"]').count()).toBe(0);
          const strings = lang === "ar" ? ar : fr;
          const month = page.locator('[data-testid="input-air_date-month"]');
          expect(await month.getAttribute("aria-label")).toBe(strings.formControls.date.month);
          expect(await month.locator("option").nth(8).textContent()).toBe(lang === "ar" ? "أغسطس" : "août");
          // The label names the group, and clicking it lands on the day.
          const group = page.locator('[data-testid="input-air_date-day"]').locator("xpath=ancestor::*[@role='group'][1]");
          expect(await group.getAttribute("aria-labelledby")).toBe(await page.locator('label[for="field-air_date"]').getAttribute("id"));
          await fillDateTime(page, "input-air_date", "2026-08-15");
          expect(await page.inputValue('[data-testid="input-air_date"]')).toBe("2026-08-15");
          // Arabic digits typed are read as the same day.
          await page.fill('[data-testid="input-air_date-day"]', "٢٠");
          expect(await page.inputValue('[data-testid="input-air_date"]')).toBe("2026-08-20");
          // The publish date-time: hours and minutes left to right, the value as datetime-local sent it.
          await fillDateTime(page, "input-publish_date", "2026-09-01T18:05");
          expect(await page.inputValue('[data-testid="input-publish_date"]')).toBe("2026-09-01T18:05");
          expect(await page.locator('[data-testid="input-publish_date-hour"]').evaluate((el) => getComputedStyle(el.parentElement!).direction)).toBe("ltr");
          await page.screenshot({ path: path.join(SHOTS, `issue28-program-form-${lang}-${viewport.width}.png`), fullPage: true });
          if (lang === "ar" && viewport === DESKTOP) {
            // A required date left empty: the form's own message, the day takes the focus; filled, the message goes.
            await open(page, `${server.url}/admin/coverage/new`);
            await page.click('[data-testid="save"]');
            const error = page.locator('[data-testid="error-event_date"]');
            await error.waitFor();
            expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toMatch(/^input-(title|event_date-day)$/);
            expect(await page.getAttribute('[data-testid="input-event_date-day"]', "aria-invalid")).toBe("true");
            await fillDateTime(page, "input-event_date", "2026-05-04");
            await error.waitFor({ state: "detached" });
            expect(await page.inputValue('[data-testid="input-event_date"]')).toBe("2026-05-04");
          }
          expect(await seriousA11yViolations(page)).toEqual([]);
        });
        await context.close();
      }
    }
  });

  it("tells a reader whose form reached the site under another name why, in the page's language, not «unexpected error»", async () => {
    // This server's PUBLIC_URL is http://127.0.0.1:PORT; the page is opened at http://localhost:PORT, another
    // origin for it. A document post (the newsletter form, without JavaScript) gets the guard's page, the sign-in
    // form (a data request, with JavaScript) the error screen; both say why, in French here: the language of the
    // address the form was posted to (decision 0143), not a cookie.
    const site = `http://localhost:${server.port}`;
    const plain = await newPage(browser, { javaScriptEnabled: false });
    await keepEvidence(plain.page, "refused-document-post", async () => {
      await plain.page.goto(`${site}/fr/opinion`);
      await plain.page.fill("#newsletter-email", "lecteur@loopback.test");
      await plain.page.click('[data-testid="newsletter-submit"]');
      const refused = plain.page.locator('[data-testid="cross-origin-refused"]');
      await refused.waitFor();
      expect(await plain.page.getAttribute("html", "lang")).toBe("fr");
      expect(await refused.textContent()).toContain(fr.requestRefused.title);
      expect(await refused.textContent()).toContain(server.url);
    });
    await plain.context.close();

    const { page, context } = await newPage(browser, {});
    const refused = page.locator('[data-testid="cross-origin-refused"]');
    await keepEvidence(page, "refused-data-request", async () => {
      await open(page, `${site}/fr/auth`);
      await page.fill('[data-testid="auth-form"] input[name="email"]', "someone@loopback.test");
      await page.fill('input[name="password"]', "Whatever123");
      await page.click('[data-testid="auth-submit"]');
      await refused.waitFor();
      expect(await refused.textContent()).toContain(fr.adminShell.crossOrigin);
      expect(await page.textContent("main")).not.toContain(fr.errors.genericTitle);
    });
    await context.close();
  });
});

describe.skipIf(!hasChromium)("the first run at 127.0.0.1 (issue 28)", () => {
  let server: AuthServer<never>;
  let token: string | null = null;
  let browser: Browser;

  beforeAll(async () => {
    // No PUBLIC_URL: the site is http://localhost:PORT, and the set-up link is opened at 127.0.0.1.
    server = await startAuthServer({
      env: { PUBLIC_URL: "" },
      prepare: async (db) => {
        const link = await announceFirstRunSetup(db);
        token = link && new URL(link).searchParams.get("token");
      },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("creates the first administrator from http://127.0.0.1:PORT, then switches the language there", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const { page, context } = await newPage(browser, {});
    await keepEvidence(page, "setup-127", async () => {
      // The link printed at start replaces the one made before it.
      const printed = [...server.output().matchAll(/\/setup\?token=([A-Za-z0-9_-]{20,})/g)].at(-1)?.[1] ?? token;
      await page.goto(`${server.url}/setup?token=${printed}`);
      await page.fill('input[name="fullName"]', "مالك الموقع");
      await page.fill('form:has([data-testid="setup-submit"]) input[name="email"]', "owner@loopback.test");
      await page.fill('input[name="password"]', "0wnerPassword");
      await page.click('[data-testid="setup-submit"]');
      await page.waitForURL(`${server.url}/admin`);
      expect(await page.textContent("main")).not.toContain(ar.errors.genericTitle);

      await open(page, `${server.url}/`);
      await page.click('[data-testid="language-toggle"]');
      await expect.poll(() => page.getAttribute("html", "lang")).toBe("fr");
      expect(await page.textContent("body")).not.toContain("cross-origin");
    });
    await context.close();
  });

  it("still refuses a form posted from another site, with a page in the reader's language", async () => {
    const post = (headers: Record<string, string>, target = "/language") =>
      fetch(server.url + target, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", ...headers },
        body: "lang=fr&redirectTo=/",
      });
    for (const origin of ["http://evil.example", `http://127.0.0.1:${server.port + 1}`, `https://localhost:${server.port}`]) {
      const refused = await post({ origin });
      expect(refused.status, origin).toBe(403);
      expect(refused.headers.get("content-type")).toMatch(/^text\/html/);
      const html = await refused.text();
      expect(html).toContain('<html lang="ar" dir="rtl">');
      expect(html).toContain(ar.requestRefused.title);
      expect(html).not.toContain('"reason"');
    }
    const french = await post({ origin: "http://evil.example", cookie: "i18nextLng=fr" });
    expect(await french.text()).toContain(fr.requestRefused.title);
    // A script's data request from elsewhere: refused too, in its shape.
    expect((await post({ origin: "http://evil.example", accept: "*/*" }, "/language.data")).status).toBe(403);
    // Our own loopback names pass.
    for (const origin of [server.url, `http://localhost:${server.port}`, `http://[::1]:${server.port}`]) {
      expect((await post({ origin })).status, origin).toBe(302);
    }
  });
});
