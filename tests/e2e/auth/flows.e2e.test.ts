/**
 * Accounts in Chromium: sign-up to the back-office door, the remembered origin, sign-out, the expiry
 * warning, the form without JavaScript, instant messages, and the too-many-requests message.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { Browser, Page } from "playwright-core";
import { hasChromium, hydrated, launchBrowser, newPage, PHONE, renderedFrames, recordFormPosts } from "#tests/e2e/support/browser.ts";
import { horizontalOverflow, seriousA11yViolations } from "#tests/e2e/support/a11y.ts";
import { setSessionExpiry } from "#tests/helpers/auth.ts";
import { startSmtpReceiver } from "#tests/helpers/smtp.ts";
import { browserCookies, startAuthServer, type AuthServer } from "./support.ts";

type Smtp = Awaited<ReturnType<typeof startSmtpReceiver>>;

/** Serious accessibility problems in the page's own content (the shared header is tested with the layout). */
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

describe.skipIf(!hasChromium)("accounts in the browser", () => {
  let browser: Browser;
  let smtp: Smtp;
  let server: AuthServer<"admin" | "leaving">;
  let base: string;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startAuthServer({
      personas: {
        admin: { email: "admin@browser.test", password: "Adm1nPassword", role: "admin", name: "سيدي المدير" },
        leaving: { email: "leaving@browser.test", password: "Leav1ngPassword", role: "admin" },
      },
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

  /** Each test stands for another visitor address, so rate limits do not cross tests. */
  async function visitor(ip: string, opts: Parameters<typeof newPage>[1] = {}) {
    const made = await newPage(browser, opts);
    await made.context.setExtraHTTPHeaders({ "x-forwarded-for": ip });
    await made.context.addCookies([{ name: "i18nextLng", value: "ar", url: base }]);
    return made;
  }

  async function signInWith(page: Page, email: string, password: string) {
    await page.fill('[data-testid="input-email"]', email);
    await page.fill('[data-testid="input-password"]', password);
    await page.click('[data-testid="auth-submit"]');
  }

  it("sign-up → verification link → sign-in lands on /admin, where a reader sees access denied with back and sign-out", async () => {
    const { context, page, errors } = await visitor("10.3.0.1");
    const email = "reader@browser.test";
    await page.goto(`${base}/auth`);
    await hydrated(page);
    await page.click('[data-testid="auth-toggle"]');
    await page.waitForSelector('[data-testid="auth-sign-up"]');
    await page.fill('[data-testid="input-fullName"]', "قارئ");
    await page.fill('[data-testid="input-email"]', email);
    await page.fill('[data-testid="input-password"]', "Read3rPassword");
    await page.click('[data-testid="auth-submit"]');
    await page.waitForSelector('[data-testid="notice-registered"]');
    expect(await page.textContent('[data-testid="notice-registered"]')).toContain("يرجى التحقق من بريدك الإلكتروني لتفعيل الحساب");
    expect(await page.isVisible('[data-testid="auth-sign-in"]')).toBe(true);

    const mail = await smtp.waitFor(email);
    const link = mail.links.find((l) => l.includes("/auth/verify?token="))!;
    await page.goto(link);
    await page.waitForSelector('[data-testid="verify-verified"]');
    await hydrated(page);
    await page.click('[data-testid="verify-sign-in"]');
    await page.waitForSelector('[data-testid="auth-sign-in"]');
    await signInWith(page, email, "Read3rPassword");
    await page.waitForURL(`${base}/admin`);
    await page.waitForSelector('[data-testid="guard-access-denied"]');
    expect(await page.textContent('[data-testid="guard-access-denied"]')).toContain("ليس لديك صلاحية للوصول إلى لوحة الإدارة");
    expect(await page.isVisible('[data-testid="guard-back"]')).toBe(true);
    expect(await page.isVisible('[data-testid="guard-sign-out"]')).toBe(true);
    expect(errors.filter((e) => !/status of 403/.test(e))).toEqual([]);
    await context.close();
  });

  it("remembers where an administrator was going, lands there after sign-in, and the header then links to the back-office", async () => {
    const { context, page } = await visitor("10.3.0.2");
    await page.goto(`${base}/admin/users`);
    await page.waitForURL(`${base}/auth?redirectTo=%2Fadmin%2Fusers`);
    await hydrated(page);
    await signInWith(page, "admin@browser.test", "Adm1nPassword");
    await page.waitForURL(`${base}/admin/users`);
    await page.waitForSelector('[data-testid="admin-users"]');
    expect(await page.textContent('[data-testid="admin-user-name"]')).toBe("سيدي المدير");
    // The whole back-office screen is ours: checked entire.
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.click('[data-testid="admin-menu-link-dashboard"]');
    await page.waitForSelector('[data-testid="admin-dashboard"]');
    expect(await page.locator('[data-testid^="count-"]').count()).toBe(8);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.goto(`${base}/`);
    await page.waitForSelector('[data-testid="admin-link"]', { state: "attached" });
    expect(await page.locator('[data-testid="sign-in-link"]').count()).toBe(0);
    await context.close();
  });

  it("signs out with the spec's toast, returns to / and /admin then sends to /auth", async () => {
    const { context, page } = await visitor("10.3.0.3");
    await context.addCookies(browserCookies(server.personas.leaving, base));
    await page.goto(`${base}/admin`);
    await page.waitForSelector('[data-testid="admin-dashboard"]');
    await hydrated(page);
    await page.click('[data-testid="admin-shell"] aside [data-testid="sign-out-button"]');
    await page.waitForURL(`${base}/`);
    await page.waitForSelector('[data-testid="toast"]');
    expect(await page.textContent('[data-testid="toast"]')).toContain("تم تسجيل خروجك بنجاح.");
    await page.waitForSelector('[data-testid="sign-in-link"]', { state: "attached" });
    await page.goto(`${base}/admin`);
    await page.waitForURL(`${base}/auth?redirectTo=%2Fadmin`);
    // The old cookie no longer opens anything: the session ended on the server.
    const replay = await fetch(`${base}/admin`, { headers: { cookie: server.personas.leaving.cookie }, redirect: "manual" });
    expect(replay.status).toBe(302);
    expect(replay.headers.get("location")).toBe("/auth?expired=1&redirectTo=%2Fadmin");
    await context.close();
  });

  it("warns once when under five minutes of the session remain", async () => {
    // A server of its own, its session's four minutes counted from now: made with the file's server, the session ran
    // out before this test on a loaded machine (the tests before it took more than four minutes) and no warning came.
    const own = await startAuthServer({
      personas: { expiring: { email: "expiring@browser.test", password: "Exp1ringPassword", role: "editor", permissions: ["content.write"] } },
      // Four minutes left: under the five of back-office.md §4.
      prepare: (db, made) => setSessionExpiry(db, made.expiring.id, new Date(Date.now() + 4 * 60 * 1000)),
    });
    onTestFinished(() => own.stop());
    const { context, page } = await visitor("10.3.0.4");
    await context.addCookies(browserCookies(own.personas.expiring, own.url));
    // A toast lasts 3 s and is raised at hydration, which on a loaded machine can come before the page's load event
    // (fonts, images) that goto waits for: every toast the page shows is kept as it was shown, so the test reads
    // what appeared rather than racing the 3 s.
    await context.addInitScript(() => {
      const shown: Element[] = ((window as unknown as { shownToasts: Element[] }).shownToasts = []);
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('[data-testid="toast"]')) if (!shown.includes(el)) shown.push(el);
      }).observe(document, { childList: true, subtree: true });
    });
    const shownToasts = () =>
      page.evaluate(() =>
        (window as unknown as { shownToasts: HTMLElement[] }).shownToasts.map((el) => ({ variant: el.dataset.variant, text: el.textContent ?? "" })),
      );
    await page.goto(`${own.url}/admin`);
    await page.waitForFunction(() => (window as unknown as { shownToasts: HTMLElement[] }).shownToasts.some((el) => el.dataset.variant === "destructive"));
    const [warning, ...others] = await shownToasts();
    expect(others).toEqual([]);
    expect(warning.text).toContain("تنبيه انتهاء الجلسة");
    expect(warning.text).toContain("ستنتهي جلستك قريباً. يرجى حفظ عملك.");
    await page.reload();
    await hydrated(page);
    await page.waitForSelector('[data-testid="admin-dashboard"]');
    // The warning's effect has run with hydration, and a toast it raised would be on screen two frames later;
    // it is not repeated in the same browser session.
    await renderedFrames(page);
    expect(await shownToasts()).toEqual([]);
    await context.close();
  });

  it("works without JavaScript: the server's messages, then the back-office", async () => {
    const { context, page } = await visitor("10.3.0.5", { javaScriptEnabled: false });
    await page.goto(`${base}/auth`);
    await page.click('[data-testid="auth-submit"]');
    await page.waitForSelector('[data-testid="error-email"]');
    expect(await page.textContent('[data-testid="error-email"]')).toBe("البريد الإلكتروني وكلمة المرور مطلوبان");
    await signInWith(page, "admin@browser.test", "Wrong-Password1");
    await page.waitForSelector('[data-testid="auth-error"]');
    expect(await page.textContent('[data-testid="auth-error"]')).toContain("بيانات تسجيل الدخول غير صحيحة");
    await signInWith(page, "admin@browser.test", "Adm1nPassword");
    await page.waitForURL(`${base}/admin`);
    await page.waitForSelector('[data-testid="admin-dashboard"]');
    await context.close();
  });

  it("checks the form in the browser before anything is sent", async () => {
    const { context, page } = await visitor("10.3.0.6");
    const posts = recordFormPosts(page);
    await page.goto(`${base}/auth?mode=signup`);
    await hydrated(page);
    await page.fill('[data-testid="input-email"]', "not-an-email");
    await page.fill('[data-testid="input-password"]', "alllowercase1");
    await page.click('[data-testid="auth-submit"]');
    await page.waitForSelector('[data-testid="error-email"]');
    expect(await page.textContent('[data-testid="error-email"]')).toBe("البريد الإلكتروني غير صحيح");
    expect(await page.textContent('[data-testid="error-password"]')).toBe("كلمة المرور يجب أن تحتوي على أحرف كبيرة وصغيرة وأرقام");
    // Fixing a field clears its message at once.
    await page.fill('[data-testid="input-email"]', "fixed@browser.test");
    await page.waitForSelector('[data-testid="error-email"]', { state: "detached" });
    expect(posts).toEqual([]);
    expect(await contentViolations(page)).toEqual([]);
    await context.close();
  });

  it("lays the back-office out on a phone: the menu folds away, nothing overflows", async () => {
    const { context, page } = await visitor("10.3.0.7", { viewport: PHONE });
    await context.addCookies(browserCookies(server.personas.admin, base));
    await page.goto(`${base}/admin/users`);
    await hydrated(page);
    expect(await page.isVisible('[data-testid="admin-mobile-menu"]')).toBe(true);
    expect(await page.isVisible('[data-testid="admin-mobile-menu-link-dashboard"]')).toBe(false);
    await page.click('[data-testid="admin-mobile-menu"] summary');
    expect(await page.isVisible('[data-testid="admin-mobile-menu-link-dashboard"]')).toBe(true);
    expect(await horizontalOverflow(page)).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.close();
  });

  it("shows the too-many-requests message after the sign-in limit", async () => {
    const { context, page } = await visitor("10.3.0.99");
    await page.goto(`${base}/auth`);
    await hydrated(page);
    let message = "";
    for (let attempt = 0; attempt < 10 && !message.includes("محاولات كثيرة"); attempt++) {
      await signInWith(page, "admin@browser.test", `Wrong-Password${attempt}`);
      await page.waitForSelector('[data-testid="auth-error"]');
      await page.waitForFunction(() => document.querySelector("form button[type=submit]")?.hasAttribute("disabled") === false);
      message = (await page.textContent('[data-testid="auth-error"]')) ?? "";
    }
    expect(message).toContain("محاولات كثيرة جداً. يرجى المحاولة لاحقاً");
    expect(await page.textContent('[data-testid="toast"]')).toContain("محاولات كثيرة جداً. يرجى المحاولة لاحقاً");
    // Even the right password waits for the window to pass.
    await signInWith(page, "admin@browser.test", "Adm1nPassword");
    await page.waitForFunction(() => document.querySelector("form button[type=submit]")?.hasAttribute("disabled") === false);
    expect(page.url()).toContain("/auth");
    await context.close();
  });
});
