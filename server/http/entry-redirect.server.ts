/**
 * The reader's stored language, honoured once, at the bare entry (issue 42, docs/decisions/0143-language-addresses.md):
 * a GET or HEAD of `/` from a reader whose language cookie says French or English, arriving from outside (no Referer
 * of ours: typed, bookmarked, a search engine), goes to `/fr` or `/en`, query kept. A link of ours to `/` (the
 * language toggle, the Arabic logo) carries our Referer (Referrer-Policy strict-origin-when-cross-origin sends it
 * within the site) and gets the Arabic home. Never any other path: a deep link is always the page it names.
 *
 * The redirect depends on the cookie, so it is `private, no-store`: no cache may replay it to another reader. It is
 * answered before the page cache and its fast path, which would otherwise serve the Arabic home.
 */
import type { IncomingMessage } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { parse as parseCookie } from "cookie";
import { localizedPath } from "#domain/addresses.ts";
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, toSupportedLanguage } from "#domain/language.ts";
import type { Config } from "#server/config.server.ts";
import { fromOurOrigin, ourOrigins } from "./request-guard.server.ts";

type EntryRequest = Pick<IncomingMessage, "method" | "url" | "headers">;

/** Where this request is sent instead of the Arabic home, or undefined when it is answered as it is. */
export function entryRedirectTarget(req: EntryRequest, ours: readonly string[]): string | undefined {
  if (req.method !== "GET" && req.method !== "HEAD") return undefined;
  const target = req.url ?? "";
  if (target !== "/" && !target.startsWith("/?")) return undefined;
  const cookie = req.headers.cookie;
  if (!cookie) return undefined;
  const stored = toSupportedLanguage(parseCookie(cookie)[LANGUAGE_COOKIE]);
  if (!stored || stored === DEFAULT_LANGUAGE) return undefined;
  if (fromOurOrigin(undefined, req.headers.referer, ours)) return undefined;
  return localizedPath(stored, target);
}

/** Express middleware: mounted before the page cache (server/app.server.ts); the fast path asks entryRedirectTarget. */
export function entryRedirect(config: Pick<Config, "publicUrl" | "PUBLIC_URL">) {
  const ours = ourOrigins(config);
  return (req: Request, res: Response, next: NextFunction) => {
    const location = entryRedirectTarget({ method: req.method, url: req.originalUrl, headers: req.headers }, ours);
    if (!location) return next();
    res.status(302).set({ Location: location, "Cache-Control": "private, no-store" }).end();
  };
}
