/**
 * A live coverage's key event with `push` (issue 44): the breaking-news alert of server/push/alerts.server.ts, once
 * per entry (push_alerts "coverage_entry"), with the coverage's title in each language, the entry's text and the
 * entry's own page; not for a draft coverage, an entry without `push`, or one deleted before it left; under the
 * hour's cap. Delivered to a local push service that decrypts what it receives (tests/helpers/push.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import webpush from "web-push";
import { testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { validInput } from "#tests/helpers/content.ts";
import type { Config } from "#server/config.server.ts";
import { setDatabaseHandle } from "#server/db/client.server.ts";
import { profiles, user } from "#server/db/schema.server.ts";
import { createItem } from "#server/content/newsroom/write.server.ts";
import { deleteEntry, editEntry, postEntry, setLive, type LiveActor } from "#server/content/live/entries.server.ts";
import { startWorker } from "#server/jobs/queue.server.ts";
import { ENTRY_ALERT_TYPE, PUSH_ALERT_JOB, pushAlertHandler, pushAlertOf, type PushMessage } from "./alerts.server.ts";
import { parseSubscription, saveSubscription } from "./subscriptions.server.ts";
import { browserKeys, decrypt, setUpAlerts, type startPushService, tearDownAlerts, type Browser } from "#tests/helpers/push.ts";

const editor: LiveActor = {
  id: "entry-alerts-editor",
  email: "khadija@entry-alerts.test",
  name: "خديجة",
  profile: { role: "editor", isAdmin: false, permissions: ["content.write", "content.publish", "content.others"] },
};

for (const kind of testDatabaseKinds) {
  describe(`key event alerts of a live coverage (${kind})`, () => {
    let h: TestDatabase;
    let push: Awaited<ReturnType<typeof startPushService>>;
    let config: Config;
    let categoryId: number;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "entry-push-"));
    const vapid = webpush.generateVAPIDKeys();
    const saved = { ...process.env };
    const browsers = new Map<string, Browser>();

    const subscribe = async (name: string, language: "ar" | "fr") => {
      const browser = browserKeys();
      browsers.set(`/push/${name}`, browser);
      const input = parseSubscription(
        {
          endpoint: `${push.origin}/push/${name}`,
          keys: { p256dh: browser.ecdh.getPublicKey().toString("base64url"), auth: browser.auth.toString("base64url") },
          language,
        },
        { allowPrivateHosts: true },
      );
      await saveSubscription(h.db, input);
    };
    const runJobs = async () => {
      const worker = startWorker(h.db, { [PUSH_ALERT_JOB]: pushAlertHandler(config, { agent: push.agent }) }, { pollMs: 50 });
      await worker.drain();
      await worker.stop();
    };
    const messages = () => Object.fromEntries(push.received.map((r) => [r.path, JSON.parse(decrypt(r.body, browsers.get(r.path)!)) as PushMessage]));
    const liveCoverage = async (title: string, status = "published") => {
      const { id } = await createItem(h.db, "coverage", { ...validInput("coverage", categoryId, title), title_fr: `FR ${title}`, status }, editor);
      await setLive(h.db, id, true, editor);
      return id;
    };
    const alertOf = (entryId: number) => pushAlertOf(h.db, ENTRY_ALERT_TYPE, entryId);

    beforeAll(async () => {
      ({
        push,
        config,
        h,
        politicsId: categoryId,
      } = await setUpAlerts(kind, dir, {
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
        VAPID_SUBJECT: "mailto:alerts@sahara-media.mr",
        PUSH_ALERTS_PER_HOUR: "2",
      }));
      setDatabaseHandle(h);
      await h.db.insert(user).values({ id: editor.id, name: editor.name, email: editor.email });
      await h.db.insert(profiles).values({ id: editor.id, role: "editor", fullName: editor.name });
      await subscribe("ar1", "ar");
      await subscribe("fr1", "fr");
    });
    afterAll(async () => {
      setDatabaseHandle(undefined);
      await tearDownAlerts(saved, { push, h, dir });
    });
    beforeEach(() => {
      push.received.length = 0;
    });

    it("sends a key event posted with push once: the coverage's title, the entry's text, the entry's page", async () => {
      const id = await liveCoverage("نتائج الانتخابات");
      const { entry } = await postEntry(
        h.db,
        id,
        { body: "<p>اللجنة تعلن <strong>النتائج الأولية</strong> للدور الأول.</p>", key_event: true, push: true },
        editor,
      );
      expect(await alertOf(entry.id)).toMatchObject({ state: "queued" });
      await runJobs();
      const got = messages();
      expect(got["/push/ar1"]).toEqual({
        lang: "ar",
        title: "نتائج الانتخابات",
        body: "اللجنة تعلن النتائج الأولية للدور الأول.",
        // Tagged as this alert's (issue 45): the alert's key is the entry's.
        url: `https://sahara.example${entry.url}?utm_source=push&utm_campaign=alert-coverage_entry-${entry.id}`,
        tag: `${ENTRY_ALERT_TYPE}-${entry.id}`,
      });
      expect(got["/push/fr1"]).toMatchObject({
        lang: "fr",
        title: "FR نتائج الانتخابات",
        url: `https://sahara.example/fr${entry.url}?utm_source=push&utm_campaign=alert-coverage_entry-${entry.id}`,
      });
      expect(await alertOf(entry.id)).toMatchObject({ state: "sent", sent: 2 });

      // Never twice: asking again with an edit sends nothing more.
      push.received.length = 0;
      await editEntry(h.db, id, entry.id, { body: "<p>اللجنة تعلن النتائج الأولية.</p>", push: true }, editor);
      await runJobs();
      expect(push.received).toEqual([]);
    });

    it("alerts nobody for a key event without push, a draft coverage's, or one deleted before it left", async () => {
      const id = await liveCoverage("تغطية بلا تنبيه");
      const quiet = await postEntry(h.db, id, { body: "<p>حدث رئيسي دون تنبيه.</p>", key_event: true }, editor);
      expect(await alertOf(quiet.entry.id)).toBeNull();
      const draft = await liveCoverage("تغطية لم تنشر", "draft");
      const hidden = await postEntry(h.db, draft, { body: "<p>حدث في تغطية غير منشورة.</p>", key_event: true, push: true }, editor);
      expect(await alertOf(hidden.entry.id)).toBeNull();
      const gone = await postEntry(h.db, id, { body: "<p>خبر سُحب.</p>", key_event: true, push: true }, editor);
      await deleteEntry(h.db, id, gone.entry.id, editor);
      await runJobs();
      expect(push.received).toEqual([]);
      expect(await alertOf(gone.entry.id)).toBeNull();
    });

    it("holds a key event's alert past the hour's cap, as any other alert", async () => {
      const id = await liveCoverage("تغطية كثيرة الأحداث");
      // The first test's alert counts: one more goes out this hour, the next is held.
      const second = await postEntry(h.db, id, { body: "<p>الحدث الثاني.</p>", key_event: true, push: true }, editor);
      await runJobs();
      const third = await postEntry(h.db, id, { body: "<p>الحدث الثالث.</p>", key_event: true, push: true }, editor);
      await runJobs();
      expect(await alertOf(second.entry.id)).toMatchObject({ state: "sent" });
      expect(await alertOf(third.entry.id)).toMatchObject({ state: "held", cap: { perHour: 2, lastHour: 2 } });
    });
  });
}
