/**
 * Newsletter double opt-in end to end: a server of its own sends through a real SMTP receiver started here;
 * the reader signs up in Chromium, the confirmation e-mail arrives, and its link confirms the subscriber.
 * The same link then gets the 400 page. A new and a confirmed address get the same answer: the request only
 * queues the confirmation's job.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { hasChromium, hydrated, launchBrowser, newPage, PHONE, DESKTOP } from "#tests/e2e/support/browser.ts";
import { startServer, type RunningServer } from "#tests/e2e/support/server.ts";
import { startSmtpReceiver } from "#tests/helpers/smtp.ts";

describe.skipIf(!hasChromium)("newsletter sign-up with double opt-in", () => {
  let browser: Browser;
  let server: RunningServer;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startServer({ SMTP_URL: smtp.url });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it("sends the confirmation e-mail, and its link confirms the subscriber once", async () => {
    const email = "reader.e2e@sahara.test";
    const { page, context, errors } = await newPage(browser, { viewport: PHONE });
    await page.goto(server.url + "/opinion");
    await hydrated(page);
    await page.locator("#newsletter-email").fill(email);
    await page.getByTestId("newsletter-submit").click();
    await page.getByTestId("newsletter-sent").waitFor();
    expect(await page.getByTestId("newsletter-sent").textContent()).toContain("48");

    const mail = await smtp.waitFor(email);
    expect(mail.subject).toContain("تأكيد الاشتراك");
    const link = mail.links.find((l) => l.startsWith(`${server.url}/newsletter/confirm?token=`));
    expect(link).toBeDefined();

    const first = await page.goto(link!);
    expect(first?.status()).toBe(200);
    expect(await page.getByTestId("newsletter-confirm").getAttribute("data-status")).toBe("confirmed");
    expect(await page.locator("h1").textContent()).toBe("تم تأكيد اشتراكك");

    // Nothing went wrong in the page up to here (the 400 below is logged by the browser on purpose).
    expect(errors).toEqual([]);
    const again = await page.goto(link!);
    expect(again?.status()).toBe(400);
    expect(await page.getByTestId("newsletter-confirm").getAttribute("data-status")).toBe("invalid");

    // Signing up again with the confirmed address looks exactly the same and sends nothing.
    await page.goto(server.url + "/opinion");
    await hydrated(page);
    await page.locator("#newsletter-email").fill(email);
    await page.getByTestId("newsletter-submit").click();
    await page.getByTestId("newsletter-sent").waitFor();
    expect(smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(1);
    await context.close();
  });

  it("answers a new and a confirmed address alike, status and body, and mails the new one from the job queue", async () => {
    // Each sign-up from its own client address (the server trusts its loopback proxy): the limit is per address.
    let n = 0;
    const signUp = (email: string) =>
      fetch(`${server.url}/opinion.data`, {
        method: "POST",
        body: new URLSearchParams({ intent: "newsletter", email }),
        headers: { Origin: server.url, "X-Forwarded-For": `198.51.100.${++n}` },
      }).then(async (res) => ({ status: res.status, type: res.headers.get("content-type"), body: await res.text() }));
    const confirmed = "alike.confirmed@sahara.test";
    expect((await signUp(confirmed)).status).toBe(200);
    const link = (await smtp.waitFor(confirmed)).links.find((l) => l.includes("/newsletter/confirm?token="))!;
    expect((await fetch(link)).status).toBe(200);

    const fresh = "alike.new@sahara.test";
    const answers = [await signUp(fresh), await signUp(confirmed)];
    expect(answers[0].status).toBe(200);
    expect(answers[1]).toEqual(answers[0]);
    expect((await smtp.waitFor(fresh)).subject).toContain("تأكيد الاشتراك");
  });

  it("writes the e-mail in French for a French reader, and signs up without JavaScript", async () => {
    const email = "lecteur.e2e@sahara.test";
    const { page, context } = await newPage(browser, { viewport: DESKTOP, javaScriptEnabled: false });
    await page.goto(server.url + "/fr/opinion");
    await page.locator("#newsletter-email").fill(email);
    await page.getByTestId("newsletter-submit").click();
    await page.getByTestId("newsletter-sent").waitFor();
    const mail = await smtp.waitFor(email);
    expect(mail.subject).toMatch(/Confirmez votre inscription/);
    const link = mail.links.find((l) => l.includes("/newsletter/confirm?token="))!;
    await page.goto(link);
    expect(await page.getByTestId("newsletter-confirm").getAttribute("data-status")).toBe("confirmed");
    expect(await page.locator("h1").textContent()).toBe("Inscription confirmée");
    await context.close();
  });
});
