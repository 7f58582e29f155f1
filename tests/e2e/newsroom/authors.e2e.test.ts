/**
 * Issue 29, author profiles (decision 0121): a profile made in the back-office with a photo from the media
 * library, picked in an article's form with a guest writer added from the picker, becomes the byline readers
 * see: on the public page (each name a link to /authors/:slug, in French the French name), in the RSS feed's
 * dc:creator and in the JSON-LD author. The author page lists the item and is in the sitemap; the JSON API
 * refuses bad input with the one error shape.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { DESKTOP, hasChromium, PHONE } from "#tests/e2e/support/browser.ts";
import { horizontalOverflow } from "#tests/e2e/support/a11y.ts";
import {
  contentEditor,
  keepEvidence,
  mainViolations,
  open,
  richEditorReady,
  saveAndExpectToast,
  signedInPage,
  sitemapUrls,
  staffItem,
  startNewsroomBrowser,
  stopNewsroomBrowser,
  typeBody,
  type NewsroomServer,
} from "#tests/e2e/newsroom/support.ts";
import { ISSUE40_RIGHTS } from "#tests/helpers/auth.ts";
import { localizedPath } from "#domain/addresses.ts";

const PROFILE = { ar: "عائشة بنت محمد", fr: "Aïcha Mint Mohamed", en: "Aisha Mohamed", bio: "صحفية تكتب عن الثقافة الحسانية." };
const GUEST = "كاتب ضيف من أطار";

/** The JSON-LD blocks of a page. */
function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]) as Record<string, unknown>);
}

const decoded = (text: string) =>
  text
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'");

describe.skipIf(!hasChromium)("author profiles and bylines", () => {
  let browser: Browser;
  let server: NewsroomServer<"editor" | "writer">;
  let base: string;
  let profile: { id: number; slug: string; url: string; photo_url: string } | null = null;
  let article: { id: number; url: string; title: string } | null = null;

  beforeAll(async () => {
    ({ server, base, browser } = await startNewsroomBrowser({
      editor: contentEditor("aicha@authors.test", "عائشة"),
      // Writes content but may not delete it nor manage users.
      writer: { email: "writer@authors.test", password: "Wr1terPassword", role: "editor", permissions: ["content.write", ...ISSUE40_RIGHTS], name: "Writer" },
    }));
  });
  afterAll(() => stopNewsroomBrowser(browser, server));

  const api = (persona: "editor" | "writer", path: string, init: RequestInit = {}) =>
    fetch(base + path, {
      ...init,
      headers: { cookie: server.personas[persona].cookie, origin: base, "content-type": "application/json", ...(init.headers as Record<string, string>) },
    });

  it("a profile with a photo becomes the byline on the public page and in RSS and JSON-LD", async () => {
    const { context, page } = await signedInPage(browser, server, server.personas.editor, { viewport: DESKTOP });
    await keepEvidence(
      page,
      "authors-byline",
      async () => {
        // The profile, its photo uploaded into the library from the picker.
        await open(page, `${base}/admin/authors/new`);
        await page.fill('[data-testid="author-name"]', PROFILE.ar);
        await page.fill('[data-testid="author-name-fr"]', PROFILE.fr);
        await page.fill('[data-testid="author-name-en"]', PROFILE.en);
        await page.fill('[data-testid="author-bio"]', PROFILE.bio);
        await page.fill("#link-label-0", "الموقع");
        await page.fill("#link-url-0", "https://example.org/aicha");
        await page.click('[data-testid="library-open-photo_url"]');
        await page.locator('[data-testid="library-picker"]').waitFor();
        const png = await sharp({ create: { width: 120, height: 120, channels: 3, background: { r: 180, g: 120, b: 60 } } })
          .png()
          .toBuffer();
        await page.setInputFiles('[data-testid="library-picker-upload"]', { name: `aicha-${Date.now().toString(36)}.png`, mimeType: "image/png", buffer: png });
        await page.locator('[data-testid="author-photo-preview"]').waitFor();
        expect(await mainViolations(page)).toEqual([]);
        await page.click('[data-testid="author-save"]');
        await page.locator('[data-testid="author-result"][data-ok="true"]').waitFor();
        const id = Number(/\/admin\/authors\/(\d+)/.exec(page.url())?.[1]);
        const saved = (await (await api("editor", `/api/admin/authors/${id}`)).json()) as {
          id: number;
          slug: string;
          url: string;
          photo_url: string;
          links: unknown[];
        };
        expect(saved.slug).toBe("عائشة-بنت-محمد");
        expect(saved.photo_url).toMatch(/^\/uploads\/library\/.+\.png$/);
        expect(saved.links).toEqual([{ label: "الموقع", url: "https://example.org/aicha" }]);
        profile = saved;

        // The article: the profile found by typing and picked with the keyboard, then a guest writer made from the picker.
        const title = `مقال بتوقيعين ${Date.now().toString(36)}`;
        await open(page, `${base}/admin/articles/new`);
        await richEditorReady(page);
        await page.fill('[data-testid="input-title"]', title);
        await page.fill('[data-testid="input-excerpt"]', "مقتطف المقال عن الثقافة الحسانية");
        await typeBody(page, "نص المقال كاملاً كما كتبته الصحفية مع ضيفها.");
        await page.selectOption('[data-testid="input-category_id"]', { label: "الثقافة والتراث" });
        const search = page.locator('[data-testid="authors-search"]');
        await search.fill("عائشة");
        await page.locator('[data-testid="authors-option"]').first().waitFor();
        await search.press("Enter");
        await page.locator('[data-testid="authors-chip"]').first().waitFor();
        await search.fill(GUEST);
        await page.locator('[data-testid="authors-create"]').click();
        await page.locator('[data-testid="authors-chip"]').nth(1).waitFor();
        expect(await page.locator('[data-testid="authors-chip"] bdi').allTextContents()).toEqual([PROFILE.ar, GUEST]);
        // Order changes: the guest first, then back.
        await page.getByRole("button", { name: `تقديم ${GUEST}` }).click();
        expect(await page.locator('[data-testid="authors-chip"] bdi').allTextContents()).toEqual([GUEST, PROFILE.ar]);
        await page.getByRole("button", { name: `تأخير ${GUEST}` }).click();
        const ids = await page.inputValue('[data-testid="input-authors"]');
        expect(ids.split(",")[0]).toBe(String(id));
        await saveAndExpectToast(page, "articles", "تم إنشاء المقال بنجاح!");
        const itemId = Number(await page.locator('[data-testid="content-row"]', { hasText: title }).getAttribute("data-id"));
        const item = (await staffItem(base, server.personas.editor.cookie, "articles", itemId)) as Awaited<ReturnType<typeof staffItem>> & {
          authors: { name: string; slug: string }[];
        };
        expect(item.authors.map((a) => a.name)).toEqual([PROFILE.ar, GUEST]);
        const guestSlug = item.authors[1].slug;
        article = { id: itemId, url: item.url as string, title };

        // The public page: «بقلم: عائشة و ضيف», each a link to its page; no React for it.
        const ar = await (await fetch(base + item.url)).text();
        const byline = /<div[^>]*data-testid="detail-author"[\s\S]*?<\/div>/.exec(ar)?.[0] ?? "";
        expect(byline).toContain(`href="/authors/${encodeURIComponent(saved.slug)}"`);
        expect(byline).toContain(`href="/authors/${encodeURIComponent(guestSlug)}"`);
        expect(byline.replace(/<[^>]+>/g, "")).toBe(`بقلم:${PROFILE.ar} و ${GUEST}`);
        const ld = jsonLd(ar).find((b) => b.author);
        expect(ld?.author).toEqual([
          { "@type": "Person", name: PROFILE.ar, url: `${base}/authors/${encodeURIComponent(saved.slug)}` },
          { "@type": "Person", name: GUEST, url: `${base}/authors/${encodeURIComponent(guestSlug)}` },
        ]);
        // French: the profile's French name, the guest (no French name) in Arabic.
        const fr = await (await fetch(base + localizedPath("fr", item.url as string))).text();
        const frByline = /<div[^>]*data-testid="detail-author"[\s\S]*?<\/div>/.exec(fr)?.[0] ?? "";
        expect(decoded(frByline.replace(/<[^>]+>/g, ""))).toBe(`Par:${PROFILE.fr} et ${GUEST}`);
        expect((jsonLd(fr).find((b) => b.author)?.author as { name: string }[]).map((a) => a.name)).toEqual([PROFILE.fr, GUEST]);

        // The feed.
        const rss = await (await fetch(`${base}/rss.xml`)).text();
        const entry = rss.split("<item>").find((e) => e.includes(title)) ?? "";
        expect(entry).toContain(`<dc:creator>${PROFILE.ar}</dc:creator>`);
        expect(entry).toContain(`<dc:creator>${GUEST}</dc:creator>`);

        // Its card on the culture page names them too, each a link to their page.
        const culture = await (await fetch(`${base}/culture`)).text();
        const card = culture.split("<article").find((c) => c.includes(title)) ?? "";
        expect(card).toContain(`href="/authors/${encodeURIComponent(saved.slug)}"`);
        expect(card).toContain(`href="/authors/${encodeURIComponent(guestSlug)}"`);

        // The back-office list shows the profile with the one item it signs, and is clean for axe.
        await open(page, `${base}/admin/authors?q=${encodeURIComponent("عائشة")}`);
        const row = page.locator('[data-testid="author-row"]', { hasText: PROFILE.ar });
        expect(await row.locator('[data-testid="author-items"]').textContent()).toBe("1");
        expect(await mainViolations(page)).toEqual([]);
        // Deleting it from its editor is refused with the count.
        await open(page, `${base}/admin/authors/${id}`);
        await page.click('[data-testid="author-delete"]');
        await page.locator('[data-testid="author-result"][data-ok="false"]', { hasText: "1" }).waitFor();
      },
      server.output,
    );
    await context.close();
  });

  it("the author page lists the item, in three languages, and is in the sitemap; an unknown author is a 404", async () => {
    expect(profile && article).toBeTruthy();
    for (const [lang, name] of [
      ["ar", PROFILE.ar],
      ["fr", PROFILE.fr],
      ["en", PROFILE.en],
    ] as const) {
      const res = await fetch(base + localizedPath(lang, profile!.url));
      expect(res.status).toBe(200);
      const html = decoded(await res.text());
      expect(html).toContain(`data-testid="author-name">${name}</h1>`);
      expect(html).toContain(`href="${localizedPath(lang, article!.url)}"`);
      expect(html).toContain(`src="${profile!.photo_url}"`);
      expect(html).toContain('href="https://example.org/aicha"');
      // Light: no React in the browser.
      expect(html).not.toContain("window.__reactRouterContext");
    }
    expect(await sitemapUrls(base)).toContain(`${base}/authors/${encodeURIComponent(profile!.slug)}`);
    const missing = await fetch(`${base}/authors/nobody-here`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('data-testid="not-found"');

    // On a phone, RTL, nothing overflows.
    const reader = await browser.newContext({ viewport: PHONE });
    const p = await reader.newPage();
    await p.goto(base + profile!.url);
    await p.locator('[data-testid="author-page"]').waitFor();
    expect(await p.evaluate(() => document.documentElement.dir)).toBe("rtl");
    expect(await horizontalOverflow(p)).toBe(0);
    await reader.close();
  });

  it("answers bad input to the authors API with a clear 4xx, and refuses to delete a profile items name", async () => {
    const blank = await api("editor", "/api/admin/authors", { method: "POST", body: JSON.stringify({ name: "" }) });
    expect(blank.status).toBe(422);
    expect(((await blank.json()) as { error: { code: string; fields: Record<string, string> } }).error.fields.name).toBe("الاسم يجب أن يكون حرفين على الأقل");
    const badLink = await api("editor", "/api/admin/authors", {
      method: "POST",
      body: JSON.stringify({ name: "اسم صالح", links: [{ label: "x", url: "javascript:alert(1)" }] }),
    });
    expect(badLink.status).toBe(422);
    expect(((await badLink.json()) as { error: { fields: Record<string, string> } }).error.fields["links.0.url"]).toBeTruthy();
    const taken = await api("editor", "/api/admin/authors", { method: "POST", body: JSON.stringify({ name: "آخر", slug: profile!.slug }) });
    expect(taken.status).toBe(422);
    const notJson = await api("editor", "/api/admin/authors", { method: "POST", body: "name=x" });
    expect(notJson.status).toBe(400);
    const badQuery = await api("editor", "/api/admin/authors?page=x");
    expect(badQuery.status).toBe(400);
    expect((await api("editor", "/api/admin/authors/999999")).status).toBe(404);
    // Linking an account needs users.manage.
    const link = await api("writer", "/api/admin/authors", {
      method: "POST",
      body: JSON.stringify({ name: "محاولة ربط", user_id: server.personas.writer.id }),
    });
    expect(link.status).toBe(403);
    expect(((await link.json()) as { error: { code: string } }).error.code).toBe("PERMISSION_NEEDED");
    // Deleting needs content.delete, and a profile that items name is kept with their count.
    expect((await api("writer", `/api/admin/authors/${profile!.id}`, { method: "DELETE" })).status).toBe(403);
    const inUse = await api("editor", `/api/admin/authors/${profile!.id}`, { method: "DELETE" });
    expect(inUse.status).toBe(409);
    expect(await inUse.json()).toMatchObject({ error: { code: "AUTHOR_IN_USE" }, item_count: 1 });
    // A writer may make a guest writer's profile; one nobody names is deleted.
    const made = await api("writer", "/api/admin/authors", { method: "POST", body: JSON.stringify({ name: "ضيف عابر", name_fr: "Invité" }) });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: number };
    const gone = await api("editor", `/api/admin/authors/${id}`, { method: "DELETE" });
    expect(await gone.json()).toEqual({ id, deleted: true });
  });
});
