/**
 * The newsroom's audience figures (issue 45) against a built server and a real Chromium: readers' beacons recorded
 * through the collector's own write before the server starts (a reader on Facebook and one on WhatsApp now, the
 * newsletter's and a push alert's links two days ago, two searches that found nothing); the admin API's contracts
 * (`/api/admin/analytics/items/{type}/{id}`, `/top`, `/searches`: their figures, 400, 401, 403 and 404), the CSV
 * export, the dashboard in Arabic and French at 375 and 1280 px (its tables, its chart drawn by uPlot, no sideways
 * scroll, axe clean) and an item's panel on its edit page, for those with `analytics.view` only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { hasChromium, launchBrowser } from "#tests/e2e/support/browser.ts";
import { LAYOUT_CASES, horizontalOverflow } from "#tests/e2e/support/a11y.ts";
import { startAuthServer, type AuthServer } from "#tests/e2e/auth/support.ts";
import { contentEditor, keepEvidence, mainViolations, open, signedInPage } from "#tests/e2e/newsroom/support.ts";
import { ROLE_PRESETS } from "#server/auth/permissions.server.ts";
import { news, newsletterSends, pushAlerts } from "#server/db/schema.server.ts";
import { isPublished } from "#server/content/published.server.ts";
import { recordAudienceBatch, type AudienceEvent } from "#server/analytics/collect.server.ts";
import { newsletterCampaign, pushAlertCampaign } from "#domain/link-tags.ts";

type Who = "analyst" | "desk" | "writer";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const QUERY = "تندوف الجديدة";

describe.skipIf(!hasChromium)("the audience dashboard and its API", () => {
  let server: AuthServer<Who>;
  let browser: Browser;
  let base: string;
  const item = { a: { id: 0, title: "" }, b: { id: 0, title: "" }, send: 0 };

  beforeAll(async () => {
    server = await startAuthServer<Who>({
      seed: true,
      personas: {
        // An editor as the ready-made role makes one: analytics.view included.
        analyst: { email: "analyst@analytics.test", password: "Ed1torPassword", role: "editor", permissions: [...ROLE_PRESETS.editor] },
        // An editor who held what editors held before issue 45: no audience figures.
        desk: contentEditor("desk@analytics.test"),
        writer: { email: "writer@analytics.test", password: "Wr1terPassword", role: "writer", permissions: [...ROLE_PRESETS.writer] },
      },
      prepare: async (db) => {
        const [a, b] = await db.select({ id: news.id, title: news.title }).from(news).where(isPublished(news)).orderBy(news.id).limit(2);
        Object.assign(item, { a, b });
        const twoDaysAgo = new Date(Date.now() - 2 * DAY);
        const [send] = await db
          .insert(newsletterSends)
          .values({ kind: "item", language: "ar", subject: "نشرة التجربة", items: [], state: "sent", total: 40, createdAt: twoDaysAgo, startedAt: twoDaysAgo })
          .returning({ id: newsletterSends.id });
        item.send = send.id;
        await db
          .insert(pushAlerts)
          .values({ contentType: "news", itemId: b.id, state: "sent", sent: 25, createdAt: twoDaysAgo, startedAt: twoDaysAgo })
          .onConflictDoNothing();
        await db
          .update(pushAlerts)
          .set({ state: "sent", sent: 25, startedAt: twoDaysAgo })
          .where(and(eq(pushAlerts.contentType, "news"), eq(pushAlerts.itemId, b.id)));
        const minuteAgo = new Date(Date.now() - MINUTE);
        const event = (visitor: string, page: string, at: Date, more: Partial<AudienceEvent> = {}): AudienceEvent => ({
          visitor,
          page,
          at,
          lang: "ar",
          source: "direct",
          device: "mobile",
          ...more,
        });
        await recordAudienceBatch(
          db,
          [
            event("e2e-v1", `news:${a.id}`, minuteAgo, { source: "facebook" }),
            event("e2e-v2", `news:${a.id}`, minuteAgo, { source: "whatsapp", lang: "fr", device: "desktop" }),
            event("e2e-v3", `news:${a.id}`, twoDaysAgo, { source: "newsletter", campaign: newsletterCampaign(send.id) }),
            event("e2e-v4", `news:${b.id}`, twoDaysAgo, { source: "push", campaign: pushAlertCampaign("news", b.id) }),
            event("e2e-v5", "search", minuteAgo, { search: { query: QUERY, results: 0 } }),
            event("e2e-v6", "search", minuteAgo, { search: { query: `  ${QUERY} `, results: 0 } }),
          ],
          { analytics: true },
        );
      },
    });
    base = server.url;
    browser = await launchBrowser();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const api = (path: string, who: Who | null = "analyst") => fetch(base + path, { headers: who ? { cookie: server.personas[who].cookie } : {} });
  const errorOf = async (res: Response) => [res.status, ((await res.json()) as { error: { code: string } }).error.code];

  it("answers an item's views, visitors, sources and hours", async () => {
    const res = await api(`/api/admin/analytics/items/news/${item.a.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const body = (await res.json()) as { views: number; visitors: number; sources: Record<string, number>; hourly: { hour: string; views: number }[] };
    expect(body).toMatchObject({
      views: 3,
      visitors: 3,
      sources: { search: 0, facebook: 1, whatsapp: 1, telegram: 0, x: 0, newsletter: 1, push: 0, other: 0, direct: 0 },
    });
    expect(Object.keys(body.sources)).toEqual(["search", "facebook", "whatsapp", "telegram", "x", "newsletter", "push", "other", "direct"]);
    expect(body.hourly.reduce((sum, h) => sum + h.views, 0)).toBe(3);
    for (const h of body.hourly) expect(h.hour).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:00:00\.000Z$/);
    // Only the last day: the newsletter's click two days ago is out.
    const from = new Date(Date.now() - DAY).toISOString();
    const lastDay = (await (await api(`/api/admin/analytics/items/news/${item.a.id}?from=${from}`)).json()) as {
      views: number;
      sources: Record<string, number>;
    };
    expect([lastDay.views, lastDay.sources.newsletter]).toEqual([2, 0]);
  });

  it("refuses bad dates (400 INVALID_RANGE), unknown types and ids (404), and those without analytics.view (401, 403)", async () => {
    for (const query of ["from=yesterday", "to=2026-02-30", "from=2026-06-10&to=2026-06-01", "from=2020-01-01&to=2026-01-01"]) {
      expect(await errorOf(await api(`/api/admin/analytics/items/news/${item.a.id}?${query}`)), query).toEqual([400, "INVALID_RANGE"]);
    }
    expect(await errorOf(await api(`/api/admin/analytics/items/news/${item.a.id}?since=1`))).toEqual([400, "INVALID_QUERY"]);
    expect(await errorOf(await api("/api/admin/analytics/items/nothing/1"))).toEqual([404, "NOT_FOUND"]);
    expect(await errorOf(await api("/api/admin/analytics/items/news/987654"))).toEqual([404, "NOT_FOUND"]);
    expect(await errorOf(await api("/api/admin/analytics/items/news/abc"))).toEqual([404, "NOT_FOUND"]);
    for (const path of [
      `/api/admin/analytics/items/news/${item.a.id}`,
      "/api/admin/analytics/top",
      "/api/admin/analytics/searches?empty=1",
      "/api/admin/analytics.csv",
    ]) {
      expect(await errorOf(await api(path, "writer")), path).toEqual([403, "PERMISSION_NEEDED"]);
      expect(await errorOf(await api(path, "desk")), path).toEqual([403, "PERMISSION_NEEDED"]);
      expect(await errorOf(await api(path, null)), path).toEqual([401, "UNAUTHENTICATED"]);
    }
  });

  it("ranks the top items now (readers of the last 30 minutes) and over 7 days, and refuses another period", async () => {
    const now = (await (await api("/api/admin/analytics/top?period=now")).json()) as {
      period: string;
      from: string;
      to: string;
      items: Record<string, unknown>[];
    };
    expect(now.period).toBe("now");
    expect(Date.parse(now.to) - Date.parse(now.from)).toBe(30 * MINUTE);
    expect(now.items).toEqual([{ type: "news", id: item.a.id, title: item.a.title, url: expect.stringMatching(/^\/news\//) as unknown, views: 2 }]);
    const week = (await (await api("/api/admin/analytics/top?period=7d")).json()) as { items: { type: string; id: number; views: number }[] };
    expect(week.items.map((i) => [i.type, i.id, i.views])).toEqual([
      ["news", item.a.id, 3],
      ["news", item.b.id, 1],
    ]);
    expect(((await (await api("/api/admin/analytics/top")).json()) as { period: string }).period).toBe("today");
    expect(await errorOf(await api("/api/admin/analytics/top?period=year"))).toEqual([400, "INVALID_QUERY"]);
  });

  it("lists the searches that found nothing, most frequent first", async () => {
    const empty = await api("/api/admin/analytics/searches?empty=1");
    expect(empty.status).toBe(200);
    expect(await empty.json()).toEqual([{ query: QUERY, count: 2 }]);
    expect(await (await api("/api/admin/analytics/searches?days=7")).json()).toEqual([{ query: QUERY, count: 2 }]);
    expect(await errorOf(await api("/api/admin/analytics/searches?days=0"))).toEqual([400, "INVALID_QUERY"]);
    expect(await errorOf(await api("/api/admin/analytics/searches?empty=yes"))).toEqual([400, "INVALID_QUERY"]);
  });

  it("exports a table as a CSV file", async () => {
    const res = await api("/api/admin/analytics.csv?report=items&period=7d");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="audience-items-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    expect(text.split("\r\n")[0]).toBe("type,id,title,title_fr,url,views");
    expect(text).toContain(`news,${item.a.id},`);
    expect(await errorOf(await api("/api/admin/analytics.csv?report=everything"))).toEqual([400, "INVALID_QUERY"]);
  });

  for (const { lang, label, viewport } of LAYOUT_CASES) {
    it(`shows the dashboard in ${lang} on a ${label}: now, the period's tables and chart, no sideways scroll, axe clean`, async () => {
      const { page, context } = await signedInPage(browser, server, server.personas.analyst, { viewport, locale: lang });
      try {
        await keepEvidence(
          page,
          `analytics-${lang}-${label}`,
          async () => {
            await open(page, `${base}/admin/analytics?period=7d`);
            expect(await page.locator("h1").textContent()).toBe(lang === "ar" ? "أرقام الجمهور" : "Chiffres d’audience");
            expect(await page.getAttribute('[data-testid="analytics-period-7d"]', "aria-current")).toBe("page");
            expect(Number(await page.getAttribute('[data-testid="analytics-now-30"]', "data-value"))).toBe(4);
            expect(await page.getAttribute('[data-testid="analytics-now-item"]', "data-id")).toBe(String(item.a.id));
            const top = page.locator('[data-testid="analytics-top-item"]');
            expect(await top.evaluateAll((rows) => rows.map((r) => [r.getAttribute("data-id"), r.getAttribute("data-views")]))).toEqual([
              [String(item.a.id), "3"],
              [String(item.b.id), "1"],
            ]);
            // Each row opens the item's edit page at its figures.
            expect(await top.first().locator("a").getAttribute("href")).toBe(`/admin/news/${item.a.id}#item-audience`);
            expect(Number(await page.getAttribute('[data-testid="analytics-total-views"]', "data-value"))).toBe(6);
            expect(await page.getAttribute('[data-testid="analytics-source-facebook"]', "data-views")).toBe("1");
            expect(await page.getAttribute('[data-testid="analytics-source-newsletter"]', "data-views")).toBe("1");
            expect(await page.getAttribute('[data-testid="analytics-lang-fr"]', "data-views")).toBe("1");
            expect(await page.getAttribute('[data-testid="analytics-empty-search"]', "data-count")).toBe("2");
            expect(await page.locator('[data-testid="analytics-empty-search"]').textContent()).toContain(QUERY);
            expect(await page.getAttribute(`[data-testid="analytics-send"][data-id="${item.send}"]`, "data-clicks")).toBe("1");
            expect(await page.getAttribute(`[data-testid="analytics-alert"][data-id="${item.b.id}"]`, "data-opens")).toBe("1");
            // The chart arrives with its library (fetched by this page only) and draws into its frame.
            await page.locator('[data-testid="analytics-chart"][data-state="ready"]').waitFor();
            expect(await page.locator('[data-testid="analytics-chart"] canvas').count()).toBe(1);
            expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
            expect(await mainViolations(page)).toEqual([]);
          },
          server.output,
        );
      } finally {
        await context.close();
      }
    }, 180_000);
  }

  it("picks a period by its dates and downloads a table's CSV from the page", async () => {
    const { page, context } = await signedInPage(browser, server, server.personas.analyst, { locale: "fr" });
    try {
      await keepEvidence(
        page,
        "analytics-dates-csv",
        async () => {
          await open(page, `${base}/admin/analytics`);
          const day = (ms: number) => new Date(Date.now() - ms).toISOString().slice(0, 10);
          await page.fill('[data-testid="analytics-from"]', day(3 * DAY));
          await page.fill('[data-testid="analytics-to"]', day(0));
          await page.click('[data-testid="analytics-range-apply"]');
          await page.waitForURL((url) => url.searchParams.get("from") === day(3 * DAY));
          await page.locator(`[data-testid="analytics-top-item"][data-id="${item.b.id}"]`).waitFor();
          const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-testid="analytics-csv-items"]')]);
          expect(download.suggestedFilename()).toMatch(/^audience-items-\d{4}-\d{2}-\d{2}\.csv$/);
        },
        server.output,
      );
    } finally {
      await context.close();
    }
  });

  it("shows an item's figures on its edit page to those with analytics.view only", async () => {
    const analyst = await signedInPage(browser, server, server.personas.analyst, { locale: "ar" });
    try {
      await keepEvidence(
        analyst.page,
        "analytics-item-panel",
        async () => {
          await open(analyst.page, `${base}/admin/news/${item.a.id}#item-audience`);
          const panel = analyst.page.locator('[data-testid="item-audience"]');
          await panel.waitFor();
          expect(await analyst.page.getAttribute('[data-testid="item-audience-views"]', "data-value")).toBe("3");
          expect(await analyst.page.getAttribute('[data-testid="item-audience-source-whatsapp"]', "data-views")).toBe("1");
          await analyst.page.locator('[data-testid="item-audience-chart"][data-state="ready"]').waitFor();
          expect(await mainViolations(analyst.page)).toEqual([]);
        },
        server.output,
      );
    } finally {
      await analyst.context.close();
    }
    const desk = await signedInPage(browser, server, server.personas.desk, { locale: "ar" });
    try {
      await open(desk.page, `${base}/admin/news/${item.a.id}`);
      await desk.page.locator('[data-testid="item-notes"], form').first().waitFor();
      expect(await desk.page.locator('[data-testid="item-audience"]').count()).toBe(0);
    } finally {
      await desk.context.close();
    }
  });
});
