/**
 * Failures keep the reader on the page (issue 14, "Failures end on the error screen"): a detail page whose data
 * request fails, a contact message or a sign-in whose post fails, and a news page that will not load. The
 * browser's network really fails — Playwright aborts the request or answers it with a 500 before it reaches the
 * server — and the page must show the spec's toast, keep what was typed and never show the error screen.
 * Every wait is on something the page shows, never on time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page, Route } from "playwright-core";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import { DESKTOP, hasChromium, hydrated, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import ar from "#domain/locales/ar/common.json" with { type: "json" };

const base = sharedServer().baseUrl;

/** A data request of a detail page (client-side navigation): /news/<slug>.data?_routes=… */
const DETAIL_DATA = /\/(news|articles)\/[^/?]+\.data(\?|$)/;
/** The contact form's post (app/enhance/forms.js posts to the page itself, as the browser does). */
const CONTACT_DATA = /\/contact(\?|$)/;
const AUTH_DATA = /\/auth\.data(\?|$)/;
/** The news listing's requests for its next pages, in the page's language (/news is Arabic). */
const NEWS_API = /\/api\/news\?page=\d+&lang=ar$/;

/** Each test posts from its own address, so the contact form's per-address limit never touches another test. */
let addressCounter = 0;
const nextAddress = () => `198.51.100.${++addressCounter}`;

type Failure = "network" | "server";
/** Makes matching requests fail the way the browser sees it: the network gone, or a server error page. */
const failWith = (how: Failure) => (route: Route) =>
  how === "network" ? route.abort("internetdisconnected") : route.fulfill({ status: 500, contentType: "text/html", body: "<h1>Internal Server Error</h1>" });

/** Uncaught exceptions only: a failed request also logs a console error, which is the browser's, not ours. */
function uncaught(page: Page) {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  return errors;
}

async function toastOf(page: Page) {
  const toast = page.getByTestId("toast");
  await toast.waitFor();
  return { variant: await toast.getAttribute("data-variant"), text: (await toast.textContent()) ?? "" };
}

async function noErrorScreen(page: Page) {
  expect(await page.getByTestId("error-screen").count()).toBe(0);
}

describe.skipIf(!hasChromium)("failures keep the reader on the page", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  /**
   * Opens a page that is still a React application and returns a way to follow the first news card's link
   * client-side from it. The public listings no longer hydrate (decision 0131): following a card there is a
   * document load; a client-side navigation to a detail page starts from an app page (the account pages).
   */
  async function openNews(page: Page) {
    const href = /data-testid="news-card"[\s\S]*?<h2[^>]*><a[^>]*href="([^"]+)"/.exec(await (await fetch(base + "/news")).text())![1];
    await page.goto(base + "/auth");
    await hydrated(page);
    const link = {
      click: () =>
        page.evaluate(
          (to) => void (window as unknown as { __reactRouterDataRouter: { navigate: (to: string) => Promise<void> } }).__reactRouterDataRouter.navigate(to),
          href,
        ),
    };
    return { link, href };
  }

  describe("a detail page whose data does not load", () => {
    it("with the server failing: lands on home with the spec's error toast", async () => {
      const { page, context } = await newPage(browser, { viewport: PHONE });
      const errors = uncaught(page);
      const { link } = await openNews(page);
      await page.route(DETAIL_DATA, failWith("server"));
      await link.click();
      await page.waitForURL(base + "/");
      const toast = await toastOf(page);
      expect(toast.variant).toBe("destructive");
      expect(toast.text).toContain(ar.errors.loadFailedTitle);
      expect(toast.text).toContain(ar.errors.loadFailed);
      await page.getByTestId("home-hero").waitFor();
      await noErrorScreen(page);
      expect(errors).toEqual([]);
      await context.close();
    });

    it("with the network down: stays with the toast and a retry that loads the page once the network is back", async () => {
      const { page, context } = await newPage(browser, { viewport: DESKTOP });
      const errors = uncaught(page);
      const { link, href } = await openNews(page);
      await page.route(DETAIL_DATA, failWith("network"));
      await link.click();
      await page.getByTestId("detail-unreachable").waitFor();
      const toast = await toastOf(page);
      expect(toast.variant).toBe("destructive");
      expect(toast.text).toContain(ar.errors.loadFailed);
      expect(new URL(page.url()).pathname).toBe(href);
      await noErrorScreen(page);
      // The header and footer are still there: the reader can go on elsewhere.
      expect(await page.locator("header").count()).toBeGreaterThan(0);

      await page.unroute(DETAIL_DATA);
      await page.getByTestId("detail-retry").click();
      await page.getByTestId("detail-title").waitFor();
      expect(new URL(page.url()).pathname).toBe(href);
      expect(errors).toEqual([]);
      await context.close();
    });

    it("a missing item is still the 404 page, not the failure toast", async () => {
      const { page, context } = await newPage(browser, { viewport: DESKTOP });
      const errors = uncaught(page);
      const { link } = await openNews(page);
      // The server's real answer for a slug that does not exist, in place of the card's.
      await page.route(DETAIL_DATA, async (route) => {
        const url = route
          .request()
          .url()
          .replace(/\/news\/[^/?]+\.data/, "/news/no-such-item-anywhere.data");
        await route.fulfill({ response: await route.fetch({ url }) });
      });
      await link.click();
      await page.getByTestId("not-found").waitFor();
      expect(await page.getByTestId("toast").count()).toBe(0);
      await noErrorScreen(page);
      expect(errors).toEqual([]);
      await context.close();
    });
  });

  describe("the contact form", () => {
    const typed = { name: "أحمد ولد محمد", email: "ahmed@example.mr", subject: "اقتراح برنامج", message: "السلام عليكم،\nأقترح حلقة عن المحاظر في شنقيط." };

    async function openContact() {
      const opened = await newPage(browser, { viewport: PHONE });
      await opened.context.setExtraHTTPHeaders({ "X-Forwarded-For": nextAddress() });
      await opened.page.goto(`${base}/contact`);
      await hydrated(opened.page);
      // The contact form's own fields: every page's footer has a newsletter form with an e-mail field too.
      for (const [name, value] of Object.entries(typed)) await opened.page.getByTestId("contact-form").locator(`[name="${name}"]`).fill(value);
      return opened;
    }
    const valuesOf = (page: Page) =>
      page.evaluate(() =>
        Object.fromEntries(
          ["name", "email", "subject", "message"].map((n) => [
            n,
            document.querySelector<HTMLInputElement>(`[data-testid="contact-form"] [name="${n}"]`)!.value,
          ]),
        ),
      );

    for (const how of ["network", "server"] as const) {
      it(`a send that fails (${how}) shows the failure toast and keeps every field`, async () => {
        const { page, context } = await openContact();
        const errors = uncaught(page);
        let posts = 0;
        await page.route(CONTACT_DATA, (route) => {
          posts++;
          return failWith(how)(route);
        });
        await page.getByTestId("contact-submit").click();
        const toast = await toastOf(page);
        expect(toast.variant).toBe("destructive");
        expect(toast.text).toContain(ar.contact.failureTitle);
        expect(toast.text).toContain(ar.contact.failureText);
        expect(await valuesOf(page)).toEqual(typed);
        expect(posts).toBe(1);
        expect(new URL(page.url()).pathname).toBe("/contact");
        await noErrorScreen(page);
        // The button is usable again, and once the network is back the same text goes through.
        await page.unroute(CONTACT_DATA);
        await page.getByTestId("contact-submit").click();
        await page.locator('[data-testid="toast"][data-variant="success"]').waitFor();
        expect(errors).toEqual([]);
        await context.close();
      });
    }
  });

  describe("signing in", () => {
    for (const how of ["network", "server"] as const) {
      it(`a sign-in whose post fails (${how}) shows the connection-error toast and keeps the e-mail`, async () => {
        const { page, context } = await newPage(browser, { viewport: PHONE });
        const errors = uncaught(page);
        // The request never reaches the server, so no account is needed.
        await page.route(AUTH_DATA, failWith(how));
        await page.goto(`${base}/auth`);
        await hydrated(page);
        await page.fill('[data-testid="input-email"]', "reader@failures.test");
        await page.fill('[data-testid="input-password"]', "Passw0rdA");
        await page.click('[data-testid="auth-submit"]');
        const toast = await toastOf(page);
        expect(toast.variant).toBe("destructive");
        expect(toast.text).toContain(ar.auth.connectionErrorTitle);
        expect(toast.text).toContain(ar.auth.serviceUnavailable);
        expect(await page.inputValue('[data-testid="input-email"]')).toBe("reader@failures.test");
        expect(new URL(page.url()).pathname).toBe("/auth");
        await page.getByTestId("auth-sign-in").waitFor();
        await noErrorScreen(page);
        expect(errors).toEqual([]);
        await context.close();
      });
    }
  });

  describe("loading more news", () => {
    it("tries three times with growing gaps, one request at a time, then shows the retry button that loads the page once the network is back", async () => {
      const { page, context } = await newPage(browser, { viewport: DESKTOP });
      const errors = uncaught(page);
      let down = true;
      let inFlight = 0;
      let mostInFlight = 0;
      const attempts: { page: number; at: number }[] = [];
      await page.route(NEWS_API, async (route) => {
        attempts.push({ page: Number(new URL(route.request().url()).searchParams.get("page")), at: Date.now() });
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        try {
          if (down) await route.abort("internetdisconnected");
          else await route.continue();
        } finally {
          inFlight--;
        }
      });
      await page.goto(base + "/news");
      await hydrated(page);
      expect(await page.getByTestId("news-card").count()).toBe(12);
      await page.getByTestId("news-sentinel").scrollIntoViewIfNeeded();
      await page.getByTestId("news-retry").waitFor();

      expect(attempts.map((a) => a.page)).toEqual([2, 2, 2]);
      expect(mostInFlight).toBe(1);
      // Back-off: the second wait is longer than the first (1 s, then 2 s). Only an ordering is checked, with the
      // lower bound a timer guarantees (it never fires early), never an upper bound.
      const [first, second] = [attempts[1].at - attempts[0].at, attempts[2].at - attempts[1].at];
      expect(first).toBeGreaterThanOrEqual(500);
      expect(second).toBeGreaterThan(first);
      expect(await page.getByTestId("news-list").getAttribute("data-state")).toBe("error");
      expect(await page.getByTestId("news-card").count()).toBe(12);
      expect(new URL(page.url()).pathname).toBe("/news");
      await noErrorScreen(page);

      down = false;
      await page.getByTestId("news-retry").click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="news-card"]').length > 12);
      expect(await page.getByTestId("news-card").count()).toBe(24);
      expect(attempts.map((a) => a.page)).toEqual([2, 2, 2, 2]);
      expect(await page.getByTestId("news-error").count()).toBe(0);
      expect(mostInFlight).toBe(1);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
});
