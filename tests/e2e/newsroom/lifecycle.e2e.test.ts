/**
 * The newsroom's promise to readers, in Chromium and in Arabic: an editor creates an item with an image and
 * it is on the public pages, search, the sitemap and RSS at once; an edit shows at once and a changed address
 * answers the old one with a 301; a draft is gone for readers (404); a scheduled item appears by itself at its
 * time; a deleted item leaves the pages, search, the sitemap and RSS. A news item on a desktop screen and an
 * article on a phone, through the same screens. (The home page has no news block, public-site.md §2: news is
 * looked for on /news, articles on /.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { DESKTOP, hasChromium, PHONE } from "#tests/e2e/support/browser.ts";
import { fillDateTime } from "#tests/e2e/support/date-time.ts";
import {
  expectToast,
  keepEvidence,
  open,
  publicPage,
  richEditorReady,
  saveAndExpectToast,
  signedInPage,
  siteTimeIn,
  sitemapUrls,
  staffItem,
  contentEditor,
  startNewsroomBrowser,
  stopNewsroomBrowser,
  tinyPng,
  typeBody,
  type NewsroomServer,
} from "./support.ts";

const CASES = [
  {
    type: "news",
    segment: "news",
    screen: "desktop",
    viewport: DESKTOP,
    noun: "خبر",
    created: "تم إنشاء الخبر بنجاح!",
    updated: "تم تحديث الخبر بنجاح!",
    listings: ["/news"],
  },
  {
    type: "article",
    segment: "articles",
    screen: "phone",
    viewport: PHONE,
    noun: "مقال",
    created: "تم إنشاء المقال بنجاح!",
    updated: "تم تحديث المقال بنجاح!",
    listings: ["/"],
  },
] as const;

/** How far ahead the scheduled step sets the publish time: room for a save and the checks of the hidden state on a busy machine. */
const SCHEDULE_AHEAD_MS = 20_000;
/** How soon after its time a scheduled item must be everywhere: well under the read cache's 60 s (server/content/cache.server.ts). */
const APPEARS_WITHIN_MS = 15_000;

describe.skipIf(!hasChromium)("the newsroom's items as readers see them", () => {
  let browser: Browser;
  let server: NewsroomServer<"editor">;
  let base: string;

  beforeAll(async () => {
    ({ server, base, browser } = await startNewsroomBrowser({ editor: contentEditor("editor@newsroom.test", "محررة الأخبار") }));
  });

  afterAll(() => stopNewsroomBrowser(browser, server));

  /** Whether an anonymous reader finds `text` on `path` (a boolean, so a failure names the page rather than printing it). */
  const shows = async (path: string, text: string) => (await publicPage(base, path)).text.includes(text);
  // The page's text without its tags: search results mark the words the query matched (<mark>).
  const showsText = async (path: string, text: string) => (await publicPage(base, path)).text.replace(/<[^>]+>/g, "").includes(text);
  const statusOf = async (path: string) => (await publicPage(base, path)).status;

  /** Where a redirect of `path` points (its path, decoded as the item's `url` is not: compared encoded). */
  const locationOf = async (path: string) => {
    const res = await fetch(base + path, { redirect: "manual" });
    const location = res.headers.get("location");
    return location === null ? null : new URL(location, base).pathname;
  };

  type Case = (typeof CASES)[number];
  /** Where an anonymous reader finds the item's `title`: its page, each listing, search, the sitemap and RSS. */
  const readersFind = async (c: Case, url: string, title: string, token: string) => {
    const found: Record<string, boolean> = { page: (await publicPage(base, url)).text.includes(title) };
    for (const path of c.listings) found[path] = await shows(path, title);
    found.search = await showsText(`/search?q=${encodeURIComponent(token)}`, title);
    found.sitemap = (await sitemapUrls(base)).includes(url);
    found.rss = await shows("/rss.xml", title);
    return found;
  };
  const everywhere = (c: Case) => ({ page: true, ...Object.fromEntries(c.listings.map((p) => [p, true])), search: true, sitemap: true, rss: true });
  const nowhere = (c: Case) => Object.fromEntries(Object.keys(everywhere(c)).map((k) => [k, false]));

  /** The item's line in the list: a table row on a wide screen, a card on a phone. */
  const itemInList = (page: Page, phone: boolean, id?: number) =>
    page.locator(`[data-testid="${phone ? "content-card" : "content-row"}"]${id ? `[data-id="${id}"]` : ""}`);

  it.each(CASES)(
    "$type on a $screen: created with an image, edited with a new address, drafted, scheduled, deleted",
    async (c) => {
      const phone = c.screen === "phone";
      const token = `t${Date.now().toString(36)}`;
      const title = `${c.noun} اختبار غرفة الأخبار ${token}`;
      const cookie = server.personas.editor.cookie;
      const { context, page, errors } = await signedInPage(browser, server, server.personas.editor, { viewport: c.viewport });
      await keepEvidence(
        page,
        `lifecycle-${c.type}`,
        async () => {
          // Created, with an image, published: on the list first, and on the public pages at once.
          await open(page, `${base}/admin/${c.segment}/new`);
          await richEditorReady(page);
          await page.fill('[data-testid="input-title"]', title);
          await page.fill('[data-testid="input-excerpt"]', "مقتطف قصير يقدّم الموضوع للقارئ");
          await typeBody(page, "النص الكامل كما يكتبه المحرر في غرفة الأخبار، بجمل تامة.");
          await page.selectOption('[data-testid="input-category_id"]', { index: 1 });
          await page.setInputFiles('[data-testid="input-image_url"]', { name: "صورة-الخبر.png", mimeType: "image/png", buffer: tinyPng() });
          await page.waitForSelector('[data-testid="image-preview-image_url"]');
          await saveAndExpectToast(page, c.segment, c.created);
          const first = itemInList(page, phone).first();
          expect(await first.textContent()).toContain(title);
          const id = Number(await first.getAttribute("data-id"));
          const item = await staffItem(base, cookie, c.segment, id);
          expect(item.status).toBe("published");
          expect(item.image_url).toMatch(/^\/uploads\//);
          const image = await fetch(base + item.image_url!);
          expect(image.status).toBe(200);
          expect(image.headers.get("content-type")).toBe("image/png");
          expect(await readersFind(c, item.url, title, token)).toEqual(everywhere(c));
          expect(await shows(item.url, item.image_url!), "the page shows the image").toBe(true);

          // Edited, title and address: readers get the new title at once, and the old address answers with a
          // permanent redirect to the new one.
          const edited = `${title} بعد التعديل`;
          const slug = `عنوان-جديد-${token}`;
          await open(page, `${base}/admin/${c.segment}/${id}`);
          await richEditorReady(page);
          expect(await page.inputValue('[data-testid="input-page_slug"]')).toBe(item.page_slug);
          await page.fill('[data-testid="input-title"]', edited);
          await page.fill('[data-testid="input-page_slug"]', slug);
          await saveAndExpectToast(page, c.segment, c.updated);
          const renamed = await staffItem(base, cookie, c.segment, id);
          expect(renamed.page_slug).toBe(slug);
          expect(renamed.url).not.toBe(item.url);
          const url = renamed.url;
          for (const path of [...c.listings, url]) expect(await shows(path, edited), `${path} shows the edit`).toBe(true);
          const old = await publicPage(base, item.url);
          expect(old.status, "the old address").toBe(301);
          expect(await locationOf(item.url)).toBe(url);
          const sitemap = await sitemapUrls(base);
          expect([sitemap.includes(url), sitemap.includes(item.url)], "the sitemap has the new address, not the old").toEqual([true, false]);

          // A draft: readers get a 404 and the listings, search, sitemap and RSS forget it; the preview still
          // shows it to staff.
          await open(page, `${base}/admin/${c.segment}/${id}`);
          await page.check('[data-testid="status-draft"]');
          await saveAndExpectToast(page, c.segment, c.updated);
          expect((await staffItem(base, cookie, c.segment, id)).status).toBe("draft");
          expect(await statusOf(url)).toBe(404);
          expect(await statusOf(item.url), "the old address of a draft").toBe(404);
          expect(await readersFind(c, url, edited, token)).toEqual(nowhere(c));
          await open(page, `${base}/admin/${c.segment}/${id}/preview`);
          expect(await page.textContent('[data-testid="preview-banner"]')).toBeTruthy();
          expect(await page.textContent("main h1")).toContain(edited);

          // Scheduled some seconds ahead: hidden until its time (the listings are read, and cached, meanwhile),
          // then on every page by itself, with nobody saving anything.
          await open(page, `${base}/admin/${c.segment}/${id}`);
          await page.check('[data-testid="status-scheduled"]');
          const dueAt = Date.now() + SCHEDULE_AHEAD_MS;
          await fillDateTime(page, "input-publish_date", siteTimeIn(dueAt - Date.now()));
          await saveAndExpectToast(page, c.segment, c.updated);
          const scheduled = await staffItem(base, cookie, c.segment, id);
          expect(scheduled.status).toBe("scheduled");
          expect(Math.abs(Date.parse((scheduled as unknown as { publish_date: string }).publish_date) - dueAt)).toBeLessThan(1_000);
          expect(await statusOf(url)).toBe(404);
          expect(await readersFind(c, url, edited, token)).toEqual(nowhere(c));
          expect(Date.now(), "the hidden state was checked before the item's time").toBeLessThan(dueAt);
          // At its time, not whenever the pages read meanwhile (cached up to 60 s) happen to expire: everywhere a
          // reader looks, within a short grace after it.
          await expect
            .poll(() => readersFind(c, url, edited, token), { timeout: dueAt + APPEARS_WITHIN_MS - Date.now(), interval: 500 })
            .toEqual(everywhere(c));
          expect(Date.now(), "not before its time").toBeGreaterThanOrEqual(dueAt - 1_000);

          // Then deleted: the delete asks first, with the spec's words.
          await open(page, `${base}/admin/${c.segment}`);
          await itemInList(page, phone, id).locator('[data-testid="row-delete"]').click();
          const dialog = page.locator('[data-testid="delete-dialog"]');
          await dialog.waitFor();
          const asked = await dialog.textContent();
          for (const words of ["تأكيد الحذف", "هل أنت متأكد من حذف هذا العنصر؟ لا يمكن التراجع عن هذا الإجراء.", "إلغاء", "حذف", edited])
            expect(asked).toContain(words);
          await page.click('[data-testid="delete-confirm"]');
          const toast = await expectToast(page, "تم حذف العنصر بنجاح");
          expect(await toast.textContent()).toContain("✅ تم الحذف");
          await itemInList(page, phone, id).waitFor({ state: "detached" });
          expect(await dialog.isVisible()).toBe(false);
          expect(await statusOf(url)).toBe(404);
          expect(await statusOf(item.url), "the old address of a deleted item").toBe(404);
          expect(await readersFind(c, url, edited, token)).toEqual(nowhere(c));
          expect((await fetch(`${base}/api/admin/${c.segment}/${id}`, { headers: { cookie } })).status).toBe(404);

          expect(errors).toEqual([]);
        },
        server.output,
      );
      await context.close();
    },
    300_000,
  );
});
