/**
 * The media library's back-office screen (/admin/library, issue 28) against the built server: an image uploaded
 * by tus into the library is listed, found by an Arabic search typed another way, given its alt text, caption,
 * credit and focal point (keyboard and click), counted as used once an item uses it, and deleted only after a
 * confirmation that names that item (the API answers 409 with the uses unless forced). The JSON API keeps its
 * contract and its guard. Screens in Arabic and French at 375 and 1280 px are axe clean and photographed.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { hasChromium, launchBrowser } from "#tests/e2e/support/browser.ts";
import { horizontalOverflow } from "#tests/e2e/support/a11y.ts";
import { projectRoot } from "#tests/e2e/support/server.ts";
import { makePng } from "#tests/helpers/png.ts";
import { expectToast, keepEvidence, mainViolations, open, signedInPage, startNewsroomServer, type NewsroomServer } from "#tests/e2e/newsroom/support.ts";
import type { LibraryFile, LibraryPage, LibraryUsage } from "#domain/library.ts";
import { ISSUE40_RIGHTS } from "#tests/helpers/auth.ts";

type Who = "editor" | "reader";
const SHOTS = path.join(projectRoot, "tests/e2e/screenshots");

describe("the media library screen", () => {
  let server: NewsroomServer<Who>;
  let browser: Browser | undefined;
  let base: string;
  const files = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-library-"));

  const call = (method: string, pathname: string, { who = "editor" as Who | null, body }: { who?: Who | null; body?: unknown } = {}) =>
    fetch(base + pathname, {
      method,
      headers: { cookie: who ? server.personas[who].cookie : "", origin: base, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const list = async (query: string) => (await (await call("GET", `/api/admin/library${query}`)).json()) as LibraryPage;

  beforeAll(async () => {
    server = await startNewsroomServer<Who>({
      editor: {
        email: "library-editor@newsroom.test",
        password: "Passw0rdE",
        role: "editor",
        permissions: ["content.write", ...ISSUE40_RIGHTS, "content.delete"],
      },
      reader: { email: "library-reader@newsroom.test", password: "Passw0rdR", role: "reader" },
    });
    base = server.url;
    if (hasChromium) browser = await launchBrowser();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    fs.rmSync(files, { recursive: true, force: true });
  });

  it("answers its JSON API to editors only, with the demo content's files and the video library's videos", async () => {
    expect((await call("GET", "/api/admin/library", { who: null })).status).toBe(401);
    expect((await call("GET", "/api/admin/library", { who: "reader" })).status).toBe(403);
    expect((await call("GET", "/api/admin/library?kind=sound")).status).toBe(400);
    const images = await list("?kind=image&pageSize=5");
    expect(images.items).toHaveLength(5);
    expect(images.total).toBeGreaterThan(5);
    expect(images.items.every((i) => i.kind === "image" && i.thumbnail === i.url && i.usageCount >= 1)).toBe(true);
    const videos = await list("?kind=video");
    expect(videos.total).toBeGreaterThan(0);
    expect(videos.items[0]).toMatchObject({ kind: "video", href: "/admin/videos" });
    const pdfs = await list("?kind=document");
    expect(pdfs.items[0]).toMatchObject({ kind: "document", mime: "application/pdf" });
    expect((await call("PATCH", `/api/admin/library/${images.items[0].id}`, { body: { focal: { x: 2, y: 0 } } })).status).toBe(400);
    expect((await call("PATCH", `/api/admin/library/${images.items[0].id}`, { who: "reader", body: { focal: { x: 0, y: 0 } } })).status).toBe(403);
    expect((await call("GET", "/api/admin/library/999999")).status).toBe(404);
  });

  it("records the image a content form uploads, once the item is saved, with its pixel size", async () => {
    const { categories } = (await (await fetch(`${base}/api/categories?type=news`)).json()) as { categories: { id: number }[] };
    const form = new FormData();
    form.set("title", "خبر بصورة جديدة للمكتبة");
    form.set("excerpt", "ملخص قصير للخبر يكفي للحفظ");
    form.set("content", "<p>نص الخبر الكامل، أطول من عشرين حرفاً بكثير.</p>");
    form.set("category_id", String(categories[0].id));
    form.set("priority", "medium");
    form.set("status", "draft");
    form.set("image_url__file", new File([new Uint8Array(makePng(240, 160))], "واحة-أطار.png", { type: "image/png" }));
    const saved = await fetch(`${base}/admin/news/new`, {
      method: "POST",
      headers: { cookie: server.personas.editor.cookie, origin: base },
      body: form,
      redirect: "manual",
    });
    expect(saved.status).toBe(302);
    const found = await list(`?q=${encodeURIComponent("واحه اطار")}`);
    expect(found.items).toHaveLength(1);
    expect(found.items[0]).toMatchObject({ kind: "image", mime: "image/png", width: 240, height: 160, name: "واحة-أطار.png", usageCount: 1 });
  });

  it.skipIf(!hasChromium)(
    "uploads an image by tus, finds it (Arabic-aware), edits its texts and focal point, counts its use, deletes it after naming the use",
    async () => {
      const { page, context } = await signedInPage(browser!, server, server.personas.editor, { viewport: { width: 1280, height: 900 } });
      try {
        await keepEvidence(page, "library-flow", async () => {
          await open(page, base + "/admin/library");
          expect(await page.locator("h1").textContent()).toBe("مكتبة الوسائط");

          // Two files at once, each by tus: a picture and a PDF.
          const png = path.join(files, "قافلة-الملح.png");
          fs.writeFileSync(png, makePng(320, 200, [150, 90, 40]));
          const pdf = path.join(files, "bulletin.pdf");
          fs.writeFileSync(pdf, "%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
          await page.setInputFiles('[data-testid="library-file"]', [png, pdf]);
          await page.click('[data-testid="library-upload-submit"]');
          await expectToast(page, "أضيف ملفان إلى المكتبة.");

          const found = await list(`?q=${encodeURIComponent("قافله الملح")}`);
          expect(found.items).toHaveLength(1);
          const file = found.items[0];
          expect(file).toMatchObject({ kind: "image", width: 320, height: 200, name: "قافلة-الملح.png", usageCount: 0 });
          expect(file.url).toMatch(/^\/uploads\/library\//);
          expect((await fetch(base + file.url)).status).toBe(200);

          // Searched on the screen, typed without the ta marbuta and with a hamza: still found.
          await page.fill('[data-testid="library-q"]', "قافله");
          await page.click('[data-testid="library-search-submit"]');
          await page.waitForURL((url) => url.searchParams.get("q") === "قافله");
          await expect.poll(() => page.locator('[data-testid="library-item"]').count()).toBe(1);
          expect(await page.locator('[data-testid="library-usage"]').first().textContent()).toBe("غير مستخدم");

          // Its details: texts in both languages, the focal point by keyboard then by a click.
          await page.click('[data-testid="library-item"]');
          const dialog = page.locator('[data-testid="library-details"]');
          await dialog.waitFor();
          expect(await dialog.locator('[data-testid="library-dimensions"]').textContent()).toBe("320 × 200");
          expect(await mainViolations(page)).toEqual([]);
          await page.fill('[data-testid="library-alt_ar"]', "قافلة جمال تحمل الملح في الصحراء");
          await page.fill('[data-testid="library-alt_fr"]', "Une caravane de dromadaires chargée de sel");
          await page.fill('[data-testid="library-caption_ar"]', "قافلة الملح قرب تاودني");
          await page.fill('[data-testid="library-credit_fr"]', "Photo : Mariem Sidi");
          const focal = page.locator('[data-testid="library-focal"]');
          await focal.focus();
          await page.keyboard.press("Shift+ArrowRight");
          await page.keyboard.press("Shift+ArrowRight");
          await page.keyboard.press("ArrowUp");
          expect(await focal.getAttribute("aria-valuetext")).toBe("أفقياً 70٪، عمودياً 49٪");
          await page.click('[data-testid="library-save"]');
          await expectToast(page, "حُفظت بيانات الملف.");
          let saved = (await (await call("GET", `/api/admin/library/${file.id}`)).json()) as LibraryFile;
          expect(saved).toMatchObject({
            alt: { ar: "قافلة جمال تحمل الملح في الصحراء", fr: "Une caravane de dromadaires chargée de sel" },
            caption: { ar: "قافلة الملح قرب تاودني", fr: "" },
            credit: { ar: "", fr: "Photo : Mariem Sidi" },
            focal: { x: 0.7, y: 0.49 },
          });
          const box = (await focal.boundingBox())!;
          await page.mouse.click(box.x + box.width * 0.25, box.y + box.height * 0.75);
          await page.click('[data-testid="library-save"]');
          await expect
            .poll(async () => ((await (await call("GET", `/api/admin/library/${file.id}`)).json()) as LibraryFile).focal.x, { timeout: 10_000 })
            .toBeCloseTo(0.25, 1);
          saved = (await (await call("GET", `/api/admin/library/${file.id}`)).json()) as LibraryFile;
          expect(saved.focal.y).toBeCloseTo(0.75, 1);
          // Found by its alt text in French too.
          expect((await list(`?q=${encodeURIComponent("DROMADAIRES")}`)).items.map((i) => i.id)).toEqual([file.id]);
          await page.keyboard.press("Escape");
          await dialog.waitFor({ state: "hidden" });

          // An article uses it: the library counts it and names it.
          const articles = (await (await call("GET", "/api/admin/articles")).json()) as { items: { id: number; title: string }[] };
          const article = articles.items[0];
          const patched = await call("PATCH", `/api/admin/articles/${article.id}`, { body: { image_url: file.url } });
          expect(patched.status).toBe(200);
          await page.reload();
          expect(await page.locator('[data-testid="library-usage"]').first().textContent()).toBe("مستخدم في عنصر واحد");

          // The API refuses to delete a file in use without force, and says where it is used.
          const refused = await call("DELETE", `/api/admin/library/${file.id}`);
          expect(refused.status).toBe(409);
          const answer = (await refused.json()) as { error: { code: string }; usage: LibraryUsage[] };
          expect(answer.error.code).toBe("FILE_IN_USE");
          expect(answer.usage).toEqual([
            { type: "article", id: article.id, title: article.title, href: `/admin/articles/${article.id}`, published: expect.any(Boolean) as boolean },
          ]);

          // The screen asks first, naming the article, then deletes it and its stored file.
          await page.click('[data-testid="library-item"]');
          await dialog.waitFor();
          expect(await dialog.locator('[data-testid="library-usage-list"]').textContent()).toContain(article.title);
          await page.click('[data-testid="library-delete"]');
          const confirm = page.locator('[data-testid="library-delete-confirm"]');
          await confirm.waitFor();
          expect(await confirm.locator('[data-testid="library-delete-usage"] li > span[dir="auto"]').textContent()).toBe(article.title);
          expect(await mainViolations(page)).toEqual([]);
          await page.click('[data-testid="library-delete-submit"]');
          await expectToast(page, "حُذف الملف من المكتبة.");
          await dialog.waitFor({ state: "hidden" });
          expect((await call("GET", `/api/admin/library/${file.id}`)).status).toBe(404);
          expect((await fetch(base + file.url)).status).toBe(404);
          await expect.poll(() => page.locator('[data-testid="library-item"]').count()).toBe(0);
        });
      } finally {
        await context.close();
      }
    },
    180_000,
  );

  it.skipIf(!hasChromium)(
    "is linked from the menu and the upload hub, axe clean in Arabic and French at 375 and 1280 px, nothing wider than the screen",
    async () => {
      fs.mkdirSync(SHOTS, { recursive: true });
      for (const locale of ["ar", "fr"] as const) {
        for (const width of [375, 1280]) {
          const { page, context } = await signedInPage(browser!, server, server.personas.editor, { viewport: { width, height: 900 }, locale });
          try {
            await keepEvidence(page, `library-${locale}-${width}`, async () => {
              await open(page, base + "/admin/upload");
              await page.click('[data-testid="upload-library-link"]');
              await page.waitForURL((url) => url.pathname === "/admin/library");
              await page.locator('[data-testid="library-grid"]').waitFor();
              expect(await page.locator("html").getAttribute("dir")).toBe(locale === "ar" ? "rtl" : "ltr");
              expect(await mainViolations(page)).toEqual([]);
              expect(await horizontalOverflow(page)).toBe(0);
              await shot(page, `library-${locale}-${width}.png`);
              await page.click('[data-testid="library-filter-image"]');
              await page.waitForURL((url) => url.searchParams.get("kind") === "image");
              await page.locator('[data-testid="library-item"]').first().click();
              await page.locator('[data-testid="library-details"]').waitFor();
              expect(await mainViolations(page)).toEqual([]);
              await shot(page, `library-details-${locale}-${width}.png`);
            });
          } finally {
            await context.close();
          }
        }
      }
      // The menu has it, for whoever may write content.
      const { page, context } = await signedInPage(browser!, server, server.personas.editor, { viewport: { width: 1280, height: 900 } });
      try {
        await open(page, base + "/admin");
        expect(await page.locator('[data-testid="admin-menu-link-library"]').first().getAttribute("href")).toBe("/admin/library");
      } finally {
        await context.close();
      }
    },
    240_000,
  );
});

async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SHOTS, name), fullPage: true });
}
