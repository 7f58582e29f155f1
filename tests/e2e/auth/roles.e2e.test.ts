/**
 * Issue 40 (decision 0137), in Chromium: an administrator invites a member of staff on /admin/users by picking a
 * ready-made role over the permission list — picking «محرر» / «Éditeur» ticks the editor's rights, picking
 * «كاتب» / «Rédacteur» leaves content.write alone — in Arabic and French, on a phone (375 px) and a desktop
 * (1280 px), with no serious axe violation in the page's content and nothing wider than the screen. The account
 * is made with the writer's role and list, and the invitation goes out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { DESKTOP, hasChromium, hydrated, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import { horizontalOverflow, seriousA11yViolations, useLanguage } from "#tests/e2e/support/a11y.ts";
import { startSmtpReceiver } from "#tests/helpers/smtp.ts";
import { ROLE_PRESETS } from "#server/auth/permissions.server.ts";
import { browserCookies, get, startAuthServer, type AuthServer } from "./support.ts";

type Smtp = Awaited<ReturnType<typeof startSmtpReceiver>>;

const ROLE_NAMES = { ar: { writer: "كاتب", editor: "محرر" }, fr: { writer: "Rédacteur", editor: "Éditeur" } } as const;

/** Serious accessibility problems in the page's own content (the shared shell is tested with the layout). */
async function contentViolations(page: Page) {
  const all = await seriousA11yViolations(page);
  const inMain = await Promise.all(
    all.map((v) =>
      page.evaluate(
        (selectors) => selectors.some((s) => document.querySelector(s)?.closest("#main")),
        v.nodes.map((n) => n.target.at(-1)!),
      ),
    ),
  );
  return all.filter((_, i) => inMain[i]);
}

/** The permission boxes of the invitation form that are ticked. */
const ticked = (page: Page) =>
  page.$$eval('[data-testid="invite-form"] input[name="permissions"]', (boxes) =>
    (boxes as HTMLInputElement[])
      .filter((b) => b.checked)
      .map((b) => b.value)
      .sort(),
  );

describe.skipIf(!hasChromium)("inviting with a ready-made role (issue 40)", () => {
  let browser: Browser;
  let smtp: Smtp;
  let server: AuthServer<"admin">;
  let base: string;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startAuthServer({
      personas: { admin: { email: "admin@roles.test", password: "Adm1nPassword", role: "admin", name: "مديرة التحرير" } },
      env: { SMTP_URL: smtp.url },
    });
    base = server.url;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  describe.each([
    ["ar", "phone", PHONE],
    ["ar", "desktop", DESKTOP],
    ["fr", "phone", PHONE],
    ["fr", "desktop", DESKTOP],
  ] as const)("in %s on a %s", (lang, device, viewport) => {
    it("picks the writer role over the permission list and invites a writer", async () => {
      const email = `writer-${lang}-${device}@roles.test`;
      const { context, page, errors } = await newPage(browser, { viewport, locale: lang });
      try {
        await context.addCookies(browserCookies(server.personas.admin, base));
        await useLanguage(page, base, lang);
        await page.goto(`${base}/admin/users`);
        await hydrated(page);
        expect(await page.getAttribute("html", "dir")).toBe(lang === "ar" ? "rtl" : "ltr");

        const role = page.locator("#invite-role");
        // The role names the back-office uses, over the permission list.
        expect(await role.locator('option[value="writer"]').textContent()).toBe(ROLE_NAMES[lang].writer);
        expect(await role.locator('option[value="editor"]').textContent()).toBe(ROLE_NAMES[lang].editor);
        expect(await role.inputValue()).toBe("writer");
        expect(await ticked(page)).toEqual([...ROLE_PRESETS.writer].sort());
        // Picking the editor ticks the editor's rights; back to the writer, only content.write stays.
        await role.selectOption("editor");
        await page.waitForFunction(() => (document.querySelector('input[name="permissions"][value="content.publish"]') as HTMLInputElement | null)?.checked);
        expect(await ticked(page)).toEqual([...ROLE_PRESETS.editor].sort());
        await role.selectOption("writer");
        await page.waitForFunction(() => !(document.querySelector('input[name="permissions"][value="content.publish"]') as HTMLInputElement | null)?.checked);
        expect(await ticked(page)).toEqual([...ROLE_PRESETS.writer].sort());

        await page.fill("#invite-email", email);
        await page.fill("#invite-name", lang === "ar" ? "مريم الكاتبة" : "Mariem Rédactrice");
        expect(await contentViolations(page)).toEqual([]);
        expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

        await page.click('[data-testid="invite-submit"]');
        const result = page.locator('[data-testid="users-result"]');
        await result.waitFor();
        expect(await result.getAttribute("data-ok")).toBe("true");
        // The toast says what happened once (issue 46: it said «تم / تم»): the invitation, then what comes next.
        const toast = page.locator('[data-testid="toast"]', { hasText: lang === "ar" ? "أُرسلت الدعوة" : "Invitation envoyée" });
        await toast.waitFor();
        expect(await toast.textContent()).toContain(lang === "ar" ? "رابطًا لتفعيل حسابه" : "un lien pour activer son compte");
        // The new account is listed with the writer's name.
        const row = page.locator(`[data-testid="account"][data-email="${email}"]`);
        await row.waitFor();
        expect(await row.textContent()).toContain(ROLE_NAMES[lang].writer);
        expect(await contentViolations(page)).toEqual([]);
        expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
      await smtp.waitFor(email);
      // On the server: role writer, the writer's list (the administrator's screen shows what was stored).
      const html = await (await get(base, "/admin/users", { cookie: server.personas.admin.cookie })).text();
      const at = html.indexOf(`data-email="${email}"`);
      expect(at).toBeGreaterThan(0);
      const block = html.slice(at, html.indexOf('data-testid="account"', at + 10) > 0 ? html.indexOf('data-testid="account"', at + 10) : undefined);
      expect(block).toMatch(/<option value="writer" selected="">/);
      const isTicked = (permission: string) =>
        new RegExp(`<input[^>]*name="permissions"[^>]*checked=""[^>]*value="${permission.replace(".", "\\.")}"`).test(block);
      expect(isTicked("content.write")).toBe(true);
      expect(["content.publish", "content.others", "tags.manage", "content.delete"].filter(isTicked)).toEqual([]);
      // The audit log has the invitation, by the administrator, with the rights given.
      const audit = (await (await get(base, "/api/admin/audit?action=account_invited", { cookie: server.personas.admin.cookie })).json()) as {
        entries: { action: string; details: { email?: string; role?: string; permissions?: string[] } }[];
      };
      expect(audit.entries.find((e) => e.details.email === email)?.details).toMatchObject({ role: "writer", permissions: ["content.write"] });
    });
  });
});
