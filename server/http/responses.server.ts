import { data, redirect } from "react-router";
import { logger } from "#server/ops/logger.server.ts";
import { markDegraded } from "./render-scope.server.ts";
import { sharedCacheControl } from "./shared-cache.server.ts";

/** The 404 every missing or unpublished item answers with (the public layout shows the 404 page). */
export function notFound(): never {
  throw data(null, { status: 404 });
}

/**
 * Runs a detail query; a failure (database down, not a missing row) sends the reader home with the spec's
 * "loading the content failed" toast (public-site.md §2), and is logged.
 */
export async function loadOrGoHome<T>(what: string, query: () => Promise<T>): Promise<T> {
  try {
    return await query();
  } catch (error) {
    logger.error({ err: error, what }, "detail load failed");
    // A failure, though answered with a redirect: the page cache serves its last good copy of the page instead.
    markDegraded();
    throw redirect("/?notice=load-failed");
  }
}

/** Related items are a nicety: any error gives an empty list (spec §7). */
export async function orEmpty<T>(what: string, query: () => Promise<T[]>): Promise<T[]> {
  try {
    return await query();
  } catch (error) {
    logger.warn({ err: error, what }, "related items failed");
    markDegraded();
    return [];
  }
}

/** How long a feed reader or crawler is asked to wait before trying again after a failure of ours. */
export const FEED_RETRY_AFTER_SECONDS = 60;

/** Feed readers and crawlers keep a feed 5 minutes; shared caches as the CDN_* settings say. */
export const FEED_BROWSER_SECONDS = 300;

/**
 * A feed or sitemap (XML built from the database): its answer, kept 5 minutes by readers, by shared caches as the
 * CDN_* settings say (server/http/shared-cache.server.ts).
 * A failure to read (the database down) is a 503 with Retry-After, never a 500, and marks the render
 * degraded, so the page cache answers with its last good copy when it has one.
 */
export async function xmlFeed(what: string, contentType: string, build: () => Promise<string | null>): Promise<Response> {
  let xml: string | null;
  try {
    xml = await build();
  } catch (error) {
    logger.error({ err: error, what }, "feed could not be built");
    markDegraded();
    return new Response("الخدمة غير متاحة مؤقتاً / Service temporarily unavailable", {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Retry-After": String(FEED_RETRY_AFTER_SECONDS) },
    });
  }
  if (xml === null) return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(xml, { headers: { "Content-Type": `${contentType}; charset=utf-8`, "Cache-Control": sharedCacheControl(FEED_BROWSER_SECONDS) } });
}
