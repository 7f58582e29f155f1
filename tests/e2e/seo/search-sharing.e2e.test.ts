/**
 * Search and sharing fields per item (issue 29), in Chromium and in Arabic: the editor's section and its two
 * previews, the public page's meta tags saying what the previews showed, the defaults when the fields are
 * blank, noindex (robots meta, out of the sitemap), the rich-text editor's link options kept exactly on the
 * public page, and a bad canonical URL refused in the form and over the JSON API. French labels too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { DESKTOP, hasChromium } from "#tests/e2e/support/browser.ts";
import {
  bodyHolds,
  contentEditor,
  keepEvidence,
  mainViolations,
  open,
  publicPage,
  richEditorReady,
  saveAndExpectToast,
  signedInPage,
  sitemapUrls,
  staffItem,
  startNewsroomBrowser,
  stopNewsroomBrowser,
  tinyPng,
  typeBody,
  type NewsroomServer,
} from "#tests/e2e/newsroom/support.ts";

const CANONICAL_MESSAGE = "الرابط الأصلي يجب أن يكون رابطاً كاملاً يبدأ بـ http:// أو https://";
const DEMO_IMAGE = "/uploads/demo/images/articles/tidinit-desert-lute.svg";

const decode = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** A meta tag's content (by name or property) or a link's href in the page's HTML, decoded; null when absent. */
function metaOf(html: string, key: string): string | null {
  const tags = html.match(/<(?:meta|link)\b[^>]*>/g) ?? [];
  for (const tag of tags) {
    const attrs = Object.fromEntries([...tag.matchAll(/([a-z:-]+)="([^"]*)"/gi)].map((m) => [m[1].toLowerCase(), decode(m[2])]));
    if (key === "canonical" && attrs.rel === "canonical") return attrs.href ?? null;
    if (attrs.name === key || attrs.property === key) return attrs.content ?? null;
  }
  return null;
}

/** The picture an og:image shows: the share crop's source (/social/share?src=…) or the address itself, as a path on the site. */
function ogImageSource(og: string, base: string): string {
  const url = new URL(og);
  return url.pathname === "/social/share" ? (url.searchParams.get("src") ?? "") : og.startsWith(base) ? og.slice(base.length) : og;
}

/** What the editor's previews show. */
async function previewOf(page: Page) {
  const text = async (testId: string) => (await page.textContent(`[data-testid="${testId}"]`))?.trim() ?? "";
  return {
    cardTitle: await text("share-card-title"),
    cardDescription: await text("share-card-description"),
    cardDomain: await text("share-card-domain"),
    cardImage: (await page.locator('[data-testid="share-card-image"]').count()) ? await page.getAttribute('[data-testid="share-card-image"]', "src") : null,
    snippetTitle: await text("snippet-title"),
    snippetTitleFull: (await page.getAttribute('[data-testid="snippet-title"]', "data-full")) ?? "",
    snippetDescription: await text("snippet-description"),
    snippetUrl: (await page.getAttribute('[data-testid="snippet-url"]', "data-url")) ?? "",
    noindex: (await page.locator('[data-testid="snippet-noindex"]').count()) > 0,
  };
}

async function openSection(page: Page) {
  const details = page.locator('[data-testid="search-sharing"]');
  if ((await details.getAttribute("open")) === null) await page.click('[data-testid="search-sharing-toggle"]');
  await page.waitForSelector('[data-testid="input-meta_description"]', { state: "visible" });
}

describe.skipIf(!hasChromium)("search and sharing fields", () => {
  let browser: Browser;
  let server: NewsroomServer<"editor">;
  let base: string;

  beforeAll(async () => {
    ({ server, base, browser } = await startNewsroomBrowser({ editor: contentEditor("seo@editor.test", "محررة البحث") }));
  });

  afterAll(() => stopNewsroomBrowser(browser, server));

  const as = (locale = "ar") => signedInPage(browser, server, server.personas.editor, { viewport: DESKTOP, locale });
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${base}/api/admin/${path}`, {
      method,
      headers: { cookie: server.personas.editor.cookie, origin: base, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  async function newArticle(title: string, extra: Record<string, unknown> = {}) {
    const res = await api("POST", "articles", {
      title,
      excerpt: "مقتطف المقال كما يظهر تحت العنوان في البطاقات",
      content: "<p>نص المقال كاملاً كما كتبته المحررة في الصباح.</p>",
      category_id: "1",
      status: "published",
      ...extra,
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: number; url: string } & Record<string, unknown>;
  }

  it("shows the fields in their own section, previews the share card and the snippet, and the page says the same", async () => {
    const { context, page, errors } = await as();
    await keepEvidence(page, "seo-preview", async () => {
      const title = `مقال للمشاركة ${Date.now().toString(36)}`;
      const excerpt = "مقتطف المقال الذي يظهر في البطاقات وتحت العنوان";
      await open(page, `${base}/admin/articles/new`);
      await richEditorReady(page);
      await page.fill('[data-testid="input-title"]', title);
      await page.fill('[data-testid="input-excerpt"]', excerpt);
      await typeBody(page, "نص المقال كاملاً بما يكفي من الحروف للحفظ.");
      await page.selectOption('[data-testid="input-category_id"]', { index: 1 });

      // The section, closed at first, with the spec's name; the defaults are the placeholders.
      expect((await page.textContent('[data-testid="search-sharing-toggle"]'))?.trim()).toContain("محركات البحث والمشاركة");
      await openSection(page);
      expect(await page.getAttribute('[data-testid="input-share_title"]', "placeholder")).toBe(title);
      expect(await page.getAttribute('[data-testid="input-meta_description"]', "placeholder")).toBe(excerpt);
      let preview = await previewOf(page);
      expect(preview.cardTitle).toBe(title);
      expect(preview.cardDescription).toBe(excerpt);

      // Filled: the previews follow as it is typed.
      const metaDescription = `وصف للمحركات: ${"نواكشوط مدينة الرمال والمحيط، ".repeat(8)}`.trim();
      const shareTitle = "عنوان خاص بالمشاركة على فيسبوك وواتساب";
      const canonical = "https://original.example/ar/story-1";
      await page.fill('[data-testid="input-meta_description"]', metaDescription);
      await page.fill('[data-testid="input-share_title"]', shareTitle);
      await page.fill('[data-testid="input-canonical_url"]', canonical);
      await page.setInputFiles('[data-testid="input-share_image_url"]', { name: "بطاقة.png", mimeType: "image/png", buffer: tinyPng(64, [20, 90, 160]) });
      await page.waitForSelector('[data-testid="share-card-image"][src^="blob:"]');
      preview = await previewOf(page);
      expect(preview.cardTitle).toBe(shareTitle);
      expect(preview.cardDescription).toBe(metaDescription.slice(0, 300));
      expect(preview.cardDomain).toBe(new URL(base).host);
      expect(preview.snippetUrl).toBe(canonical);
      // The snippet cuts the description as Google does (about 160 characters, with «…»); the title keeps the site's name.
      expect(preview.snippetDescription.endsWith("…")).toBe(true);
      expect(preview.snippetDescription.length).toBeLessThanOrEqual(161);
      expect(metaDescription.startsWith(preview.snippetDescription.slice(0, -1))).toBe(true);
      expect(preview.snippetTitleFull.startsWith(`${title} | `)).toBe(true);
      // Right to left where the text is Arabic; the address left to right.
      expect(await page.getAttribute('[data-testid="share-card-title"]', "dir")).toBe("auto");
      expect(await page.$eval('[data-testid="share-card-title"]', (n) => getComputedStyle(n).direction)).toBe("rtl");
      expect(await page.getAttribute('[data-testid="snippet-url"]', "dir")).toBe("ltr");
      expect(await mainViolations(page)).toEqual([]);
      if (process.env.SEO_SHOTS) await page.locator('[data-testid="search-sharing"]').screenshot({ path: `${process.env.SEO_SHOTS}/search-sharing-ar.png` });

      await saveAndExpectToast(page, "articles", "تم إنشاء المقال بنجاح!");
      const id = Number(await page.locator('[data-testid="content-row"]', { hasText: title }).getAttribute("data-id"));

      // The JSON API gives the fields back by their names.
      const item = (await staffItem(base, server.personas.editor.cookie, "articles", id)) as unknown as Record<string, unknown> & { url: string };
      expect(item).toMatchObject({ meta_description: metaDescription, share_title: shareTitle, canonical_url: canonical, noindex: false });
      const shareImage = String(item.share_image_url);
      expect(shareImage).toMatch(/^\/uploads\/.+\.png$/);

      // Opened again, the saved item's previews…
      await open(page, `${base}/admin/articles/${id}`);
      expect(await page.getAttribute('[data-testid="search-sharing"]', "open")).not.toBeNull();
      await page.waitForSelector(`[data-testid="share-card-image"][src="${shareImage}"]`);
      preview = await previewOf(page);

      // …are what the public page's meta tags say.
      const reader = await publicPage(base, item.url);
      expect(reader.status).toBe(200);
      expect(metaOf(reader.text, "description")).toBe(preview.cardDescription);
      expect(metaOf(reader.text, "og:description")).toBe(preview.cardDescription);
      expect(metaOf(reader.text, "og:title")).toBe(preview.cardTitle);
      expect(metaOf(reader.text, "twitter:title")).toBe(preview.cardTitle);
      expect(metaOf(reader.text, "canonical")).toBe(preview.snippetUrl);
      expect(ogImageSource(metaOf(reader.text, "og:image")!, base)).toBe(preview.cardImage);
      expect(reader.text).toContain(`<title>${preview.snippetTitleFull}</title>`);
      expect(metaOf(reader.text, "robots")).toBe("max-image-preview:large");
      // The page's own URL stays its og:url, so the card names this site.
      expect(metaOf(reader.text, "og:url")).toBe(`${base}${item.url}`);
      expect(errors).toEqual([]);
    });
    await context.close();
  });

  it("uses the title, the excerpt, the main image and the page's own address when the fields are blank", async () => {
    const title = `مقال بلا حقول مشاركة ${Date.now().toString(36)}`;
    const item = await newArticle(title, { image_url: DEMO_IMAGE });
    expect(item).toMatchObject({ meta_description: null, share_title: null, share_image_url: null, canonical_url: null, noindex: false });
    const { context, page } = await as();
    await keepEvidence(page, "seo-defaults", async () => {
      await open(page, `${base}/admin/articles/${item.id}`);
      await openSection(page);
      const preview = await previewOf(page);
      expect(preview.cardTitle).toBe(title);
      expect(preview.cardDescription).toBe(item.excerpt);
      expect(preview.cardImage).toBe(DEMO_IMAGE);
      expect(decodeURIComponent(preview.snippetUrl)).toBe(decodeURIComponent(`${base}${item.url}`));

      const reader = await publicPage(base, item.url);
      expect(metaOf(reader.text, "description")).toBe(preview.cardDescription);
      expect(metaOf(reader.text, "og:title")).toBe(preview.cardTitle);
      expect(ogImageSource(metaOf(reader.text, "og:image")!, base)).toBe(preview.cardImage);
      expect(decodeURIComponent(metaOf(reader.text, "canonical")!)).toBe(decodeURIComponent(preview.snippetUrl));
      expect(metaOf(reader.text, "robots")).toBe("max-image-preview:large");
    });
    await context.close();
  });

  it("keeps a noindex item out of search engines: robots noindex on its page, not in the sitemap", async () => {
    const stamp = Date.now().toString(36);
    const hidden = await newArticle(`مقال مخفي عن المحركات ${stamp}`, { noindex: true });
    const shown = await newArticle(`مقال ظاهر للمحركات ${stamp}`);
    expect(hidden.noindex).toBe(true);

    const page1 = await publicPage(base, hidden.url);
    expect(page1.status).toBe(200);
    // Noindex alone: nothing else the page says to search engines matters then.
    expect(page1.text.match(/<meta name="robots"/g)).toHaveLength(1);
    expect(metaOf(page1.text, "robots")).toBe("noindex");
    expect(metaOf((await publicPage(base, shown.url)).text, "robots")).toBe("max-image-preview:large");
    const sitemap = await sitemapUrls(base);
    expect(sitemap).toContain(`${base}${shown.url}`);
    expect(sitemap).not.toContain(`${base}${hidden.url}`);

    // Indexed again: back in the sitemap.
    const res = await api("PATCH", `articles/${hidden.id}`, { noindex: false });
    expect(res.status).toBe(200);
    expect(await sitemapUrls(base)).toContain(`${base}${hidden.url}`);
    expect(metaOf((await publicPage(base, hidden.url)).text, "robots")).toBe("max-image-preview:large");

    // The editor's snippet says the page will not show in search results.
    const { context, page } = await as();
    await keepEvidence(page, "seo-noindex", async () => {
      // The change is a revision like any field's: the last two saves differ by noindex only.
      await open(page, `${base}/admin/articles/${hidden.id}/revisions`);
      expect(await page.$$eval('[data-testid^="diff-"][aria-labelledby]', (s) => s.map((x) => x.getAttribute("data-testid")))).toEqual(["diff-noindex"]);
      expect(await page.textContent('[data-testid="diff-noindex"]')).toContain("إخفاء من محركات البحث (noindex)");
      await open(page, `${base}/admin/articles/${shown.id}`);
      await openSection(page);
      expect((await previewOf(page)).noindex).toBe(false);
      await page.check('[data-testid="input-noindex"]');
      await page.waitForSelector('[data-testid="snippet-noindex"]');
      expect(await page.textContent('[data-testid="snippet-noindex"]')).toBe("لن تظهر هذه الصفحة في نتائج البحث.");
    });
    await context.close();
  });

  it("keeps the link options the editor chose, and forces none", async () => {
    const { context, page } = await as();
    await keepEvidence(page, "seo-links", async () => {
      const title = `مقال بروابط ${Date.now().toString(36)}`;
      await open(page, `${base}/admin/articles/new`);
      await richEditorReady(page);
      await page.fill('[data-testid="input-title"]', title);
      await page.fill('[data-testid="input-excerpt"]', "مقتطف مقال الروابط للاختبار");
      await typeBody(page, "فقرة أولى من المقال تكفي للحفظ دون مشكلة.");
      await bodyHolds(page, "فقرة أولى من المقال تكفي للحفظ دون مشكلة.</p>");
      // Both paragraphs are typed first: once a link is applied, Tiptap hands the focus and the selection back on a
      // later frame, and keys pressed meanwhile would act on the old selection. Each key waits for the text before
      // it to be in the editor's document (bodyHolds).
      await page.keyboard.press("Enter");
      await page.keyboard.insertText("عرض الراعي");
      await bodyHolds(page, "<p>عرض الراعي</p>");
      await page.keyboard.press("Enter");
      await page.keyboard.insertText("مصدر الخبر");
      await bodyHolds(page, "<p>مصدر الخبر</p>");
      const paragraph = (text: string) => page.locator('[data-testid="editor-content"] p', { hasText: text });
      // A plain link, no option (the caret is at the end of its paragraph).
      await page.keyboard.press("Shift+Home");
      await page.click('[data-testid="tool-link"]');
      expect(await page.isChecked('[data-testid="link-newTab"]')).toBe(false);
      expect(await page.isChecked('[data-testid="link-nofollow"]')).toBe(false);
      expect(await page.isChecked('[data-testid="link-sponsored"]')).toBe(false);
      await page.fill('[data-testid="link-url"]', "https://plain.example/page");
      await page.click('[data-testid="link-apply"]');
      await page.waitForSelector('[data-testid="editor-content"] a[href="https://plain.example/page"]');
      // A sponsored link that opens a new tab, on the paragraph selected by a triple click.
      await paragraph("عرض الراعي").click({ clickCount: 3 });
      await page.click('[data-testid="tool-link"]');
      await page.fill('[data-testid="link-url"]', "https://sponsor.example/offer");
      await page.check('[data-testid="link-newTab"]');
      await page.check('[data-testid="link-sponsored"]');
      await page.click('[data-testid="link-apply"]');
      await page.waitForSelector('[data-testid="editor-content"] a[href="https://sponsor.example/offer"]');
      expect(await paragraph("مصدر الخبر").locator('a[href="https://plain.example/page"]').count()).toBe(1);
      // Opened again on the sponsored link, the panel shows its options.
      await page.click('[data-testid="editor-content"] a[href="https://sponsor.example/offer"]');
      await page.click('[data-testid="tool-link"]');
      expect(await page.isChecked('[data-testid="link-newTab"]')).toBe(true);
      expect(await page.isChecked('[data-testid="link-sponsored"]')).toBe(true);
      expect(await page.isChecked('[data-testid="link-nofollow"]')).toBe(false);
      await page.click('[data-testid="link-panel"] button:has-text("إلغاء")');
      await page.selectOption('[data-testid="input-category_id"]', { index: 1 });
      await saveAndExpectToast(page, "articles", "تم إنشاء المقال بنجاح!");

      const id = Number(await page.locator('[data-testid="content-row"]', { hasText: title }).getAttribute("data-id"));
      const item = await staffItem(base, server.personas.editor.cookie, "articles", id);
      const reader = await publicPage(base, item.url);
      const anchor = (href: string) => {
        const tag = reader.text.match(new RegExp(`<a [^>]*href="${href.replace(/[.?]/g, "\\$&")}"[^>]*>`))?.[0];
        expect(tag, href).toBeTruthy();
        return Object.fromEntries([...tag!.matchAll(/([a-z-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
      };
      expect(anchor("https://sponsor.example/offer")).toEqual({
        href: "https://sponsor.example/offer",
        target: "_blank",
        rel: "sponsored noopener noreferrer",
      });
      expect(anchor("https://plain.example/page")).toEqual({ href: "https://plain.example/page" });
    });
    await context.close();
  });

  it("refuses a canonical URL that is not a full address, in the form and over the JSON API", async () => {
    const { context, page } = await as();
    await keepEvidence(page, "seo-bad-canonical", async () => {
      await open(page, `${base}/admin/news/new`);
      await openSection(page);
      await page.fill('[data-testid="input-canonical_url"]', "original.example/story");
      await page.click('[data-testid="save"]');
      await page.waitForSelector('[data-testid="error-canonical_url"]');
      expect(await page.textContent('[data-testid="error-canonical_url"]')).toBe(CANONICAL_MESSAGE);
      await page.fill('[data-testid="input-canonical_url"]', "https://original.example/story");
      await page.waitForSelector('[data-testid="error-canonical_url"]', { state: "detached" });
    });
    await context.close();

    const res = await api("POST", "articles", {
      title: "مقال برابط أصلي خاطئ",
      excerpt: "مقتطف المقال للاختبار هنا",
      content: "<p>نص المقال كاملاً كما كتبته المحررة.</p>",
      category_id: "1",
      canonical_url: "javascript:alert(1)",
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { code: string; fields: Record<string, string> } };
    expect(body.error.code).toBe("VALIDATION");
    expect(body.error.fields).toEqual({ canonical_url: CANONICAL_MESSAGE });
    const created = await newArticle(`مقال برابط أصلي ${Date.now().toString(36)}`);
    const patch = await api("PATCH", `articles/${created.id}`, { canonical_url: "/articles/local" });
    expect(patch.status).toBe(422);
    expect(((await patch.json()) as { error: { fields: Record<string, string> } }).error.fields).toEqual({ canonical_url: CANONICAL_MESSAGE });
  });

  it("has its labels in French", async () => {
    const { context, page } = await as("fr");
    await keepEvidence(page, "seo-french", async () => {
      await open(page, `${base}/admin/articles/new`);
      expect((await page.textContent('[data-testid="search-sharing-toggle"]'))?.trim()).toContain("Moteurs de recherche et partage");
      await openSection(page);
      for (const [field, label] of [
        ["meta_description", "Description pour les moteurs de recherche"],
        ["share_title", "Titre de partage"],
        ["share_image_url", "Image de partage"],
        ["canonical_url", "URL canonique"],
        ["noindex", "Masquer aux moteurs de recherche (noindex)"],
      ]) {
        expect(await page.textContent(`#field-${field}-label`), field).toContain(label);
      }
      expect(await page.textContent('[data-testid="share-preview"] h3')).toBe("Aperçu de la carte de partage (Facebook, WhatsApp)");
      expect(await page.textContent('[data-testid="snippet-preview"] h3')).toBe("Aperçu du résultat de recherche");
      await richEditorReady(page);
      await page.click('[data-testid="tool-link"]');
      expect(await page.textContent('[data-testid="link-options"]')).toContain("Ouvrir dans un nouvel onglet");
      expect(await page.textContent('[data-testid="link-options"]')).toContain("Lien sponsorisé (sponsored)");
    });
    await context.close();
  });
});
