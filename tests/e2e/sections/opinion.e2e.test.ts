/**
 * Opinion in Chromium: chips, excerpts at 150, the most-read top 5 in view order, the write-article box
 * (instant messages, then a stored proposal and a toast) and the newsletter form's validation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import type { Browser } from "playwright-core";
import { DESKTOP, hasChromium, hydrated, launchBrowser, newPage, PHONE, recordFormPosts } from "#tests/e2e/support/browser.ts";

const base = sharedServer().baseUrl;

describe.skipIf(!hasChromium)("opinion page", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it("each chip lists only its category; excerpts stop at 150 characters", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/opinion");
    await hydrated(page);
    const titles = () => page.getByTestId("opinion-item").locator("h3").allTextContents();
    const all = await titles();
    expect(all.length).toBeGreaterThan(4);
    const excerpts = await page.getByTestId("opinion-item").evaluateAll((cards) => cards.map((c) => c.querySelector("h3 + p")?.textContent ?? ""));
    for (const text of excerpts) expect(text.length, text).toBeLessThanOrEqual(151);
    for (const chip of ["op-ed", "analysis", "columns"]) {
      const link = page.getByTestId(`opinion-chip-${chip}`);
      const label = (await link.textContent())!.trim();
      await link.click();
      await page.waitForURL(`${base}/opinion?category=${chip}`);
      await expect.poll(() => link.getAttribute("aria-current")).toBe("true");
      const shown = await titles();
      expect(shown.length, chip).toBeGreaterThan(0);
      expect(shown.length, chip).toBeLessThan(all.length);
      const categories = await page
        .getByTestId("opinion-item")
        .evaluateAll((cards) => cards.map((c) => c.querySelector("h3")?.previousElementSibling?.textContent ?? ""));
      expect(new Set(categories), chip).toEqual(new Set([label]));
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it("most read: five articles in descending view count", async () => {
    const { page, context } = await newPage(browser, { viewport: PHONE });
    await page.goto(base + "/opinion");
    const views = await page.getByTestId("most-read-item").evaluateAll((items) => items.map((i) => Number(i.getAttribute("data-views"))));
    expect(views).toHaveLength(5);
    expect(views).toEqual([...views].sort((a, b) => b - a));
    await context.close();
  });

  it("the write-article box checks the fields at once, then sends the proposal", async () => {
    const { page, context, errors } = await newPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/opinion");
    await hydrated(page);
    const box = page.getByTestId("write-article");
    const posts = recordFormPosts(page);
    await page.getByTestId("proposal-submit").click();
    await box.getByTestId("proposal-error-name").waitFor();
    expect(await box.getByTestId("proposal-error-name").textContent()).toBe("يرجى ملء جميع الحقول المطلوبة");
    expect(await box.locator("#proposal-name").getAttribute("aria-invalid")).toBe("true");
    expect(posts).toEqual([]);

    await box.locator("#proposal-name").fill("سيدي أحمد");
    await box.locator("#proposal-email").fill("writer@sahara.test");
    await box.locator("#proposal-title").fill("المحاظر في زمن الهاتف");
    await box.locator("#proposal-summary").fill("أقترح مقالاً عن تحولات التعليم المحظري مع انتشار الهواتف الذكية بين الطلاب.");
    await page.getByTestId("proposal-submit").click();
    const toast = page.getByTestId("toast");
    await toast.waitFor();
    expect(await toast.getAttribute("data-variant")).toBe("success");
    expect(await toast.textContent()).toContain("تم إرسال مقترحك");
    await expect.poll(() => box.locator("#proposal-title").inputValue()).toBe("");
    expect(await box.getByTestId("proposal-error-name").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the write-article box works without JavaScript, and the server refuses what is missing", async () => {
    const { page, context } = await newPage(browser, { viewport: PHONE, javaScriptEnabled: false });
    await page.goto(base + "/fr/opinion");
    await page.locator("#proposal-name").fill("Moussa");
    await page.locator("#proposal-email").fill("moussa@sahara.test");
    await page.locator("#proposal-title").fill("Un titre");
    await page.locator("#proposal-summary").fill("trop court");
    const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), page.getByTestId("proposal-submit").click()]);
    expect(response.status()).toBe(400);
    await page.getByTestId("proposal-error-summary").waitFor();
    expect(await page.getByTestId("proposal-error-summary").textContent()).toBe("Décrivez votre idée en 30 caractères au moins");

    await page.locator("#proposal-name").fill("Moussa");
    await page.locator("#proposal-email").fill("moussa@sahara.test");
    await page.locator("#proposal-title").fill("Un titre");
    await page.locator("#proposal-summary").fill("Une proposition d'article sur les bibliothèques du désert et leurs gardiens.");
    const [ok] = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), page.getByTestId("proposal-submit").click()]);
    expect(ok.status()).toBe(200);
    await page.getByTestId("proposal-sent").waitFor();
    await context.close();
  });

  it("the newsletter form refuses a bad address in the reader's language", async () => {
    const { page, context } = await newPage(browser, { viewport: PHONE });
    await page.goto(base + "/fr/opinion");
    await hydrated(page);
    await page.locator("#newsletter-email").fill("pas une adresse");
    await page.getByTestId("newsletter-submit").click();
    await page.getByTestId("newsletter-error").waitFor();
    expect(await page.getByTestId("newsletter-error").textContent()).toBe("Adresse e-mail invalide");
    expect(await page.getByTestId("newsletter-sent").count()).toBe(0);
    await context.close();
  });
});
