/**
 * Revisions that can be compared, in Chromium: an article edited twice in the editor, its revisions page
 * showing the difference of two versions field by field (the changed word of the body marked, the category by
 * its name, not its id), any two versions chosen, a restore that asks first (cancel keeps, confirm restores,
 * with the spec's toast), a restore without JavaScript through its confirmation step, autosaves listed apart
 * and comparable, bad parameters and another item's revision refused, and the page in Arabic and French on a
 * phone and a desktop without overflow or serious axe violation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { DESKTOP, hasChromium, PHONE } from "#tests/e2e/support/browser.ts";
import { horizontalOverflow } from "#tests/e2e/support/a11y.ts";
import {
  expectToast,
  keepEvidence,
  mainViolations,
  open,
  richEditorReady,
  saveAndExpectToast,
  signedInPage,
  staffItem,
  contentEditor,
  startNewsroomBrowser,
  stopNewsroomBrowser,
  typeBody,
  type NewsroomServer,
} from "./support.ts";

const BODY_BEFORE = "افتتح الوزير مهرجان المدن القديمة في شنقيط صباح اليوم بحضور جمهور كبير.";
const BODY_AFTER = "افتتح الرئيس مهرجان المدن القديمة في شنقيط صباح اليوم بحضور جمهور كبير.";

describe.skipIf(!hasChromium)("revisions that can be compared", () => {
  let browser: Browser;
  let server: NewsroomServer<"editor">;
  let base: string;

  beforeAll(async () => {
    ({ server, base, browser } = await startNewsroomBrowser({ editor: contentEditor("revisions@newsroom.test", "مريم المحررة") }));
  });

  afterAll(() => stopNewsroomBrowser(browser, server));

  const as = (opts: Parameters<typeof signedInPage>[3] = {}) => signedInPage(browser, server, server.personas.editor, opts);

  /** An article made through the JSON API (its first revision). */
  async function article(title: string, status: "published" | "draft" = "published"): Promise<number> {
    const res = await fetch(`${base}/api/admin/articles`, {
      method: "POST",
      headers: { cookie: server.personas.editor.cookie, origin: base, "content-type": "application/json" },
      body: JSON.stringify({ title, excerpt: "مقتطف المقال للاختبار", content: `<p>${BODY_BEFORE}</p><p>فقرة ثانية لا تتغير.</p>`, category_id: "1", status }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  }

  /** The image of a demo article (a real file), for the image field's thumbnail. */
  async function demoImage(): Promise<string> {
    const res = await fetch(`${base}/api/admin/articles?per_page=50`, { headers: { cookie: server.personas.editor.cookie } });
    const { items } = (await res.json()) as { items: { image_url?: string | null }[] };
    return items.find((i) => i.image_url)!.image_url!;
  }

  /** The categories the editor offers, by id: their names as the select shows them. */
  async function categoryNames(page: Page): Promise<Map<string, string>> {
    const options = await page.$$eval('[data-testid="input-category_id"] option', (nodes) =>
      nodes.map((n) => [(n as HTMLOptionElement).value, n.textContent?.trim() ?? ""] as const),
    );
    return new Map(options.filter(([value]) => value));
  }

  /** Edits an article twice in the editor: the body's one word and the category, then the title. Returns the category names. */
  async function editTwice(page: Page, id: number, title: string) {
    await open(page, `${base}/admin/articles/${id}`);
    await richEditorReady(page);
    const names = await categoryNames(page);
    const other = [...names.keys()].find((v) => v !== "1")!;
    await typeBody(page, `${BODY_AFTER}\nفقرة ثانية لا تتغير.`);
    await page.selectOption('[data-testid="input-category_id"]', other);
    await saveAndExpectToast(page, "articles", "تم تحديث المقال بنجاح!");
    await open(page, `${base}/admin/articles/${id}`);
    await page.fill('[data-testid="input-title"]', `${title} بعنوان جديد`);
    await saveAndExpectToast(page, "articles", "تم تحديث المقال بنجاح!");
    return { first: names.get("1")!, second: names.get(other)! };
  }

  it("shows the difference of two versions, the changed word marked and the category by name, and restores only when confirmed", async () => {
    const title = `مقال بمراجعات ${Date.now().toString(36)}`;
    const id = await article(title);
    const { context, page, errors } = await as({ viewport: DESKTOP });
    await keepEvidence(page, "revisions-compare", async () => {
      const categories = await editTwice(page, id, title);
      await open(page, `${base}/admin/articles/${id}/revisions`);
      const saves = page.locator('[data-testid="revision-list"] [data-testid="revision"]');
      expect(await saves.count()).toBe(3);
      const [latest, middle, original] = await Promise.all([0, 1, 2].map((i) => saves.nth(i).getAttribute("data-rev")));

      // Nothing chosen: the last two saves, only the title differs.
      expect(await page.getAttribute('[data-testid="head-before"]', "data-rev")).toBe(middle);
      expect(await page.getAttribute('[data-testid="head-after"]', "data-rev")).toBe(latest);
      expect(await page.$$eval('[data-testid^="diff-"][aria-labelledby]', (s) => s.map((x) => x.getAttribute("data-testid")))).toEqual(["diff-title"]);
      expect(await page.textContent('[data-testid="diff-title"] [data-side="before"]')).not.toContain("بعنوان جديد");
      expect(await page.textContent('[data-testid="diff-title"] [data-side="after"]')).toContain("بعنوان جديد");

      // The first version against the current one: the body's one word, the category by its name.
      await saves.nth(2).click();
      await page.waitForSelector(`[data-testid="head-before"][data-rev="${original}"]`);
      const body = page.locator('[data-testid="diff-content"]');
      expect(await body.locator('[data-testid="diff-del"]').count()).toBe(1);
      expect(await body.locator('[data-side="before"] del').textContent()).toContain("الوزير");
      expect(await body.locator('[data-side="after"] ins').textContent()).toContain("الرئيس");
      expect(await body.locator('[data-side="after"] ins').textContent()).not.toContain("مهرجان");
      expect(await body.locator('[data-testid="diff-unchanged"]').textContent()).toBe("فقرة واحدة دون تغيير");
      const category = page.locator('[data-testid="diff-category_id"]');
      expect(await category.locator('[data-side="before"]').textContent()).toContain(categories.first);
      expect(await category.locator('[data-side="after"]').textContent()).toContain(categories.second);
      expect(await category.locator('[data-side="before"] [data-category-id]').getAttribute("data-category-id")).toBe("1");
      expect(await mainViolations(page)).toEqual([]);

      // Any two, chosen in the form: the same version twice says so.
      await page.selectOption('[data-testid="compare-from"]', middle!);
      await page.selectOption('[data-testid="compare-to"]', middle!);
      await page.click('[data-testid="compare-submit"]');
      await page.waitForURL((url) => url.searchParams.get("from") === middle && url.searchParams.get("to") === middle);
      await page.waitForSelector('[data-testid="same-version"]');
      // Given newest first, they are shown oldest first.
      await open(page, `${base}/admin/articles/${id}/revisions?from=${latest}&to=${original}`);
      expect(await page.getAttribute('[data-testid="head-before"]', "data-rev")).toBe(original);
      expect(await page.locator('[data-testid="diff-title"], [data-testid="diff-content"], [data-testid="diff-category_id"]').count()).toBe(3);

      // Restore asks first: cancel keeps everything as it is.
      const dialog = page.locator('[data-testid="restore-dialog"]');
      await page.click('[data-testid="head-before"] [data-testid="restore"]');
      await dialog.waitFor();
      expect(await dialog.getAttribute("open")).not.toBeNull();
      expect(await page.textContent("#restore-title")).toBe("استعادة هذه النسخة؟");
      expect(await mainViolations(page)).toEqual([]);
      await page.click('[data-testid="restore-cancel"]');
      await dialog.waitFor({ state: "hidden" });
      expect(new URL(page.url()).pathname).toBe(`/admin/articles/${id}/revisions`);
      expect((await staffItem(base, server.personas.editor.cookie, "articles", id)).title).toBe(`${title} بعنوان جديد`);
      // Escape closes it too.
      await page.click('[data-testid="head-before"] [data-testid="restore"]');
      await dialog.waitFor();
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });

      // Confirmed: the first version is the current one again, with the spec's toast.
      await page.click('[data-testid="head-before"] [data-testid="restore"]');
      await page.click('[data-testid="restore-confirm"]');
      await page.waitForURL((url) => url.pathname === `/admin/articles/${id}`);
      await expectToast(page, "تمت استعادة النسخة بنجاح");
      expect(await page.inputValue('[data-testid="input-title"]')).toBe(title);
      const restored = await staffItem(base, server.personas.editor.cookie, "articles", id);
      expect(restored.title).toBe(title);
      expect((restored as unknown as { content: string }).content).toContain("الوزير");
      expect(errors).toEqual([]);
    });
    await context.close();
  });

  it("does not list a publish time both sides show the same, and shows every time on a 24-hour clock (issue 46)", async () => {
    // Made through the API: its publish time is the moment of the save, seconds and all; the editor's form then
    // saves it to the minute it shows. Both sides show the same time: not a change.
    const title = `مقال بوقت نشر ${Date.now().toString(36)}`;
    const id = await article(title);
    const { context, page } = await as({ viewport: DESKTOP });
    await keepEvidence(page, "revisions-same-time", async () => {
      await open(page, `${base}/admin/articles/${id}`);
      await page.fill('[data-testid="input-title"]', `${title} معدل`);
      await saveAndExpectToast(page, "articles", "تم تحديث المقال بنجاح!");
      await open(page, `${base}/admin/articles/${id}/revisions`);
      await page.waitForSelector('[data-testid="diff-title"]');
      expect(await page.$$eval('[data-testid^="diff-"][aria-labelledby]', (s) => s.map((x) => x.getAttribute("data-testid")))).toEqual(["diff-title"]);
      // The versions' times: hours and minutes, no «ص»/«م» of a 12-hour clock.
      for (const head of ['[data-testid="head-before"]', '[data-testid="head-after"]']) {
        const text = (await page.textContent(head)) ?? "";
        expect(text).toMatch(/[0-9٠-٩]{2}:[0-9٠-٩]{2}/);
        expect(text).not.toMatch(/[0-9٠-٩]{2}:[0-9٠-٩]{2}\s*[صم](?![\u0621-\u064A])/u);
      }
    });
    await context.close();
  });

  it("asks first without JavaScript too, through a confirmation step", async () => {
    const title = `مقال دون جافاسكربت ${Date.now().toString(36)}`;
    const id = await article(title);
    const res = await fetch(`${base}/api/admin/articles/${id}`, {
      method: "PATCH",
      headers: { cookie: server.personas.editor.cookie, origin: base, "content-type": "application/json" },
      body: JSON.stringify({ title: `${title} معدل` }),
    });
    expect(res.status).toBe(200);
    const { context, page } = await as({ viewport: PHONE, javaScriptEnabled: false });
    await keepEvidence(page, "revisions-no-js", async () => {
      await page.goto(`${base}/admin/articles/${id}/revisions`);
      await page.click('[data-testid="head-before"] [data-testid="restore"]');
      await page.waitForSelector('[data-testid="restore-step"]');
      expect(new URL(page.url()).searchParams.get("restore")).toBe(await page.getAttribute('[data-testid="head-before"]', "data-rev"));
      await page.click('[data-testid="restore-step"] [data-testid="restore-cancel"]');
      await page.waitForURL((url) => !url.searchParams.has("restore"));
      expect(await page.locator('[data-testid="restore-step"]').count()).toBe(0);
      expect((await staffItem(base, server.personas.editor.cookie, "articles", id)).title).toBe(`${title} معدل`);
      await page.click('[data-testid="head-before"] [data-testid="restore"]');
      await page.click('[data-testid="restore-step"] [data-testid="restore-confirm"]');
      await page.waitForURL((url) => url.pathname === `/admin/articles/${id}`);
      expect((await staffItem(base, server.personas.editor.cookie, "articles", id)).title).toBe(title);
    });
    await context.close();
  });

  it("lists autosaves apart, compares them and asks before restoring one", async () => {
    const title = `مسودة بحفظ تلقائي ${Date.now().toString(36)}`;
    const id = await article(title, "draft");
    const res = await fetch(`${base}/api/admin/articles/${id}/autosave`, {
      method: "POST",
      headers: { cookie: server.personas.editor.cookie, origin: base, "content-type": "application/json" },
      body: JSON.stringify({
        values: { title: `${title} قيد الكتابة`, excerpt: "مقتطف المقال للاختبار", content: `<p>${BODY_AFTER}</p>`, category_id: "1", status: "draft" },
      }),
    });
    expect(res.status).toBeLessThan(300);
    const slug = (await staffItem(base, server.personas.editor.cookie, "articles", id)).page_slug;
    const { context, page } = await as({ viewport: DESKTOP });
    await keepEvidence(page, "revisions-autosave", async () => {
      await open(page, `${base}/admin/articles/${id}/revisions`);
      const autosave = page.locator('[data-testid="autosave-list"] [data-testid="revision"]');
      expect(await autosave.count()).toBe(1);
      expect(await autosave.textContent()).toContain("مريم المحررة");
      expect(await page.locator('[data-testid="revision-list"] [data-testid="revision"]').count()).toBe(1);
      // One save and one autosave: compared by default, the autosave after.
      expect(await page.getAttribute('[data-testid="head-after"]', "data-rev")).toBe(await autosave.getAttribute("data-rev"));
      expect(await page.textContent('[data-testid="head-after"]')).toContain("حُفظت تلقائياً");
      expect(await page.textContent('[data-testid="diff-title"] [data-side="after"]')).toContain("قيد الكتابة");
      // Fields the autosave did not record are not shown as emptied.
      expect(await page.locator('[data-testid="diff-page_slug"], [data-testid="diff-publish_date"]').count()).toBe(0);
      expect(await mainViolations(page)).toEqual([]);
      if (process.env.REVISIONS_SHOTS) await page.screenshot({ path: `${process.env.REVISIONS_SHOTS}/revisions-autosave.png`, fullPage: true });
      await page.click('[data-testid="head-after"] [data-testid="restore"]');
      await page.waitForSelector('[data-testid="restore-dialog"][open]');
      expect(await page.textContent("#restore-text")).toContain("حفظ تلقائي");
      await page.click('[data-testid="restore-confirm"]');
      await page.waitForURL((url) => url.pathname === `/admin/articles/${id}`);
      const restored = await staffItem(base, server.personas.editor.cookie, "articles", id);
      expect(restored.title).toBe(`${title} قيد الكتابة`);
      // What the autosave did not record keeps its value.
      expect(restored.page_slug).toBe(slug);
    });
    await context.close();
  });

  it("refuses a parameter that is not a revision number (400, said on the page) and another item's revision (404)", async () => {
    const id = await article(`مقال للروابط ${Date.now().toString(36)}`);
    const other = await article(`مقال آخر ${Date.now().toString(36)}`);
    const cookie = server.personas.editor.cookie;
    const bad = await fetch(`${base}/admin/articles/${id}/revisions?rev=abc`, { headers: { cookie } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("رابط المقارنة غير صالح");
    const { context, page } = await as({ viewport: DESKTOP });
    await open(page, `${base}/admin/articles/${other}/revisions`);
    const otherRev = await page.getAttribute('[data-testid="revision"]', "data-rev");
    await context.close();
    for (const query of [`rev=${otherRev}`, `from=${otherRev}&to=${otherRev}`, `restore=${otherRev}`]) {
      expect((await fetch(`${base}/admin/articles/${id}/revisions?${query}`, { headers: { cookie } })).status, query).toBe(404);
    }
  });

  describe("in Arabic and French, on a phone and a desktop", () => {
    for (const locale of ["ar", "fr"] as const) {
      for (const [label, viewport] of [
        ["phone", PHONE],
        ["desktop", DESKTOP],
      ] as const) {
        it(`${locale} on a ${label}: fits the screen, no serious axe violation, the restore dialog too`, async () => {
          const id = await article(`مقال للعرض ${locale} ${label} ${Date.now().toString(36)}`);
          await fetch(`${base}/api/admin/articles/${id}`, {
            method: "PATCH",
            headers: { cookie: server.personas.editor.cookie, origin: base, "content-type": "application/json" },
            body: JSON.stringify({
              content: `<p>${BODY_AFTER}</p><p>فقرة ثانية لا تتغير.</p>`,
              category_id: "2",
              is_featured: true,
              image_url: await demoImage(),
            }),
          });
          const { context, page } = await as({ viewport, locale });
          await keepEvidence(page, `revisions-${locale}-${label}`, async () => {
            await open(page, `${base}/admin/articles/${id}/revisions`);
            expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale);
            await page.waitForSelector('[data-testid="diff-content"]');
            expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
            expect(await mainViolations(page)).toEqual([]);
            if (process.env.REVISIONS_SHOTS) await page.screenshot({ path: `${process.env.REVISIONS_SHOTS}/revisions-${locale}-${label}.png`, fullPage: true });
            await page.click('[data-testid="head-before"] [data-testid="restore"]');
            await page.waitForSelector('[data-testid="restore-dialog"][open]');
            expect(await mainViolations(page)).toEqual([]);
            if (process.env.REVISIONS_SHOTS) await page.screenshot({ path: `${process.env.REVISIONS_SHOTS}/revisions-${locale}-${label}-dialog.png` });
          });
          await context.close();
        });
      }
    }
  });
});
