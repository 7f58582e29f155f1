/**
 * The contact page (public-site.md §2 "Contact", §5 "Contact form"): the form with JavaScript on and off,
 * the required-fields toast, storage of a complete message, the answers to bad input, spam protection,
 * and proof that a hostile message cannot carry a script into any page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import type { Browser, Page } from "playwright-core";
import { DESKTOP, hasChromium, hydrated, launchBrowser, newPage, PHONE, recordFormPosts } from "#tests/e2e/support/browser.ts";
import { horizontalOverflow, seriousA11yViolations } from "#tests/e2e/support/a11y.ts";
import { localizedPath } from "#domain/addresses.ts";
import ar from "#domain/locales/ar/common.json" with { type: "json" };
import fr from "#domain/locales/fr/common.json" with { type: "json" };

const base = sharedServer().baseUrl;
const PAYLOAD = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">';
const valid = { name: "أحمد ولد محمد", email: "ahmed@example.mr", subject: "اقتراح", message: "السلام عليكم،\nأقترح حلقة عن المحاظر." };

/** Every test speaks from its own address, so the per-address limit of one never touches another. */
let addressCounter = 0;
const nextAddress = () => `203.0.113.${++addressCounter}`;

async function post(fields: Record<string, string>, { address = nextAddress(), body }: { address?: string; body?: BodyInit } = {}) {
  const res = await fetch(`${base}/contact`, {
    method: "POST",
    body: body ?? new URLSearchParams(fields),
    headers: { "X-Forwarded-For": address, Origin: base },
  });
  const html = await res.text();
  return { status: res.status, html, notice: /data-testid="contact-notice" data-status="([^"]+)"/.exec(html)?.[1], headers: res.headers };
}

describe("the contact page over HTTP", () => {
  it("refuses a post with no Origin, or with another site's Referer and no Origin, as every form does", async () => {
    const unique = { ...valid, subject: `مرفوض ${Date.now()}` };
    const attempts: Record<string, string>[] = [{}, { Referer: "https://evil.example/form" }, { Origin: "null" }, { Origin: "https://evil.example" }];
    for (const headers of attempts) {
      const res = await fetch(`${base}/contact`, {
        method: "POST",
        body: new URLSearchParams(unique),
        headers: { "X-Forwarded-For": nextAddress(), ...headers },
      });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(await res.text()).not.toContain('data-status="sent"');
    }
    // The same message from our own page goes through.
    expect((await post(unique)).notice).toBe("sent");
  });

  it("renders the form, the spam trap and the contact cards", async () => {
    const res = await fetch(`${base}/contact`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const tag = (id: string) => new RegExp(`<(input|textarea) id="${id}"[^>]*>`).exec(html)?.[0] ?? "";
    for (const name of ["name", "email", "subject", "message"]) {
      expect(tag(`contact-${name}`)).toContain(`name="${name}"`);
      expect(tag(`contact-${name}`)).toContain('required=""');
    }
    expect(tag("contact-email")).toContain('type="email"');
    // The honeypot: hidden from assistive technology, out of the tab order, never autofilled.
    const trap = tag("contact-website");
    expect(trap).toContain('name="website"');
    expect(trap).toContain('tabindex="-1"');
    expect(trap).toMatch(/autoComplete="off"/i);
    expect(html).toMatch(/<div aria-hidden="true" class="sr-only"><label for="contact-website">[^<]+<\/label><input id="contact-website"/);
    expect(html).toContain('href="mailto:contact@sahara-media.mr"');
    expect(html).toContain('href="tel:+22245250000"');
    expect(html).toContain('data-testid="contact-card-address"');
    expect(html).toContain(`<title>${ar.contact.title} | صحراء ميديا</title>`);
  });

  it("stores a complete message: a plain POST answers with the success notice", async () => {
    const { status, notice, html } = await post(valid);
    expect(status).toBe(200);
    expect(notice).toBe("sent");
    expect(html).toContain(ar.contact.successText);
  });

  it("answers an empty field with 400 and the required-fields notice", async () => {
    const { status, notice, html } = await post({ ...valid, message: "   " });
    expect(status).toBe(400);
    expect(notice).toBe("invalid");
    expect(html).toContain(ar.contact.requiredTitle);
    expect(html).toContain(ar.contact.requiredText);
  });

  it("answers a bad e-mail with 400, the message under the field, and the text kept", async () => {
    const { status, html } = await post({ ...valid, email: "ahmed-at-example" });
    expect(status).toBe(400);
    expect(html).toMatch(new RegExp(`data-testid="contact-email-error">${ar.contact.invalidEmail}<`));
    expect(html).toContain('value="ahmed-at-example"');
  });

  it("answers over-long fields with 400 and a clear message", async () => {
    const { status, html } = await post({ ...valid, subject: "م".repeat(201) });
    expect(status).toBe(400);
    expect(html).toContain(ar.contact.subjectTooLong);
  });

  it("answers a 1 MB message with 413, and a 100 KB one with 413 and the notice", async () => {
    const huge = await post({ ...valid, message: "x".repeat(1024 * 1024) });
    expect(huge.status).toBe(413);
    const large = await post({ ...valid, message: "x".repeat(100 * 1024) });
    expect(large.status).toBe(413);
    expect(large.notice).toBe("too-large");
    expect(large.html).toContain(ar.contact.tooLarge);
  });

  it("answers a filled honeypot exactly like a success", async () => {
    const trapped = await post({ ...valid, website: "https://spam.example" });
    expect(trapped.status).toBe(200);
    expect(trapped.notice).toBe("sent");
  });

  it("answers 429 with Retry-After after 5 messages from one address in 10 minutes, keeping the text", async () => {
    const address = nextAddress();
    for (let i = 0; i < 5; i++) expect((await post(valid, { address })).status).toBe(200);
    const refused = await post(valid, { address });
    expect(refused.status).toBe(429);
    expect(refused.notice).toBe("rate-limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.html).toContain(ar.contact.rateLimitedTitle);
    expect(refused.html).toContain("أقترح حلقة عن المحاظر.");
    expect((await post(valid)).status).toBe(200);
  });

  it("never puts a submitted script into any page", async () => {
    // Stored as the text it is (pages escape it).
    const stored = await post({ name: `سالم ${PAYLOAD}`, email: "salem@example.mr", subject: `موضوع ${PAYLOAD}`, message: `نص ${PAYLOAD}` });
    expect(stored.status).toBe(200);
    // Only markup: refused, and the re-rendered form shows the text escaped.
    const refused = await post({ name: PAYLOAD, email: PAYLOAD, subject: PAYLOAD, message: PAYLOAD });
    expect(refused.status).toBe(400);
    expect(refused.html).not.toContain(PAYLOAD);
    expect(refused.html).not.toMatch(/<img src=x onerror/);
    expect(refused.html).not.toMatch(/<script>window\.__pwned/);
    const pages = [
      "/",
      "/news",
      "/contact",
      "/sitemap",
      "/privacy",
      "/terms",
      "/programs",
      "/rss.xml",
      "/sitemap.xml",
      "/api/articles",
      "/api/literature",
      "/api/categories",
    ];
    for (const path of pages) {
      const body = await (await fetch(base + path)).text();
      expect(body, path).not.toContain("__pwned");
      expect(body, path).not.toContain("onerror=");
    }
  });
});

describe.skipIf(!hasChromium)("the contact form in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  async function open(options: Parameters<typeof newPage>[1] = {}) {
    const opened = await newPage(browser, options);
    await opened.context.setExtraHTTPHeaders({ "X-Forwarded-For": nextAddress() });
    await opened.page.goto(`${base}/contact`);
    if (options.javaScriptEnabled !== false) await hydrated(opened.page);
    return opened;
  }
  const fill = async (page: Page, fields: Partial<typeof valid>) => {
    // In the contact form: every page's footer has a newsletter form with an e-mail field of its own.
    for (const [name, value] of Object.entries(fields)) await page.getByTestId("contact-form").locator(`[name="${name}"]`).fill(value);
  };

  it("shows the destructive required-fields toast when a field is empty, and sends nothing", async () => {
    const { page, context, errors } = await open({ viewport: PHONE });
    const posts = recordFormPosts(page);
    await fill(page, { name: valid.name, email: valid.email, message: valid.message });
    await page.getByTestId("contact-submit").click();
    const toast = page.getByTestId("toast");
    await toast.waitFor();
    expect(await toast.getAttribute("data-variant")).toBe("destructive");
    expect(await toast.textContent()).toContain(ar.contact.requiredTitle);
    expect(await toast.textContent()).toContain(ar.contact.requiredText);
    expect(await page.getByTestId("contact-subject-error").textContent()).toBe(ar.contact.requiredText);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("subject");
    // The message clears as the field is corrected.
    await page.locator('[name="subject"]').fill("سؤال");
    await page.getByTestId("contact-subject-error").waitFor({ state: "detached" });
    expect(posts).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("checks the e-mail in the browser with the same message as the server", async () => {
    const { page, context } = await open();
    await fill(page, { ...valid, email: "ahmed@example" });
    await page.getByTestId("contact-submit").click();
    await page.getByTestId("contact-email-error").waitFor();
    expect(await page.getByTestId("contact-email-error").textContent()).toBe(ar.contact.invalidEmail);
    expect(await page.getByTestId("toast").textContent()).toContain(ar.contact.invalidEmail);
    await context.close();
  });

  it("sends a complete message: success toast for 5 seconds' worth, form cleared", async () => {
    const { page, context, errors } = await open({ viewport: DESKTOP });
    await fill(page, valid);
    const answer = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/contact"));
    await page.getByTestId("contact-submit").click();
    expect((await answer).status()).toBe(200);
    const toast = page.getByTestId("toast");
    await toast.waitFor();
    expect(await toast.getAttribute("data-variant")).toBe("success");
    expect(await toast.textContent()).toContain(ar.contact.successTitle);
    await expect.poll(() => page.locator('[name="message"]').inputValue()).toBe("");
    expect(await page.locator('[name="name"]').inputValue()).toBe("");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("keeps the visitor's text when the address is over the limit, and says when to retry", async () => {
    const address = nextAddress();
    for (let i = 0; i < 5; i++) expect((await post(valid, { address })).status).toBe(200);
    const { page, context } = await newPage(browser);
    await context.setExtraHTTPHeaders({ "X-Forwarded-For": address });
    await page.goto(`${base}/contact`);
    await hydrated(page);
    await fill(page, valid);
    await page.getByTestId("contact-submit").click();
    const toast = page.getByTestId("toast");
    await toast.waitFor();
    expect(await toast.textContent()).toContain(ar.contact.rateLimitedTitle);
    expect(await page.locator('[name="message"]').inputValue()).toBe(valid.message);
    await context.close();
  });

  it("keeps a script typed into every field as text and never runs it", async () => {
    const { page, context } = await open();
    await fill(page, { name: `سالم ${PAYLOAD}`, email: "salem@example.mr", subject: `موضوع ${PAYLOAD}`, message: `نص ${PAYLOAD}` });
    await page.getByTestId("contact-submit").click();
    await page.getByTestId("toast").waitFor();
    expect(await page.getByTestId("toast").getAttribute("data-variant")).toBe("success");
    for (const path of ["/contact", "/", "/sitemap"]) {
      await page.goto(base + path);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    }
    // Markup is text like any other: refused here only for the address, the fields keep what was typed, nothing runs.
    await page.goto(`${base}/contact`);
    await hydrated(page);
    await fill(page, { name: PAYLOAD, email: PAYLOAD, subject: PAYLOAD, message: PAYLOAD });
    await page.getByTestId("contact-submit").click();
    expect(await page.getByTestId("toast").textContent()).toContain(ar.contact.invalidEmail);
    expect(await page.locator('[name="message"]').inputValue()).toBe(PAYLOAD);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await context.close();
  });

  it("works without JavaScript: the browser checks the fields, the server answers with the page", async () => {
    const { page, context } = await open({ javaScriptEnabled: false });
    await fill(page, valid);
    await page.getByTestId("contact-submit").click();
    await page.getByTestId("contact-notice").waitFor();
    expect(await page.getByTestId("contact-notice").getAttribute("data-status")).toBe("sent");
    expect(await page.getByTestId("contact-notice").textContent()).toContain(ar.contact.successText);
    await context.close();
  });

  it("is accessible and fits a phone, in Arabic and in French", async () => {
    for (const lang of ["ar", "fr"] as const) {
      const { page, context } = await newPage(browser, { viewport: PHONE });
      // The page's language is its address (decision 0143).
      await page.goto(base + localizedPath(lang, "/contact"));
      await hydrated(page);
      expect(await page.locator("h1").textContent()).toBe(lang === "ar" ? ar.contact.title : fr.contact.title);
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await context.close();
    }
  });
});
