import { data, redirect } from "react-router";
import { logger } from "./logger.ts";
import { markDegraded } from "./render-scope.ts";

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
