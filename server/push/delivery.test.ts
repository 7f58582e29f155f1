/**
 * Breaking-news alert delivery against hostile and failing endpoints (decision 0134): the guarded outbound agent
 * refuses this machine's addresses, a push service that trickles holds one slot until its deadline, subscriptions
 * that keep failing are removed, a bulk action queues one alert, and the hour's cap holds the rest. The push
 * service is the local HTTPS server of tests/helpers/push.ts.
 */
import fs from "node:fs";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import webpush from "web-push";
import { testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { validInput } from "#tests/helpers/content.ts";
import { checkConfig, type Config } from "#server/config.server.ts";
import { jobs, pushAlerts, pushSubscriptions } from "#server/db/schema.server.ts";
import { createItem, updateItem } from "#server/content/newsroom/write.server.ts";
import { runBulkAction } from "#server/content/bulk.server.ts";
import { startWorker } from "#server/jobs/queue.server.ts";
import { PUSH_ALERT_JOB, pushAlertHandler, pushAlertOf, type PushMessage } from "./alerts.server.ts";
import { parseSubscription } from "./subscriptions.server.ts";
import { createOutboundAgent } from "#server/http/outbound.server.ts";
import { browserKeys, decrypt, setUpAlerts, type startPushService, tearDownAlerts } from "#tests/helpers/push.ts";

const editor = { id: "user-1", email: "amina.editor@example.org" };

for (const kind of testDatabaseKinds) {
  describe(`push delivery against hostile and failing endpoints (${kind}, decision 0134)`, () => {
    let h: TestDatabase;
    let push: Awaited<ReturnType<typeof startPushService>>;
    let config: Config;
    let breakingId: number;
    let politicsId: number;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "push-guard-"));
    const vapid = webpush.generateVAPIDKeys();
    const saved = { ...process.env };
    const keys = browserKeys();
    const keyColumns = { p256dh: keys.ecdh.getPublicKey().toString("base64url"), auth: keys.auth.toString("base64url") };
    /** Stored as the API would store it, but without its early text check: the outbound guard is what is tested. */
    const addSubscribers = (endpoints: string[]) =>
      h.db.insert(pushSubscriptions).values(endpoints.map((endpoint) => ({ endpoint, ...keyColumns, language: "ar" })));
    const publishUrgent = (title: string) => createItem(h.db, "news", { ...validInput("news", politicsId, title), urgent: true }, editor);
    const runJobs = async (handlerConfig: Config, extra: Parameters<typeof pushAlertHandler>[1]) => {
      const worker = startWorker(h.db, { [PUSH_ALERT_JOB]: pushAlertHandler(handlerConfig, extra) }, { pollMs: 50 });
      await worker.drain();
      await worker.stop();
    };

    beforeAll(async () => {
      ({ push, config, h, breakingId, politicsId } = await setUpAlerts(kind, dir, {
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
        PUSH_ALERTS_PER_HOUR: "1000",
        PUSH_MAX_FAILURES: "3",
      }));
    });
    afterAll(() => tearDownAlerts(saved, { push, h, dir }));
    beforeEach(async () => {
      push.received.length = 0;
      push.answers.clear();
      await h.db.delete(pushSubscriptions);
      // Each test counts its own alerts against the hour's cap.
      await h.db.delete(pushAlerts);
    });

    it("an urgent item opens no connection to this machine, whatever name or spelling a subscription gives it (the production agent)", async () => {
      // A TLS listener on every local address, on 443 when this process may take it (then the agent is production's
      // own, untouched), else on a free port with an agent that allows that port (and only that).
      const listener = https.createServer({ key: push.key, cert: push.cert }, (_req, res) => res.writeHead(201).end());
      let connections = 0;
      listener.on("connection", () => connections++);
      const port = await new Promise<number>((resolve) => {
        listener.once("error", () => listener.listen(0, "::", () => resolve((listener.address() as AddressInfo).port)));
        listener.listen(443, "::", () => resolve(443));
      });
      try {
        const agent = port === 443 ? undefined : createOutboundAgent({ ports: [port] });
        // The listener does take connections: a plain one, as a control.
        await new Promise<void>((resolve, reject) => {
          const socket = https.request({ host: "127.0.0.1", port, method: "POST", path: "/control", rejectUnauthorized: false, agent: false }, (res) => {
            res.resume();
            res.on("end", resolve);
          });
          socket.on("error", reject);
          socket.end();
        });
        expect(connections).toBe(1);

        const hostsName = fs
          .readFileSync("/etc/hosts", "utf8")
          .split("\n")
          .map((line) => line.replace(/#.*/, "").trim().split(/\s+/))
          .filter(([address]) => /^127\./.test(address ?? ""))
          .flatMap(([, ...names]) => names)
          .find((n) => n && n !== "localhost" && n !== os.hostname());
        const hosts = [
          os.hostname(),
          `${os.hostname()}.`,
          "localhost.",
          ...(hostsName ? [hostsName] : []),
          "127.0.0.1",
          "[::1]",
          "[::ffff:127.0.0.1]",
          "[::127.0.0.1]",
          "[64:ff9b::7f00:1]",
          "0.0.0.0",
          "198.18.0.1",
          "169.254.169.254",
        ];
        const suffix = port === 443 ? "" : `:${port}`;
        await addSubscribers(hosts.map((host, i) => `https://${host}${suffix}/push/x${i}`));
        // The API would have refused every one of them already, with a 400: the early text check.
        for (const host of hosts) {
          const body = { endpoint: `https://${host}/push/x`, keys: keyColumns, language: "ar" };
          expect(() => parseSubscription(body), host).toThrow(/endpoint must/);
        }

        const item = await publishUrgent("عاجل: اختبار الحارس");
        await runJobs(config, agent ? { agent } : {});
        expect(connections).toBe(1);
        expect(await pushAlertOf(h.db, "news", item.id)).toMatchObject({ state: "sent", sent: 0, failed: hosts.length });
        const failures = await h.db.select({ failures: pushSubscriptions.failures }).from(pushSubscriptions);
        expect(failures).toEqual(hosts.map(() => ({ failures: 1 })));
      } finally {
        await new Promise<void>((resolve) => listener.close(() => resolve()));
      }
    });

    it("a push service that trickles a byte a second among 1,000 subscribers delays none of the others and is cut at the deadline", async () => {
      const opened: number[] = [];
      const closed: number[] = [];
      const tarpit = tls.createServer({ key: push.key, cert: push.cert }, (socket) => {
        opened.push(Date.now());
        socket.write("HTTP/1.1 201 Created\r\nX-Slow: ");
        const timer = setInterval(() => socket.write("a"), 1000);
        socket.on("error", () => {});
        socket.on("close", () => {
          clearInterval(timer);
          closed.push(Date.now());
        });
      });
      await new Promise<void>((resolve) => tarpit.listen(0, "127.0.0.1", resolve));
      const tarpitPort = (tarpit.address() as AddressInfo).port;
      try {
        const agent = createOutboundAgent({
          ports: [443],
          ca: push.cert,
          allowForTests: [
            { address: "127.0.0.1", port: push.port },
            { address: "127.0.0.1", port: tarpitPort },
          ],
        });
        // The tarpit first, so it is in the first batch, which it held for the whole time-out before.
        await addSubscribers([`https://127.0.0.1:${tarpitPort}/push/tarpit`]);
        await addSubscribers(Array.from({ length: 999 }, (_, i) => `${push.origin}/push/good-${i}`));
        const deadlineMs = config.PUSH_DEADLINE_MS;
        const item = await publishUrgent("عاجل: ألف مشترك وخادم بطيء");
        const started = Date.now();
        await runJobs(config, { agent });
        const ended = Date.now();

        const paths = new Set(push.received.map((r) => r.path));
        expect(push.received).toHaveLength(999);
        expect(paths.size).toBe(999);
        const lastGood = Math.max(...push.received.map((r) => r.at));
        expect(opened).toHaveLength(1);
        // Its side sees the socket closed at its next byte.
        await expect.poll(() => closed.length, { timeout: 5000 }).toBe(1);
        // Every good subscriber had the alert before the tarpit was cut, and the tarpit was cut (at the deadline).
        expect(lastGood).toBeLessThan(closed[0]);
        expect(await pushAlertOf(h.db, "news", item.id)).toMatchObject({ state: "sent", sent: 999, failed: 1 });
        console.info(
          `[figure] one tarpit among 1,000 subscribers (${kind}): all 999 others had the alert ${lastGood - started} ms after the job started; ` +
            `the tarpit was cut after ${closed[0] - opened[0]} ms (deadline ${deadlineMs} ms); the job took ${ended - started} ms`,
        );
      } finally {
        await new Promise<void>((resolve) => tarpit.close(() => resolve()));
      }
    }, 120_000);

    it("a subscription that fails PUSH_MAX_FAILURES deliveries in a row, for any reason, is removed; one success resets the count", async () => {
      // A port that refuses (bound, then closed) and a server that does not speak TLS, both on allowed addresses.
      const closedPort = await new Promise<number>((resolve) => {
        const probe = net.createServer().listen(0, "127.0.0.1", () => {
          const { port } = probe.address() as AddressInfo;
          probe.close(() => resolve(port));
        });
      });
      const plain = net.createServer((socket) => socket.end("HTTP/1.1 400 Bad Request\r\n\r\n"));
      await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
      const plainPort = (plain.address() as AddressInfo).port;
      try {
        const agent = createOutboundAgent({
          ports: [443],
          ca: push.cert,
          allowForTests: [push.port, closedPort, plainPort].map((port) => ({ address: "127.0.0.1", port })),
        });
        push.answers.set("/push/error", 500);
        push.answers.set("/push/flaky", [500, 500, 201]);
        const failing = [
          `${push.origin}/push/error`,
          "https://no-such-host.invalid/push/x",
          `https://127.0.0.1:${closedPort}/push/x`,
          `https://127.0.0.1:${plainPort}/push/x`,
          "https://10.0.0.1/push/x",
        ];
        await addSubscribers([`${push.origin}/push/good`, `${push.origin}/push/flaky`, ...failing]);
        const failuresOf = async () =>
          Object.fromEntries(
            (await h.db.select({ endpoint: pushSubscriptions.endpoint, failures: pushSubscriptions.failures }).from(pushSubscriptions)).map((r) => [
              r.endpoint,
              r.failures,
            ]),
          );
        for (const round of [1, 2]) {
          const item = await publishUrgent(`عاجل: محاولة ${round}`);
          await runJobs(config, { agent, deadlineMs: 5000 });
          expect(await pushAlertOf(h.db, "news", item.id)).toMatchObject({ state: "sent", sent: 1, failed: 6, removed: 0 });
          expect(await failuresOf()).toEqual({
            [`${push.origin}/push/good`]: 0,
            [`${push.origin}/push/flaky`]: round,
            ...Object.fromEntries(failing.map((e) => [e, round])),
          });
        }
        const third = await publishUrgent("عاجل: المحاولة الثالثة");
        await runJobs(config, { agent, deadlineMs: 5000 });
        // The third failure in a row (PUSH_MAX_FAILURES=3) removes the five; the flaky one got through and starts again from 0.
        expect(await pushAlertOf(h.db, "news", third.id)).toMatchObject({ state: "sent", sent: 2, failed: 5, removed: 5 });
        expect(await failuresOf()).toEqual({ [`${push.origin}/push/good`]: 0, [`${push.origin}/push/flaky`]: 0 });
      } finally {
        // Not waited for: a half-closed socket of the client's may linger.
        plain.close();
      }
    }, 60_000);

    it("bulk-publishing many breaking items queues one alert, the urgent one's, not one per item", async () => {
      await addSubscribers([`${push.origin}/push/reader`]);
      const drafts = [];
      for (let i = 0; i < 40; i++)
        drafts.push(await createItem(h.db, "news", { ...validInput("news", breakingId, `عاجل: خبر رقم ${i}`), status: "draft" }, editor));
      const urgent = await createItem(h.db, "news", { ...validInput("news", politicsId, "خبر عاجل مهم في المجموعة"), status: "draft", urgent: true }, editor);
      const ids = [...drafts.map((d) => d.id), urgent.id];
      const queuedBefore = (await h.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.name, PUSH_ALERT_JOB))).length;
      await runBulkAction(h.db, "news", { action: "publish", selection: { ids } }, editor);

      expect((await h.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.name, PUSH_ALERT_JOB))).length).toBe(queuedBefore + 1);
      const alerts = await h.db.select({ itemId: pushAlerts.itemId }).from(pushAlerts).where(inArray(pushAlerts.itemId, ids));
      expect(alerts).toEqual([{ itemId: urgent.id }]);
      await runJobs(config, { agent: push.agent });
      expect(push.received.map((r) => r.path)).toEqual(["/push/reader"]);
      expect((JSON.parse(decrypt(push.received[0].body, keys)) as PushMessage).tag).toBe(`news-${urgent.id}`);

      // Without an urgent one among them: the newest item's alert, still one.
      push.received.length = 0;
      const more = [];
      for (let i = 0; i < 5; i++)
        more.push(await createItem(h.db, "news", { ...validInput("news", breakingId, `عاجل: دفعة ثانية ${i}`), status: "draft" }, editor));
      await runBulkAction(h.db, "news", { action: "publish", selection: { ids: more.map((m) => m.id) } }, editor);
      await runJobs(config, { agent: push.agent });
      expect(push.received).toHaveLength(1);
      expect((JSON.parse(decrypt(push.received[0].body, keys)) as PushMessage).tag).toBe(`news-${Math.max(...more.map((m) => m.id))}`);
    }, 60_000);

    it("holds the alerts beyond the hour's cap, and the editor sees it and how many went out", async () => {
      const capped = checkConfig({ ...process.env, PUSH_ALERTS_PER_HOUR: "2" }).config;
      await addSubscribers([`${push.origin}/push/reader`]);
      const items = [];
      for (const n of [1, 2, 3]) {
        items.push(await publishUrgent(`عاجل: تنبيه رقم ${n}`));
        await runJobs(capped, { agent: push.agent });
      }
      expect(push.received).toHaveLength(2);
      expect(await pushAlertOf(h.db, "news", items[0].id, capped)).toMatchObject({ state: "sent", sent: 1, cap: { perHour: 2, lastHour: 2 } });
      expect(await pushAlertOf(h.db, "news", items[2].id, capped)).toMatchObject({ state: "held", sent: 0, cap: { perHour: 2, lastHour: 2 } });
      // The hour over (its alerts an hour old), the held item published again: its turn comes.
      await h.db
        .update(pushAlerts)
        .set({ startedAt: new Date(Date.now() - 3601_000) })
        .where(inArray(pushAlerts.itemId, [items[0].id, items[1].id]));
      const draft = await updateItem(h.db, "news", items[2].id, { status: "draft" }, editor, { partial: true });
      await updateItem(h.db, "news", items[2].id, { status: "published" }, editor, { partial: true, expectedUpdatedAt: draft.updated_at });
      await runJobs(capped, { agent: push.agent });
      expect(push.received).toHaveLength(3);
      expect(await pushAlertOf(h.db, "news", items[2].id, capped)).toMatchObject({ state: "sent", sent: 1, cap: { perHour: 2, lastHour: 1 } });
    });
  });
}
