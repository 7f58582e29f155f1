/**
 * Post images through our own origin (docs/decisions/0061-social-images-proxy.md). A reader's browser never
 * contacts Facebook's CDN: the page shows `/social/image/<key>`, and this module fetches the picture on the
 * server, keeps it in memory for a day and serves it from our origin (so the CSP needs no third-party image
 * host). Only URLs that arrived in our own feed can be fetched — a key is the hash of a URL we registered —
 * and only from Facebook's hosts (or the configured Graph host, which a test stands in for).
 */
import crypto from "node:crypto";
import { SOCIAL_IMAGE_PREFIX } from "#domain/social.ts";
import { readLimited } from "./graph.server.ts";

const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif"]);
const FACEBOOK_IMAGE_HOSTS = ["fbcdn.net", "facebook.com", "fbsbx.com"];
const KEY = /^[a-f0-9]{32}$/;

export type SocialImage = { bytes: Uint8Array; type: string };

export type ImageProxyOptions = {
  /** Origin of FACEBOOK_GRAPH_URL: its images are accepted too (a local stand-in in tests). */
  graphOrigin: string;
  timeoutMs: number;
  fetch?: typeof fetch;
  now?: () => number;
  /** One image at most; Facebook's full_picture is well under a megabyte. */
  maxImageBytes?: number;
  /** All images together. */
  maxTotalBytes?: number;
  ttlMs?: number;
  /** How long a failed image is not asked for again. */
  failureTtlMs?: number;
  /** How many registered URLs are remembered (several pages of posts). */
  maxKeys?: number;
};

export type ImageProxy = ReturnType<typeof createImageProxy>;

export function createImageProxy(options: ImageProxyOptions) {
  const now = options.now ?? Date.now;
  const doFetch = options.fetch ?? fetch;
  const maxImageBytes = options.maxImageBytes ?? 5 * 1024 * 1024;
  const maxTotalBytes = options.maxTotalBytes ?? 48 * 1024 * 1024;
  const ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
  const failureTtlMs = options.failureTtlMs ?? 60_000;
  const maxKeys = options.maxKeys ?? 1000;

  const urls = new Map<string, string>();
  const images = new Map<string, { image: SocialImage | null; expires: number }>();
  const pending = new Map<string, Promise<SocialImage | null>>();
  let totalBytes = 0;

  function allowed(raw: string): URL | null {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return null;
    }
    if (url.username || url.password) return null;
    if (url.origin === options.graphOrigin) return url;
    if (url.protocol !== "https:") return null;
    const host = url.hostname.toLowerCase();
    return FACEBOOK_IMAGE_HOSTS.some((h) => host === h || host.endsWith(`.${h}`)) ? url : null;
  }

  function drop(key: string) {
    const entry = images.get(key);
    if (entry?.image) totalBytes -= entry.image.bytes.byteLength;
    images.delete(key);
  }

  function keep(key: string, image: SocialImage | null) {
    drop(key);
    images.set(key, { image, expires: now() + (image ? ttlMs : failureTtlMs) });
    if (image) totalBytes += image.bytes.byteLength;
    // Map order is insertion order: the oldest entries go first.
    for (const oldest of images.keys()) {
      if (totalBytes <= maxTotalBytes && images.size <= maxKeys) break;
      drop(oldest);
    }
  }

  async function fetchImage(url: string): Promise<SocialImage | null> {
    try {
      const res = await doFetch(url, { redirect: "error", signal: AbortSignal.timeout(options.timeoutMs), headers: { Accept: [...IMAGE_TYPES].join(",") } });
      const type = (res.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
      if (!res.ok || !IMAGE_TYPES.has(type)) {
        await res.body?.cancel();
        return null;
      }
      const bytes = await readLimited(res, maxImageBytes);
      return bytes.byteLength ? { bytes, type } : null;
    } catch {
      return null;
    }
  }

  return {
    /** The same-origin address of a post image, or null for anything that is not a Facebook image URL. */
    register(raw: unknown): string | null {
      if (typeof raw !== "string" || !raw) return null;
      const url = allowed(raw);
      if (!url) return null;
      const href = url.toString();
      const key = crypto.createHash("sha256").update(href).digest("hex").slice(0, 32);
      urls.delete(key);
      urls.set(key, href);
      while (urls.size > maxKeys) urls.delete(urls.keys().next().value as string);
      return `${SOCIAL_IMAGE_PREFIX}${key}`;
    },

    /** True when the key is the address of a picture this process has seen in the feed. */
    knows: (key: string) => urls.has(key),

    /** The image behind a key, or null (unknown key, or the image could not be fetched). */
    async load(key: string): Promise<SocialImage | null> {
      if (!KEY.test(key)) return null;
      const cached = images.get(key);
      if (cached && cached.expires > now()) return cached.image;
      const url = urls.get(key);
      if (!url) return null;
      let loading = pending.get(key);
      if (!loading) {
        loading = fetchImage(url).then((image) => {
          keep(key, image);
          pending.delete(key);
          return image;
        });
        pending.set(key, loading);
      }
      return loading;
    },

    stats: () => ({ keys: urls.size, images: images.size, bytes: totalBytes }),
  };
}
