import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import { checkConfig } from "./config.ts";
import { securityHeaders } from "./security.ts";

/** Serves one page behind the headers and returns the answer's headers and the nonce the page was given. */
async function headersFor(env: Record<string, string>) {
  const app = express();
  app.use(securityHeaders(checkConfig(env).config));
  app.get("/", (_req, res) => {
    res.send(String(res.locals.nonce));
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    return { headers: res.headers, nonce: await res.text() };
  } finally {
    server.close();
  }
}

const directives = (csp: string) =>
  new Map(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/) as [string, ...string[]])
      .map(([name, ...values]) => [name, values]),
  );

describe("security headers", () => {
  it("send a CSP whose script nonce is the one the page receives, new on every request", async () => {
    const a = await headersFor({});
    const b = await headersFor({});
    const csp = directives(a.headers.get("content-security-policy") ?? "");
    expect(a.nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(csp.get("script-src")).toEqual(["'self'", `'nonce-${a.nonce}'`]);
    expect(b.nonce).not.toBe(a.nonce);
    expect(csp.get("default-src")).toEqual(["'self'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("frame-src")).toEqual(["'none'"]);
    expect(csp.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
    expect(csp.has("upgrade-insecure-requests")).toBe(false);
  });

  it("send frame, sniffing, referrer, opener and device policies, and no HSTS over plain HTTP", async () => {
    const { headers } = await headersFor({});
    expect(headers.get("x-frame-options")).toBe("DENY");
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect(headers.get("permissions-policy")).toBe("camera=(), microphone=(), geolocation=()");
    expect(headers.get("cross-origin-resource-policy")).toBeNull();
    expect(headers.get("strict-transport-security")).toBeNull();
  });

  it("send HSTS in production over HTTPS", async () => {
    const { headers } = await headersFor({ NODE_ENV: "production", PUBLIC_URL: "https://sahara.example", BETTER_AUTH_SECRET: "s".repeat(40) });
    expect(headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
  });

  it("let the pages load media from the CDN, the video host and its player frame when those drivers are on", async () => {
    const { headers } = await headersFor({
      STORAGE_DRIVER: "bunny",
      CDN_URL: "https://sahara.b-cdn.net/media",
      BUNNY_STORAGE_API_KEY: "k",
      BUNNY_STORAGE_ZONE: "z",
      VIDEO_DRIVER: "bunny",
      BUNNY_STREAM_LIBRARY_ID: "1",
      BUNNY_STREAM_CDN_HOSTNAME: "vz-1.b-cdn.net",
      BUNNY_STREAM_API_KEY: "k",
    });
    const csp = directives(headers.get("content-security-policy") ?? "");
    for (const name of ["img-src", "media-src", "connect-src"]) {
      expect(csp.get(name), name).toEqual(expect.arrayContaining(["https://sahara.b-cdn.net", "https://vz-1.b-cdn.net"]));
    }
    expect(csp.get("frame-src")).toEqual(["https://iframe.mediadelivery.net"]);
  });
});
