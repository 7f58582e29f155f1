/**
 * Workflow states and review (issue 40, decision 0138) in a real browser, in Arabic on a phone (375 px) and in
 * French on a desktop (1280 px): a writer (content.write only) starts a draft — the form offers only «مسودة» and
 * «إرسال للمراجعة», and a forged «published» is refused in the writer's language — submits it; the editor finds
 * it in the dashboard's review queue and a notice, sends it back (the note is required), the writer sees the
 * note in a notice and in the editor, resubmits; the editor approves it, then publishes it: only then is it
 * public, and the writer's notices say so. The e-mails go through the job queue to a real SMTP receiver. Every
 * page is axe clean.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { DESKTOP, hasChromium, launchBrowser, PHONE } from "#tests/e2e/support/browser.ts";
import { startAuthServer, type AuthServer } from "#tests/e2e/auth/support.ts";
import { startSmtpReceiver } from "#tests/helpers/smtp.ts";
import { contentEditor, keepEvidence, mainViolations, open, publicPage, richEditorReady, signedInPage, sitemapUrls, staffItem, typeBody } from "./support.ts";

type Who = "writer" | "editor";

const RUNS = [
  {
    lang: "ar",
    viewport: PHONE,
    text: {
      refused: "لا تملك صلاحية النشر",
      noteRequired: "اكتب ملاحظة للكاتب",
      submitted: "أرسل",
      sentBack: "أعاد",
      published: "نشر",
    },
  },
  {
    lang: "fr",
    viewport: DESKTOP,
    text: {
      refused: "Vous n'avez pas le droit de publier",
      noteRequired: "Écrivez une note pour l'auteur",
      submitted: "a soumis à relecture",
      sentBack: "a renvoyé pour correction",
      published: "a publié",
    },
  },
] as const;

describe.skipIf(!hasChromium)("a writer's story through review", () => {
  let server: AuthServer<Who>;
  let browser: Browser;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startAuthServer<Who>({
      personas: {
        // A writer: creates and edits, may not publish (an editor-role account without content.publish).
        writer: { ...contentEditor("aminetou.writer@workflow.test", "أمينتو الكاتبة"), permissions: ["content.write"] },
        editor: contentEditor("sidi.editor@workflow.test", "سيدي المحرر"),
      },
      seed: true,
      env: { SMTP_URL: smtp.url },
    });
    browser = await launchBrowser();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  /** Opens an item's editor; when the other person's lock is still there (their page just left), takes it over. */
  async function openItem(page: Page, url: string) {
    await open(page, url);
    await page.locator('[data-testid="publishing"]').waitFor();
    if (await page.locator('[data-testid="lock-take-over"]').count()) {
      await page.click('[data-testid="lock-take-over"]');
      await page.click('[data-testid="lock-confirm"]');
      await page.locator('[data-testid="lock-banner"]').waitFor({ state: "detached" });
    }
  }

  async function expectAxeClean(page: Page) {
    expect(await mainViolations(page)).toEqual([]);
  }

  /** Chooses a status and saves; waits for the list the save leads to. */
  async function saveWithStatus(page: Page, status: string) {
    await page.check(`[data-testid="status-${status}"]`);
    await page.click('[data-testid="save"]');
    await page.waitForURL((url) => url.pathname === "/admin/news");
  }

  it("the admin API: a writer's status beyond draft and review is 403 PUBLISH_PERMISSION; review and approved are never public", async () => {
    const base = server.url;
    const send = (who: Who, method: string, path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method,
        headers: { cookie: server.personas[who].cookie, origin: base, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    // A category the news form offers: an existing news item's.
    const existing = (await (await fetch(`${base}/api/admin/news?status=published`, { headers: { cookie: server.personas.editor.cookie } })).json()) as {
      items: { category_id: string | null }[];
    };
    const categoryId = existing.items.find((i) => i.category_id)!.category_id;
    const title = `خبر عبر الواجهة البرمجية ${Date.now().toString(36)}`;
    const item = {
      title,
      excerpt: "مقتطف الخبر عبر الواجهة",
      content: "<p>نص الخبر الكامل عبر الواجهة البرمجية للاختبار.</p>",
      category_id: categoryId,
      priority: "high",
    };

    for (const status of ["published", "scheduled", "approved", "changes_requested"]) {
      const refused = await send("writer", "POST", "/api/admin/news", { ...item, status, publish_date: "2031-01-01T10:00:00Z" });
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("PUBLISH_PERMISSION");
    }
    const created = await send("writer", "POST", "/api/admin/news", item);
    expect(created.status).toBe(201);
    const { id, status, url } = (await created.json()) as { id: number; status: string; url: string };
    expect(status).toBe("draft");
    expect((await send("writer", "PATCH", `/api/admin/news/${id}`, { status: "review" })).status).toBe(200);
    const approve = await send("writer", "PATCH", `/api/admin/news/${id}`, { status: "approved" });
    expect(approve.status).toBe(403);
    expect(((await approve.json()) as { error: { code: string } }).error.code).toBe("PUBLISH_PERMISSION");

    const invisible = async () => {
      expect((await publicPage(base, url)).status).toBe(404);
      expect(await (await fetch(`${base}/api/news`, { headers: { accept: "application/json" } })).text()).not.toContain(title);
      expect(await sitemapUrls(base)).not.toContain(encodeURI(url));
      const found = (await (await fetch(`${base}/api/search?q=${encodeURIComponent(title)}`)).json()) as { results: { id: number; type: string }[] };
      expect(found.results.filter((r) => r.id === id && r.type === "news")).toEqual([]);
    };
    await invisible();
    const sentBack = await send("editor", "PATCH", `/api/admin/news/${id}`, { status: "changes_requested" });
    expect(sentBack.status).toBe(422);
    expect(((await sentBack.json()) as { error: { fields: Record<string, string> } }).error.fields.review_note).toBe("اكتب ملاحظة للكاتب قبل إعادة القصة إليه");
    expect((await send("editor", "PATCH", `/api/admin/news/${id}`, { status: "approved" })).status).toBe(200);
    await invisible();
    const listed = (await (await fetch(`${base}/api/admin/news?status=approved`, { headers: { cookie: server.personas.editor.cookie } })).json()) as {
      items: { id: number }[];
      counts: Record<string, number>;
    };
    expect(listed.items.map((i) => i.id)).toContain(id);
    expect(listed.counts.approved).toBeGreaterThanOrEqual(1);
    expect((await send("editor", "PATCH", `/api/admin/news/${id}`, { status: "published" })).status).toBe(200);
    expect((await publicPage(base, url)).status).toBe(200);
    expect(await (await fetch(`${base}/api/news`, { headers: { accept: "application/json" } })).text()).toContain(title);
  }, 120_000);

  for (const run of RUNS) {
    it(`${run.lang} at ${run.viewport.width} px: draft, submitted, sent back with a note, resubmitted, approved, published, with the notices`, async () => {
      const title = `${run.lang === "ar" ? "قافلة الملح تصل إلى تيشيت" : "La caravane du sel arrive à Tichitt"} ${Date.now().toString(36)}`;
      const note = run.lang === "ar" ? "أضيفي مصدر الرقم في الفقرة الثانية" : "Ajoutez la source du chiffre au deuxième paragraphe";
      const writer = await signedInPage(browser, server, server.personas.writer, { viewport: run.viewport, locale: run.lang });
      const editor = await signedInPage(browser, server, server.personas.editor, { viewport: run.viewport, locale: run.lang });
      const cookie = server.personas.editor.cookie;
      let id = 0;
      try {
        // The writer's new story: a draft by default, and only draft and «submit for review» offered.
        await keepEvidence(writer.page, `workflow-${run.lang}-writer`, async () => {
          await open(writer.page, `${server.url}/admin/news/new`);
          await richEditorReady(writer.page);
          const offered = await writer.page
            .locator('[data-testid="publishing"] input[name="status"]')
            .evaluateAll((inputs) => inputs.map((i) => [(i as HTMLInputElement).value, (i as HTMLInputElement).checked]));
          expect(offered).toEqual([
            ["draft", true],
            ["review", false],
          ]);
          expect(await writer.page.locator('[data-testid="input-review_note"]').count()).toBe(0);
          await expectAxeClean(writer.page);
          await writer.page.fill('[data-testid="input-title"]', title);
          await writer.page.fill('[data-testid="input-excerpt"]', run.lang === "ar" ? "مقتطف الخبر للاختبار" : "Le résumé de la dépêche");
          await typeBody(writer.page, run.lang === "ar" ? "نص الخبر كاملاً كما كتبته الكاتبة." : "Le texte complet de la dépêche, tel que l'auteur l'a écrit.");
          await writer.page.selectOption('[data-testid="input-category_id"]', { index: 1 });

          // A forged «published» (the control never offers it): refused, said in the writer's language.
          await writer.page.locator('[data-testid="status-review"]').evaluate((input) => {
            (input as HTMLInputElement).value = "published";
            (input as HTMLInputElement).checked = true;
          });
          await writer.page.click('[data-testid="save"]');
          const failure = writer.page.locator('[data-testid="save-failure"]');
          await failure.waitFor();
          expect(await failure.textContent()).toContain(run.text.refused);
          expect(writer.page.url()).toContain("/admin/news/new");

          // Submitted for review.
          await open(writer.page, `${server.url}/admin/news/new`);
          await richEditorReady(writer.page);
          await writer.page.fill('[data-testid="input-title"]', title);
          await writer.page.fill('[data-testid="input-excerpt"]', run.lang === "ar" ? "مقتطف الخبر للاختبار" : "Le résumé de la dépêche");
          await typeBody(writer.page, run.lang === "ar" ? "نص الخبر كاملاً كما كتبته الكاتبة." : "Le texte complet de la dépêche, tel que l'auteur l'a écrit.");
          await writer.page.selectOption('[data-testid="input-category_id"]', { index: 1 });
          await saveWithStatus(writer.page, "review");
          const row = writer.page.locator('[data-testid="content-row"]', { hasText: title });
          id = Number(await row.getAttribute("data-id"));
          expect(await row.locator('[data-testid="row-status"]').getAttribute("data-status")).toBe("review");
          expect((await publicPage(server.url, (await staffItem(server.url, cookie, "news", id)).url)).status).toBe(404);
        });

        // The editor: the story in the review queue and a notice; sent back, the note required.
        await keepEvidence(editor.page, `workflow-${run.lang}-editor`, async () => {
          await open(editor.page, `${server.url}/admin`);
          const queued = editor.page.locator(`[data-testid="review-queue-item"][data-id="${id}"]`);
          await queued.waitFor();
          expect(await queued.textContent()).toContain(title);
          expect(await queued.textContent()).toContain("أمينتو الكاتبة");
          const notice = editor.page.locator('[data-testid="notice"][data-kind="submitted"]', { hasText: title });
          expect(await notice.textContent()).toContain(run.text.submitted);
          await expectAxeClean(editor.page);

          await openItem(editor.page, `${server.url}/admin/news/${id}`);
          const offered = await editor.page
            .locator('[data-testid="publishing"] input[name="status"]')
            .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
          expect(offered).toEqual(["draft", "review", "changes_requested", "approved", "published", "scheduled"]);
          await expectAxeClean(editor.page);
          await editor.page.check('[data-testid="status-changes_requested"]');
          await editor.page.click('[data-testid="save"]');
          const refusal = editor.page.locator('[data-testid="error-review_note"]');
          await refusal.waitFor();
          expect(await refusal.textContent()).toContain(run.text.noteRequired);
          await editor.page.fill('[data-testid="input-review_note"]', note);
          await saveWithStatus(editor.page, "changes_requested");
        });

        // The writer: told, with the note, in a notice and in the editor; resubmits.
        await keepEvidence(writer.page, `workflow-${run.lang}-resubmit`, async () => {
          // Anywhere in the back-office, the menu says there is something unread.
          await open(writer.page, `${server.url}/admin/news`);
          expect(await writer.page.locator('[data-testid="menu-unread"]').first().textContent()).toMatch(/[1-9١-٩]/);
          await open(writer.page, `${server.url}/admin`);
          const notice = writer.page.locator('[data-testid="notice"][data-kind="changes_requested"]', { hasText: title });
          await notice.waitFor();
          expect(await notice.getAttribute("data-read")).toBe("false");
          expect(await notice.textContent()).toContain(run.text.sentBack);
          expect(await notice.locator('[data-testid="notice-note"]').textContent()).toBe(note);
          expect(await writer.page.locator('[data-testid="review-queue"]').count()).toBe(0);
          await expectAxeClean(writer.page);
          // Seen: read on the next visit.
          await open(writer.page, `${server.url}/admin`);
          expect(await writer.page.locator('[data-testid="notice"][data-kind="changes_requested"]', { hasText: title }).getAttribute("data-read")).toBe("true");

          await openItem(writer.page, `${server.url}/admin/news/${id}`);
          expect(await writer.page.locator('[data-testid="review-note-text"]').textContent()).toBe(note);
          await expectAxeClean(writer.page);
          await saveWithStatus(writer.page, "review");
        });

        // The editor approves (still not public), then publishes.
        await keepEvidence(editor.page, `workflow-${run.lang}-publish`, async () => {
          await openItem(editor.page, `${server.url}/admin/news/${id}`);
          await saveWithStatus(editor.page, "approved");
          const approved = await staffItem(server.url, cookie, "news", id);
          expect(approved.status).toBe("approved");
          expect((await publicPage(server.url, approved.url)).status).toBe(404);
          await openItem(editor.page, `${server.url}/admin/news/${id}`);
          await saveWithStatus(editor.page, "published");
          const published = await staffItem(server.url, cookie, "news", id);
          expect(published.status).toBe("published");
          expect((await publicPage(server.url, published.url)).status).toBe(200);
          // The list's filter by state.
          await open(editor.page, `${server.url}/admin/news?status=review`);
          expect(await editor.page.locator('[data-testid="content-row"]', { hasText: title }).count()).toBe(0);
          await expectAxeClean(editor.page);
        });

        // The writer is told it is out.
        await open(writer.page, `${server.url}/admin`);
        const out = writer.page.locator('[data-testid="notice"][data-kind="published"]', { hasText: title });
        await out.waitFor();
        expect(await out.textContent()).toContain(run.text.published);

        // The e-mails, sent by the job queue through SMTP.
        const sentBack = await waitForMail(smtp, server.personas.writer.email, `مطلوب تعديل: ${title}`);
        expect(sentBack.text).toContain(note);
        await waitForMail(smtp, server.personas.writer.email, `نُشر: ${title}`);
        await waitForMail(smtp, server.personas.editor.email, `للمراجعة: ${title}`);
      } finally {
        await writer.context.close();
        await editor.context.close();
      }
    }, 240_000);
  }
});

/** The first message to `to` whose subject contains `subject`, waiting for the queue's worker to send it. */
async function waitForMail(smtp: Awaited<ReturnType<typeof startSmtpReceiver>>, to: string, subject: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = smtp.messages.find((m) => m.to.includes(to) && m.subject.includes(subject));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} about "${subject}"; got: ${smtp.messages.map((m) => m.subject).join(" | ")}`);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 200);
      timer.unref();
    });
  }
}
