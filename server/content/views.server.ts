/**
 * The view counter behind "most read": a detail view counts once per reader per item per day.
 *
 * A reader is a key, not a person: an HMAC-SHA-256 of the client address, the user agent and the day, under a
 * key derived from the server's secret. The address is never stored, the key changes every day (so a reader
 * cannot be followed from one day to the next) and it cannot be reversed without the server's secret.
 *
 * A view is counted by the page's beacon, not by the page's answer (docs/decisions/0145-shared-cache.md): behind a
 * CDN most answers never reach us. The detail loader notes its item (`noteShownItem`: the answer's surrogate key
 * `<type>-<id>`); the page's script (app/enhance/reading.js) posts `{"type","id"}` to POST /api/views once per page
 * load, and `countBeaconView` counts it, in the background, skipping crawlers and prefetches.
 */
import crypto from "node:crypto";
import { lt, sql } from "drizzle-orm";
import { isbot } from "isbot";
import type { Database } from "#server/db/client.server.ts";
import { contentViews } from "#server/db/schema.server.ts";
import { definitionOf, type ContentType } from "#domain/content-types/index.ts";
import { getConfig, type Config } from "#server/config.server.ts";
import { authSecret } from "#server/ops/secrets.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { noteItem } from "#server/http/render-scope.server.ts";

/** Any type's items are counted; a type whose definition has `viewCounter` also keeps a running total for its listings. */
export type ViewContentType = ContentType;

/** The running total's column on the table of every type with `viewCounter`. */
export const VIEW_COUNT_COLUMN = "view_count";

export type ViewInput = {
  contentType: ViewContentType;
  contentId: number;
  /** From readerKeyFor(request). */
  readerKey: string;
  /** The day the view belongs to; today (UTC) by default. Tests pass another day. */
  day?: Date;
};

/**
 * The header carrying the client address from Express (req.ip, which honours `trust proxy`) to the React
 * Router request. server/app.server.ts overwrites it on every request, so a client cannot supply its own.
 */
export const CLIENT_IP_HEADER = "x-sahara-client-ip";

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Records one view. Inserts (content_type, content_id, reader_key, day) and, only when that row is new and
 * the type's definition has `viewCounter`, increments the item's view_count in the same transaction, so the
 * total equals the number of distinct reader-days. Returns true when the view counted.
 */
export async function recordView(db: Database, { contentType, contentId, readerKey, day = new Date() }: ViewInput): Promise<boolean> {
  if (!Number.isInteger(contentId) || contentId <= 0 || !readerKey) return false;
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(contentViews)
      .values({ contentType, contentId, readerKey, day: utcDay(day) })
      .onConflictDoNothing()
      .returning({ contentId: contentViews.contentId });
    if (inserted.length === 0) return false;
    const { viewCounter, table } = definitionOf(contentType);
    if (viewCounter) {
      const counter = sql.identifier(VIEW_COUNT_COLUMN);
      await tx.execute(sql`update ${sql.identifier(table)} set ${counter} = ${counter} + 1 where id = ${contentId}`);
    }
    return true;
  });
}

let derivedKey: { secret: string; key: Buffer } | undefined;

/** A key for reader hashes only, derived from the auth secret so the secret itself is never reused as-is. */
function viewKey(config: Config): Buffer {
  const secret = authSecret(config);
  if (!derivedKey || derivedKey.secret !== secret) {
    derivedKey = { secret, key: crypto.createHmac("sha256", secret).update("sahara-media/content-views/v1").digest() };
  }
  return derivedKey.key;
}

/** The client address as Express saw it; "unknown" when the request did not come through server/app.ts. */
export function clientAddress(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER)?.trim() || "unknown";
}

/** The reader key of a request for a day: a salted SHA-256 (HMAC) of address, user agent and day. */
export function readerKeyFor(request: Request, { day = new Date(), config = getConfig() }: { day?: Date; config?: Config } = {}): string {
  const ua = request.headers.get("user-agent") ?? "";
  return crypto
    .createHmac("sha256", viewKey(config))
    .update(`${utcDay(day)}\n${clientAddress(request)}\n${ua}`)
    .digest("base64url");
}

/**
 * Requests that are not a reader looking at the page: crawlers, link previews, scripts and headless
 * browsers (isbot's maintained list), and browser prefetches (the browser marks them Sec-Purpose).
 */
export function isCountableView(request: Request): boolean {
  const purpose = `${request.headers.get("sec-purpose") ?? ""} ${request.headers.get("purpose") ?? ""} ${request.headers.get("x-purpose") ?? ""}`;
  if (/prefetch|preview/i.test(purpose)) return false;
  const ua = request.headers.get("user-agent") ?? "";
  return ua !== "" && !isbot(ua);
}

/** The detail loader's call: the answer shows this item (its surrogate key, server/http/render-scope.server.ts). */
export function noteShownItem(target: { contentType: ViewContentType; contentId: number }): void {
  noteItem(target);
}

/**
 * Counts one view of a reader's request in the background (not awaited), skipping crawlers and prefetches, and logs
 * instead of failing when the database refuses (the beacon's endpoint, app/routes/api/views.ts).
 */
export function countView(
  db: Database,
  request: Request,
  target: { contentType: ViewContentType; contentId: number },
  { config }: { config?: Config } = {},
): void {
  if (!isCountableView(request)) return;
  let readerKey: string;
  try {
    readerKey = readerKeyFor(request, { config });
  } catch (error) {
    logger.warn({ err: error }, "view not counted: no reader key");
    return;
  }
  void recordView(db, { ...target, readerKey }).catch((error) => logger.warn({ err: error, ...target }, "view not counted"));
}

/**
 * Deletes view rows of days before `before` (UTC). Only today's rows are needed to count once per reader per
 * day; the totals live in the items' own counters. For a daily job; returns the number of rows removed.
 */
export async function pruneViews(db: Database, before: Date = new Date()): Promise<number> {
  const removed = await db
    .delete(contentViews)
    .where(lt(contentViews.day, utcDay(before)))
    .returning({ id: contentViews.contentId });
  return removed.length;
}
