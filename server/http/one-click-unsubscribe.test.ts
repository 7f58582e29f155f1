/**
 * The origin check lets exactly one cross-site POST through: a mail client's one-click unsubscribe (RFC 8058)
 * to /newsletter/unsubscribe, as a small form. Its own handler answers it before React Router (whose origin check
 * would refuse a foreign Origin with a 400 and an error in the log): the exact one-click form unsubscribes from
 * any origin, a token that is not one is refused at info, any other body gets the origin check's 403, and a POST
 * from our own page goes on to the route. Everything else posted from elsewhere stays refused (403).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { checkConfig } from "#server/config.server.ts";
import { newsletterSubscribers } from "#server/db/schema.server.ts";
import { hashManageToken } from "#server/newsletter/tokens.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { requestBodyGuard } from "./request-guard.server.ts";
import { oneClickUnsubscribe } from "./one-click-unsubscribe.server.ts";

describe.each(testDatabaseKinds)("the origin check and one-click unsubscribe (%s)", (kind) => {
  let server: http.Server;
  let base = "";
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    const config = checkConfig({ PUBLIC_URL: "https://sahara.test" }).config;
    const app = express();
    app.use(requestBodyGuard(config));
    app.use(oneClickUnsubscribe(config, () => Promise.resolve(t.db)));
    // Stands for React Router's handler: what reaches it.
    app.use((_req, res) => void res.status(200).send("through"));
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await t?.drop();
  });
  afterEach(() => void vi.restoreAllMocks());

  const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { method: "POST", body, headers: { Accept: "text/html", ...headers } }).then(async (r) => ({
      status: r.status,
      text: await r.text(),
      cacheControl: r.headers.get("cache-control"),
    }));
  const form = "List-Unsubscribe=One-Click";
  const urlencoded = { "Content-Type": "application/x-www-form-urlencoded" };

  /** A subscriber with a token of its own (any 43 characters: only its hash is stored). */
  const subscriber = async (name: string) => {
    const token = `${name}-${kind}`.padEnd(43, "x");
    const [row] = await t.db
      .insert(newsletterSubscribers)
      .values({ email: `${name}-${kind}@sahara.test`, status: "confirmed", manageTokenHash: hashManageToken(token) })
      .returning({ id: newsletterSubscribers.id });
    const status = async () => (await t.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.id, row.id)))[0].status;
    return { token, status };
  };
  const logs = () => ({ info: vi.spyOn(logger, "info"), error: vi.spyOn(logger, "error") });

  it("unsubscribes a webmail client's POST (a foreign Origin) before React Router, and logs no error", async () => {
    const log = logs();
    const reader = await subscriber("webmail");
    const res = await post(`/newsletter/unsubscribe?token=${reader.token}&send=3`, form, { ...urlencoded, Origin: "https://mail.example.com" });
    expect(res.status).toBe(200);
    expect(res.text).not.toBe("through");
    expect(res.text).toContain("تم إلغاء اشتراكك"); // the reader's language: Arabic by default
    expect(res.cacheControl).toBe("no-store");
    expect(await reader.status()).toBe("unsubscribed");
    expect(log.error).not.toHaveBeenCalled();
  });

  it("unsubscribes with no Origin (a mail server) or `Origin: null`, urlencoded or multipart; again is still 200", async () => {
    const server = await subscriber("server");
    expect((await post(`/newsletter/unsubscribe?token=${server.token}`, form, urlencoded)).status).toBe(200);
    expect(await server.status()).toBe("unsubscribed");
    expect((await post(`/newsletter/unsubscribe?token=${server.token}`, form, urlencoded)).status).toBe(200);
    const framed = await subscriber("framed");
    const multipart = new FormData();
    multipart.append("List-Unsubscribe", "One-Click");
    // The message's link names its language (decision 0143): French at /fr/…, whatever the client's headers say.
    const res = await post(`/fr/newsletter/unsubscribe?token=${framed.token}`, multipart, { Origin: "null", "Accept-Language": "en" });
    expect(res.status).toBe(200);
    expect(res.text).toContain("Vous êtes désabonné(e)");
    expect(await framed.status()).toBe("unsubscribed");
  });

  it("answers in the language of the link's address, Arabic at the root, never the client's Accept-Language", async () => {
    const reader = await subscriber("addressed");
    const arabic = await post(`/newsletter/unsubscribe?token=${reader.token}`, form, { ...urlencoded, "Accept-Language": "fr" });
    expect(arabic.status).toBe(200);
    expect(arabic.text).not.toContain("Vous êtes désabonné(e)");
    expect(arabic.text).toMatch(/[\u0600-\u06FF]/);
    const english = await post(`/en/newsletter/unsubscribe?token=${reader.token}`, form, { ...urlencoded, Cookie: "i18nextLng=fr", "Accept-Language": "fr" });
    expect(english.status).toBe(200);
    expect(english.text).not.toMatch(/[\u0600-\u06FF]|désabonné/);
  });

  it("refuses a token that is not one with a 400, logged at info, never as an error", async () => {
    const log = logs();
    for (const query of ["?token=abc", "", "?token=" + "x".repeat(43), "?token=a&token=b"]) {
      const res = await post(`/newsletter/unsubscribe${query}`, form, { ...urlencoded, Origin: "https://mail.example.com" });
      expect(res.status, query).toBe(400);
      expect(res.cacheControl).toBe("no-store");
    }
    expect(log.info).toHaveBeenCalledWith(expect.objectContaining({ reason: "token not valid" }), "one-click unsubscribe refused");
    expect(log.error).not.toHaveBeenCalled();
  });

  it("exempts only the exact one-click form: any other small form from elsewhere gets the origin check's 403", async () => {
    const reader = await subscriber("other-body");
    const path = `/newsletter/unsubscribe?token=${reader.token}`;
    const foreign = { ...urlencoded, Origin: "https://mail.example.com" };
    for (const body of [`${form}&x=1`, "List-Unsubscribe=Yes", "a=b", "", "List-Unsubscribe=One-Click&List-Unsubscribe=One-Click"]) {
      expect((await post(path, body, foreign)).status, body).toBe(403);
    }
    expect((await post(path, "--x\r\nbroken", { "Content-Type": "multipart/form-data; boundary=x", Origin: "https://mail.example.com" })).status).toBe(403);
    expect(await reader.status()).toBe("confirmed");
  });

  it("leaves the button of our own page to the route (React Router renders its page)", async () => {
    const reader = await subscriber("own-page");
    const res = await post(`/newsletter/unsubscribe?token=${reader.token}`, form, { ...urlencoded, Origin: "https://sahara.test" });
    expect(res).toMatchObject({ status: 200, text: "through" });
    expect(await reader.status()).toBe("confirmed");
  });

  it("refuses every other cross-site POST: other paths, other body kinds, large or unsized bodies", async () => {
    expect((await post("/newsletter/preferences?token=abc", "language=ar&frequency=daily", urlencoded)).status).toBe(403);
    expect((await post("/newsletter/unsubscribe.data?token=abc", form, urlencoded)).status).toBe(403);
    expect((await post("/newsletter/unsubscribe/x", form, urlencoded)).status).toBe(403);
    expect((await post("/contact", form, urlencoded)).status).toBe(403);
    expect((await post("/newsletter/unsubscribe?token=abc", JSON.stringify({ a: 1 }), { "Content-Type": "application/json" })).status).toBe(403);
    expect((await post("/newsletter/unsubscribe?token=abc", `${form}&pad=${"x".repeat(2000)}`, urlencoded)).status).toBe(403);
    const chunked = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(form));
        controller.close();
      },
    });
    const streamed = await fetch(`${base}/newsletter/unsubscribe?token=abc`, {
      method: "POST",
      body: chunked,
      headers: urlencoded,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(403);
    expect((await fetch(`${base}/newsletter/unsubscribe?token=abc`, { method: "PUT", body: form, headers: urlencoded })).status).toBe(403);
  });
});
