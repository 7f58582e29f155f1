/**
 * The origin check lets exactly one cross-site POST through: a mail client's one-click unsubscribe (RFC 8058)
 * to /newsletter/unsubscribe, as a small form. Everything else posted from elsewhere stays refused (403).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkConfig } from "#server/config.server.ts";
import { requestBodyGuard } from "./request-guard.server.ts";

describe("the origin check and one-click unsubscribe", () => {
  let server: http.Server;
  let base = "";

  beforeAll(async () => {
    const config = checkConfig({ PUBLIC_URL: "https://sahara.test" }).config;
    const app = express();
    app.use(requestBodyGuard(config));
    app.use((_req, res) => void res.status(200).send("through"));
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { method: "POST", body, headers: { Accept: "text/html", ...headers } }).then(async (r) => ({
      status: r.status,
      text: await r.text(),
    }));
  const form = "List-Unsubscribe=One-Click";
  const urlencoded = { "Content-Type": "application/x-www-form-urlencoded" };

  it("lets a mail client's POST through, with no Origin or another site's, urlencoded or multipart", async () => {
    expect(await post("/newsletter/unsubscribe?token=abc", form, urlencoded)).toEqual({ status: 200, text: "through" });
    expect(await post("/newsletter/unsubscribe?token=abc&send=3", form, { ...urlencoded, Origin: "https://mail.example.com" })).toMatchObject({ status: 200 });
    const multipart = new FormData();
    multipart.append("List-Unsubscribe", "One-Click");
    expect(await post("/newsletter/unsubscribe?token=abc", multipart, { Origin: "null" })).toMatchObject({ status: 200 });
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
