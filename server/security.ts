import crypto from "node:crypto";
import type { ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import helmet from "helmet";
import type { Config } from "./config.ts";

/** Origins the pages may load media from besides our own, depending on the drivers in use. */
export function mediaOrigins(config: Config): string[] {
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

const nonceOf = (_req: unknown, res: ServerResponse) => `'nonce-${String((res as Response).locals.nonce)}'`;

/**
 * Security headers for every response, by helmet: a Content-Security-Policy with a fresh nonce per request
 * (the only inline scripts are React Router's, which carry it), frame protection, and HSTS when served over
 * HTTPS in production (HSTS on plain HTTP is ignored by browsers and would only confuse local set-ups).
 * Cross-Origin-Resource-Policy stays off: feed readers and social previews show our images on their pages.
 */
export function securityHeaders(config: Config) {
  const media = mediaOrigins(config);
  const social = config.drivers.social === "graph-api" ? ["https://*.fbcdn.net", "https://*.facebook.com"] : [];
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", nonceOf],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:", ...media, ...social],
        mediaSrc: ["'self'", "blob:", ...media],
        connectSrc: ["'self'", ...media],
        fontSrc: ["'self'"],
        frameSrc: [config.drivers.video === "bunny" ? "https://iframe.mediadelivery.net" : "'none'"],
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
  return (req: Request, res: Response, next: NextFunction) => {
    res.locals.nonce = crypto.randomBytes(16).toString("base64");
    // Helmet has no Permissions-Policy: the page needs none of these devices.
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
    headers(req, res, next);
  };
}
