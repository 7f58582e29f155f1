/**
 * The newsletter that sends (issue 32, decision 0126), in Chromium against the built server and a real SMTP
 * receiver: an editor composes the day's Arabic digest at /admin/newsletter (the automatic choice, an item
 * removed, the order changed, the subject edited), previews it right to left and sends it; the server's job
 * queue mails it. Then readers, without JavaScript, unsubscribe from the confirmation page and set their
 * preferences; a mail client's one-click POST (RFC 8058) unsubscribes from another origin; bad tokens and bodies
 * get clear 400 pages; and the screen counts the send's unsubscribes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { hasChromium, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import { startAuthServer, type AuthServer } from "#tests/e2e/auth/support.ts";
import { keepEvidence, open, signedInPage } from "#tests/e2e/newsroom/support.ts";
import { startSmtpReceiver, type ReceivedMail } from "#tests/helpers/smtp.ts";
import { horizontalOverflow, seriousA11yViolations } from "#tests/e2e/support/a11y.ts";
import { news, newsletterSubscribers } from "#server/db/schema.server.ts";

const personas = {
  editor: {
    email: "newsletter.editor@sahara.test",
    password: "Ed1torPassword",
    role: "editor" as const,
    permissions: ["newsletter.send" as const],
    name: "محررة النشرة",
  },
};
const READERS = ["qari-1@sahara.test", "qari-2@sahara.test", "qari-3@sahara.test"];
const FRENCH = "lecteur@sahara.test";

const header = (raw: string, name: string) => {
  const unfolded = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, " ");
  return new RegExp(`^${name}: (.*)$`, "im").exec(unfolded)?.[1];
};
const unsubscribeLink = (mail: ReceivedMail) => header(mail.raw, "List-Unsubscribe")!.replace(/^<|>$/g, "");

describe.skipIf(!hasChromium)("newsletter sends", () => {
  let browser: Browser;
  let server: AuthServer<"editor">;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  const ids: { high: number; medium: number } = { high: 0, medium: 0 };

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startAuthServer({
      personas,
      seed: true,
      env: { SMTP_URL: smtp.url, NEWSLETTER_BATCH_SIZE: "2" },
      prepare: async (db) => {
        const hourAgo = new Date(Date.now() - 3_600_000);
        const [high] = await db
          .insert(news)
          .values({
            title: "خبر النشرة العاجل",
            titleFr: "Dépêche urgente",
            content: "محتوى خبر النشرة العاجل للاختبار",
            excerpt: "مقتطف الخبر العاجل",
            priority: "high",
            pageSlug: "nl-e2e-high",
            status: "published",
            publishDate: hourAgo,
          })
          .returning({ id: news.id });
        const [medium] = await db
          .insert(news)
          .values({
            title: "خبر النشرة الثاني",
            content: "محتوى خبر النشرة الثاني للاختبار",
            excerpt: "مقتطف الخبر الثاني",
            priority: "high",
            pageSlug: "nl-e2e-medium",
            status: "published",
            publishDate: new Date(hourAgo.getTime() - 60_000),
          })
          .returning({ id: news.id });
        ids.high = high.id;
        ids.medium = medium.id;
        await db
          .insert(newsletterSubscribers)
          .values([
            ...READERS.map((email) => ({ email, status: "confirmed" as const, language: "ar" })),
            { email: FRENCH, status: "confirmed" as const, language: "fr" },
            { email: "pending@sahara.test", status: "pending" as const, language: "ar" },
          ]);
      },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  const refs = (page: Page) => page.getByTestId("newsletter-item").evaluateAll((items) => items.map((i) => i.getAttribute("data-ref")));

  it("composes the Arabic daily digest, previews it right to left, and sends it through the queue", async () => {
    const { page, context } = await signedInPage(browser, server, server.personas.editor);
    await keepEvidence(
      page,
      "newsletter-compose",
      async () => {
        await open(page, `${server.url}/admin/newsletter`);
        await expect.poll(() => page.getByTestId("newsletter-audience").getAttribute("data-count")).toBe("3");
        // The automatic choice holds both items; everything else (the demo's own items of the day) is removed.
        const mine = [`news:${ids.high}`, `news:${ids.medium}`];
        expect(await refs(page)).toEqual(expect.arrayContaining(mine));
        for (;;) {
          const other = (await refs(page)).find((r) => r && !mine.includes(r));
          if (!other) break;
          await page.locator(`[data-testid=newsletter-item][data-ref="${other}"]`).getByTestId("newsletter-item-remove").click();
          await expect.poll(() => refs(page)).not.toContain(other);
        }
        expect(await refs(page)).toEqual(mine);
        // Reordered: the second goes first.
        await page.locator(`[data-testid=newsletter-item][data-ref="news:${ids.medium}"]`).getByRole("button", { name: /^أعلى/ }).click();
        await expect.poll(() => refs(page)).toEqual([`news:${ids.medium}`, `news:${ids.high}`]);
        await page.getByTestId("newsletter-subject").fill("نشرة الاختبار اليومية");
        await page.getByTestId("newsletter-intro").fill("صباح الخير، هذه أبرز الأخبار.");

        await page.getByRole("button", { name: "معاينة" }).click();
        const frame = page.frameLocator("[data-testid=newsletter-preview-frame]");
        await frame.locator("body").getByText("نشرة الاختبار اليومية").first().waitFor();
        expect(await frame.locator("html").getAttribute("dir")).toBe("rtl");
        expect(await frame.locator("body").getAttribute("style")).toContain("text-align:right");
        const titles = await frame.locator("a", { hasText: "خبر النشرة" }).allTextContents();
        expect(titles).toEqual(["خبر النشرة الثاني", "خبر النشرة العاجل"]);
        expect(await seriousA11yViolations(page)).toEqual([]);

        await page.getByRole("button", { name: "إرسال", exact: true }).click();
        await page.getByTestId("newsletter-confirm-dialog").waitFor();
        await page.getByRole("button", { name: "إرسال الآن" }).click();
        await page.getByTestId("newsletter-queued").waitFor();
      },
      server.output,
    );

    for (const email of READERS) {
      const mail = await smtp.waitFor(email, 60_000);
      expect(mail.subject).toBe("نشرة الاختبار اليومية");
      expect(mail.html).toMatch(/<html lang="ar" dir="rtl">/);
      expect(mail.html.indexOf("خبر النشرة الثاني")).toBeLessThan(mail.html.indexOf("خبر النشرة العاجل"));
      expect(unsubscribeLink(mail)).toMatch(new RegExp(`^${server.url}/newsletter/unsubscribe\\?token=[\\w-]{43}&send=\\d+$`));
      expect(header(mail.raw, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    }
    // The past sends list shows it sent, three of three.
    await expect
      .poll(async () => {
        await open(page, `${server.url}/admin/newsletter`);
        return page.getByTestId("newsletter-send-row").first().getAttribute("data-state");
      })
      .toBe("sent");
    expect(await page.getByTestId("send-sent").first().getAttribute("data-value")).toBe("3");
    expect(smtp.messages.filter((m) => m.to.includes(FRENCH) || m.to.includes("pending@sahara.test"))).toHaveLength(0);
    await context.close();
  });

  it("composes and previews the French digest left to right, its items in French first", async () => {
    const { page, context } = await signedInPage(browser, server, server.personas.editor);
    await open(page, `${server.url}/admin/newsletter`);
    await page.getByTestId("newsletter-language").selectOption("fr");
    await page.getByRole("button", { name: "عرض" }).click();
    await expect.poll(() => page.getByTestId("newsletter-audience").getAttribute("data-count")).toBe("1");
    await expect.poll(async () => (await refs(page))[0]).toBe(`news:${ids.high}`);
    expect(await page.getByTestId("newsletter-subject").inputValue()).toMatch(/^L'essentiel de Sahara Média aujourd'hui/);
    await page.getByRole("button", { name: "معاينة" }).click();
    const frame = page.frameLocator("[data-testid=newsletter-preview-frame]");
    await frame.locator("a", { hasText: "Dépêche urgente" }).waitFor();
    expect(await frame.locator("html").getAttribute("dir")).toBe("ltr");
    expect(await frame.locator("html").getAttribute("lang")).toBe("fr");
    expect(await frame.locator("body").getAttribute("style")).toContain("text-align:left");
    await context.close();
  });

  it("the unsubscribe and preferences pages are accessible and fit a phone", async () => {
    const mail = await smtp.waitFor(READERS[0]);
    // axe runs in the page: these contexts have JavaScript (the pages themselves need none and load none of React).
    const { page, context } = await newPage(browser, { viewport: PHONE });
    for (const link of [unsubscribeLink(mail), mail.links.find((l) => l.includes("/newsletter/preferences?token="))!]) {
      expect((await page.goto(link))?.status()).toBe(200);
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(await horizontalOverflow(page)).toBe(0);
    }
    await context.close();
  });

  it("unsubscribes without JavaScript from the confirmation page; a GET alone never unsubscribes", async () => {
    const link = unsubscribeLink(await smtp.waitFor(READERS[0]));
    const { page, context } = await newPage(browser, { javaScriptEnabled: false });
    // Opened twice (a mail scanner, then the reader): still subscribed.
    expect((await page.goto(link))?.status()).toBe(200);
    expect((await page.goto(link))?.status()).toBe(200);
    const section = page.getByTestId("newsletter-unsubscribe");
    expect(await section.getAttribute("data-state")).toBe("confirm");
    expect(await page.content()).not.toContain("entry.client");
    await page.getByRole("button", { name: "إلغاء الاشتراك" }).click();
    await page.waitForSelector("[data-testid=newsletter-unsubscribe][data-state=done]");
    expect(await page.locator("h1").textContent()).toBe("تم إلغاء اشتراكك");
    await page.goto(link);
    expect(await section.getAttribute("data-state")).toBe("already");
    await context.close();
  });

  it("takes a mail client's one-click POST from any origin, before React Router's origin check, and logs no error for any", async () => {
    const before = server.output().length;
    const link = unsubscribeLink(await smtp.waitFor(READERS[1]));
    // Only the exact one-click form is exempt from the origin check: another body from elsewhere gets its 403.
    const wrong = await fetch(link, {
      method: "POST",
      body: "List-Unsubscribe=Yes",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://mail.example.com" },
    });
    expect(wrong.status).toBe(403);
    // A webmail client sends its own Origin (React Router's check answered it 400, with an error in the log).
    const oneClick = await fetch(link, {
      method: "POST",
      body: "List-Unsubscribe=One-Click",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://mail.example.com" },
    });
    expect(oneClick.status).toBe(200);
    expect(oneClick.headers.get("cache-control")).toBe("no-store");
    expect(await oneClick.text()).toContain("تم إلغاء اشتراكك");
    // A mail server sends none; again is still a 200.
    const again = await fetch(link, { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(again.status).toBe(200);
    // The exemption is this one address's: the preferences form posted from elsewhere is refused.
    const prefs = link.replace("/unsubscribe?", "/preferences?").replace(/&send=\d+/, "");
    const elsewhere = await fetch(prefs, {
      method: "POST",
      body: "language=fr&frequency=weekly",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example" },
    });
    expect(elsewhere.status).toBe(403);

    const bad = await fetch(`${server.url}/newsletter/unsubscribe?token=not-a-token`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('data-state="invalid"');
    for (const origin of [undefined, "https://mail.example.com", "null"]) {
      const badPost = await fetch(`${server.url}/newsletter/unsubscribe?token=${"a".repeat(43)}`, {
        method: "POST",
        body: "List-Unsubscribe=One-Click",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...(origin ? { Origin: origin } : {}) },
      });
      expect(badPost.status, origin).toBe(400);
    }
    // Refusals are the client's: at info, never at error level (pino 50 and above).
    const log = server.output().slice(before);
    expect(log.split("\n").filter((line) => /"level":(?:5\d|60)\b/.test(line))).toEqual([]);
    expect(log).toMatch(/"level":30[^\n]*"msg":"one-click unsubscribe refused"/);
  });

  it("sets the language and frequency on the preferences page without JavaScript, and says what is wrong in a bad post", async () => {
    const mail = await smtp.waitFor(READERS[2]);
    const prefs = mail.links.find((l) => l.includes("/newsletter/preferences?token="))!;
    const { page, context } = await newPage(browser, { javaScriptEnabled: false });
    expect((await page.goto(prefs))?.status()).toBe(200);
    expect(await page.content()).not.toContain("entry.client");
    expect(await page.locator("input[name=language][value=ar]").isChecked()).toBe(true);
    expect(await page.locator("input[name=frequency][value=daily]").isChecked()).toBe(true);
    await page.locator("input[name=language][value=fr]").check();
    await page.locator("input[name=frequency][value=weekly]").check();
    await page.getByRole("button", { name: "حفظ التفضيلات" }).click();
    await page.getByTestId("preferences-saved").waitFor();
    await page.goto(prefs);
    expect(await page.locator("input[name=language][value=fr]").isChecked()).toBe(true);
    expect(await page.locator("input[name=frequency][value=weekly]").isChecked()).toBe(true);

    const refused = await fetch(prefs, {
      method: "POST",
      body: "language=de&frequency=hourly",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('data-testid="preferences-error"');
    expect((await fetch(`${server.url}/newsletter/preferences?token=nope`)).status).toBe(400);
    await context.close();
  });

  it("counts the two unsubscribes against the send", async () => {
    const { page, context } = await signedInPage(browser, server, server.personas.editor);
    await open(page, `${server.url}/admin/newsletter`);
    expect(await page.getByTestId("send-unsubscribed").first().getAttribute("data-value")).toBe("2");
    // A digest needs an item: sending an empty one is refused with the field's message.
    const empty = await page.evaluate(async () => {
      const body = new URLSearchParams({ intent: "send", kind: "digest", period: "daily", language: "ar", subject: "فارغة" });
      const res = await fetch("/admin/newsletter.data", { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
      return res.status;
    });
    expect(empty).toBe(400);
    await context.close();
  });
});
