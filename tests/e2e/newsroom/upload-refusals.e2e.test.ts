/**
 * A refused upload, as an editor meets it (issue 46), in Chromium, in Arabic and French, on a phone and a desktop:
 * the message is whole (it names the types that are taken, where the spec's words stopped at «…»), it is in the
 * back-office's language only (no Arabic left in French), and the refused file leaves the input, for an image
 * field (refused in the browser) and for the video library's form (refused by the server, answered in Arabic by
 * the API and said in the page's language).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { DESKTOP, hasChromium, PHONE } from "#tests/e2e/support/browser.ts";
import { horizontalOverflow } from "#tests/e2e/support/a11y.ts";
import { keepEvidence, mainViolations, open, signedInPage, startNewsroomBrowser, stopNewsroomBrowser, type NewsroomBrowser } from "./support.ts";

const ARABIC = /[\u0600-\u06FF]/;
const SVG = { name: "logo.svg", mimeType: "image/svg+xml", buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>') };
const TEXT = { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a video at all, only words ".repeat(40)) };

const expected = {
  ar: {
    image: "نوع الملف غير مدعوم. الأنواع المقبولة: JPEG, PNG, GIF, WebP, AVIF.",
    video: "نوع الملف غير مدعوم. الأنواع المقبولة: MP4, MOV, WebM, AVI, WMV.",
  },
  fr: {
    image: "Type de fichier non pris en charge. Types acceptés : JPEG, PNG, GIF, WebP, AVIF.",
    video: "Type de fichier non pris en charge. Types acceptés : MP4, MOV, WebM, AVI, WMV.",
  },
} as const;

const filesIn = (page: Page, selector: string) => page.$eval(selector, (input) => (input as HTMLInputElement).files?.length ?? -1);

describe.skipIf(!hasChromium)("a refused upload", () => {
  let ctx: NewsroomBrowser<"admin">;

  beforeAll(async () => {
    ctx = await startNewsroomBrowser({ admin: { email: "uploads-chief@newsroom.test", password: "Passw0rdA", role: "admin" } });
  }, 240_000);
  afterAll(() => stopNewsroomBrowser(ctx?.browser, ctx?.server));

  for (const [lang, viewport, label] of [
    ["ar", PHONE, "phone"],
    ["fr", DESKTOP, "desktop"],
    ["fr", PHONE, "phone"],
  ] as const) {
    it(`in ${lang} on a ${label}: says the types taken, in the page's language, and empties the input`, async () => {
      const { context, page } = await signedInPage(ctx.browser, ctx.server, ctx.server.personas.admin, { viewport, locale: lang });
      await keepEvidence(page, `upload-refusal-${lang}-${label}`, async () => {
        // An image field: an SVG is refused at once.
        await open(page, `${ctx.base}/admin/news/new`);
        await page.setInputFiles('[data-testid="input-image_url"]', SVG);
        const refused = page.locator('[data-testid="image-refused-image_url"]');
        await refused.waitFor();
        const said = (await refused.textContent()) ?? "";
        expect(said).toContain(expected[lang].image);
        if (lang !== "ar") expect(said).not.toMatch(ARABIC);
        expect(await filesIn(page, '[data-testid="input-image_url"]')).toBe(0);
        expect(await page.textContent('[data-testid="input-image_url-name"]')).not.toContain("logo.svg");
        expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
        expect(await mainViolations(page)).toEqual([]);

        // The video library: the server refuses a file that is not a video; the toast says so in the page's language.
        await open(page, `${ctx.base}/admin/videos`);
        await page.fill('[data-testid="video-title"]', "ملف ليس فيديو");
        await page.setInputFiles('[data-testid="video-file"]', TEXT);
        await page.click('[data-testid="video-upload-submit"]');
        const toast = page.locator('[data-testid="toast"]', { hasText: expected[lang].video });
        await toast.waitFor();
        if (lang !== "ar") expect(await toast.textContent()).not.toMatch(ARABIC);
        await expect.poll(() => filesIn(page, '[data-testid="video-file"]')).toBe(0);
        expect(await page.textContent('[data-testid="video-file-name"]')).not.toContain("notes.txt");
      });
      await context.close();
    });
  }
});
