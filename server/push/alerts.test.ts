/**
 * Breaking-news alerts end to end (issue 32, docs/decisions/0127-breaking-news-alerts.md): the newsroom's save
 * queues the job, the job worker runs it, and a local HTTPS server acting as the push service receives the
 * requests. Each subscriber is a key pair and auth secret made here as a browser makes them; the push service
 * decrypts what it receives (aes128gcm, RFC 8188 / RFC 8291) and checks the VAPID JWT (RFC 8292).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import type { AddressInfo } from "node:net";
import { localCertificate } from "#tests/helpers/tls.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import webpush from "web-push";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { validInput } from "#tests/helpers/content.ts";
import { checkConfig, resetConfig, type Config } from "#server/config.server.ts";
import { categories, jobs, pushAlerts, pushSubscriptions } from "#server/db/schema.server.ts";
import { createItem, updateItem } from "#server/content/newsroom.server.ts";
import { runBulkAction } from "#server/content/bulk.server.ts";
import { startWorker } from "#server/jobs/queue.server.ts";
import { PUSH_ALERT_JOB, pushAlertHandler, pushAlertOf, sendPushAlert, type PushMessage } from "./alerts.server.ts";
import { parseSubscription, pushSettings, saveSubscription } from "./subscriptions.server.ts";
import { createOutboundAgent } from "#server/http/outbound.server.ts";

const editor = { id: "user-1", email: "amina.editor@example.org" };

/** A browser's side of a subscription: its ECDH P-256 key pair and auth secret (what PushManager.subscribe makes). */
function browserKeys() {
  const ecdh = crypto.createECDH("prime256v1");
  ecdh.generateKeys();
  return { ecdh, auth: crypto.randomBytes(16) };
}
type Browser = ReturnType<typeof browserKeys>;

/** RFC 8291 §3.4 and RFC 8188 §2: the plaintext of an aes128gcm push message, decrypted as the browser does. */
function decrypt(body: Buffer, browser: Browser): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20];
  const senderPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  expect(idLength).toBe(65);
  expect(ciphertext.length).toBeLessThanOrEqual(recordSize);
  const ecdhSecret = browser.ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), browser.ecdh.getPublicKey(), senderPublic]);
  const ikm = Buffer.from(crypto.hkdfSync("sha256", ecdhSecret, browser.auth, keyInfo, 32));
  const cek = Buffer.from(crypto.hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(crypto.hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = crypto.createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 2, then zero or more padding zeros.
  let end = padded.length - 1;
  while (end > 0 && padded[end] === 0) end--;
  expect(padded[end]).toBe(2);
  return padded.subarray(0, end).toString("utf8");
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`; the JWT signed (ES256) by the key named, for the push service's origin. */
function checkVapid(header: string | undefined, publicKey: string, audience: string, subject: string) {
  const match = /^vapid t=([\w-]+)\.([\w-]+)\.([\w-]+), k=([\w-]+)$/.exec(header ?? "");
  expect(match, header).not.toBeNull();
  const [, head, claims, signature, k] = match!;
  expect(k).toBe(publicKey);
  const raw = Buffer.from(k, "base64url");
  const key = crypto.createPublicKey({
    key: { kty: "EC", crv: "P-256", x: raw.subarray(1, 33).toString("base64url"), y: raw.subarray(33, 65).toString("base64url") },
    format: "jwk",
  });
  const valid = crypto.verify("sha256", Buffer.from(`${head}.${claims}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"));
  expect(valid).toBe(true);
  expect(JSON.parse(Buffer.from(head, "base64url").toString())).toEqual({ typ: "JWT", alg: "ES256" });
  const payload = JSON.parse(Buffer.from(claims, "base64url").toString()) as { aud: string; exp: number; sub: string };
  expect(payload.aud).toBe(audience);
  expect(payload.sub).toBe(subject);
  expect(payload.exp * 1000).toBeGreaterThan(Date.now());
  expect(payload.exp * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600 * 1000);
}

type Received = { path: string; headers: Record<string, string | string[] | undefined>; body: Buffer; at: number };

/** A push service on 127.0.0.1 over HTTPS (web-push speaks only HTTPS), with a certificate made for the test. */
async function startPushService(dir: string) {
  const { key, cert } = localCertificate(dir);
  const received: Received[] = [];
  const connections = { count: 0 };
  /** The status each path answers (201 unless told); a list is answered in turn, its last one for good. */
  const answers = new Map<string, number | number[]>();
  const server = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks), at: Date.now() });
      const answer = answers.get(req.url ?? "") ?? 201;
      res.writeHead(Array.isArray(answer) ? (answer.length > 1 ? answer.shift()! : answer[0]) : answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on("connection", () => connections.count++);
  const port = (server.address() as AddressInfo).port;
  // The real guarded agent, told to let this one local address and port through (and to trust its certificate).
  const agent = createOutboundAgent({ ports: [443], ca: cert, allowForTests: [{ address: "127.0.0.1", port }] });
  return { origin, port, key, cert, connections, received, answers, agent, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const ALERT_SETTINGS = ["VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY", "VAPID_SUBJECT", "PUBLIC_URL", "PUSH_ALERTS_PER_HOUR", "PUSH_MAX_FAILURES"];

/** A push service, the settings of a describe block, a database with the breaking and politics categories. */
async function setUpAlerts(kind: (typeof testDatabaseKinds)[number], dir: string, env: Record<string, string>) {
  const push = await startPushService(dir);
  Object.assign(process.env, { PUBLIC_URL: "https://sahara.example", ...env });
  resetConfig();
  const config = checkConfig(process.env).config;
  const h = await createTestDatabase(kind);
  const [{ id: breakingId }] = await h.db
    .insert(categories)
    .values({ name: "عاجل", nameFr: "Urgent", slug: "breaking", type: "news" })
    .returning({ id: categories.id });
  const [{ id: politicsId }] = await h.db.insert(categories).values({ name: "سياسة", slug: "politics", type: "news" }).returning({ id: categories.id });
  return { push, config, h, breakingId, politicsId };
}

async function tearDownAlerts(
  saved: NodeJS.ProcessEnv,
  { push, h, dir }: { push?: Awaited<ReturnType<typeof startPushService>>; h?: TestDatabase; dir: string },
) {
  for (const key of ALERT_SETTINGS) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
  resetConfig();
  await push?.close();
  await h?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
}

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
      const url = `https://sahara.example${item.url}`;
      const byPath = Object.fromEntries(got.map((g) => [g.path, g.message]));
      expect(byPath["/push/ar1"]).toEqual({ lang: "ar", title: "عاجل: أمطار غزيرة على نواكشوط", body: "عاجل · صحراء ميديا", url, tag: `news-${item.id}` });
      expect(byPath["/push/fr1"]).toEqual({
        lang: "fr",
        title: "Urgent : fortes pluies sur Nouakchott",
        body: "Urgent · Sahara Média",
        url,
        tag: `news-${item.id}`,
      });
      expect(byPath["/push/en1"]).toMatchObject({ lang: "en", title: "عاجل: أمطار غزيرة على نواكشوط", body: "Breaking news · Sahara Média", url });
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
      expect(messages().map((m) => m.message.url)).toEqual(Array(4).fill(`https://sahara.example${article.url}`));
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
