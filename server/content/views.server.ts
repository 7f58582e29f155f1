/**
 * Who a beacon's reader is, and whether they are one (issue 45, docs/decisions/0147-audience-figures.md): the daily
 * reader key behind every audience figure and the items' running view counts, and the requests that are not
 * counted. The counting itself is server/analytics/collect.server.ts.
 *
 * A reader is a key, not a person: an HMAC-SHA-256 of the client address, the user agent and the day, under a
 * key derived from the server's secret (decision 0041). The address is never stored, the key changes every day (so
 * a reader cannot be followed from one day to the next) and it cannot be reversed without the server's secret.
 *
 * A view is counted by the page's beacon, not by the page's answer (docs/decisions/0145-shared-cache.md): behind a
 * CDN most answers never reach us. The detail loader notes its item (`noteShownItem`: the answer's surrogate key
 * `<type>-<id>`); every reading page names itself in its `sahara-view` meta tag, and its script
 * (app/enhance/reading.js) posts the beacon to POST /api/views once per page load.
 */
import crypto from "node:crypto";
import { isbot } from "isbot";
import type { ContentType } from "#domain/content-types/index.ts";
import { getConfig, type Config } from "#server/config.server.ts";
import { authSecret } from "#server/ops/secrets.server.ts";
import { noteItem } from "#server/http/render-scope.server.ts";

/** Any type's items are counted; a type whose definition has `viewCounter` also keeps a running total for its listings. */
export type ViewContentType = ContentType;

/** The running total's column on the table of every type with `viewCounter`. */
export const VIEW_COUNT_COLUMN = "view_count";

/**
 * The header carrying the client address from Express (req.ip, which honours `trust proxy`) to the React
 * Router request. server/app.server.ts overwrites it on every request, so a client cannot supply its own.
 */
export const CLIENT_IP_HEADER = "x-sahara-client-ip";

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

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
 * A reader who asked not to be followed: Do Not Track or Global Privacy Control. Their beacons are not recorded at
 * all (their browsers' scripts do not send them either).
 */
export function asksNotToBeTracked(request: Request): boolean {
  return request.headers.get("dnt")?.trim() === "1" || request.headers.get("sec-gpc")?.trim() === "1";
}
