/**
 * Breaking-news alerts end to end (issue 32, docs/decisions/0127-breaking-news-alerts.md): the newsroom's save
 * queues the job, the job worker runs it, and a local HTTPS server acting as the push service receives the
 * requests. Each subscriber is a key pair and auth secret made here as a browser makes them; the push service
 * decrypts what it receives (aes128gcm, RFC 8188 / RFC 8291) and checks the VAPID JWT (RFC 8292).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { localizedPath } from "#domain/addresses.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import webpush from "web-push";
import { testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { validInput } from "#tests/helpers/content.ts";
import { checkConfig, resetConfig, type Config } from "#server/config.server.ts";
import { categories, jobs, pushAlerts, pushSubscriptions } from "#server/db/schema.server.ts";
import { createItem, updateItem } from "#server/content/newsroom/write.server.ts";
import { runBulkAction } from "#server/content/bulk.server.ts";
import { startWorker } from "#server/jobs/queue.server.ts";
import { PUSH_ALERT_JOB, pushAlertHandler, pushAlertOf, sendPushAlert, type PushMessage } from "./alerts.server.ts";
import { parseSubscription, pushSettings, saveSubscription } from "./subscriptions.server.ts";
import { browserKeys, checkVapid, decrypt, setUpAlerts, type startPushService, tearDownAlerts, type Browser } from "#tests/helpers/push.ts";

const editor = { id: "user-1", email: "amina.editor@example.org" };

for (const kind of testDatabaseKinds) {
  describe(`breaking-news alerts (${kind})`, () => {
    let h: TestDatabase;
    let push: Awaited<ReturnType<typeof startPushService>>;
    let config: Config;
    let breakingId: number;
    let politicsId: number;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "push-"));
    const vapid = webpush.generateVAPIDKeys();
    const subject = "mailto:alerts@sahara-media.mr";
    const saved = { ...process.env };
    /** Subscribers by name: their browser keys and endpoint path. */
    const browsers = new Map<string, { browser: Browser; path: string; language: "ar" | "fr" | "en" }>();

    const subscribe = async (name: string, language: "ar" | "fr" | "en") => {
      const browser = browserKeys();
      const p = `/push/${name}`;
      browsers.set(name, { browser, path: p, language });
      // What the opt-in script posts: the subscription's JSON and the page's language.
      const input = parseSubscription(
        {
          endpoint: `${push.origin}${p}`,
          keys: { p256dh: browser.ecdh.getPublicKey().toString("base64url"), auth: browser.auth.toString("base64url") },
          language,
        },
        { allowPrivateHosts: true },
      );
      await saveSubscription(h.db, input);
    };
    /** Runs the queued jobs to the end, with the push service's certificate trusted. */
    const runJobs = async () => {
      const worker = startWorker(h.db, { [PUSH_ALERT_JOB]: pushAlertHandler(config, { agent: push.agent, batchSize: 2 }) }, { pollMs: 50 });
      await worker.drain();
      await worker.stop();
    };
    const messages = () =>
      push.received.map((r) => {
        const who = [...browsers.values()].find((b) => b.path === r.path)!;
        return { path: r.path, message: JSON.parse(decrypt(r.body, who.browser)) as PushMessage, headers: r.headers };
      });

    beforeAll(async () => {
      ({ push, config, h, breakingId, politicsId } = await setUpAlerts(kind, dir, {
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
        VAPID_SUBJECT: subject,
        // This file sends more alerts in a minute than the hour's cap allows; the cap has its own test below.
        PUSH_ALERTS_PER_HOUR: "1000",
        // "broken" fails every alert here; removal after failures in a row has its own test below.
        PUSH_MAX_FAILURES: "100",
      }));
      await subscribe("ar1", "ar");
      await subscribe("fr1", "fr");
      await subscribe("en1", "en");
      await subscribe("gone", "ar");
      await subscribe("broken", "fr");
      push.answers.set("/push/gone", 410);
      push.answers.set("/push/broken", 500);
    });
    afterAll(() => tearDownAlerts(saved, { push, h, dir }));
    beforeEach(() => {
      push.received.length = 0;
    });

    it("publishing a breaking item sends it once, encrypted for each subscriber in their language, and tells the editor", async () => {
      const item = await createItem(
        h.db,
        "news",
        { ...validInput("news", breakingId, "عاجل: أمطار غزيرة على نواكشوط"), title_fr: "Urgent : fortes pluies sur Nouakchott" },
        editor,
      );
      expect(await pushAlertOf(h.db, "news", item.id)).toMatchObject({ state: "queued", sent: 0 });
      await runJobs();

      const got = messages();
      expect(got.map((g) => g.path).sort()).toEqual(["/push/ar1", "/push/broken", "/push/en1", "/push/fr1", "/push/gone"]);
      // Tagged as this alert's (issue 45): the dashboard counts the alert's opens by it.
      const tags = `?utm_source=push&utm_campaign=alert-news-${item.id}`;
      const url = `https://sahara.example${item.url}${tags}`;
      const byPath = Object.fromEntries(got.map((g) => [g.path, g.message]));
      expect(byPath["/push/ar1"]).toEqual({ lang: "ar", title: "عاجل: أمطار غزيرة على نواكشوط", body: "عاجل · صحراء ميديا", url, tag: `news-${item.id}` });
      // Each language's alert opens the item at that language's address (issue 42).
      expect(byPath["/push/fr1"]).toEqual({
        lang: "fr",
        title: "Urgent : fortes pluies sur Nouakchott",
        body: "Urgent · Sahara Média",
        url: `https://sahara.example/fr${item.url}${tags}`,
        tag: `news-${item.id}`,
      });
      expect(byPath["/push/en1"]).toMatchObject({
        lang: "en",
        title: "عاجل: أمطار غزيرة على نواكشوط",
        body: "Breaking news · Sahara Média",
        url: `https://sahara.example/en${item.url}${tags}`,
      });
      for (const { headers } of got) {
        checkVapid(headers.authorization as string, vapid.publicKey, push.origin, subject);
        expect(headers["content-encoding"]).toBe("aes128gcm");
        expect(headers.urgency).toBe("high");
        expect(Number(headers.ttl)).toBeGreaterThan(0);
      }

      // 410 Gone: the subscription is forgotten; 500: counted as failed, kept.
      const left = (await h.db.select({ endpoint: pushSubscriptions.endpoint }).from(pushSubscriptions)).map((r) => new URL(r.endpoint).pathname).sort();
      expect(left).toEqual(["/push/ar1", "/push/broken", "/push/en1", "/push/fr1"]);
      expect(await pushAlertOf(h.db, "news", item.id)).toMatchObject({ state: "sent", sent: 3, failed: 1, removed: 1 });

      // Saved again, unpublished and published again, in bulk too: never sent twice.
      push.received.length = 0;
      const again = await updateItem(h.db, "news", item.id, { title: "عاجل: أمطار غزيرة جدًا على نواكشوط" }, editor, { partial: true });
      const draft = await updateItem(h.db, "news", item.id, { status: "draft" }, editor, { partial: true, expectedUpdatedAt: again.updated_at });
      await updateItem(h.db, "news", item.id, { status: "published" }, editor, { partial: true, expectedUpdatedAt: draft.updated_at });
      await runBulkAction(h.db, "news", { action: "unpublish", selection: { ids: [item.id] } }, editor);
      await runBulkAction(h.db, "news", { action: "publish", selection: { ids: [item.id] } }, editor);
      await runJobs();
      expect(push.received).toHaveLength(0);
      expect(await pushAlertOf(h.db, "news", item.id)).toMatchObject({ state: "sent", sent: 3 });
      // The job itself, run again (a retry), finds the alert sent.
      const [job] = await h.db.select({ id: jobs.id, payload: jobs.payload }).from(jobs).where(eq(jobs.name, PUSH_ALERT_JOB)).limit(1);
      const outcome = await sendPushAlert(
        h.db,
        { id: job.id, payload: job.payload as Record<string, unknown> },
        {
          settings: pushSettings(config)!,
          publicUrl: config.publicUrl,
          siteName: { ar: "x", fr: "x" },
          agent: push.agent,
        },
      );
      expect(outcome.state).toBe("skipped");
      expect(push.received).toHaveLength(0);
    });

    it("an item of any type marked urgent alerts, also when marked after it was out; a draft and an ordinary item do not", async () => {
      const draft = await createItem(h.db, "news", { ...validInput("news", breakingId, "عاجل: مسودة لم تنشر بعد"), status: "draft" }, editor);
      const ordinary = await createItem(h.db, "news", validInput("news", politicsId, "خبر سياسي عادي ليس عاجلا"), editor);
      const [section] = await h.db.insert(categories).values({ name: "ثقافة", slug: "culture", type: "culture" }).returning({ id: categories.id });
      // The editor's checkbox posts "on".
      const article = await createItem(h.db, "article", { ...validInput("article", section.id, "مقال عاجل عن الجفاف"), urgent: "on" }, editor);
      expect(article.urgent).toBe(true);
      await runJobs();
      // Each at the address of its subscriber's language: /fr/…, /en/…, the Arabic at the root.
      const got = messages();
      expect(got.map((m) => m.message.url.replace(/^https:\/\/sahara\.example\/(?:fr|en)\//, "https://sahara.example/"))).toEqual(
        Array(4).fill(`https://sahara.example${article.url}?utm_source=push&utm_campaign=alert-article-${article.id}`),
      );
      expect(got.map((m) => m.message.url)).toEqual(
        got.map((m) => `https://sahara.example${localizedPath(m.message.lang, article.url)}?utm_source=push&utm_campaign=alert-article-${article.id}`),
      );
      expect(await pushAlertOf(h.db, "article", article.id)).toMatchObject({ state: "sent", sent: 3, failed: 1 });
      expect(await pushAlertOf(h.db, "news", draft.id)).toBeNull();
      expect(await pushAlertOf(h.db, "news", ordinary.id)).toBeNull();

      // An item already out, then marked urgent by an editor: that is the alert.
      push.received.length = 0;
      await updateItem(h.db, "news", ordinary.id, { urgent: true }, editor, { partial: true });
      // The draft published: its alert too.
      await updateItem(h.db, "news", draft.id, { status: "published" }, editor, { partial: true });
      await runJobs();
      expect(messages().filter((m) => m.message.tag === `news-${ordinary.id}`)).toHaveLength(4);
      expect(messages().filter((m) => m.message.tag === `news-${draft.id}`)).toHaveLength(4);
    });

    it("a scheduled item alerts at its time, not when saved", async () => {
      const at = new Date(Date.now() + 3600_000).toISOString();
      const item = await createItem(
        h.db,
        "news",
        { ...validInput("news", breakingId, "عاجل: موعد مجدول لاحقا"), status: "scheduled", publish_date: at },
        editor,
      );
      const [job] = await h.db
        .select({ runAt: jobs.runAt })
        .from(jobs)
        .where(and(eq(jobs.name, PUSH_ALERT_JOB), eq(jobs.state, "queued")));
      expect(job.runAt.getTime()).toBe(new Date(item.publish_date).getTime());
      expect(await pushAlertOf(h.db, "news", item.id)).toMatchObject({ state: "queued" });
    });

    it("a send that stopped after a batch resumes after it: the subscribers served before are not sent to again", async () => {
      const item = await createItem(h.db, "news", validInput("news", politicsId, "خبر ثم صار عاجلا لاحقا"), editor);
      const subs = await h.db.select({ id: pushSubscriptions.id, endpoint: pushSubscriptions.endpoint }).from(pushSubscriptions).orderBy(pushSubscriptions.id);
      // As a worker killed after its first batch of two leaves it: its job gone, the alert mid-way.
      await h.db.insert(pushAlerts).values({ contentType: "news", itemId: item.id, state: "sending", jobId: 999_999, cursor: subs[1].id, sent: 2 });
      await updateItem(h.db, "news", item.id, { urgent: true }, editor, { partial: true });
      const outcome = await sendPushAlert(
        h.db,
        { id: 1_000_000, payload: { type: "news", id: item.id } },
        { settings: pushSettings(config)!, publicUrl: config.publicUrl, siteName: { ar: "x", fr: "x" }, agent: push.agent, batchSize: 2 },
      );
      expect(outcome).toEqual({ state: "sent", sent: 3, failed: 1, removed: 0 });
      expect(push.received.map((r) => r.path).sort()).toEqual(
        subs
          .slice(2)
          .map((s) => new URL(s.endpoint).pathname)
          .sort(),
      );
    });

    it("with no VAPID keys nothing is queued and the opt-in is off", async () => {
      const off = checkConfig({}).config;
      expect(pushSettings(off)).toBeNull();
      expect(off.drivers.push).toBe("off");
      process.env.VAPID_PUBLIC_KEY = "";
      process.env.VAPID_PRIVATE_KEY = "";
      resetConfig();
      try {
        const item = await createItem(h.db, "news", validInput("news", breakingId, "عاجل: دون مفاتيح لا تنبيه"), editor);
        expect(await pushAlertOf(h.db, "news", item.id)).toBeNull();
      } finally {
        Object.assign(process.env, { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey });
        resetConfig();
      }
    });
  });
}
