/**
 * Issue 28, the media library picked from the newsroom: an image uploaded into the library from a content form's
 * image field and saved with the item (the public page shows it with the library's alt text in the reader's
 * language, its caption and credit under it, and the card crops around its focal point); an image chosen in the
 * rich-text editor's dialog, inserted with its alt text; a URL the library does not have refused by the server;
 * the share image cropped around the focal point; the dialog clean for axe in Arabic and French; screenshots of the dialog and of a detail page with a caption.
 */
import fs from "node:fs";
import path from "node:path";
import { AxeBuilder } from "@axe-core/playwright";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localizedPath } from "#domain/addresses.ts";
import type { Browser, Page } from "playwright-core";
import { DESKTOP, hasChromium, PHONE } from "#tests/e2e/support/browser.ts";
import { projectRoot } from "#tests/e2e/support/server.ts";
import { horizontalOverflow } from "#tests/e2e/support/a11y.ts";
import {
  contentEditor,
  keepEvidence,
  open,
  richEditorReady,
  saveAndExpectToast,
  signedInPage,
  staffItem,
  startNewsroomBrowser,
  stopNewsroomBrowser,
  typeBody,
  type NewsroomServer,
} from "#tests/e2e/newsroom/support.ts";

const DETAILS = {
  alt: { ar: "قافلة جمال عند الغروب في أدرار", fr: "Caravane de chameaux au coucher du soleil en Adrar" },
  caption: { ar: "قافلة الملح تعبر الكثبان قرب شنقيط", fr: "La caravane du sel traverse les dunes près de Chinguetti" },
  credit: { ar: "تصوير: محمد الأمين", fr: "Photo : Mohamed Lemine" },
  focal: { x: 0.2, y: 0.8 },
};

const SCREENSHOTS = path.join(projectRoot, "tests/e2e/screenshots");

/** A 200×400 portrait, red above and blue below: where a crop was taken shows in its colours. */
function portrait(): Promise<Buffer> {
  const [width, height] = [200, 400];
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set(y < height / 2 ? [200, 30, 30] : [30, 60, 200], (y * width + x) * 3);
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

type LibraryItem = { id: number; url: string; name: string; alt: { ar: string; fr: string } };

/** The attributes of the first `<img …>` in `html` whose src is `src`. */
function imgWithSrc(html: string, src: string): Record<string, string> | null {
  for (const m of html.matchAll(/<img\s([^>]*?)\/?>/g)) {
    const attrs = Object.fromEntries([...m[1].matchAll(/([\w-]+)="([^"]*)"/g)].map(([, k, v]) => [k, v.replace(/&amp;/g, "&").replace(/&quot;/g, '"')]));
    if (attrs.src === src) return attrs;
  }
  return null;
}

describe.skipIf(!hasChromium)("picking from the media library", () => {
  let browser: Browser;
  let server: NewsroomServer<"editor">;
  let base: string;
  /** The file uploaded in the first test, used again by the next ones. */
  let picked: LibraryItem | null = null;
  /** The news item saved with it in the first test. */
  let pickedNews: { id: number; title: string; url: string } | null = null;

  beforeAll(async () => {
    ({ server, base, browser } = await startNewsroomBrowser({ editor: contentEditor("picker@library.test") }));
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  });

  afterAll(() => stopNewsroomBrowser(browser, server));

  const as = (opts: Parameters<typeof signedInPage>[3] = {}) => signedInPage(browser, server, server.personas.editor, opts);
  const staff = (extra: Record<string, string> = {}) => ({ cookie: server.personas.editor.cookie, origin: base, ...extra });

  async function libraryFind(q: string): Promise<LibraryItem[]> {
    const res = await fetch(`${base}/api/admin/library?kind=image&q=${encodeURIComponent(q)}`, { headers: staff() });
    expect(res.status).toBe(200);
    return ((await res.json()) as { items: LibraryItem[] }).items;
  }

  async function fillNews(page: Page, title: string) {
    await open(page, `${base}/admin/news/new`);
    await richEditorReady(page);
    await page.fill('[data-testid="input-title"]', title);
    await page.fill('[data-testid="input-excerpt"]', "مقتطف الخبر للاختبار");
    await typeBody(page, "نص الخبر كاملاً كما كتبه المحرر في الصباح.");
    await page.selectOption('[data-testid="input-category_id"]', { index: 1 });
  }

  it("uploads into the library from an image field, saves the item with it, and readers get its alt text, caption, credit and focal point", async () => {
    const { context, page } = await as({ viewport: DESKTOP });
    await keepEvidence(
      page,
      "library-pick-form",
      async () => {
        const title = `خبر بصورة من المكتبة ${Date.now().toString(36)}`;
        const name = `qafila-${Date.now().toString(36)}.png`;
        await fillNews(page, title);

        await page.click('[data-testid="library-open-image_url"]');
        const dialog = page.locator('[data-testid="library-picker"]');
        await dialog.waitFor();
        expect(await dialog.evaluate((d: HTMLDialogElement) => d.open && d.matches(":modal"))).toBe(true);
        expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("library-picker-search");
        // Upload a new file from inside the dialog: by tus, into the library, and chosen at once.
        await page.setInputFiles('[data-testid="library-picker-upload"]', { name, mimeType: "image/png", buffer: await portrait() });
        await page.locator('[data-testid="library-chosen-image_url"]').waitFor();
        expect(await dialog.count()).toBe(0);
        const url = await page.inputValue('[data-testid="library-image_url"]');
        await page.locator('[data-testid="library-chosen-image_url"]').scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(SCREENSHOTS, "library-pick-image-field-ar-1280.png") });
        expect(url).toMatch(/^\/uploads\/news\/.+\.200x400\.png$/);

        // The library knows it; its texts and focal point are written there (as the library screen does).
        const [file] = await libraryFind(name.replace(/\.png$/, ""));
        expect(file?.url).toBe(url);
        picked = file;
        const patch = await fetch(`${base}/api/admin/library/${file.id}`, {
          method: "PATCH",
          headers: staff({ "content-type": "application/json" }),
          body: JSON.stringify(DETAILS),
        });
        expect(patch.status).toBe(200);

        await saveAndExpectToast(page, "news", "تم إنشاء الخبر بنجاح!");
        const id = Number(await page.locator('[data-testid="content-row"]', { hasText: title }).getAttribute("data-id"));
        const item = await staffItem(base, server.personas.editor.cookie, "news", id);
        expect(item.image_url).toBe(url);
        pickedNews = { id, title, url };

        // The public page, in Arabic then French: alt text, caption and credit in the reader's language.
        const ar = await (await fetch(base + localizedPath("ar", item.url))).text();
        const arImg = imgWithSrc(ar, url);
        expect(arImg?.alt).toBe(DETAILS.alt.ar);
        expect(arImg?.style).toBe("object-position:20% 80%");
        expect(ar).toMatch(/<figure[^>]*data-testid="detail-figure"/);
        expect(ar).toContain(`data-testid="image-caption">${DETAILS.caption.ar}</span>`);
        expect(ar).toContain(`data-testid="image-credit">${DETAILS.credit.ar}</span>`);
        const fr = await (await fetch(base + localizedPath("fr", item.url))).text();
        expect(imgWithSrc(fr, url)?.alt).toBe(DETAILS.alt.fr);
        expect(fr).toContain(DETAILS.caption.fr);
        expect(fr).toContain(DETAILS.credit.fr);

        // The share image: 1200×630, cropped around the focal point (low in the picture: its blue half only).
        const og = /<meta property="og:image" content="([^"]+)"/.exec(ar)?.[1].replace(/&amp;/g, "&");
        expect(og).toBe(`${base}/social/share?${new URLSearchParams({ src: url, f: "0.2,0.8" })}`);
        const share = await fetch(og!);
        expect(share.status).toBe(200);
        expect(share.headers.get("content-type")).toBe("image/jpeg");
        const { data, info } = await sharp(Buffer.from(await share.arrayBuffer()))
          .raw()
          .toBuffer({ resolveWithObject: true });
        expect([info.width, info.height]).toEqual([1200, 630]);
        const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
        for (const [x, y] of [
          [10, 10],
          [600, 315],
          [1190, 620],
        ])
          expect(pixel(x, y)[2], `pixel ${x},${y} is blue`).toBeGreaterThan(150);

        // The card on /news crops around the focal point and carries the alt text.
        const list = await (await fetch(base + localizedPath("ar", "/news"))).text();
        const card = imgWithSrc(list, url);
        expect(card?.style).toBe("object-position:20% 80%");
        expect(card?.alt).toBe(DETAILS.alt.ar);

        // Screenshots of the detail page with its caption, in Arabic and French, phone and desktop.
        for (const lang of ["ar", "fr"] as const) {
          for (const viewport of [PHONE, DESKTOP]) {
            const reader = await browser.newContext({ viewport });
            const p = await reader.newPage();
            await p.goto(base + localizedPath(lang, item.url));
            const figure = p.locator('[data-testid="detail-figure"]');
            await figure.waitFor();
            expect(await horizontalOverflow(p)).toBe(0);
            // The caption starts where the reader's lines start: the right in Arabic, the left in French.
            const [figBox, capBox] = await Promise.all([figure.boundingBox(), p.locator('[data-testid="image-caption"]').boundingBox()]);
            if (lang === "ar") expect(Math.abs(figBox!.x + figBox!.width - (capBox!.x + capBox!.width))).toBeLessThan(20);
            else expect(Math.abs(capBox!.x - figBox!.x)).toBeLessThan(20);
            await figure.scrollIntoViewIfNeeded();
            await p.screenshot({ path: path.join(SCREENSHOTS, `library-pick-detail-${lang}-${viewport.width}.png`) });
            await reader.close();
          }
        }
      },
      server.output,
    );
    await context.close();
  });

  it("gives its alt text and focal point to the search results and to the news cards that 'load more' brings", async () => {
    expect(pickedNews).not.toBeNull();
    const { id, title, url } = pickedNews!;

    // The search results, in French: the library's French alt text, cropped around the focal point.
    const found = await (await fetch(base + localizedPath("fr", `/search?q=${encodeURIComponent(title)}`))).text();
    expect(imgWithSrc(found, url)).toMatchObject({ alt: DETAILS.alt.fr, style: "object-position:20% 80%" });

    // The JSON the listing loads its next pages from carries the details of that page's pictures.
    type NewsJson = { items: { id: number }[]; total: number | null; images: Record<string, unknown> };
    const first = (await (await fetch(`${base}/api/news?page=1`)).json()) as NewsJson;
    expect(first.items.some((n) => n.id === id)).toBe(true);
    expect(first.images[url]).toMatchObject({ alt: DETAILS.alt, focal: DETAILS.focal });

    // A page's worth of newer news pushes it to the listing's second page: only "load more" shows it.
    const { category_id } = (await staffItem(base, server.personas.editor.cookie, "news", id)) as { category_id?: number };
    for (let i = 0; i < first.items.length; i++) {
      const created = await fetch(`${base}/api/admin/news`, {
        method: "POST",
        headers: staff({ "content-type": "application/json" }),
        body: JSON.stringify({
          title: `خبر أحدث من خبر الصورة رقم ${i + 1}`,
          excerpt: "مقتطف خبر أحدث للاختبار",
          content: "<p>نص خبر أحدث كتبه المحرر للاختبار.</p>",
          category_id,
          priority: "high",
          location: "شنقيط",
          status: "published",
        }),
      });
      expect(created.status, await created.clone().text()).toBe(201);
    }

    const served = await (await fetch(base + localizedPath("ar", "/news"))).text();
    expect(served).toContain('data-testid="news-list"');
    expect(imgWithSrc(served, url)).toBeNull();

    const reader = await browser.newContext({ viewport: DESKTOP });
    const p = await reader.newPage();
    await p.goto(base + localizedPath("ar", "/news"));
    const card = p.locator(`[data-testid="news-list"] img[src="${url}"]`);
    // The infinite scroll: the sentinel brought into view again and again until the picture or the list's end.
    await p.waitForFunction(
      (src) => {
        document.querySelector('[data-testid="news-sentinel"]')?.scrollIntoView();
        return Boolean(document.querySelector(`[data-testid="news-list"] img[src="${src}"]`) || document.querySelector('[data-testid="news-end"]'));
      },
      url,
      { polling: 250, timeout: 30_000 },
    );
    expect(await card.count()).toBe(1);
    expect(await card.getAttribute("alt")).toBe(DETAILS.alt.ar);
    expect(await card.evaluate((img: HTMLImageElement) => img.style.objectPosition)).toBe("20% 80%");
    await reader.close();
  });

  it("inserts an image chosen in the rich-text editor's dialog with the library's alt text, still editable", async () => {
    expect(picked, "the first test uploaded the file").not.toBeNull();
    const file = picked!;
    const { context, page } = await as({ viewport: DESKTOP });
    await keepEvidence(
      page,
      "library-pick-editor",
      async () => {
        await open(page, `${base}/admin/articles/new`);
        await richEditorReady(page);
        await typeBody(page, "فقرة أولى قبل الصورة.");
        await page.click('[data-testid="tool-image"]');
        await page.click('[data-testid="image-from-library"]');
        await page.locator('[data-testid="library-picker"]').waitFor();
        await page.fill('[data-testid="library-picker-search"]', file.name.replace(/\.png$/, ""));
        const tile = page.locator(`[data-testid="library-picker-item"][data-url="${file.url}"]`);
        await tile.waitFor();
        // The whole library may show for a moment before the search's answer replaces it.
        await expect.poll(() => page.locator('[data-testid="library-picker-item"]').count()).toBe(1);
        expect(await tile.textContent()).toContain(DETAILS.alt.ar);
        await tile.click();
        await page.locator('[data-testid="library-picker"]').waitFor({ state: "detached" });
        expect(await page.inputValue('[data-testid="image-url"]')).toBe(file.url);
        expect(await page.inputValue('[data-testid="image-alt"]')).toBe(DETAILS.alt.ar);
        await page.locator('[data-testid="image-alt-from-library"]').waitFor();
        await page.screenshot({ path: path.join(SCREENSHOTS, "library-pick-editor-panel-ar-1280.png") });
        // The editor may change it before inserting.
        const edited = `${DETAILS.alt.ar} في الصيف`;
        await page.fill('[data-testid="image-alt"]', edited);
        await page.click('[data-testid="image-insert"]');
        await page.waitForSelector(`[data-testid="editor-content"] img[src="${file.url}"][alt="${edited}"]`);
        expect(await page.inputValue('[data-testid="input-content"]')).toContain(`alt="${edited}"`);
      },
      server.output,
    );
    await context.close();
  });

  it("refuses, with the field's message, an image URL the library does not have", async () => {
    const { context, page } = await as({ viewport: DESKTOP });
    await keepEvidence(
      page,
      "library-pick-refused",
      async () => {
        await fillNews(page, `خبر بصورة مزورة ${Date.now().toString(36)}`);
        await page.evaluate(() => {
          const input = document.querySelector<HTMLInputElement>('[data-testid="library-image_url"]')!;
          input.value = "/uploads/news/1700000000000-abcdef-not-in-library.1600x900.jpg";
        });
        await page.click('[data-testid="save"]');
        const error = page.locator('[data-testid="error-image_url"]');
        await error.waitFor();
        expect(await error.textContent()).toBe("هذه الصورة ليست في المكتبة. اخترها من المكتبة من جديد.");
        expect(new URL(page.url()).pathname).toBe("/admin/news/new");
      },
      server.output,
    );
    await context.close();
  });

  for (const lang of ["ar", "fr"] as const) {
    it(`shows the dialog without serious accessibility problems and fitting the screen, in ${lang} (375 and 1280 px)`, async () => {
      for (const viewport of [PHONE, DESKTOP]) {
        const { context, page } = await as({ viewport, locale: lang });
        await keepEvidence(
          page,
          `library-pick-a11y-${lang}-${viewport.width}`,
          async () => {
            await open(page, `${base}/admin/news/new`);
            await page.click('[data-testid="library-open-image_url"]');
            const dialog = page.locator('[data-testid="library-picker"]');
            await dialog.waitFor();
            await page.locator('[data-testid="library-picker-item"]').first().waitFor();
            const labelled = await dialog.evaluate((d) => document.getElementById(d.getAttribute("aria-labelledby") ?? "")?.textContent);
            expect(labelled).toBe(lang === "ar" ? "اختيار من المكتبة" : "Choisir dans la médiathèque");
            const { violations } = await new AxeBuilder({ page })
              .include('[data-testid="library-picker"]')
              .options({ resultTypes: ["violations"] })
              .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
              .setLegacyMode(true)
              .analyze();
            const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes[0]?.html}`);
            expect(serious).toEqual([]);
            const box = await dialog.boundingBox();
            expect(box!.x).toBeGreaterThanOrEqual(0);
            expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
            await page.screenshot({ path: path.join(SCREENSHOTS, `library-pick-dialog-${lang}-${viewport.width}.png`) });
            // Escape closes it and gives the focus back to the button that opened it.
            await page.keyboard.press("Escape");
            await dialog.waitFor({ state: "detached" });
            expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("library-open-image_url");
          },
          server.output,
        );
        await context.close();
      }
    });
  }
});
