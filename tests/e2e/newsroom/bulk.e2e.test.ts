/**
 * Bulk actions in the back-office lists (issue 29), in Chromium and in Arabic: twenty news items selected in
 * /admin/news and published in one action (the count toast, the statuses, readers see them, and the server makes
 * one cache invalidation for the lot — counted by its /metrics, with or without Redis); every item
 * matching a filter selected across pages; a delete on a phone with the spec's confirmation and count; and the JSON
 * API's refusals (POST /api/admin/{type}/bulk).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { categories } from "#server/db/schema.server.ts";
import { createItem } from "#server/content/newsroom/write.server.ts";
import type { Database } from "#server/db/client.server.ts";
import { DESKTOP, hasChromium, launchBrowser, PHONE } from "#tests/e2e/support/browser.ts";
import { fillDateTime } from "#tests/e2e/support/date-time.ts";
import { startAuthServer, type AuthServer } from "#tests/e2e/auth/support.ts";
import { contentEditor, expectToast, keepEvidence, mainViolations, open, signedInPage } from "./support.ts";
import { ISSUE40_RIGHTS } from "#tests/helpers/auth.ts";

const PUBLISH = "دفعة النشر الجماعي";
const ACROSS = "دفعة عبر الصفحات";
const body = "<p>نص الخبر الكامل الذي يتجاوز عشرين حرفًا بكثير.</p>";

type Personas = "chief" | "writer" | "reader";

/** `n` news drafts titled `${prefix} N`, made by the newsroom's own write. */
async function drafts(db: Database, prefix: string, n: number, categoryId: number) {
  const author = { id: "seed-bulk", email: "seed@bulk.test" };
  for (let i = 1; i <= n; i++) {
    await createItem(
      db,
      "news",
      { title: `${prefix} ${i}`, excerpt: "مقتطف الخبر التجريبي", content: body, category_id: categoryId, status: "draft", priority: "medium" },
      author,
    );
  }
}

describe.skipIf(!hasChromium)("bulk actions in the newsroom's lists", () => {
  let server: AuthServer<Personas>;
  let browser: Browser;
  let politics = 0;
  let heritage = 0;

  beforeAll(async () => {
    server = await startAuthServer<Personas>({
      personas: {
        chief: contentEditor("chief@bulk.test"),
        writer: { email: "writer@bulk.test", password: "Passw0rdW", role: "editor", permissions: ["content.write", ...ISSUE40_RIGHTS] },
        reader: { email: "reader@bulk.test", password: "Passw0rdR", role: "reader" },
      },
      prepare: async (db) => {
        const rows = await db
          .insert(categories)
          .values([
            { name: "سياسة", slug: "politics", type: "news" },
            { name: "تراث", slug: "heritage", type: "culture" },
          ])
          .returning({ id: categories.id, slug: categories.slug });
        politics = rows.find((r) => r.slug === "politics")!.id;
        heritage = rows.find((r) => r.slug === "heritage")!.id;
        await drafts(db, PUBLISH, 20, politics);
        await drafts(db, ACROSS, 25, politics);
      },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const call = (method: string, path: string, who: Personas, payload?: unknown) =>
    fetch(server.url + path, {
      method,
      headers: { cookie: server.personas[who].cookie, origin: server.url, ...(payload === undefined ? {} : { "content-type": "application/json" }) },
      body: payload === undefined ? undefined : JSON.stringify(payload),
    });
  const statusesOf = async (page: Page) =>
    page.locator('[data-testid="content-table"] [data-testid="row-status"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-status")));
  /**
   * The invalidations of news the server has made, from its /metrics (a local scrape needs no token): each is what
   * empties its caches and, with Redis, what it sends the other processes.
   */
  const newsInvalidations = async () => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    return Number(/^sahara_read_cache_invalidations_total\{tag="news"\} (\d+)$/m.exec(text)?.[1] ?? 0);
  };

  it("publishes twenty selected items in one action: the count toast, the statuses, one invalidation", async () => {
    const { context, page } = await signedInPage(browser, server, server.personas.chief, { viewport: DESKTOP });
    await keepEvidence(page, "bulk-publish", async () => {
      // A single edit made now is counted once: the count is this server's.
      const single = await newsInvalidations();
      const list = (await (await call("GET", `/api/admin/news/bulk?q=${encodeURIComponent(ACROSS)}`, "chief")).json()) as { ids: number[] };
      expect((await call("PATCH", `/api/admin/news/${list.ids[0]}`, "chief", { location: "أطار" })).status).toBe(200);
      expect(await newsInvalidations()).toBe(single + 1);

      await open(page, `${server.url}/admin/news?q=${encodeURIComponent(PUBLISH)}`);
      expect(await statusesOf(page)).toEqual(Array(20).fill("draft"));
      const bar = page.locator('[data-testid="bulk-bar"]');
      expect(await bar.isVisible()).toBe(false);
      await page.locator('[data-testid="content-table"] [data-testid="select-page"]').check();
      await expect.poll(() => bar.getAttribute("data-count")).toBe("20");
      expect(await page.locator('[data-testid="bulk-count"]').textContent()).toBe("المحدد: 20");
      // The bar and the ticked rows pass axe.
      expect(await mainViolations(page)).toEqual([]);

      const mark = await newsInvalidations();
      expect(await page.locator('[data-testid="bulk-action"]').inputValue()).toBe("publish");
      await page.click('[data-testid="bulk-apply"]');
      await expectToast(page, "تم نشر 20 عنصرًا.");
      await expect.poll(() => statusesOf(page)).toEqual(Array(20).fill("published"));
      // The selection is spent.
      await expect.poll(() => bar.getAttribute("data-count")).toBe("0");
      // Readers see them at once.
      const news = await (await fetch(`${server.url}/news`)).text();
      expect(news).toContain(`${PUBLISH} 20`);
      // Give a second invalidation every chance to be counted: a later, unrelated write's is counted after it.
      const after = await newsInvalidations();
      expect((await call("PATCH", `/api/admin/news/${await firstId(ACROSS)}`, "chief", { location: "وادان" })).status).toBe(200);
      expect(await newsInvalidations()).toBe(after + 1);
      expect(after).toBe(mark + 1);
    });
    await context.close();
  });

  async function firstId(prefix: string): Promise<number> {
    const res = await call("GET", `/api/admin/news/bulk?q=${encodeURIComponent(prefix)}`, "chief");
    return ((await res.json()) as { ids: number[] }).ids[0];
  }

  it("selects every item matching the filter across pages and acts on all of them", async () => {
    const { context, page } = await signedInPage(browser, server, server.personas.chief, { viewport: DESKTOP });
    await keepEvidence(page, "bulk-all-matching", async () => {
      await open(page, `${server.url}/admin/news?q=${encodeURIComponent(ACROSS)}&status=draft`);
      expect(await page.locator('[data-testid="list-body"]').getAttribute("data-total")).toBe("25");
      await page.locator('[data-testid="content-table"] [data-testid="select-page"]').check();
      await page.click('[data-testid="bulk-select-all"]');
      await expect.poll(() => page.locator('[data-testid="bulk-bar"]').getAttribute("data-count")).toBe("25");
      expect(await page.locator('[data-testid="bulk-all-selected"]').textContent()).toContain("25");
      await page.selectOption('[data-testid="bulk-action"]', "category");
      // Only the categories news offers.
      expect(await page.locator('[data-testid="bulk-category"] option').evaluateAll((o) => o.map((e) => (e as HTMLOptionElement).value))).toEqual([
        "",
        String(politics),
      ]);
      await page.selectOption('[data-testid="bulk-action"]', "schedule");
      // Two days ahead at 09:30, in the site's time (UTC), typed in the day, month, year, hour and minute fields.
      await fillDateTime(page, "bulk-publish-date", `${new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)}T09:30`);
      await page.click('[data-testid="bulk-apply"]');
      // An action over everything the filter matches asks first, with the count (issue 40, decision 0140).
      const dialog = page.locator('[data-testid="bulk-delete-dialog"]');
      await dialog.waitFor();
      expect(await dialog.locator("h2").textContent()).toBe("تأكيد الإجراء الجماعي");
      expect(await dialog.locator('[data-testid="bulk-delete-count"]').textContent()).toContain("25");
      await dialog.locator('[data-testid="bulk-delete-confirm"]').click();
      await expectToast(page, "تمت جدولة 25 عنصرًا.");
      // The draft filter is empty now; the scheduled one holds the 25.
      await expect.poll(() => page.locator('[data-testid="list-body"]').getAttribute("data-total")).toBe("0");
      const scheduled = (await (await call("GET", `/api/admin/news/bulk?q=${encodeURIComponent(ACROSS)}&status=scheduled`, "chief")).json()) as {
        count: number;
      };
      expect(scheduled.count).toBe(25);
    });
    await context.close();
  });

  it("deletes on a phone after the spec's confirmation with the count", async () => {
    const { context, page } = await signedInPage(browser, server, server.personas.chief, { viewport: PHONE });
    await keepEvidence(page, "bulk-delete", async () => {
      await open(page, `${server.url}/admin/news?q=${encodeURIComponent(PUBLISH)}`);
      const cards = page.locator('[data-testid="content-cards"]');
      await cards.locator('[data-testid="select-page"]').check();
      await page.selectOption('[data-testid="bulk-action"]', "delete");
      await page.click('[data-testid="bulk-apply"]');
      const dialog = page.locator('[data-testid="bulk-delete-dialog"]');
      await dialog.waitFor();
      expect(await dialog.locator("h2").textContent()).toBe("تأكيد الحذف");
      expect(await dialog.locator("#bulk-delete-text").textContent()).toBe("هل أنت متأكد من حذف 20 عنصرًا؟ لا يمكن التراجع عن هذا الإجراء.");
      expect(await mainViolations(page)).toEqual([]);
      // Cancelling changes nothing.
      await page.click('[data-testid="bulk-delete-cancel"]');
      expect(await cards.locator('[data-testid="content-card"]').count()).toBe(20);
      await page.click('[data-testid="bulk-apply"]');
      await page.click('[data-testid="bulk-delete-confirm"]');
      await expectToast(page, "تم حذف 20 عنصرًا.");
      await page.locator('[data-testid="list-empty"]').waitFor();
      const left = (await (await call("GET", `/api/admin/news/bulk?q=${encodeURIComponent(PUBLISH)}`, "chief")).json()) as { count: number };
      expect(left.count).toBe(0);
    });
    await context.close();
  });

  it("offers no delete to an editor without the delete permission", async () => {
    const { context, page } = await signedInPage(browser, server, server.personas.writer, { viewport: DESKTOP });
    await open(page, `${server.url}/admin/news?q=${encodeURIComponent(ACROSS)}`);
    await page.locator('[data-testid="content-table"] [data-testid="row-select"]').first().check();
    const options = await page.locator('[data-testid="bulk-action"] option').evaluateAll((o) => o.map((e) => (e as HTMLOptionElement).value));
    expect(options).not.toContain("delete");
    expect(options).toContain("publish");
    await context.close();
  });

  it("answers the JSON API with the action, the count and the ids, and refuses bad requests with 4xx", async () => {
    const ids = ((await (await call("GET", `/api/admin/news/bulk?q=${encodeURIComponent(ACROSS)}`, "chief")).json()) as { ids: number[] }).ids;
    expect(ids).toHaveLength(25);
    const done = await call("POST", "/api/admin/news/bulk", "writer", { action: "unpublish", ids: ids.slice(0, 5) });
    expect(done.status).toBe(200);
    expect(done.headers.get("cache-control")).toContain("no-store");
    const answer = (await done.json()) as { action: string; count: number; ids: number[] };
    expect(answer).toMatchObject({ action: "unpublish", count: 5 });
    expect([...answer.ids].sort()).toEqual(ids.slice(0, 5).sort());

    const refused = async (who: Personas, payload: unknown, path = "/api/admin/news/bulk") => {
      const res = await call("POST", path, who, payload);
      return { status: res.status, error: ((await res.json()) as { error: { code: string; message: string; fields?: Record<string, string> } }).error };
    };
    const unknownAction = await refused("chief", { action: "archive", ids });
    expect(unknownAction.status).toBe(400);
    expect(unknownAction.error.code).toBe("INVALID_BULK");
    expect(unknownAction.error.fields?.action).toContain("إجراء غير معروف");
    const noIds = await refused("chief", { action: "publish" });
    expect(noIds).toMatchObject({ status: 400, error: { code: "INVALID_BULK" } });
    expect(noIds.error.fields?.ids).toBe("حدد عنصرًا واحدًا على الأقل (ids) أو تصفية (filter).");
    const tooMany = await refused("chief", { action: "publish", ids: Array.from({ length: 1001 }, (_, i) => i + 1) });
    expect(tooMany).toMatchObject({ status: 422, error: { code: "TOO_MANY_ITEMS" } });
    const badDate = await refused("chief", { action: "schedule", ids, publish_date: "next week" });
    expect(badDate).toMatchObject({ status: 422, error: { fields: { publish_date: "موعد النشر غير صالح." } } });
    const pastDate = await refused("chief", { action: "schedule", ids, publish_date: "2020-01-01T00:00:00Z" });
    expect(pastDate).toMatchObject({ status: 422, error: { fields: { publish_date: "موعد الجدولة يجب أن يكون في المستقبل." } } });
    const notOffered = await refused("chief", { action: "category", ids, category_id: heritage });
    expect(notOffered).toMatchObject({ status: 422, error: { fields: { category_id: "هذا النوع لا يقدّم هذا التصنيف." } } });
    const gone = await refused("chief", { action: "publish", ids: [...ids, 999_999] });
    expect(gone.status).toBe(404);
    const noDelete = await refused("writer", { action: "delete", ids });
    expect(noDelete).toMatchObject({ status: 403, error: { code: "PERMISSION_NEEDED" } });
    expect((await refused("reader", { action: "publish", ids })).status).toBe(403);
    expect((await refused("chief", { action: "publish", ids }, "/api/admin/no-such-type/bulk")).status).toBe(404);
    const notJson = await fetch(`${server.url}/api/admin/news/bulk`, {
      method: "POST",
      headers: { cookie: server.personas.chief.cookie, origin: server.url, "content-type": "application/json" },
      body: "{nope",
    });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: { code: string } }).error.code).toBe("BAD_JSON");
    // Nothing refused changed anything: the five unpublished are drafts, the other twenty still scheduled.
    const count = async (status: string) =>
      ((await (await call("GET", `/api/admin/news/bulk?q=${encodeURIComponent(ACROSS)}&status=${status}`, "chief")).json()) as { count: number }).count;
    expect(await count("draft")).toBe(5);
    expect(await count("scheduled")).toBe(20);
  });
});
