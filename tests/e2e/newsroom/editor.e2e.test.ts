/**
 * The newsroom's screens in Chromium, in Arabic: the spec's validation messages verbatim (in the browser and
 * without JavaScript), the saving state, an image that is not one, two editors on the same item, the
 * rich-text editor, revisions, the list's search, filter and actions, the upload hub, the video library, and
 * what staff see by permission.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { DESKTOP, hasChromium, hydrated, PHONE } from "#tests/e2e/support/browser.ts";
import { horizontalOverflow } from "#tests/e2e/support/a11y.ts";
import {
  bodyHolds,
  expectToast,
  keepEvidence,
  mainViolations,
  open,
  publicPage,
  richEditorReady,
  saveAndExpectToast,
  signedInPage,
  staffItem,
  startNewsroomBrowser,
  stopNewsroomBrowser,
  typeBody,
  type NewsroomServer,
} from "./support.ts";
import { ISSUE40_RIGHTS } from "#tests/helpers/auth.ts";

/** back-office.md §5, word for word: what an empty form of each type says. */
const EMPTY_FORM_MESSAGES: Record<string, Record<string, string>> = {
  news: {
    title: "العنوان يجب أن يكون 5 أحرف على الأقل",
    excerpt: "المقتطف يجب أن يكون 10 أحرف على الأقل",
    content: "المحتوى يجب أن يكون 20 حرفًا على الأقل",
    category_id: "الرجاء اختيار فئة",
  },
  articles: {
    title: "العنوان يجب أن يكون 5 أحرف على الأقل",
    excerpt: "المقتطف يجب أن يكون 10 أحرف على الأقل",
    content: "المحتوى يجب أن يكون 20 حرفًا على الأقل",
    category_id: "الرجاء اختيار فئة",
  },
  coverage: {
    title: "العنوان يجب أن يكون 5 أحرف على الأقل",
    excerpt: "المقتطف يجب أن يكون 10 أحرف على الأقل",
    content: "المحتوى يجب أن يكون 20 حرفًا على الأقل",
    coverage_type: "نوع التغطية مطلوب",
    event_location: "موقع الحدث مطلوب",
    event_date: "تاريخ الحدث مطلوب",
    reporter_name: "اسم المراسل مطلوب",
  },
  podcasts: { title: "العنوان مطلوب", description: "الوصف مطلوب", host_name: "اسم المقدم مطلوب" },
  programs: {
    title: "العنوان يجب أن يكون 5 أحرف على الأقل",
    description: "الوصف يجب أن يكون 20 حرفًا على الأقل",
    program_type: "نوع البرنامج مطلوب",
    host_name: "اسم المقدم مطلوب",
  },
  media: { title: "العنوان يجب أن يكون 3 أحرف على الأقل", description: "الوصف يجب أن يكون 10 أحرف على الأقل", category_id: "معرف الفئة غير صحيح" },
};

const CONFLICT = "حفظ شخص آخر هذا العنصر بعد أن فتحته";

describe.skipIf(!hasChromium)("the newsroom's screens", () => {
  let browser: Browser;
  let server: NewsroomServer<"admin" | "editor" | "writer">;
  let base: string;

  beforeAll(async () => {
    ({ server, base, browser } = await startNewsroomBrowser({
      admin: { email: "admin@editor.test", password: "Adm1nPassword", role: "admin", name: "سيدي المدير" },
      editor: { email: "editor@editor.test", password: "Ed1torPassword", role: "editor", permissions: ["content.write", ...ISSUE40_RIGHTS, "content.delete"] },
      writer: { email: "writer@editor.test", password: "Wr1terPassword", role: "editor", permissions: ["content.write", ...ISSUE40_RIGHTS] },
    }));
  });

  afterAll(() => stopNewsroomBrowser(browser, server));

  const as = (who: "admin" | "editor" | "writer", opts: Parameters<typeof signedInPage>[3] = {}) => signedInPage(browser, server, server.personas[who], opts);

  /** A news item made through the JSON API, for the tests that start from an existing item. */
  async function newsItem(title: string, status: "published" | "draft" = "published"): Promise<number> {
    const res = await fetch(`${base}/api/admin/news`, {
      method: "POST",
      headers: { cookie: server.personas.editor.cookie, origin: base, "content-type": "application/json" },
      body: JSON.stringify({
        title,
        excerpt: "مقتطف الخبر للاختبار",
        content: "<p>نص الخبر كما كتبه المحرر الأول في الصباح.</p>",
        category_id: "1",
        priority: "medium",
        status,
      }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  }

  async function errorsShown(page: Page): Promise<Record<string, string>> {
    return page.$$eval('[data-testid^="error-"]', (nodes) =>
      Object.fromEntries(nodes.map((n) => [n.getAttribute("data-testid")!.slice(6), n.textContent ?? ""])),
    );
  }

  it("says what is wrong in the spec's words, in the browser, before anything is sent", async () => {
    const { context, page, errors } = await as("editor", { viewport: DESKTOP });
    await keepEvidence(page, "inline-validation", async () => {
      const sent: string[] = [];
      page.on("request", (r) => {
        if (r.method() !== "GET") sent.push(`${r.method()} ${r.url()}`);
      });
      for (const [segment, messages] of Object.entries(EMPTY_FORM_MESSAGES)) {
        await open(page, `${base}/admin/${segment}/new`);
        await page.click('[data-testid="save"]');
        await page.waitForSelector('[data-testid="form-errors"]');
        expect(await errorsShown(page), segment).toEqual(messages);
        expect(new URL(page.url()).pathname).toBe(`/admin/${segment}/new`);
        // The message goes as soon as the field is right.
        await page.fill('[data-testid="input-title"]', "عنوان كاف للاختبار");
        await page.waitForSelector('[data-testid="error-title"]', { state: "detached" });
      }
      // Media titles have an upper bound too.
      await open(page, `${base}/admin/media/new`);
      await page.fill('[data-testid="input-title"]', "ع".repeat(201));
      await page.click('[data-testid="save"]');
      expect(await page.textContent('[data-testid="error-title"]')).toBe("العنوان يجب أن يكون أقل من 200 حرف");
      expect(sent, "no form reached the server").toEqual([]);
      expect(errors).toEqual([]);
    });
    await context.close();
  });

  it("works without JavaScript: messages under the fields, nothing typed lost, a save, a confirmed delete", async () => {
    const { context, page } = await as("editor", { viewport: PHONE, javaScriptEnabled: false });
    await keepEvidence(page, "no-js", async () => {
      await page.goto(`${base}/admin/news/new`);
      expect(await page.locator('[data-editor="plain"]').count()).toBe(1);
      await page.fill('[data-testid="input-title"]', "قصير");
      await page.fill('[data-testid="input-excerpt"]', "مقتطف يكفي طوله للتحقق");
      await page.fill('[data-testid="input-content"]', "<p>نص</p>");
      await page.selectOption('[data-testid="input-category_id"]', { index: 2 });
      await page.fill('[data-testid="input-location"]', "روصو");
      await page.click('[data-testid="save"]');
      await page.waitForSelector('[data-testid="form-errors"]');
      expect(await errorsShown(page)).toEqual({ title: "العنوان يجب أن يكون 5 أحرف على الأقل", content: "المحتوى يجب أن يكون 20 حرفًا على الأقل" });
      expect(await page.inputValue('[data-testid="input-title"]')).toBe("قصير");
      expect(await page.inputValue('[data-testid="input-excerpt"]')).toBe("مقتطف يكفي طوله للتحقق");
      expect(await page.inputValue('[data-testid="input-content"]')).toBe("<p>نص</p>");
      expect(await page.inputValue('[data-testid="input-location"]')).toBe("روصو");
      expect(await page.$eval('[data-testid="input-category_id"]', (s) => (s as HTMLSelectElement).selectedIndex)).toBe(2);

      const title = `خبر بلا جافاسكربت ${Date.now().toString(36)}`;
      await page.fill('[data-testid="input-title"]', title);
      await page.fill('[data-testid="input-content"]', "<p>نص الخبر كاملاً، مكتوب في صفحة بلا جافاسكربت.</p>");
      await page.click('[data-testid="save"]');
      await page.waitForURL((url) => url.pathname === "/admin/news");
      expect(await page.textContent('[data-testid="flash-notice"]')).toContain("تم إنشاء الخبر بنجاح!");
      const card = page.locator('[data-testid="content-card"]', { hasText: title });
      const id = Number(await card.getAttribute("data-id"));

      // The delete icon leads to a confirmation step of its own.
      await card.locator('[data-testid="row-delete"]').click();
      const step = page.locator('[data-testid="delete-step"]');
      await step.waitFor();
      for (const words of ["تأكيد الحذف", "هل أنت متأكد من حذف هذا العنصر؟ لا يمكن التراجع عن هذا الإجراء.", "إلغاء", "حذف", title])
        expect(await step.textContent()).toContain(words);
      await page.click('[data-testid="delete-confirm"]');
      await page.waitForSelector('[data-testid="flash-notice"]');
      expect(await page.textContent('[data-testid="flash-notice"]')).toContain("تم حذف العنصر بنجاح");
      expect(await page.locator(`[data-testid="content-card"][data-id="${id}"]`).count()).toBe(0);
    });
    await context.close();
  });

  it("shows 'جاري الحفظ...' on a disabled button while the save is on its way", async () => {
    const { context, page } = await as("editor", { viewport: DESKTOP });
    await keepEvidence(page, "saving", async () => {
      await open(page, `${base}/admin/podcasts/new`);
      await page.fill('[data-testid="input-title"]', "حلقة تجريبية");
      await page.fill('[data-testid="input-description"]', "وصف الحلقة");
      await page.fill('[data-testid="input-host_name"]', "المقدم");
      // The request is held until the page has been looked at.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route("**/admin/podcasts/new.data*", async (route) => {
        await held;
        await route.continue();
      });
      await page.click('[data-testid="save"]');
      const button = page.locator('[data-testid="save"]');
      await page.waitForSelector('[data-testid="content-form"][data-state="saving"]');
      expect(await button.textContent()).toBe("جاري الحفظ...");
      expect(await button.isDisabled()).toBe(true);
      release();
      await page.waitForURL((url) => url.pathname === "/admin/podcasts");
      await expectToast(page, "تم إنشاء البودكاست بنجاح!");
    });
    await context.close();
  });

  it("saves an item without an image that is not one, with the spec's warning", async () => {
    const { context, page } = await as("editor", { viewport: DESKTOP });
    await keepEvidence(page, "bad-image", async () => {
      const title = `خبر بصورة معطوبة ${Date.now().toString(36)}`;
      await open(page, `${base}/admin/news/new`);
      await richEditorReady(page);
      await page.fill('[data-testid="input-title"]', title);
      await page.fill('[data-testid="input-excerpt"]', "مقتطف الخبر للاختبار");
      await typeBody(page, "نص الخبر كاملاً كما كتبه المحرر.");
      await page.selectOption('[data-testid="input-category_id"]', { index: 1 });
      // Named and declared as a PNG; its bytes are text.
      await page.setInputFiles('[data-testid="input-image_url"]', { name: "photo.png", mimeType: "image/png", buffer: Buffer.from("not an image at all") });
      await page.click('[data-testid="save"]');
      await page.waitForURL((url) => url.pathname === "/admin/news");
      const toast = await expectToast(page, "خطأ في رفع الصورة");
      expect(await toast.textContent()).toContain(
        "فشل في رفع الصورة: نوع الملف غير مدعوم. الأنواع المقبولة: JPEG, PNG, GIF, WebP, AVIF. سيتم حفظ الخبر بدون صورة.",
      );
      const id = Number(await page.locator('[data-testid="content-row"]', { hasText: title }).getAttribute("data-id"));
      expect((await staffItem(base, server.personas.editor.cookie, "news", id)).image_url).toBeNull();
    });
    await context.close();
  });

  it("refuses the later of two saves of the same version, keeps what was typed, and can overwrite on purpose", async () => {
    const id = await newsItem(`خبر يحرره اثنان ${Date.now().toString(36)}`);
    const first = await as("editor", { viewport: DESKTOP });
    const second = await as("editor", { viewport: DESKTOP });
    await keepEvidence(second.page, "conflict", async () => {
      await open(first.page, `${base}/admin/news/${id}`);
      await open(second.page, `${base}/admin/news/${id}`);
      await first.page.fill('[data-testid="input-title"]', "عنوان المحرر الأول بعد المراجعة");
      await saveAndExpectToast(first.page, "news", "تم تحديث الخبر بنجاح!");

      const mine = "مقتطف كتبه المحرر الثاني ولم يحفظ بعد";
      await second.page.fill('[data-testid="input-excerpt"]', mine);
      await second.page.click('[data-testid="save"]');
      const conflict = second.page.locator('[data-testid="conflict"]');
      await conflict.waitFor();
      expect(await conflict.textContent()).toContain(CONFLICT);
      await expectToast(second.page, "فشل تحديث الخبر");
      expect(new URL(second.page.url()).pathname).toBe(`/admin/news/${id}`);
      expect(await second.page.inputValue('[data-testid="input-excerpt"]')).toBe(mine);
      const current = second.page.locator('[data-testid="conflict-open"]');
      expect(await current.getAttribute("href")).toBe(`/admin/news/${id}`);
      expect(await current.getAttribute("target")).toBe("_blank");
      expect((await staffItem(base, server.personas.editor.cookie, "news", id)).title).toBe("عنوان المحرر الأول بعد المراجعة");

      await second.page.click('[data-testid="conflict-overwrite"]');
      await second.page.waitForURL((url) => url.pathname === "/admin/news");
      await expectToast(second.page, "تم تحديث الخبر بنجاح!");
      const saved = (await (await fetch(`${base}/api/admin/news/${id}`, { headers: { cookie: server.personas.editor.cookie } })).json()) as { excerpt: string };
      expect(saved.excerpt).toBe(mine);
    });
    await first.context.close();
    await second.context.close();
  });

  it("edits bodies right to left with formatting, links and images with their alternative text", async () => {
    const { context, page } = await as("editor", { viewport: DESKTOP });
    await keepEvidence(page, "rich-text", async () => {
      const title = `مقال منسق ${Date.now().toString(36)}`;
      await open(page, `${base}/admin/articles/new`);
      await richEditorReady(page);
      const editable = page.locator('[data-testid="editor-content"]');
      expect(await editable.getAttribute("dir")).toBe("rtl");
      await page.fill('[data-testid="input-title"]', title);
      await page.fill('[data-testid="input-excerpt"]', "مقتطف المقال المنسق للاختبار");
      await typeBody(page, "عنوان فرعي");
      await page.click('[data-testid="tool-h2"]');
      await page.keyboard.press("End");
      await page.keyboard.press("Enter");
      await page.click('[data-testid="tool-bold"]');
      await page.keyboard.insertText("جملة بارزة");
      // The editor reads typed text a moment after the keys: the next toggle or key waits for it to be in the
      // editor's document, not only on the screen.
      await bodyHolds(page, "<strong>جملة بارزة</strong>");
      await page.click('[data-testid="tool-bold"]');
      await page.waitForSelector('[data-testid="tool-bold"][aria-pressed="false"]');
      await page.keyboard.insertText(" ثم نص عادي يكمل الفقرة بما يكفي.");
      await bodyHolds(page, "</strong> ثم نص عادي يكمل الفقرة بما يكفي.</p>");
      // A link on selected words: only http(s) or a path on this site.
      await page.keyboard.press("Enter");
      await page.keyboard.insertText("موقع المهرجان");
      await bodyHolds(page, "<p>موقع المهرجان</p>");
      await page.keyboard.press("Shift+Home");
      await page.click('[data-testid="tool-link"]');
      await page.fill('[data-testid="link-url"]', "javascript:alert(1)");
      await page.click('[data-testid="link-apply"]');
      expect(await page.textContent('[data-testid="link-panel"] [role="alert"]')).toBe("أدخل رابطاً يبدأ بـ https:// أو /");
      await page.fill('[data-testid="link-url"]', "https://festival.example/heritage");
      await page.click('[data-testid="link-apply"]');
      await page.waitForSelector('[data-testid="editor-content"] a[href="https://festival.example/heritage"]');
      expect(await page.textContent('[data-testid="editor-content"] a')).toBe("موقع المهرجان");
      await page.keyboard.press("End");
      // An image needs its alternative text.
      await page.click('[data-testid="tool-image"]');
      await page.fill('[data-testid="image-url"]', "/uploads/demo/images/articles/tidinit-desert-lute.svg");
      await page.click('[data-testid="image-insert"]');
      expect(await page.textContent('[data-testid="image-panel-error"]')).toBe("النص البديل للصورة مطلوب");
      await page.fill('[data-testid="image-alt"]', "آلة التيدينيت");
      await page.click('[data-testid="image-insert"]');
      await page.waitForSelector('[data-testid="editor-content"] img[alt="آلة التيدينيت"]');
      await page.selectOption('[data-testid="input-category_id"]', { index: 1 });
      await saveAndExpectToast(page, "articles", "تم إنشاء المقال بنجاح!");

      const id = Number(await page.locator('[data-testid="content-row"]', { hasText: title }).getAttribute("data-id"));
      const item = await staffItem(base, server.personas.editor.cookie, "articles", id);
      const body = (item as unknown as { content: string }).content;
      expect(body).toContain("<h2>عنوان فرعي</h2>");
      expect(body).toContain("<strong>جملة بارزة</strong>");
      expect(body).toMatch(/<img[^>]+alt="آلة التيدينيت"/);
      expect(body).toMatch(/<a [^>]*href="https:\/\/festival\.example\/heritage"[^>]*>موقع المهرجان<\/a>/);
      expect(body).not.toContain("javascript:");
      const reader = await publicPage(base, item.url);
      expect(reader.text.includes("<strong>جملة بارزة</strong>"), "the article page shows the formatting").toBe(true);

      // Readers' pages never download the editor.
      const scripts: string[] = [];
      page.on("request", (r) => {
        if (r.resourceType() === "script") scripts.push(r.url());
      });
      await page.goto(`${base}${item.url}`);
      await hydrated(page);
      expect(scripts.some((s) => /tiptap/i.test(s))).toBe(false);
    });
    await context.close();
  });

  it("keeps each save as a revision that can be viewed and restored", async () => {
    const original = `خبر بمراجعات ${Date.now().toString(36)}`;
    const id = await newsItem(original);
    const { context, page } = await as("editor", { viewport: DESKTOP });
    await keepEvidence(page, "revisions", async () => {
      await open(page, `${base}/admin/news/${id}`);
      await page.fill('[data-testid="input-title"]', `${original} معدل`);
      await saveAndExpectToast(page, "news", "تم تحديث الخبر بنجاح!");
      await open(page, `${base}/admin/news/${id}/revisions`);
      const revisions = page.locator('[data-testid="revision"]');
      expect(await revisions.count()).toBe(2);
      await revisions.nth(1).click();
      // The older version against the current one (tests/e2e/newsroom/revisions.e2e.test.ts has the rest).
      await page.waitForSelector('[data-testid="diff-title"] [data-side="before"]');
      expect(await page.textContent('[data-testid="diff-title"] [data-side="before"]')).toContain(original);
      await page.click('[data-testid="head-before"] [data-testid="restore"]');
      await page.click('[data-testid="restore-confirm"]');
      await page.waitForURL((url) => url.pathname === `/admin/news/${id}`);
      await expectToast(page, "تمت استعادة النسخة بنجاح");
      expect(await page.inputValue('[data-testid="input-title"]')).toBe(original);
      expect((await staffItem(base, server.personas.editor.cookie, "news", id)).title).toBe(original);
    });
    await context.close();
  });

  it("lists newest first with a search, a status filter with counts, paging and the open-media action", async () => {
    const { context, page, errors } = await as("editor", { viewport: DESKTOP });
    await keepEvidence(page, "list", async () => {
      const title = `خبر للبحث ${Date.now().toString(36)}`;
      // A draft under it, so the status filter has something to leave out.
      await newsItem(`مسودة تحت خبر البحث ${Date.now().toString(36)}`, "draft");
      await newsItem(title);
      await open(page, `${base}/admin/news`);
      expect(await page.textContent("main h1")).toBe("إدارة الأخبار");
      const count = async (f: string) => Number(await page.getAttribute(`[data-testid="count-${f}"]`, "data-value"));
      const all = await count("all");
      expect(all).toBe((await count("draft")) + (await count("published")) + (await count("scheduled")));
      expect(await page.locator('[data-testid="content-row"]').count()).toBe(Math.min(all, 20));
      // Newest first: the item just made heads the list.
      expect(await page.locator('[data-testid="content-row"]').first().textContent()).toContain(title);

      // The filter's list is the one showing once its total is the published count (the URL changes first).
      const published = await count("published");
      expect(published).toBeLessThan(all);
      await page.click('[data-testid="filter-published"]');
      await page.waitForURL((url) => url.searchParams.get("status") === "published");
      await page.waitForSelector(`[data-testid="list-body"][data-state="idle"][data-total="${published}"]`);
      const statuses = await page.$$eval('[data-testid="content-row"] [data-testid="row-status"]', (b) => b.map((x) => x.getAttribute("data-status")));
      expect(new Set(statuses)).toEqual(new Set(["published"]));

      await page.fill("#list-q", title);
      await page.press("#list-q", "Enter");
      await page.waitForURL((url) => url.searchParams.get("q") === title);
      await page.waitForSelector('[data-testid="list-body"][data-total="1"]');
      expect(await page.textContent('[data-testid="content-row"]')).toContain(title);

      await page.fill("#list-q", "لا شيء يطابق هذا البحث أبدا");
      await page.press("#list-q", "Enter");
      await page.waitForSelector('[data-testid="list-empty"]');
      expect(await page.textContent('[data-testid="list-empty"]')).toBe("لا توجد عناصر");

      await open(page, `${base}/admin/news`);
      // The demo content has more than a page of news (seed.test.ts: at least 30 published).
      const now = await count("all");
      expect(now).toBeGreaterThan(20);
      const firstPage = await page.$$eval('[data-testid="content-row"]', (rows) => rows.map((r) => r.getAttribute("data-id")));
      await page.click('[data-testid="pagination"] a[rel="next"]');
      await page.waitForURL((url) => url.searchParams.get("page") === "2");
      // The second page is showing once the pagination offers a way back (the URL changes before the rows do).
      await page.waitForSelector('[data-testid="pagination"] a[rel="prev"]');
      const secondPage = await page.$$eval('[data-testid="content-row"]', (rows) => rows.map((r) => r.getAttribute("data-id")));
      expect(secondPage.length).toBe(Math.min(now - 20, 20));
      expect(secondPage.filter((id) => firstPage.includes(id))).toEqual([]);

      // Podcasts and programs open their audio or video in a new tab.
      await open(page, `${base}/admin/podcasts`);
      expect(await page.textContent("main h1")).toBe("إدارة البودكاست");
      const media = page.locator('[data-testid="content-row"] [data-testid="row-open-media"]').first();
      expect(await media.getAttribute("target")).toBe("_blank");
      expect((await fetch(base + (await media.getAttribute("href"))!)).status).toBe(200);
      expect(errors).toEqual([]);
    });
    await context.close();
  });

  it("opens every form from the upload hub, with the tips", async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page } = await as("writer", { viewport });
      await keepEvidence(page, `upload-${viewport.width}`, async () => {
        await open(page, `${base}/admin/upload`);
        expect(await page.textContent("main h1")).toBe("رفع المحتوى");
        const cards = await page.$$eval('[data-testid^="upload-card-"]', (links) => links.map((a) => a.getAttribute("href")));
        expect(cards).toEqual([
          "/admin/news/new",
          "/admin/articles/new",
          "/admin/coverage/new",
          "/admin/podcasts/new",
          "/admin/programs/new",
          "/admin/media/new",
        ]);
        expect(await page.locator('[data-testid="upload-tips"] li').count()).toBe(8);
        expect(await horizontalOverflow(page)).toBe(0);
        await page.click('[data-testid="upload-card-coverage"]');
        await page.waitForSelector('[data-testid="content-editor"][data-type="coverage"]');
      });
      await context.close();
    }
  });

  it("shows staff the menu entries, counts and actions their permissions allow", async () => {
    const { context, page } = await as("writer", { viewport: DESKTOP });
    await keepEvidence(page, "permissions", async () => {
      await open(page, `${base}/admin`);
      const menu = await page.$$eval('[data-testid^="admin-menu-link-"]', (links) => links.map((a) => a.getAttribute("href")));
      expect(menu).toEqual([
        "/admin",
        "/admin/articles",
        "/admin/news",
        "/admin/coverage",
        "/admin/podcasts",
        "/admin/programs",
        "/admin/media",
        "/admin/calendar",
        "/admin/upload",
        "/admin/library",
        "/admin/tags",
        "/admin/authors",
      ]);
      const counts = await page.$$eval('[data-testid^="count-"]', (links) => links.map((a) => a.getAttribute("href")));
      expect(counts).toEqual(["/admin/articles", "/admin/news", "/admin/podcasts", "/admin/programs", "/admin/coverage", "/admin/media"]);
      await page.click('[data-testid="count-programs"]');
      await page.waitForSelector('[data-testid="content-list"][data-type="program"]');
      // Without content.delete: no delete icon.
      expect(await page.locator('[data-testid="row-delete"]').count()).toBe(0);
      expect(await page.locator('[data-testid="row-edit"]').count()).toBeGreaterThan(0);
    });
    await context.close();

    const admin = await as("admin", { viewport: DESKTOP });
    await open(admin.page, `${base}/admin`);
    expect(await admin.page.locator('[data-testid^="count-"]').count()).toBe(8);
    await admin.context.close();
  });

  it("lists the video library for those who manage it", async () => {
    const { context, page } = await as("admin", { viewport: DESKTOP });
    await keepEvidence(page, "videos", async () => {
      await open(page, `${base}/admin/videos`);
      // The demo content's videos, from the embedded library: ready ones play in a new tab, the others cannot.
      const cards = page.locator('[data-testid="admin-video"]');
      const total = await cards.count();
      expect(total).toBeGreaterThan(0);
      const ready: number[] = [];
      for (let i = 0; i < total; i++) {
        const card = cards.nth(i);
        const text = (await card.textContent()) ?? "";
        for (const label of ["تاريخ الرفع", "المدة", "المشاهدات", "المعرّف"]) expect(text).toContain(label);
        expect(text).toMatch(/\d+:\d{2}/);
        const play = card.locator('[data-testid="video-play"]');
        if ((await card.getAttribute("data-status")) === "4") {
          ready.push(i);
          expect(await play.getAttribute("target")).toBe("_blank");
        } else expect(await play.isDisabled()).toBe(true);
      }
      expect(ready.length).toBeGreaterThan(0);
    });
    await context.close();
  });

  it("offers news the spec's categories, names them in the back-office's language, switches it from the sidebar, isolates the short link", async () => {
    const ARABIC = /[\u0600-\u06FF]/;
    const { context, page, errors } = await as("editor", { viewport: DESKTOP });
    await keepEvidence(page, "categories-language", async () => {
      // back-office.md §3: "News category slugs: breaking (عاجل), politics, culture, sports, economy."
      await open(page, `${base}/admin/news/new`);
      const offered = await page.$$eval('[data-testid="input-category_id"] option', (o) => o.filter((x) => x.getAttribute("value")).map((x) => x.textContent));
      expect(offered).toEqual(["عاجل", "السياسة والتاريخ", "الثقافة والتراث", "رياضة", "اقتصاد"]);

      // The short link's preview reads left to right as one isolated run inside the Arabic page.
      await page.fill('[data-testid="input-title"]', "مهرجان المدن القديمة في شنقيط");
      const address = page.locator('[data-testid="public-address"]');
      await address.waitFor();
      expect(await address.textContent()).toMatch(/^http.*\/news\/مهرجان-المدن-القديمة-في-شنقيط$/);
      expect(
        await address.evaluate((el) => ({
          tag: el.tagName,
          dir: el.getAttribute("dir"),
          bidi: getComputedStyle(el).unicodeBidi,
          direction: getComputedStyle(el).direction,
        })),
      ).toEqual({ tag: "BDI", dir: "ltr", bidi: "isolate", direction: "ltr" });

      // The sidebar's switch is a navigation: with a title typed, the editor is asked first, then stays on the same page.
      await page.click('[data-testid="admin-menu-language"]');
      await page.waitForSelector('[data-testid="leave-dialog"][open]');
      await page.click('[data-testid="leave-confirm"]');
      await page.waitForSelector('html[lang="fr"]');
      expect(new URL(page.url()).pathname).toBe("/admin/news/new");
      await hydrated(page);
      const offeredFr = await page.$$eval('[data-testid="input-category_id"] option', (o) =>
        o.filter((x) => x.getAttribute("value")).map((x) => x.textContent),
      );
      expect(offeredFr).toEqual(["Urgent", "Politique et histoire", "Culture et patrimoine", "Sports", "Économie"]);

      // The French list names its categories in French (every seeded category has a French name).
      await open(page, `${base}/admin/news?status=published`);
      const names = await page.$$eval('[data-testid="content-table"] [data-testid="row-category"]', (n) => n.map((x) => x.textContent ?? ""));
      expect(names.length).toBeGreaterThan(0);
      expect(names.filter((n) => ARABIC.test(n))).toEqual([]);

      // And back to Arabic from the same page, its filter kept.
      await page.click('[data-testid="admin-menu-language"]');
      await page.waitForSelector('html[lang="ar"]');
      expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/admin/news?status=published");
      expect(errors).toEqual([]);
    });
    await context.close();

    // Without JavaScript, on a phone: the switch in the menu posts and comes back to the same screen.
    const plain = await as("editor", { viewport: PHONE, javaScriptEnabled: false });
    await keepEvidence(plain.page, "language-no-js", async () => {
      await plain.page.goto(`${base}/admin/articles?status=draft`);
      await plain.page.click('[data-testid="admin-mobile-menu"] summary');
      await plain.page.click('[data-testid="admin-mobile-menu-language"]');
      await plain.page.waitForSelector('html[lang="fr"]');
      expect(new URL(plain.page.url()).pathname + new URL(plain.page.url()).search).toBe("/admin/articles?status=draft");
    });
    await plain.context.close();
  });

  it("has no serious accessibility problems on the list, the editor and the hub, in Arabic and French", async () => {
    for (const locale of ["ar", "fr"]) {
      const { context, page } = await as("editor", { viewport: DESKTOP, locale });
      await keepEvidence(page, `a11y-${locale}`, async () => {
        for (const path of ["/admin/news", "/admin/news/new", "/admin/coverage/new", "/admin/upload"]) {
          await open(page, base + path);
          if (path.endsWith("/new") && path.includes("news")) await richEditorReady(page);
          expect(await mainViolations(page), `${locale} ${path}`).toEqual([]);
        }
      });
      await context.close();
    }
  }, 300_000);
});
