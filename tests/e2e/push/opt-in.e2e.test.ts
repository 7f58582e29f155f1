/**
 * Breaking-news alerts' opt-in in a real Chromium (issue 32, docs/decisions/0127-breaking-news-alerts.md), on a
 * server with VAPID keys: the box appears in Arabic and French on home and /news (not on other pages, and not
 * without JavaScript), registers the service worker at the site's root, and sends the subscription with the
 * page's language to the API; the button then turns alerts off (DELETE). On the suite's shared server, which
 * has no keys, neither the box nor its script is in the page.
 *
 * Headless Chromium has no push service (no Firebase Cloud Messaging to register with), so its own
 * pushManager.subscribe cannot give a subscription there. So PushManager.subscribe is replaced, before the page loads, by one that records
 * what the page asked (our VAPID public key, visible notifications only) and answers a subscription this test
 * made with real keys: everything else — showing the box, the permission, the service worker's registration,
 * the API calls, the button's states and messages — is the page's own code against the real server. The
 * delivery itself is the integration test's (server/push/alerts.test.ts, a local push service that decrypts).
 */
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import webpush from "web-push";
import { allA11yViolations } from "#tests/e2e/support/a11y.ts";
import { localizedPath } from "#domain/addresses.ts";
import { hasChromium, launchBrowser, newPage, skipReason } from "#tests/e2e/support/browser.ts";
import { startServer, type RunningServer } from "#tests/e2e/support/server.ts";
import { sharedServer } from "#tests/e2e/support/workers.ts";

const BOX = '[data-testid="push-opt-in"]';
const BUTTON = '[data-testid="push-opt-in-button"]';
const STATUS = '[data-testid="push-opt-in-status"]';

/** The page's document as the server sent it. */
const documentOf = async (base: string, path: string) => (await fetch(`${base}${path}`)).text();

describe.skipIf(!hasChromium)("breaking-news alerts' opt-in", () => {
  let server: RunningServer;
  let browser: Browser;
  const vapid = webpush.generateVAPIDKeys();

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey }), launchBrowser()]);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function open(path: string, lang: "ar" | "fr", javaScriptEnabled = true): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
    const { context, page, errors } = await newPage(browser, { locale: lang, javaScriptEnabled });
    // The address alone decides a reading page's language (decision 0143): /news in French is /fr/news.
    await page.goto(`${server.url}${localizedPath(lang, path)}`);
    return { page, errors, close: () => context.close() };
  }

  it("shows the box in Arabic on home and in French on /news once the script finds Push; only there", async () => {
    const home = await open("/", "ar");
    await home.page.waitForSelector(`${BOX}:not([hidden])`);
    expect(await home.page.textContent(BUTTON)).toBe("فعّل تنبيهات الأخبار العاجلة");
    expect(await home.page.getAttribute(BUTTON, "aria-pressed")).toBe("false");
    expect(await home.page.textContent(`${BOX} h2`)).toBe("تنبيهات الأخبار العاجلة");
    // The box itself passes axe (WCAG 2.1 AA), at every impact.
    expect(await allA11yViolations(home.page, BOX)).toEqual([]);
    expect(home.errors).toEqual([]);
    await home.close();

    const news = await open("/news", "fr");
    await news.page.waitForSelector(`${BOX}:not([hidden])`);
    expect(await news.page.textContent(BUTTON)).toBe("Activer les alertes info urgente");
    expect(news.errors).toEqual([]);
    await news.close();

    // The script and the box only where a reader can subscribe: not on a detail page, nor a section.
    const homeHtml = await documentOf(server.url, "/");
    const script = /<script type="module" src="(\/assets\/push-[\w-]+\.js)"/.exec(homeHtml)?.[1];
    expect(script).toBeTruthy();
    // The public key is in the page; the private key in no page and no script.
    expect(homeHtml).toContain(vapid.publicKey);
    expect(homeHtml).not.toContain(vapid.privateKey);
    expect(await (await fetch(`${server.url}${script}`)).text()).not.toContain(vapid.privateKey);
    const article = /href="(\/articles\/[^"]+)"/.exec(homeHtml)?.[1];
    expect(article).toBeTruthy();
    for (const path of [article!, "/culture"]) {
      const body = await documentOf(server.url, path);
      expect(body, path).not.toContain("data-push-opt-in");
      expect(body, path).not.toContain(script!);
    }
  });

  it("serves the service worker at the site's root as JavaScript", async () => {
    const answer = await fetch(`${server.url}/push-sw.js`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^(text|application)\/javascript/);
    expect(await answer.text()).toContain("showNotification");
  });

  it("without JavaScript no control shows", async () => {
    const { page, close } = await open("/", "ar", false);
    expect(await page.locator(BOX).count()).toBe(1);
    expect(await page.locator(BOX).isVisible()).toBe(false);
    expect(await page.locator(BUTTON).isVisible()).toBe(false);
    await close();
  });

  it("subscribing registers the worker, asks for permission and sends the subscription with the page's language; the button then unsubscribes", async () => {
    // A subscription as a browser's push service would give it, with real keys (see above: headless Chromium has
    // no push service). The page's script asks for it with our public key; the rest is the page's own code.
    const ecdh = crypto.createECDH("prime256v1");
    const fake = {
      endpoint: `https://fcm.googleapis.com/fcm/send/e2e-${crypto.randomBytes(6).toString("hex")}`,
      p256dh: ecdh.generateKeys().toString("base64url"),
      auth: crypto.randomBytes(16).toString("base64url"),
    };
    const { context, page, errors } = await newPage(browser, { locale: "fr" });
    await context.grantPermissions(["notifications"], { origin: server.url });
    await context.addInitScript((sub) => {
      // Init scripts run in the service worker too, which has no window.
      if (typeof window === "undefined") return;
      const calls: unknown[] = [];
      Object.assign(window, { pushCalls: calls });
      PushManager.prototype.subscribe = function (options?: PushSubscriptionOptionsInit) {
        const key = options?.applicationServerKey as Uint8Array | string | undefined;
        calls.push({ userVisibleOnly: options?.userVisibleOnly, key: key instanceof Uint8Array ? btoa(String.fromCharCode(...key)) : null });
        return Promise.resolve({
          endpoint: sub.endpoint,
          toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: { p256dh: sub.p256dh, auth: sub.auth } }),
          unsubscribe: () => Promise.resolve(true),
        } as unknown as PushSubscription);
      };
    }, fake);
    await page.goto(`${server.url}/fr/news`);
    await page.waitForSelector(`${BOX}:not([hidden])`);

    const [request, response] = await Promise.all([
      page.waitForRequest((r) => r.url() === `${server.url}/api/push/subscriptions` && r.method() === "POST"),
      page.waitForResponse((r) => r.url() === `${server.url}/api/push/subscriptions` && r.request().method() === "POST"),
      page.click(BUTTON),
    ]);
    expect(request.postDataJSON()).toEqual({ endpoint: fake.endpoint, expirationTime: null, keys: { p256dh: fake.p256dh, auth: fake.auth }, language: "fr" });
    expect(response.status()).toBe(201);
    await page.waitForSelector(`${BUTTON}[aria-pressed="true"]`);
    expect(await page.textContent(BUTTON)).toBe("Désactiver les alertes info urgente");
    expect(await page.textContent(STATUS)).toBe("Les alertes sont activées sur cet appareil.");
    // Asked of the push service with our VAPID public key, for visible notifications only.
    const calls = await page.evaluate(() => (window as unknown as { pushCalls: unknown[] }).pushCalls);
    expect(calls).toEqual([{ userVisibleOnly: true, key: Buffer.from(vapid.publicKey, "base64url").toString("base64") }]);
    // The service worker is registered at the site's root.
    const registered = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration("/"))?.active?.scriptURL ?? null);
    expect(registered).toBe(`${server.url}/push-sw.js`);

    // Turned off: the endpoint is forgotten on the server.
    const [off] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${server.url}/api/push/subscriptions` && r.request().method() === "DELETE"),
      page.click(BUTTON),
    ]);
    expect(off.request().postDataJSON()).toEqual({ endpoint: fake.endpoint });
    expect(off.status()).toBe(200);
    await page.waitForSelector(`${BUTTON}[aria-pressed="false"]`);
    expect(await page.textContent(STATUS)).toBe("Les alertes sont désactivées sur cet appareil.");
    expect(errors).toEqual([]);
    await context.close();
    // Gone from the server: forgetting it again finds nothing. (Read here: Playwright's response.json() of a
    // page with a service worker does not settle.)
    const again = await fetch(`${server.url}/api/push/subscriptions`, {
      method: "DELETE",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ endpoint: fake.endpoint }),
    });
    expect(await again.json()).toEqual({ removed: false });
  });

  it("a refused permission says so, and nothing is sent", async () => {
    const { context, page } = await newPage(browser, { locale: "ar" });
    // No permission granted: headless Chromium answers the request as "denied".
    let posted = 0;
    page.on("request", (r) => void (r.url().endsWith("/api/push/subscriptions") && posted++));
    await page.goto(`${server.url}/`);
    await page.waitForSelector(`${BOX}:not([hidden])`);
    await page.click(BUTTON);
    await page.waitForFunction((s) => (document.querySelector(s)?.textContent ?? "") !== "", STATUS);
    expect(await page.textContent(STATUS)).toBe("المتصفح يمنع الإشعارات لهذا الموقع: اسمح بها من إعداداته ثم أعد المحاولة.");
    expect(posted).toBe(0);
    await context.close();
  });

  it("on a server without VAPID keys the page has neither the box nor its script", async () => {
    const { baseUrl } = sharedServer();
    for (const path of ["/", "/news"]) {
      const body = await documentOf(baseUrl, path);
      expect(body, path).toContain("</html>");
      expect(body, path).not.toContain("data-push-opt-in");
      expect(body, path).not.toMatch(/\/assets\/push-[\w-]+\.js/);
    }
  });
});

if (!hasChromium) console.warn(skipReason);
