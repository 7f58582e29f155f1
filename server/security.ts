import crypto from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { Config } from "./config.ts";

/** Origins the pages may load media from besides our own, depending on the drivers in use. */
function mediaOrigins(config: Config): string[] {
  const origins: string[] = [];
  const add = (value: string | undefined) => {
    if (!value) return;
    try {
      origins.push(new URL(value.includes("://") ? value : `https://${value}`).origin);
    } catch {
      /* an invalid value was already reported by the configuration check */
    }
  };
  if (config.drivers.storage === "bunny") add(config.CDN_URL);
  if (config.drivers.storage === "s3") add(config.S3_PUBLIC_URL);
  if (config.drivers.video === "bunny") add(config.BUNNY_STREAM_CDN_HOSTNAME);
  return origins;
}

/**
 * Security headers for every response: a Content-Security-Policy with a fresh nonce per request (the
 * only inline scripts are React Router's, which carry it), frame protection, and HSTS when served over
 * HTTPS in production (HSTS on plain HTTP is ignored by browsers and would only confuse local set-ups).
 */
export function securityHeaders(config: Config) {
  const media = mediaOrigins(config).join(" ");
  const frames = config.drivers.video === "bunny" ? "https://iframe.mediadelivery.net" : "'none'";
  const images = config.drivers.social === "graph-api" ? " https://*.fbcdn.net https://*.facebook.com" : "";
  const hsts = config.isProduction && config.publicUrl.startsWith("https://");
  return (_req: Request, res: Response, next: NextFunction) => {
    const nonce = crypto.randomBytes(16).toString("base64");
    res.locals.nonce = nonce;
    res.setHeader(
      "Content-Security-Policy",
      [
        "default-src 'self'",
        `script-src 'self' 'nonce-${nonce}'`,
        "style-src 'self' 'unsafe-inline'",
        `img-src 'self' data: blob: ${media}${images}`.trim(),
        `media-src 'self' blob: ${media}`.trim(),
        `connect-src 'self' ${media}`.trim(),
        "font-src 'self'",
        `frame-src ${frames}`,
        "frame-ancestors 'none'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
      ].join("; "),
    );
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()");
    if (hsts) {
      res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    }
    next();
  };
}
