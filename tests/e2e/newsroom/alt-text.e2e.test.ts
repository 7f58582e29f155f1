/**
 * Alt text (issue 39, decision 0136): the demo article's lead picture is described to a screen reader on its public
 * page in Arabic and in French (the seed gives the demo pictures their alt text), and an editor who publishes an
 * item with a picture that has none is warned, in the toast that says it was saved and in the editor, without
 * being stopped: the item is published. Once the library has the picture's alt text, the editor stops warning.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, hasChromium } from "#tests/e2e/support/browser.ts";
import { makePng } from "#tests/helpers/png.ts";
import {
  contentEditor,
  expectToast,
  keepEvidence,
  open,
  richEditorReady,
  signedInPage,
  staffItem,
  startNewsroomBrowser,
  stopNewsroomBrowser,
  typeBody,
  type NewsroomBrowser,
} from "./support.ts";
import type { LibraryPage } from "#domain/library.ts";
import { localizedPath } from "#domain/addresses.ts";

type Who = "editor";

/** The alt attribute of the first `<img>` whose src contains `src`, or null. */
function altOf(html: string, src: string): string | null {
  for (const [tag] of html.matchAll(/<img\b[^>]*>/g)) {
    if (!tag.includes(src)) continue;
    return /\salt="([^"]*)"/.exec(tag)?.[1] ?? null;
  }
  return null;
}

describe.skipIf(!hasChromium)("alt text of pictures", () => {
  let env: NewsroomBrowser<Who>;
  let base: string;
  let cookie: string;

  beforeAll(async () => {
    env = await startNewsroomBrowser<Who>({ editor: contentEditor("alt-text@newsroom.test") });
    base = env.base;
    cookie = env.server.personas.editor.cookie;
  }, 240_000);
  afterAll(() => stopNewsroomBrowser(env?.browser, env?.server));

  it("describes the demo article's lead picture on its public page in Arabic and in French", async () => {
    const list = (await (await fetch(`${base}/api/admin/articles?status=published`, { headers: { cookie } })).json()) as { items: { id: number }[] };
    const article = await staffItem(base, cookie, "articles", list.items[0].id);
    const picture = article.image_url!;
    expect(picture).toMatch(/^\/uploads\/demo\/images\/articles\//);
    const alts: Record<string, string | null> = {};
    for (const lang of ["ar", "fr"] as const) {
      const res = await fetch(base + localizedPath(lang, article.url));
      expect(res.status).toBe(200);
      alts[lang] = altOf(await res.text(), picture);
    }
    expect(alts.ar).toMatch(/^رسم ل/);
    expect(alts.fr).toMatch(/^Illustration : /);
  });

  it("warns an editor who publishes a picture without alt text, publishes all the same, and stops once it has one", async () => {
    const title = `خبر بصورة بلا وصف ${Date.now().toString(36)}`;
    const { context, page } = await signedInPage(env.browser, env.server, env.server.personas.editor, { viewport: DESKTOP });
    let id = 0;
    try {
      await keepEvidence(page, "alt-text-warning", async () => {
        await open(page, `${base}/admin/news/new`);
        await richEditorReady(page);
        await page.fill('[data-testid="input-title"]', title);
        await page.fill('[data-testid="input-excerpt"]', "مقتطف الخبر للاختبار");
        await typeBody(page, "نص الخبر كاملاً كما كتبه المحرر.");
        await page.selectOption('[data-testid="input-category_id"]', { index: 1 });
        await page.setInputFiles('[data-testid="input-image_url"]', { name: "camel.png", mimeType: "image/png", buffer: makePng(64, 48) });
        await page.click('[data-testid="save"]');
        await page.waitForURL((url) => url.pathname === "/admin/news");
        const toast = await expectToast(page, "صور بلا نص بديل");
        expect(await toast.textContent()).toContain("(عددها: 1)");
        id = Number(await page.locator('[data-testid="content-row"]', { hasText: title }).getAttribute("data-id"));
        expect((await staffItem(base, cookie, "news", id)).status).toBe("published");

        // The editor names it, before the next publication.
        await open(page, `${base}/admin/news/${id}`);
        const notice = page.locator('[data-testid="alt-warning"]');
        await notice.waitFor();
        expect(await notice.getAttribute("data-count")).toBe("1");
        expect(await notice.textContent()).toContain("صورة واحدة في هذه المادة بلا نص بديل");
      });
    } finally {
      await context.close();
    }

    // In French too.
    const fr = await signedInPage(env.browser, env.server, env.server.personas.editor, { viewport: DESKTOP, locale: "fr" });
    try {
      await open(fr.page, `${base}/admin/news/${id}`);
      const notice = fr.page.locator('[data-testid="alt-warning"]');
      await notice.waitFor();
      expect(await notice.textContent()).toContain("Images sans texte alternatif");
      expect(await notice.textContent()).toContain("1 image de ce contenu n’a pas de texte alternatif");

      // Described in the library: no warning any more.
      const picture = (await staffItem(base, cookie, "news", id)).image_url!;
      const found = (await (await fetch(`${base}/api/admin/library?kind=image&pageSize=100`, { headers: { cookie } })).json()) as LibraryPage;
      const file = found.items.find((i) => i.url === picture)!;
      const patched = await fetch(`${base}/api/admin/library/${file.id}`, {
        method: "PATCH",
        headers: { cookie, origin: base, "content-type": "application/json" },
        body: JSON.stringify({ alt: { ar: "جمل في الصحراء", fr: "Un dromadaire dans le désert" } }),
      });
      expect(patched.status).toBe(200);
      await open(fr.page, `${base}/admin/news/${id}`);
      await fr.page.locator('[data-testid="input-title"]').waitFor();
      expect(await fr.page.locator('[data-testid="alt-warning"]').count()).toBe(0);
    } finally {
      await fr.context.close();
    }
  }, 180_000);
});
