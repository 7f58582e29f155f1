/**
 * Newsletter sends (decision 0126) against a real SMTP receiver: the digest's automatic choice, the audience
 * (language, frequency, confirmed only), batches at the set rate, the RFC 8058 headers and a right-to-left
 * Arabic mail, per-send counts (sent, failed, unsubscribed), the token's checks, and a mail server that is down.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { parseMail, startSmtpReceiver } from "#tests/helpers/smtp.ts";
import { articles, audienceDaily, jobs, news, newsletterDeliveries, newsletterSends, newsletterSubscribers } from "#server/db/schema.server.ts";
import { GRAINS } from "#server/analytics/grains.server.ts";
import { checkConfig, type Config } from "#server/config.server.ts";
import { closeBulkMail } from "#server/ops/mail.server.ts";
import { NEWSLETTER_SEND_JOB, queueNewsletterSend } from "./jobs.server.ts";
import { JOB, startJobWorker } from "#server/jobs/index.server.ts";
import { enqueue } from "#server/jobs/queue.server.ts";
import { listAudit } from "#server/content/audit.server.ts";
import { renderNewsletter } from "./compose.server.ts";
import { digestCandidates, resolveItems } from "./items.server.ts";
import { runSend } from "./run-send.server.ts";
import { audienceSize, cancelSend, createSend, deliveryCounts, listSends, NEWSLETTER_DELIVERIES_KEPT_DAYS, pruneDeliveries } from "./sends.server.ts";
import { hashManageToken, manageToken, subscriberByToken, unsubscribeByToken, updatePreferences } from "./tokens.server.ts";

const DAY = 86_400_000;

describe.each(testDatabaseKinds)("newsletter sends on %s", (kind) => {
  let t: TestDatabase;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let config: Config;
  let slug = 0;

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    smtp = await startSmtpReceiver();
    config = checkConfig({
      SMTP_URL: smtp.url,
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "newsletter-sends-")),
      PUBLIC_URL: "https://sahara.test",
      BETTER_AUTH_SECRET: "a-test-secret-of-at-least-thirty-two-characters",
    }).config;
  });
  afterEach(() => closeBulkMail());
  afterAll(async () => {
    await smtp?.close();
    await t?.drop();
  });

  const addNews = async (values: { title: string; titleFr?: string; priority?: "high" | "medium" | "low"; ageMs?: number; status?: "published" | "draft" }) => {
    const [row] = await t.db
      .insert(news)
      .values({
        title: values.title,
        titleFr: values.titleFr ?? null,
        content: "محتوى الخبر التجريبي للنشرة البريدية",
        excerpt: `مقتطف ${values.title}`,
        priority: values.priority ?? "medium",
        pageSlug: `nl-news-${kind}-${++slug}`,
        status: values.status ?? "published",
        publishDate: new Date(Date.now() - (values.ageMs ?? 3_600_000)),
      })
      .returning({ id: news.id });
    return row.id;
  };
  const addArticle = async (title: string, viewCount: number, ageMs = 3_600_000) => {
    const [row] = await t.db
      .insert(articles)
      .values({
        title,
        content: "محتوى المقال التجريبي",
        pageSlug: `nl-article-${kind}-${++slug}`,
        status: "published",
        viewCount,
        publishDate: new Date(Date.now() - ageMs),
      })
      .returning({ id: articles.id });
    return row.id;
  };
  const addSubscribers = async (prefix: string, n: number, values: Partial<typeof newsletterSubscribers.$inferInsert> = {}) => {
    const rows = await t.db
      .insert(newsletterSubscribers)
      .values(Array.from({ length: n }, (_, i) => ({ email: `${prefix}-${i}-${kind}@sahara.test`, status: "confirmed" as const, language: "ar", ...values })))
      .returning({ id: newsletterSubscribers.id, email: newsletterSubscribers.email });
    return rows;
  };
  const mailsTo = (to: string) => smtp.messages.filter((m) => m.to.includes(to));
  const header = (raw: string, name: string) => {
    const unfolded = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, " ");
    return new RegExp(`^${name}: (.*)$`, "im").exec(unfolded)?.[1];
  };

  describe("the digest's automatic choice", () => {
    it("ranks by priority, then reads, within the period; drafts, future and older items stay out", async () => {
      await t.db.execute(sql`delete from ${news}`);
      await t.db.execute(sql`delete from ${articles}`);
      const low = await addNews({ title: "خبر أولوية منخفضة", priority: "low" });
      const high = await addNews({ title: "خبر عاجل مهم", priority: "high", ageMs: 5 * 3_600_000 });
      const medium = await addNews({ title: "خبر عادي", priority: "medium" });
      const read = await addArticle("مقال كثير القراءة", 500);
      const readLess = await addArticle("مقال قليل القراءة", 3);
      await addNews({ title: "مسودة", priority: "high", status: "draft" });
      await addNews({ title: "خبر في المستقبل", priority: "high", ageMs: -DAY });
      const old = await addNews({ title: "خبر الأسبوع الماضي", priority: "high", ageMs: 3 * DAY });
      // Today's readers count beside the running total: the less-read article gets 600 of them.
      await t.db.insert(audienceDaily).values({
        grain: GRAINS.ranking,
        day: new Date().toISOString().slice(0, 10),
        page: `article:${readLess}`,
        contentType: "article",
        contentId: readLess,
        lang: "",
        source: "",
        device: "",
        views: 600,
      });

      const daily = await digestCandidates(t.db, { period: "daily", language: "ar" });
      expect(daily.map((i) => `${i.type}:${i.id}`)).toEqual([`news:${high}`, `article:${readLess}`, `article:${read}`, `news:${medium}`, `news:${low}`]);
      expect(daily[1]).toMatchObject({ reads: 603, priority: "medium" });
      expect(daily[1].url).toMatch(/^\/articles\//);
      const weekly = await digestCandidates(t.db, { period: "weekly", language: "ar" });
      expect(weekly.map((i) => i.id)).toContain(old);
    });

    it("in French, items with a French title come first and show it", async () => {
      const french = await addNews({ title: "خبر بالفرنسية", titleFr: "Une dépêche en français", priority: "low" });
      const fr = await digestCandidates(t.db, { period: "daily", language: "fr" });
      expect(fr[0]).toMatchObject({ type: "news", id: french, title: "Une dépêche en français" });
    });

    it("refuses an item that is not published", async () => {
      const draft = await addNews({ title: "مسودة أخرى", status: "draft" });
      await expect(resolveItems(t.db, [{ type: "news", id: draft }], "ar")).rejects.toMatchObject({ status: 400, code: "ITEM_UNAVAILABLE" });
    });
  });

  describe("a digest sent through the SMTP receiver", () => {
    let sendId: number;
    let item: number;
    const sleeps: number[] = [];

    beforeAll(async () => {
      item = await addNews({ title: "عنوان الخبر الأول في النشرة", priority: "high" });
      await addSubscribers("daily", 7);
      await addSubscribers("weekly", 2, { frequency: "weekly" });
      await addSubscribers("none", 1, { frequency: "none" });
      await addSubscribers("pending", 1, { status: "pending" });
      await addSubscribers("gone", 1, { status: "unsubscribed" });
      await addSubscribers("french", 2, { language: "fr" });
      expect(await audienceSize(t.db, { kind: "digest", period: "daily", language: "ar" })).toBe(7);
      expect(await audienceSize(t.db, { kind: "item", period: null, language: "ar" })).toBe(9);
      const queued: number[] = [];
      const created = await createSend(
        t.db,
        { kind: "digest", period: "daily", language: "ar", subject: "أبرز أخبار اليوم", intro: "مقدمة النشرة", items: [{ type: "news", id: item }] },
        { user: { id: "u1", name: "محررة" }, enqueueJob: (_db, id) => Promise.resolve(queued.push(id)) },
      );
      sendId = created.id;
      expect(created.total).toBe(7);
      expect(queued).toEqual([sendId]);
      // One audit row, written with the send (decision 0140).
      const [audit] = (await listAudit(t.db, { action: "newsletter_send" })).entries.filter((e) => e.details.send_id === sendId);
      expect(audit).toMatchObject({ actor: "u1", action: "newsletter_send" });
      expect(audit.details).toMatchObject({ kind: "digest", language: "ar", total: 7 });
      const result = await runSend(t.db, sendId, {
        config,
        batchSize: 3,
        ratePerMinute: 60,
        sleep: (ms) => Promise.resolve(void sleeps.push(ms)),
        now: () => 0,
      });
      expect(result).toEqual({ sent: 7, failed: 0, stopped: false });
    });

    it("mails each confirmed daily Arabic subscriber once, and nobody else", async () => {
      for (let i = 0; i < 7; i++) expect(mailsTo(`daily-${i}-${kind}@sahara.test`)).toHaveLength(1);
      for (const other of ["weekly-0", "none-0", "pending-0", "gone-0", "french-0"]) expect(mailsTo(`${other}-${kind}@sahara.test`)).toHaveLength(0);
      expect(await deliveryCounts(t.db, sendId)).toEqual({ sent: 7 });
    });

    it("goes out in batches at the set rate: 7 messages in batches of 3 at 60 a minute", () => {
      // A batch of n messages takes n / rate minutes at least (on a stopped clock: all of it is waited).
      expect(sleeps).toEqual([3000, 3000, 1000]);
    });

    it("carries one-click unsubscribe (RFC 8058) and a preferences link, with the subscriber's token", async () => {
      const to = `daily-0-${kind}@sahara.test`;
      const mail = mailsTo(to)[0];
      const listUnsubscribe = header(mail.raw, "List-Unsubscribe")!;
      expect(listUnsubscribe).toMatch(new RegExp(`^<https://sahara\\.test/newsletter/unsubscribe\\?token=[A-Za-z0-9_-]{43}&send=${sendId}>$`));
      expect(header(mail.raw, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
      const token = new URL(listUnsubscribe.slice(1, -1)).searchParams.get("token")!;
      const [row] = await t.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, to));
      expect(token).toBe(manageToken(row.id, config));
      // Only the token's hash is stored.
      expect(row.manageTokenHash).toBe(hashManageToken(token));
      expect(JSON.stringify(row)).not.toContain(token);
      expect(mail.links).toContain(`https://sahara.test/newsletter/preferences?token=${token}`);
      expect(mail.text).toContain(`https://sahara.test/newsletter/preferences?token=${token}`);
    });

    it("is right to left and right-aligned in Arabic, with inline styles only", () => {
      const { html, subject, text } = mailsTo(`daily-1-${kind}@sahara.test`)[0];
      expect(subject).toBe("أبرز أخبار اليوم");
      expect(html).toMatch(/<html lang="ar" dir="rtl">/);
      expect(html).toMatch(/<body dir="rtl" style="[^"]*direction:rtl;text-align:right/);
      expect(html).toContain('align="right"');
      expect(html).not.toContain('align="left"');
      expect(html).not.toMatch(/<style|<link|<script|class=/i);
      expect(html).toContain("عنوان الخبر الأول في النشرة");
      expect(html).toContain("مقدمة النشرة");
      expect(text).toContain("https://sahara.test/news/");
      // Every link to an item says it came from this send (issue 45): the dashboard counts the send's clicks by it.
      const links = [...html.matchAll(/href="(https:\/\/sahara\.test\/news\/[^"]*)"/g)].map((m) => m[1].replaceAll("&amp;", "&"));
      expect(links.length).toBeGreaterThan(0);
      for (const link of [...links, ...text.split("\n").filter((line) => line.startsWith("https://sahara.test/news/"))]) {
        expect(Object.fromEntries(new URL(link).searchParams)).toEqual({ utm_source: "newsletter", utm_campaign: `send-${sendId}` });
      }
    });

    it("counts an unsubscribe from the mail's link against its send, and the next send leaves that reader out", async () => {
      const mail = mailsTo(`daily-2-${kind}@sahara.test`)[0];
      const url = new URL(header(mail.raw, "List-Unsubscribe")!.slice(1, -1));
      await unsubscribeByToken(t.db, url.searchParams.get("token"), url.searchParams.get("send"));
      // Twice is harmless and counts once.
      expect(await unsubscribeByToken(t.db, url.searchParams.get("token"), url.searchParams.get("send"))).toMatchObject({ alreadyUnsubscribed: true });
      const [summary] = (await listSends(t.db)).filter((s) => s.id === sendId);
      expect(summary).toMatchObject({ state: "sent", total: 7, sent: 7, failed: 0, unsubscribed: 1, createdByName: "محررة" });
      expect(await audienceSize(t.db, { kind: "digest", period: "daily", language: "ar" })).toBe(6);
    });

    it("follows the preferences: a reader who moves to French or to weekly leaves the Arabic daily digest", async () => {
      const token = (n: number) =>
        new URL(header(mailsTo(`daily-${n}-${kind}@sahara.test`)[0].raw, "List-Unsubscribe")!.slice(1, -1)).searchParams.get("token");
      await updatePreferences(t.db, token(3), { language: "fr", frequency: "daily" });
      await updatePreferences(t.db, token(4), { language: "ar", frequency: "weekly" });
      expect(await audienceSize(t.db, { kind: "digest", period: "daily", language: "ar" })).toBe(4);
      expect(await audienceSize(t.db, { kind: "digest", period: "weekly", language: "ar" })).toBe(3);
      // Saving preferences from an unsubscribed address subscribes it again.
      const back = await updatePreferences(t.db, token(2), { language: "ar", frequency: "daily" });
      expect(back.status).toBe("confirmed");
      expect(await audienceSize(t.db, { kind: "digest", period: "daily", language: "ar" })).toBe(5);
    });

    it("refuses tokens that are not one: malformed, unknown, or another's with a letter changed", async () => {
      expect(await subscriberByToken(t.db, "")).toBeNull();
      expect(await subscriberByToken(t.db, "x".repeat(500))).toBeNull();
      expect(await subscriberByToken(t.db, ["a"])).toBeNull();
      const good = manageToken(1, config);
      expect(await subscriberByToken(t.db, good.slice(0, -1) + (good.endsWith("A") ? "B" : "A"))).toBeNull();
      await expect(unsubscribeByToken(t.db, "nope", null)).rejects.toMatchObject({ status: 400, code: "TOKEN_INVALID" });
      await expect(updatePreferences(t.db, "nope", { language: "ar", frequency: "daily" })).rejects.toMatchObject({ status: 400 });
    });

    it("does not mail a reader who unsubscribed after the send was queued (skipped), and stops a cancelled send", async () => {
      const readers = await addSubscribers("late", 4);
      const created = await createSend(
        t.db,
        { kind: "item", period: null, language: "ar", subject: "مادة واحدة", intro: null, items: [{ type: "news", id: item }] },
        { enqueueJob: async () => {} },
      );
      await t.db.update(newsletterSubscribers).set({ status: "unsubscribed" }).where(eq(newsletterSubscribers.id, readers[0].id));
      await runSend(t.db, created.id, { config, batchSize: 100, ratePerMinute: 100_000 });
      expect(mailsTo(readers[0].email)).toHaveLength(0);
      expect(mailsTo(readers[1].email)).toHaveLength(1);
      const counts = await deliveryCounts(t.db, created.id);
      expect(counts.skipped).toBe(1);

      const stopped = await createSend(
        t.db,
        { kind: "item", period: null, language: "ar", subject: "إرسال موقوف", intro: null, items: [{ type: "news", id: item }] },
        { enqueueJob: async () => {} },
      );
      await cancelSend(t.db, stopped.id);
      await runSend(t.db, stopped.id, { config });
      expect(smtp.messages.filter((m) => m.subject === "إرسال موقوف")).toHaveLength(0);
      await expect(cancelSend(t.db, stopped.id)).rejects.toMatchObject({ status: 404 });
    });

    it("pauses between batches when its worker stops, and the next attempt goes on from there", async () => {
      const readers = await addSubscribers("pause", 5, { language: "en" });
      const created = await createSend(
        t.db,
        { kind: "item", period: null, language: "en", subject: "Paused send", intro: null, items: [{ type: "news", id: item }] },
        { enqueueJob: () => Promise.resolve() },
      );
      const received = () => smtp.messages.filter((m) => m.subject === "Paused send").length;
      const first = await runSend(t.db, created.id, { config, batchSize: 2, ratePerMinute: 100_000, shouldStop: () => received() >= 2 });
      expect(first).toEqual({ sent: 2, failed: 0, stopped: true });
      expect(await deliveryCounts(t.db, created.id)).toEqual({ pending: 3, sent: 2 });
      expect(await runSend(t.db, created.id, { config, batchSize: 2, ratePerMinute: 100_000 })).toEqual({ sent: 3, failed: 0, stopped: false });
      for (const reader of readers) expect(mailsTo(reader.email)).toHaveLength(1);
    });

    it("runs on a lane of its own in the job worker: other jobs go on during a send, and stopping the worker pauses it", async () => {
      await addSubscribers("lane", 4, { language: "en" });
      const slow = checkConfig({ ...envOf(config), SMTP_URL: smtp.url, NEWSLETTER_BATCH_SIZE: "2", NEWSLETTER_RATE_PER_MINUTE: "1" }).config;
      const created = await createSend(
        t.db,
        { kind: "item", period: null, language: "en", subject: "Slow lane", intro: null, items: [{ type: "news", id: item }] },
        { enqueueJob: queueNewsletterSend },
      );
      const worker = startJobWorker(t.db, slow, { pollMs: 100 });
      try {
        // The first batch goes out, then the send waits two minutes (2 messages at 1 a minute)…
        await expect.poll(() => smtp.messages.filter((m) => m.subject === "Slow lane").length, { timeout: 30_000 }).toBe(2);
        // …while another job runs meanwhile.
        const other = await enqueue(t.db, JOB.pruneJobs, {}, { singletonKey: `lane-test-${kind}` });
        await expect
          .poll(async () => (await t.db.select({ state: jobs.state }).from(jobs).where(eq(jobs.id, other!)))[0]?.state, { timeout: 30_000 })
          .toBe("done");
        expect((await listSends(t.db)).find((s) => s.id === created.id)?.state).toBe("sending");
      } finally {
        await worker.stop();
      }
      // Stopped mid-wait: the job is back in the queue and the rest is still pending.
      const [job] = await t.db
        .select()
        .from(jobs)
        .where(eq(jobs.singletonKey, `${NEWSLETTER_SEND_JOB}:${created.id}`));
      expect(job).toMatchObject({ state: "queued" });
      expect(job.lastError).toMatch(/paused/);
      expect(await deliveryCounts(t.db, created.id)).toEqual({ pending: created.total - 2, sent: 2 });
      await cancelSend(t.db, created.id);
    });

    it("prunes the per-recipient rows of old sends and keeps their counts", async () => {
      const before = (await listSends(t.db)).find((s) => s.id === sendId)!;
      const later = new Date(Date.now() + (NEWSLETTER_DELIVERIES_KEPT_DAYS + 1) * DAY);
      expect(await pruneDeliveries(t.db, { now: later })).toBeGreaterThanOrEqual(7);
      expect(await deliveryCounts(t.db, sendId)).toEqual({});
      const after = (await listSends(t.db)).find((s) => s.id === sendId)!;
      expect(after).toEqual(before);
      expect(await pruneDeliveries(t.db, { now: later })).toBe(0);
    });

    it("queues the job once per send", async () => {
      const created = await createSend(
        t.db,
        { kind: "item", period: null, language: "fr", subject: "Un envoi", intro: null, items: [{ type: "news", id: item }] },
        { enqueueJob: queueNewsletterSend },
      );
      await queueNewsletterSend(t.db, created.id);
      const rows = await t.db.select().from(jobs).where(eq(jobs.name, NEWSLETTER_SEND_JOB));
      expect(rows.filter((r) => (r.payload as { sendId: number }).sendId === created.id)).toHaveLength(1);
      await t.db.delete(newsletterSends).where(eq(newsletterSends.id, created.id));
    });
  });

  describe("when the mail server refuses", () => {
    let server: SMTPServer;
    let port = 0;
    const accepted: string[] = [];
    let down = false;

    beforeAll(async () => {
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ["STARTTLS"],
        logger: false,
        onRcptTo(address, _session, callback) {
          if (down) return callback(Object.assign(new Error("Service unavailable"), { responseCode: 421 }));
          if (address.address.startsWith("bounce")) return callback(Object.assign(new Error("No such mailbox"), { responseCode: 550 }));
          callback();
        },
        onData(stream, _session, callback) {
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => {
            void parseMail(Buffer.concat(chunks).toString("utf8")).then(() => {
              accepted.push("ok");
              callback();
            });
          });
        },
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("counts a refused address as failed and sends the rest", async () => {
      const refusing = checkConfig({ ...envOf(config), SMTP_URL: `smtp://127.0.0.1:${port}` }).config;
      await t.db.update(newsletterSubscribers).set({ status: "unsubscribed" }).where(eq(newsletterSubscribers.language, "fr"));
      await addSubscribers("bounce", 2, { language: "fr" });
      await addSubscribers("fine", 3, { language: "fr" });
      const itemId = await addNews({ title: "خبر", titleFr: "Une dépêche" });
      const created = await createSend(
        t.db,
        { kind: "item", period: null, language: "fr", subject: "Dépêche", intro: null, items: [{ type: "news", id: itemId }] },
        { enqueueJob: async () => {} },
      );
      expect(await runSend(t.db, created.id, { config: refusing, batchSize: 10, ratePerMinute: 100_000 })).toMatchObject({ sent: 3, failed: 2 });
      const [summary] = (await listSends(t.db)).filter((s) => s.id === created.id);
      expect(summary).toMatchObject({ state: "sent", sent: 3, failed: 2, pending: 0 });
      closeBulkMail();

      // The server down: nothing of the batch goes out; the attempt fails (the job retries later) and nothing is lost.
      down = true;
      await t.db.update(newsletterSubscribers).set({ status: "unsubscribed" }).where(eq(newsletterSubscribers.language, "fr"));
      await addSubscribers("later", 2, { language: "fr" });
      const second = await createSend(
        t.db,
        { kind: "item", period: null, language: "fr", subject: "Plus tard", intro: null, items: [{ type: "news", id: itemId }] },
        { enqueueJob: async () => {} },
      );
      await expect(runSend(t.db, second.id, { config: refusing, batchSize: 10, ratePerMinute: 100_000 })).rejects.toThrow(/no message of the batch/);
      expect(await deliveryCounts(t.db, second.id)).toEqual({ pending: 2 });
      closeBulkMail();
      down = false;
      expect(await runSend(t.db, second.id, { config: refusing, batchSize: 10, ratePerMinute: 100_000 })).toMatchObject({ sent: 2, failed: 0 });
      const [row] = await t.db
        .select({ attempts: newsletterDeliveries.attempts })
        .from(newsletterDeliveries)
        .where(eq(newsletterDeliveries.sendId, second.id))
        .limit(1);
      expect(row.attempts).toBe(2);
    });
  });

  it("renders French left to left-aligned, and escapes what editors typed", () => {
    const { html, headers } = renderNewsletter(
      {
        kind: "digest",
        language: "fr",
        subject: "L'essentiel <b>du jour</b>",
        intro: 'Bonjour & "bienvenue"',
        items: [
          {
            type: "news",
            id: 1,
            title: "<script>x</script>",
            summary: null,
            url: "/news/x",
            imageUrl: "/uploads/a.jpg",
            publishDate: new Date().toISOString(),
          },
        ],
      },
      { token: "t".repeat(43), sendId: 9, config },
    );
    expect(html).toMatch(/<html lang="fr" dir="ltr">/);
    expect(html).toContain('align="left"');
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;b&gt;du jour&lt;/b&gt;");
    expect(html).toContain('src="https://sahara.test/uploads/a.jpg"');
    // Links to our pages are the French addresses (issue 42), tagged as this send's (issue 45); the image is a file, one address for all.
    expect(html).toContain('href="https://sahara.test/fr/news/x?utm_source=newsletter&amp;utm_campaign=send-9"');
    expect(html).toContain(`href="https://sahara.test/fr/newsletter/preferences?token=${"t".repeat(43)}"`);
    expect(headers["List-Unsubscribe"]).toBe(`<https://sahara.test/fr/newsletter/unsubscribe?token=${"t".repeat(43)}&send=9>`);
  });
});

/** The environment a configuration was made from, for a variant of it. */
function envOf(config: Config): Record<string, string> {
  return { DATA_DIR: config.dataDir, PUBLIC_URL: config.publicUrl, BETTER_AUTH_SECRET: config.BETTER_AUTH_SECRET ?? "" };
}
