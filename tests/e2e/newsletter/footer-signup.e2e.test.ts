/**
 * The newsletter sign-up in every reading page's footer (issue 46): without JavaScript the post comes back to the
 * same page at the form, the thank-you in the viewport (a phone reader sees it where they pressed); with JavaScript
 * the page is not left and the answer is said in a live region; a bad address gets the spec's message at the field.
 * Arabic, French and English, at 375 and 1280 px, axe clean. Each context signs up from an address of its own (the
 * server trusts its loopback proxy's X-Forwarded-For): the sign-up's limit is per address.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { DESKTOP, hasChromium, hydrated, launchBrowser, newPage, PHONE, recordFormPosts } from "#tests/e2e/support/browser.ts";
import { allA11yViolations, horizontalOverflow } from "#tests/e2e/support/a11y.ts";
import { sharedServer } from "#tests/e2e/support/workers.ts";

const base = sharedServer().baseUrl;

const TEXT = {
  ar: { sent: "شكراً! أرسلنا إلى بريدك رابطاً لتأكيد الاشتراك، صالحاً لمدة 48 ساعة.", invalid: "البريد الإلكتروني غير صحيح" },
  fr: { sent: "Merci ! Un lien de confirmation, valable 48 heures, vient de vous être envoyé par e-mail.", invalid: "Adresse e-mail invalide" },
  en: { sent: "Thank you! We have e-mailed you a confirmation link, valid for 48 hours.", invalid: "Invalid e-mail address" },
} as const;
type Lang = keyof typeof TEXT;

let client = 0;
/** A run-unique client address and e-mail. */
const nextClient = () => {
  client += 1;
  return { ip: `203.0.113.${(process.pid % 50) * 5 + client}`, email: `footer.${process.pid}.${client}@sahara.test` };
};

/** Whether the element is wholly inside the viewport. */
const inViewport = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight && r.height > 0;
  });

describe.skipIf(!hasChromium)("the footer's newsletter sign-up", () => {
  let browser: Browser;
  let detailPath = "";

  beforeAll(async () => {
    browser = await launchBrowser();
    const sitemap = await (await fetch(`${base}/sitemap`)).text();
    detailPath = /href="(\/articles\/[^"/?#]+)"/.exec(sitemap)?.[1] ?? "";
    expect(detailPath, "an article linked from /sitemap").not.toBe("");
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(path: string, lang: Lang, viewport: { width: number; height: number }, javaScriptEnabled: boolean) {
    const made = await newPage(browser, { viewport, javaScriptEnabled, locale: lang });
    const who = nextClient();
    await made.context.setExtraHTTPHeaders({ "X-Forwarded-For": who.ip });
    await made.page.goto(base + (lang === "ar" ? path : `/${lang}${path === "/" ? "" : path}`));
    if (javaScriptEnabled) await hydrated(made.page);
    return { ...made, email: who.email };
  }

  const cases = [
    ["ar", PHONE, "375", () => detailPath],
    ["ar", DESKTOP, "1280", () => "/"],
    ["fr", PHONE, "375", () => "/news"],
    ["fr", DESKTOP, "1280", () => detailPath],
    ["en", PHONE, "375", () => detailPath],
    ["en", DESKTOP, "1280", () => "/culture"],
  ] as const;

  for (const [lang, viewport, label, path] of cases) {
    it(`${lang} at ${label} px without JavaScript: the thank-you shows at the form, in the viewport`, async () => {
      const { context, page, email } = await open(path(), lang, viewport, false);
      const before = new URL(page.url());
      expect(await page.getByTestId("footer-newsletter-form").isVisible()).toBe(true);
      await page.locator("#footer-newsletter-email").fill(email);
      await Promise.all([page.waitForURL(/notice=newsletter-sent/), page.getByTestId("footer-newsletter-submit").click()]);
      const after = new URL(page.url());
      expect(after.pathname).toBe(before.pathname);
      expect(after.hash).toBe("#newsletter");
      expect(await page.getByTestId("footer-newsletter-sent").textContent()).toBe(TEXT[lang].sent);
      expect(await inViewport(page, "footer-newsletter-sent")).toBe(true);
      expect(await horizontalOverflow(page)).toBe(0);
      // The page is the page: its canonical address carries no notice.
      expect(await page.locator('link[rel="canonical"]').getAttribute("href")).not.toContain("notice");
      await context.close();
    });
  }

  for (const [lang, viewport, label, path] of [cases[0], cases[3], cases[5]]) {
    it(`${lang} at ${label} px with JavaScript: no navigation, the answer in place and in the live region`, async () => {
      const { context, page, email, errors } = await open(path(), lang, viewport, true);
      const start = page.url();
      expect(await allA11yViolations(page, '[data-testid="site-footer"]')).toEqual([]);
      // A mark on this document: still there afterwards means the page was not left.
      await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
      const field = page.locator("#footer-newsletter-email");
      await field.focus();
      await page.locator('[data-testid="footer-newsletter-form"][data-enhanced]').waitFor();
      await field.fill(email);
      await page.getByTestId("footer-newsletter-submit").click();
      await page.getByTestId("footer-newsletter-sent").waitFor();
      expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
      expect(page.url()).toBe(start);
      expect(await page.getByTestId("footer-newsletter-sent").textContent()).toBe(TEXT[lang].sent);
      expect(await page.getByTestId("footer-newsletter-live").textContent()).toBe(TEXT[lang].sent);
      expect(await inViewport(page, "footer-newsletter-sent")).toBe(true);
      expect(await allA11yViolations(page, '[data-testid="site-footer"]')).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  // axe runs scripts in the page, so the answers a reader without JavaScript gets are checked here as the server
  // renders them (the same markup), in a page that runs them (where they are on screen is checked above, without
  // JavaScript: here the header's live ticker may still push the page down after the browser scrolled to the form).
  for (const [lang, viewport, label] of [
    ["ar", PHONE, "375"],
    ["fr", DESKTOP, "1280"],
    ["en", PHONE, "375"],
  ] as const) {
    it(`${lang} at ${label} px: each answer at the form is axe clean and fits`, async () => {
      const { context, page } = await open("/news", lang, viewport, true);
      const news = new URL(page.url()).pathname;
      for (const outcome of ["sent", "invalid", "required", "limited", "failed"]) {
        await page.goto(`${base}${news}?notice=newsletter-${outcome}#newsletter`);
        await hydrated(page);
        const shown =
          outcome === "sent" ? "footer-newsletter-sent" : ["limited", "failed"].includes(outcome) ? "footer-newsletter-failed" : "footer-newsletter-error";
        expect(await page.getByTestId(shown).isVisible(), outcome).toBe(true);
        expect(await horizontalOverflow(page), outcome).toBe(0);
        expect(await allA11yViolations(page, '[data-testid="site-footer"]'), outcome).toEqual([]);
      }
      await context.close();
    });
  }

  it("a bad address with JavaScript: the message at the field, nothing sent, what was typed kept", async () => {
    const { context, page } = await open(detailPath, "ar", PHONE, true);
    const posts = recordFormPosts(page);
    const field = page.locator("#footer-newsletter-email");
    await field.focus();
    await field.fill("not-an-address");
    // forms.js is loaded on the form's first focus: the submit waits for it to have taken the form over.
    await page.locator('[data-testid="footer-newsletter-form"][data-enhanced]').waitFor();
    await page.getByTestId("footer-newsletter-submit").click();
    await page.getByTestId("footer-newsletter-error").waitFor();
    expect(await page.getByTestId("footer-newsletter-error").textContent()).toBe(TEXT.ar.invalid);
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    expect(await field.inputValue()).toBe("not-an-address");
    expect(posts).toEqual([]);
    expect(await allA11yViolations(page, '[data-testid="site-footer"]')).toEqual([]);
    await context.close();
  });

  for (const [lang, viewport] of [
    ["fr", DESKTOP],
    ["en", PHONE],
  ] as const) {
    it(`a bad address without JavaScript (${lang}): the server's message at the field, in the viewport`, async () => {
      const { context, page } = await open("/news", lang, viewport, false);
      // Passes the browser's own check of an e-mail address, not the schema's (a domain needs a dot).
      await page.locator("#footer-newsletter-email").fill("reader@localhost");
      await Promise.all([page.waitForURL(/notice=newsletter-invalid/), page.getByTestId("footer-newsletter-submit").click()]);
      expect(await page.getByTestId("footer-newsletter-error").textContent()).toBe(TEXT[lang].invalid);
      expect(await page.locator("#footer-newsletter-email").getAttribute("aria-invalid")).toBe("true");
      expect(await inViewport(page, "footer-newsletter-error")).toBe(true);
      await context.close();
    });
  }
});
