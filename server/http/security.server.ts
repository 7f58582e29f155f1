import crypto from "node:crypto";
import type { ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import helmet from "helmet";
import type { Config } from "#server/config.server.ts";
import { PREFETCH_RULES } from "#domain/navigation.ts";
import { EMBED_FRAME_ORIGINS } from "#domain/embeds.ts";

/** The hosted video library's player page, framed by the player when a stream cannot play (public-site.md §4). */
export const BUNNY_EMBED_ORIGIN = "https://iframe.mediadelivery.net";

const originOf = (value: string | undefined): string | null => {
  if (!value) return null;
  try {
    return new URL(value.includes("://") ? value : `https://${value}`).origin;
  } catch {
    return null; // an invalid value was already reported by the configuration check
  }
};
const present = (...values: (string | null)[]) => values.filter((v): v is string => v !== null);

/**
 * Hosts beyond our own origin that pages may use, per directive, for the drivers in use — and nothing else
 * (docs/decisions/0105-playback-and-csp.md):
 * - the file storage's public host (Bunny CDN_URL or S3_PUBLIC_URL) serves pictures and audio/video files:
 *   img-src and media-src; with the embedded video library it also holds the videos' playlists and segments
 *   (decision 0119), which hls.js fetches: connect-src;
 * - the video library's CDN host (VIDEO_DRIVER=bunny, BUNNY_STREAM_CDN_HOSTNAME) serves thumbnails (img-src),
 *   the MP4 and natively played HLS (media-src), and the playlists and segments hls.js fetches (connect-src);
 * - its embed player (iframe.mediadelivery.net) is the player's last resort: frame-src;
 * - the players of the services a body may embed (domain/embeds.ts: frames only, never their scripts), which a page
 *   frames once the reader asks for them, or at once for a service EMBEDS_ALLOWED names (decision 0150): frame-src;
 * - on back-office pages only, its tus endpoint (BUNNY_STREAM_API_URL), where the editor's browser sends a
 *   video file: connect-src.
 * Post pictures of the social feed come through our own /social/image, so no Facebook host is listed.
 */
export function cspSources(config: Config): { img: string[]; media: string[]; connect: string[]; frame: string[]; adminConnect: string[] } {
  const storage = present(
    config.drivers.storage === "bunny" ? originOf(config.CDN_URL) : null,
    config.drivers.storage === "s3" ? originOf(config.S3_PUBLIC_URL) : null,
  );
  const bunny = config.drivers.video === "bunny";
  const videoCdn = present(bunny ? originOf(config.BUNNY_STREAM_CDN_HOSTNAME) : null);
  const unique = (list: string[]) => [...new Set(list)];
  return {
    img: unique([...storage, ...videoCdn]),
    media: unique([...storage, ...videoCdn]),
    connect: unique([...(bunny ? [] : storage), ...videoCdn]),
    frame: [...(bunny ? [BUNNY_EMBED_ORIGIN] : []), ...EMBED_FRAME_ORIGINS],
    adminConnect: present(bunny ? originOf(config.BUNNY_STREAM_API_URL) : null),
  };
}

/** Pages of the back-office (and their API), the only ones that upload to the video host. */
const isBackOffice = (path: string) => /^\/(?:api\/)?admin(?:\/|$)/.test(path);

const nonceOf = (_req: unknown, res: ServerResponse) => `'nonce-${String((res as Response).locals.nonce)}'`;

/**
 * Security headers for every response, by helmet: a Content-Security-Policy with a fresh nonce per request
 * (the only inline scripts are React Router's, which carry it), frame protection, and HSTS when served over
 * HTTPS in production (HSTS on plain HTTP is ignored by browsers and would only confuse local set-ups).
 * Cross-Origin-Resource-Policy stays off: feed readers and social previews show our images on their pages.
 */
/** The prefetch rules' source in every policy (and in a cached page's, beside its scripts' hashes). */
export const PREFETCH_RULES_HASH = `'sha256-${crypto.createHash("sha256").update(PREFETCH_RULES, "utf8").digest("base64")}'`;

export function securityHeaders(config: Config) {
  const sources = cspSources(config);
  const helmetFor = (connect: string[]) =>
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          // The reading pages' prefetch rules (domain/navigation.ts) by their hash: data the browser reads, not a script.
          scriptSrc: ["'self'", nonceOf, PREFETCH_RULES_HASH],
          styleSrc: ["'self'", "'unsafe-inline'"],
          // data: inline icons; blob: the back-office's preview of a picture before it is uploaded.
          imgSrc: ["'self'", "data:", "blob:", ...sources.img],
          // blob: hls.js plays through Media Source Extensions, whose source is a blob: URL.
          mediaSrc: ["'self'", "blob:", ...sources.media],
          connectSrc: ["'self'", ...connect],
          fontSrc: ["'self'"],
          frameSrc: sources.frame.length ? sources.frame : ["'none'"],
          // hls.js runs without a worker (the player turns it off), so no blob: worker is allowed.
          workerSrc: ["'self'"],
          frameAncestors: ["'none'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
        },
      },
      xFrameOptions: { action: "deny" },
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      crossOriginOpenerPolicy: { policy: "same-origin" },
      crossOriginResourcePolicy: false,
      strictTransportSecurity: config.isProduction && config.publicUrl.startsWith("https://") ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    });
  const publicHeaders = helmetFor(sources.connect);
  const adminHeaders = sources.adminConnect.length ? helmetFor([...new Set([...sources.connect, ...sources.adminConnect])]) : publicHeaders;
  return (req: Request, res: Response, next: NextFunction) => {
    res.locals.nonce = crypto.randomBytes(16).toString("base64");
    // Helmet has no Permissions-Policy: the page needs none of these devices.
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
    (isBackOffice(req.path) ? adminHeaders : publicHeaders)(req, res, next);
  };
}

/**
 * The headers `securityHeaders(config)` sets on a public page, in its order, worked out once by running it: the page
 * cache's fast path (server/http/fast-path.server.ts) sets these instead of running helmet for every answer. The one
 * part that changes per request, the nonce, is replaced by a cached page's script hashes anyway.
 */
export function publicSecurityHeaders(config: Config): [string, string][] {
  const headers = new Map<string, [string, string]>();
  const recorder = {
    locals: {} as Record<string, unknown>,
    setHeader(name: string, value: unknown) {
      headers.set(name.toLowerCase(), [name, String(value)]);
      return recorder;
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
    getHeader: (name: string) => headers.get(name.toLowerCase())?.[1],
  };
  let done = false;
  securityHeaders(config)({ path: "/", method: "GET", headers: {} } as Request, recorder as unknown as Response, () => (done = true));
  if (!done) throw new Error("the security headers did not pass the request on");
  return [...headers.values()];
}
