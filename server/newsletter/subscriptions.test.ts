/**
 * Newsletter double opt-in against a real SMTP receiver: pending → confirmed through the e-mailed link, the
 * link works once and for 48 hours, and nothing tells a visitor whether an address was already subscribed: the
 * request queues the same job for every address and sends nothing itself; the job sends the e-mail.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { startSmtpReceiver } from "#tests/helpers/smtp.ts";
import { newsletterSubscribers } from "#server/db/schema.server.ts";
import { checkConfig, type Config } from "#server/config.server.ts";
import { jobs } from "#server/db/schema.server.ts";
import { startWorker } from "#server/jobs/queue.server.ts";
import { newsletterConfirmHandler } from "./jobs.server.ts";
import {
  confirmNewsletterSubscription,
  CONFIRMATION_TTL_MS,
  hashToken,
  NEWSLETTER_CONFIRM_JOB,
  RESEND_INTERVAL_MS,
  sendConfirmation,
  subscribeToNewsletter,
} from "./subscriptions.server.ts";

const HOUR = 3_600_000;

describe.each(testDatabaseKinds)("newsletter on %s", (kind) => {
  let t: TestDatabase;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let config: Config;

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    smtp = await startSmtpReceiver();
    config = checkConfig({ SMTP_URL: smtp.url, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "newsletter-")), PUBLIC_URL: "https://sahara.test" }).config;
  });
  afterAll(async () => {
    await smtp?.close();
    await t?.drop();
  });

  const row = async (email: string) => (await t.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)))[0];
  const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;
  const mailsTo = (to: string) => smtp.messages.filter((m) => m.to.includes(to));

  it("stores a pending subscriber with only the token's hash, and e-mails the link in Arabic", async () => {
    const email = `ar-${kind}@sahara.test`;
    expect(await sendConfirmation(t.db, { email, language: "ar" }, { config })).toEqual({ outcome: "sent" });
    const mail = await smtp.waitFor(email);
    expect(mail.subject).toContain("تأكيد الاشتراك في النشرة البريدية");
    expect(mail.text).toContain("48");
    const link = mail.links.find((l) => l.startsWith("https://sahara.test/newsletter/confirm?token="))!;
    expect(link).toBeDefined();
    const stored = await row(email);
    expect(stored).toMatchObject({ status: "pending", language: "ar", confirmedAt: null });
    expect(stored.tokenHash).toBe(hashToken(tokenOf(link)));
    expect(stored.tokenHash).not.toContain(tokenOf(link));
  });

  it("confirms through the link once; the same link is refused afterwards", async () => {
    const email = `confirm-${kind}@sahara.test`;
    await sendConfirmation(t.db, { email, language: "fr" }, { config });
    const mail = await smtp.waitFor(email);
    expect(mail.subject).toMatch(/Confirmez votre inscription/);
    // The French subscriber's link is the French confirmation page's address (issue 42).
    expect(mail.links[0]).toMatch(/^https:\/\/sahara\.test\/fr\/newsletter\/confirm\?token=/);
    const token = tokenOf(mail.links[0]);
    expect(await confirmNewsletterSubscription(t.db, token)).toEqual({ ok: true, email });
    const stored = await row(email);
    expect(stored.status).toBe("confirmed");
    expect(stored.confirmedAt).toBeInstanceOf(Date);
    expect(stored.tokenHash).toBeNull();
    expect(await confirmNewsletterSubscription(t.db, token)).toEqual({ ok: false, code: "TOKEN_INVALID" });
  });

  it("refuses a link older than 48 hours and leaves the subscriber pending", async () => {
    const email = `expired-${kind}@sahara.test`;
    const issued = new Date(Date.now() - CONFIRMATION_TTL_MS - HOUR);
    await sendConfirmation(t.db, { email, language: "ar" }, { config, now: issued });
    const token = tokenOf((await smtp.waitFor(email)).links[0]);
    expect(await confirmNewsletterSubscription(t.db, token)).toEqual({ ok: false, code: "TOKEN_EXPIRED" });
    expect((await row(email)).status).toBe("pending");
    // Just inside the window it still works.
    const email2 = `almost-${kind}@sahara.test`;
    await sendConfirmation(t.db, { email: email2, language: "ar" }, { config, now: new Date(Date.now() - CONFIRMATION_TTL_MS + HOUR) });
    expect(await confirmNewsletterSubscription(t.db, tokenOf((await smtp.waitFor(email2)).links[0]))).toEqual({ ok: true, email: email2 });
  });

  it("refuses tokens that were never issued or are malformed", async () => {
    expect(await confirmNewsletterSubscription(t.db, "A".repeat(43))).toEqual({ ok: false, code: "TOKEN_INVALID" });
    for (const bad of [null, "", "short", "x".repeat(500), "<script>alert(1)</script>xxxxxxxxxxxxxxxx", 42]) {
      expect(await confirmNewsletterSubscription(t.db, bad)).toEqual({ ok: false, code: "TOKEN_INVALID" });
    }
  });

  it("a new sign-up for a pending address issues a new link and retires the old one", async () => {
    const email = `again-${kind}@sahara.test`;
    const first = new Date(Date.now() - 2 * RESEND_INTERVAL_MS);
    await sendConfirmation(t.db, { email, language: "ar" }, { config, now: first });
    const oldToken = tokenOf((await smtp.waitFor(email)).links[0]);
    expect(await sendConfirmation(t.db, { email, language: "fr" }, { config })).toEqual({ outcome: "sent" });
    await expect.poll(() => mailsTo(email).length).toBe(2);
    const newToken = tokenOf(mailsTo(email)[1].links[0]);
    expect(newToken).not.toBe(oldToken);
    expect(await confirmNewsletterSubscription(t.db, oldToken)).toEqual({ ok: false, code: "TOKEN_INVALID" });
    expect(await confirmNewsletterSubscription(t.db, newToken)).toEqual({ ok: true, email });
    expect((await row(email)).language).toBe("fr");
  });

  it("sends nothing more for an address already confirmed, or signed up a moment ago", async () => {
    const email = `twice-${kind}@sahara.test`;
    await sendConfirmation(t.db, { email, language: "ar" }, { config });
    await smtp.waitFor(email);
    expect(await sendConfirmation(t.db, { email, language: "ar" }, { config })).toEqual({ outcome: "recently-sent" });
    await confirmNewsletterSubscription(t.db, tokenOf(mailsTo(email)[0].links[0]));
    expect(await sendConfirmation(t.db, { email, language: "ar" }, { config, now: new Date(Date.now() + 2 * RESEND_INTERVAL_MS) })).toEqual({
      outcome: "already-confirmed",
    });
    expect((await row(email)).status).toBe("confirmed");
    expect(mailsTo(email)).toHaveLength(1);
  });

  it("queues the same job for a new, a pending and a confirmed address, and sends nothing in the request", async () => {
    const [fresh, pending, confirmed] = ["new", "pending", "confirmed"].map((s) => `request-${s}-${kind}@sahara.test`);
    await t.db.insert(newsletterSubscribers).values([
      { email: pending, status: "pending", tokenHash: hashToken("x".repeat(43)), updatedAt: new Date(Date.now() - 2 * RESEND_INTERVAL_MS) },
      { email: confirmed, status: "confirmed", confirmedAt: new Date() },
    ]);
    for (const email of [fresh, pending, confirmed]) expect(await subscribeToNewsletter(t.db, { email, language: "fr" })).toBeUndefined();
    // A second sign-up while the first job waits queues nothing more.
    await subscribeToNewsletter(t.db, { email: fresh, language: "fr" });
    const queued = (await t.db.select().from(jobs).where(eq(jobs.name, NEWSLETTER_CONFIRM_JOB)).orderBy(jobs.id)).filter((j) =>
      [fresh, pending, confirmed].includes((j.payload as { email: string }).email),
    );
    expect(queued.map((j) => [(j.payload as { email: string }).email, j.state])).toEqual([
      [fresh, "queued"],
      [pending, "queued"],
      [confirmed, "queued"],
    ]);
    // Nothing was mailed, and the request touched no subscriber: the job does both.
    expect(smtp.messages.filter((m) => [fresh, pending, confirmed].some((e) => m.to.includes(e)))).toEqual([]);
    expect(await row(fresh)).toBeUndefined();
    expect((await row(pending)).tokenHash).toBe(hashToken("x".repeat(43)));

    // The job sends the e-mail (through the real SMTP receiver) to the new and the pending address, not the confirmed one.
    const worker = startWorker(t.db, { [NEWSLETTER_CONFIRM_JOB]: newsletterConfirmHandler(config) }, { pollMs: 50 });
    try {
      await worker.drain();
    } finally {
      await worker.stop();
    }
    for (const email of [fresh, pending]) {
      const mail = await smtp.waitFor(email);
      expect(mail.subject).toMatch(/Confirmez votre inscription/);
      expect(await confirmNewsletterSubscription(t.db, tokenOf(mail.links[0]))).toEqual({ ok: true, email });
    }
    expect(mailsTo(confirmed)).toEqual([]);
    const done = await t.db.select().from(jobs).where(eq(jobs.name, NEWSLETTER_CONFIRM_JOB)).orderBy(jobs.id);
    expect(done.filter((j) => [fresh, pending, confirmed].includes((j.payload as { email: string }).email)).map((j) => j.state)).toEqual([
      "done",
      "done",
      "done",
    ]);
  });

  it("keeps no subscriber behind when the e-mail cannot be sent", async () => {
    const down = checkConfig({ SMTP_URL: "smtp://127.0.0.1:1", DATA_DIR: config.dataDir }).config;
    const email = `nomail-${kind}@sahara.test`;
    await expect(sendConfirmation(t.db, { email, language: "ar" }, { config: down })).rejects.toMatchObject({ code: "MAIL_FAILED" });
    expect(await row(email)).toBeUndefined();
  });
});
