/**
 * Corrections and the audit log (issue 40, decision 0140) in a real Chromium: an editor unpublishes and publishes
 * a news item, adds a correction (Arabic and French) to it and tags two items in one bulk action; a reader sees
 * the correction under the story with its date, in Arabic and in French, at 375 and 1280 px, and the page's
 * JSON-LD carries it as a CorrectionComment; an administrator's /admin/audit lists those steps, filters them, in
 * Arabic and in French. Every page axe clean.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, newPage } from "#tests/e2e/support/browser.ts";
import { LAYOUT_CASES, seriousA11yViolations, horizontalOverflow } from "#tests/e2e/support/a11y.ts";
import {
  contentEditor,
  keepEvidence,
  mainViolations,
  open,
  signedInPage,
  staffItem,
  startNewsroomBrowser,
  stopNewsroomBrowser,
  type NewsroomBrowser,
} from "./support.ts";
import { localizedPath } from "#domain/addresses.ts";

type Who = "editor" | "admin";

const CORRECTION_AR = "صُحّح في هذا الخبر اسم الولاية: إنها ولاية آدرار.";
const CORRECTION_FR = "Correction : il s’agit de la wilaya de l’Adrar.";

describe.skipIf(!hasChromium)("corrections and the audit log", () => {
  let env: NewsroomBrowser<Who>;
  let base: string;
  let url: string;
  let itemId: number;

  beforeAll(async () => {
    env = await startNewsroomBrowser<Who>({
      editor: contentEditor("corrections@newsroom.test"),
      admin: { email: "admin@corrections.test", password: "Adm1nPassword", role: "admin" },
    });
    base = env.base;
    const cookie = env.server.personas.editor.cookie;
    const json = { cookie, origin: base, "content-type": "application/json" };
    const list = (await (await fetch(`${base}/api/admin/news?status=published`, { headers: { cookie } })).json()) as { items: { id: number }[] };
    const [first, second] = list.items;
    itemId = first.id;

    // Unpublished, then published again: two rows.
    for (const status of ["draft", "published"]) {
      const res = await fetch(`${base}/api/admin/news/${itemId}`, { method: "PATCH", headers: json, body: JSON.stringify({ status }) });
      expect(res.status, await res.clone().text()).toBe(200);
    }
    // A correction: 201 with it.
    const corrected = await fetch(`${base}/api/admin/news/${itemId}/corrections`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ text: CORRECTION_AR, text_fr: CORRECTION_FR }),
    });
    expect(corrected.status).toBe(201);
    expect(await corrected.json()).toMatchObject({ text: CORRECTION_AR, text_fr: CORRECTION_FR });
    // A bulk action: one row for both items.
    const bulk = await fetch(`${base}/api/admin/news/bulk`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ action: "tag", ids: [first.id, second.id], tag: `تصحيحات-${Date.now().toString(36)}` }),
    });
    expect(bulk.status).toBe(200);
    url = (await staffItem(base, cookie, "news", itemId)).url;
  }, 240_000);
  afterAll(() => stopNewsroomBrowser(env?.browser, env?.server));

  it("answers the audit API with the steps, for administrators only", async () => {
    const forbidden = await fetch(`${base}/api/admin/audit`, { headers: { cookie: env.server.personas.editor.cookie } });
    expect(forbidden.status).toBe(403);
    const res = await fetch(`${base}/api/admin/audit?type=news&id=${itemId}`, { headers: { cookie: env.server.personas.admin.cookie } });
    expect(res.status).toBe(200);
    const { entries } = (await res.json()) as { entries: { actor: string; action: string; type: string; id: number; at: string; request_id: string }[] };
    expect(entries.map((e) => e.action)).toEqual(["bulk", "correction", "publish", "unpublish"]);
    for (const e of entries) {
      expect(e).toMatchObject({ actor: env.server.personas.editor.id, type: "news", id: itemId });
      expect(e.request_id).toMatch(/^[A-Z0-9]{9}$/);
    }
    const csv = await fetch(`${base}/api/admin/audit.csv?type=news`, { headers: { cookie: env.server.personas.admin.cookie } });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(new Uint8Array(await csv.arrayBuffer()).slice(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
  });

  for (const { lang, label, viewport } of LAYOUT_CASES) {
    it(`shows the correction to a reader and the steps to an administrator (${lang}, ${label})`, async () => {
      // A reader's language is the page's address (decision 0143), whatever the browser says.
      const reader = await newPage(env.browser, { viewport });
      try {
        await keepEvidence(reader.page, `correction-${lang}-${label}`, async () => {
          await reader.page.goto(base + localizedPath(lang, url));
          const correction = reader.page.locator('[data-testid="correction"]');
          await correction.waitFor();
          const text = await correction.textContent();
          expect(text).toContain(lang === "ar" ? "تصحيح" : "Correction");
          expect(text).toContain(lang === "ar" ? CORRECTION_AR : CORRECTION_FR);
          expect(await correction.locator("time").getAttribute("datetime")).toMatch(/^\d{4}-\d{2}-\d{2}T/);
          const ld = (await reader.page.locator('script[type="application/ld+json"]').allTextContents()).map((t) => JSON.parse(t) as Record<string, unknown>);
          const article = ld.find((d) => Array.isArray(d.correction))!;
          const corrections = article.correction as Record<string, unknown>[];
          expect(corrections).toHaveLength(1);
          expect(corrections[0]).toMatchObject({ "@type": "CorrectionComment", text: lang === "ar" ? CORRECTION_AR : CORRECTION_FR });
          expect(corrections[0].datePublished).toMatch(/^\d{4}-/);
          // Modified by the correction (and by the bulk tag after it): never older than the correction.
          const correctedAt = Date.parse((article.correction as { datePublished: string }[])[0].datePublished);
          expect(Date.parse(article.dateModified as string)).toBeGreaterThanOrEqual(correctedAt);
          expect(Date.parse(article.datePublished as string)).toBeLessThan(correctedAt);
          expect(await reader.page.locator('meta[property="article:modified_time"]').getAttribute("content")).toBe(article.dateModified);
          expect(await seriousA11yViolations(reader.page)).toEqual([]);
          expect(await horizontalOverflow(reader.page)).toBeLessThanOrEqual(0);
        });
      } finally {
        await reader.context.close();
      }

      const admin = await signedInPage(env.browser, env.server, env.server.personas.admin, { viewport, locale: lang });
      try {
        await keepEvidence(admin.page, `audit-${lang}-${label}`, async () => {
          await open(admin.page, `${base}/admin/audit?type=news`);
          await admin.page.locator('[data-testid="audit-row"]').first().waitFor();
          const actions = await admin.page.locator('[data-testid="audit-row"]').evaluateAll((rows) => rows.map((r) => r.getAttribute("data-action")));
          expect(actions.slice(0, 4)).toEqual(["bulk", "correction", "publish", "unpublish"]);
          const heading = await admin.page.locator("h1").textContent();
          expect(heading).toBe(lang === "ar" ? "سجل العمليات" : "Journal d'audit");
          expect(await admin.page.locator('[data-testid="audit-row-action"]').first().textContent()).toContain(
            lang === "ar" ? "إجراء جماعي" : "Action groupée",
          );

          // Filtered by action.
          await admin.page.selectOption('[data-testid="audit-action"]', "correction");
          await admin.page.click('[data-testid="audit-apply"]');
          await admin.page.waitForURL((u) => u.searchParams.get("action") === "correction");
          await admin.page.waitForFunction(() =>
            [...document.querySelectorAll('[data-testid="audit-row"]')].every((r) => r.getAttribute("data-action") === "correction"),
          );
          expect(await admin.page.locator('[data-testid="audit-row"]').count()).toBe(1);
          expect(await mainViolations(admin.page)).toEqual([]);
          expect(await horizontalOverflow(admin.page)).toBeLessThanOrEqual(0);
        });
      } finally {
        await admin.context.close();
      }
    }, 180_000);
  }
});
