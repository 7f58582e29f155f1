/**
 * A push service for the breaking-news alert tests (server/push/alerts.test.ts, server/push/delivery.test.ts): a
 * local HTTPS server that receives what the job sends, browsers' subscription keys made as a browser makes them,
 * the decryption a browser does (aes128gcm, RFC 8188 / RFC 8291) and the VAPID check a push service does (RFC 8292).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import { localCertificate } from "#tests/helpers/tls.ts";
import { createTestDatabase, type testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { checkConfig, resetConfig } from "#server/config.server.ts";
import { categories } from "#server/db/schema.server.ts";
import { createOutboundAgent } from "#server/http/outbound.server.ts";

/** A browser's side of a subscription: its ECDH P-256 key pair and auth secret (what PushManager.subscribe makes). */
export function browserKeys() {
  const ecdh = crypto.createECDH("prime256v1");
  ecdh.generateKeys();
  return { ecdh, auth: crypto.randomBytes(16) };
}
export type Browser = ReturnType<typeof browserKeys>;

/** RFC 8291 §3.4 and RFC 8188 §2: the plaintext of an aes128gcm push message, decrypted as the browser does. */
export function decrypt(body: Buffer, browser: Browser): string {
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
export function checkVapid(header: string | undefined, publicKey: string, audience: string, subject: string) {
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

export type Received = { path: string; headers: Record<string, string | string[] | undefined>; body: Buffer; at: number };

/** A push service on 127.0.0.1 over HTTPS (web-push speaks only HTTPS), with a certificate made for the test. */
export async function startPushService(dir: string) {
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
export async function setUpAlerts(kind: (typeof testDatabaseKinds)[number], dir: string, env: Record<string, string>) {
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

export async function tearDownAlerts(
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
