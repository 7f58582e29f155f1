import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import { checkConfig } from "#server/config.server.ts";
import { EMBED_FRAME_ORIGINS } from "#domain/embeds.ts";
import { PREFETCH_RULES_HASH, securityHeaders } from "./security.server.ts";

/** Serves one page behind the headers and returns the answer's headers and the nonce the page was given. */
async function headersFor(env: Record<string, string>, pathname = "/") {
  const app = express();
  app.use(securityHeaders(checkConfig(env).config));
  app.use((_req, res) => {
    res.send(String(res.locals.nonce));
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${pathname}`);
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
    // and the reading pages' prefetch rules, by their hash
    expect(csp.get("script-src")).toEqual(["'self'", `'nonce-${a.nonce}'`, PREFETCH_RULES_HASH]);
    expect(b.nonce).not.toBe(a.nonce);
    expect(csp.get("default-src")).toEqual(["'self'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("frame-src")).toEqual([...EMBED_FRAME_ORIGINS]);
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

  const BUNNY_VIDEO = {
    VIDEO_DRIVER: "bunny",
    BUNNY_STREAM_LIBRARY_ID: "1",
    BUNNY_STREAM_CDN_HOSTNAME: "vz-1.b-cdn.net",
    BUNNY_STREAM_API_KEY: "k",
  };
  const cspOf = async (env: Record<string, string>, pathname = "/") =>
    directives((await headersFor(env, pathname)).headers.get("content-security-policy") ?? "");

  it("allow playback from our own origin only with the local video library: blob: media for hls.js, no frame", async () => {
    const csp = await cspOf({});
    expect(csp.get("media-src")).toEqual(["'self'", "blob:"]);
    expect(csp.get("connect-src")).toEqual(["'self'"]);
    expect(csp.get("frame-src")).toEqual([...EMBED_FRAME_ORIGINS]);
    expect(csp.get("worker-src")).toEqual(["'self'"]);
    expect(csp.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
    // The back-office uploads to this server (tus at /api/admin/videos/tus): nothing more there either.
    const admin = await cspOf({}, "/admin/videos");
    for (const name of ["img-src", "media-src", "connect-src", "frame-src"]) expect(admin.get(name), name).toEqual(csp.get(name));
  });

  it("allow the hosted video library's CDN host for thumbnails, files and hls.js, and its embed player, when VIDEO_DRIVER=bunny", async () => {
    const csp = await cspOf(BUNNY_VIDEO);
    expect(csp.get("img-src")).toEqual(["'self'", "data:", "blob:", "https://vz-1.b-cdn.net"]);
    expect(csp.get("media-src")).toEqual(["'self'", "blob:", "https://vz-1.b-cdn.net"]);
    expect(csp.get("connect-src")).toEqual(["'self'", "https://vz-1.b-cdn.net"]);
    expect(csp.get("frame-src")).toEqual(["https://iframe.mediadelivery.net", ...EMBED_FRAME_ORIGINS]);
    expect(csp.get("default-src")).toEqual(["'self'"]);
    // The tus endpoint of the host is for the newsroom's uploads: on back-office pages only.
    expect([...(csp.get("connect-src") ?? [])].join(" ")).not.toContain("video.bunnycdn.com");
    for (const pathname of ["/admin/videos", "/api/admin/videos"]) {
      const admin = await cspOf(BUNNY_VIDEO, pathname);
      expect(admin.get("connect-src"), pathname).toEqual(["'self'", "https://vz-1.b-cdn.net", "https://video.bunnycdn.com"]);
      expect(admin.get("media-src")).toEqual(csp.get("media-src"));
    }
    expect((await cspOf(BUNNY_VIDEO, "/administration")).get("connect-src")).toEqual(csp.get("connect-src"));
  });

  it("add the file storage's public host for pictures and files, never for scripts, frames or fetches", async () => {
    const csp = await cspOf({
      STORAGE_DRIVER: "bunny",
      CDN_URL: "https://sahara.b-cdn.net/media",
      BUNNY_STORAGE_API_KEY: "k",
      BUNNY_STORAGE_ZONE: "z",
      ...BUNNY_VIDEO,
    });
    expect(csp.get("img-src")).toEqual(["'self'", "data:", "blob:", "https://sahara.b-cdn.net", "https://vz-1.b-cdn.net"]);
    expect(csp.get("media-src")).toEqual(["'self'", "blob:", "https://sahara.b-cdn.net", "https://vz-1.b-cdn.net"]);
    expect(csp.get("connect-src")).toEqual(["'self'", "https://vz-1.b-cdn.net"]);
    expect(csp.get("script-src")?.some((v) => v.includes("b-cdn"))).toBe(false);
    expect(csp.get("frame-src")).toEqual(["https://iframe.mediadelivery.net", ...EMBED_FRAME_ORIGINS]);
  });

  it("let hls.js fetch the embedded library's playlists and segments from the S3 storage that holds them", async () => {
    const csp = await cspOf({
      STORAGE_DRIVER: "s3",
      S3_ENDPOINT: "https://account.r2.cloudflarestorage.com",
      S3_BUCKET: "media",
      S3_ACCESS_KEY_ID: "AKIA0123456789ABCD",
      S3_SECRET_ACCESS_KEY: "s3-secret-0123456789abcdef",
      S3_PUBLIC_URL: "https://media.sahara-media.mr/files",
    });
    for (const name of ["img-src", "media-src", "connect-src"]) expect(csp.get(name), name).toContain("https://media.sahara-media.mr");
    expect(csp.get("connect-src")).toEqual(["'self'", "https://media.sahara-media.mr"]);
    expect(csp.get("frame-src")).toEqual([...EMBED_FRAME_ORIGINS]);
    expect(csp.get("script-src")?.some((v) => v.includes("sahara-media.mr"))).toBe(false);
  });

  it("list no Facebook host: post pictures come through our own /social/image", async () => {
    const csp = await cspOf({ FACEBOOK_PAGE_TOKEN: "t", FACEBOOK_PAGE_ID: "1" });
    // Facebook's post player is a frame a reader asks for (decision 0150), never a source of pictures or scripts.
    const all = [...csp.entries()]
      .filter(([name]) => name !== "frame-src")
      .flatMap(([, values]) => values)
      .join(" ");
    expect(all).not.toMatch(/fbcdn|facebook/);
    expect(csp.get("frame-src")?.join(" ")).not.toMatch(/fbcdn/);
    expect(csp.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
  });
});
