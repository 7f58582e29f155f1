/**
 * The tags the site's own links carry out into the world (issue 45), so that the audience figures can say where a
 * reader came from without a cookie: a share button's link says `utm_source=whatsapp` or `telegram`, a newsletter's
 * `utm_source=newsletter&utm_campaign=send-<sendId>`, a push alert's `utm_source=push&utm_campaign=alert-<type>-<id>`
 * (an alert is keyed by its item: push_alerts' primary key is (content_type, item_id), it has no id of its own).
 * The page's script reads them from `location.search` and sends them with its beacon (app/enhance/reading.js).
 *
 * A cache must not keep one copy of a page per tag: the page cache keys a page by its address without them
 * (`withoutTrackingParams`, server/http/page-cache.server.ts) and deploy/varnish/default.vcl strips the same ones
 * (utm_*, fbclid, gclid) from the address it hashes and fetches.
 *
 * Client-safe: plain functions of strings.
 */

export type LinkTags = { source: string; campaign?: string };

/** The campaign of a newsletter send's links. */
export const newsletterCampaign = (sendId: number): string => `send-${sendId}`;

/** The campaign of a push alert's link: the alert's key, its item's type and id (`alert-news-42`, `alert-coverage_entry-7`). */
export const pushAlertCampaign = (type: string, id: number): string => `alert-${type}-${id}`;

/** The send a newsletter campaign names, or null (the dashboard's join to newsletter_sends). */
export function sendIdOfCampaign(campaign: string): number | null {
  const m = /^send-(\d{1,9})$/.exec(campaign);
  return m ? Number(m[1]) : null;
}

/** The alert a push campaign names, or null (the dashboard's join to push_alerts). */
export function pushAlertOfCampaign(campaign: string): { type: string; id: number } | null {
  const m = /^alert-([a-z_]+)-(\d{1,9})$/.exec(campaign);
  return m ? { type: m[1], id: Number(m[2]) } : null;
}

/**
 * An address with our tags added to its query, before any fragment (`/media#media-3` → `/media?utm_source=…#media-3`);
 * a tag the address already has is replaced, not repeated.
 */
export function taggedUrl(url: string, { source, campaign }: LinkTags): string {
  const hashAt = url.indexOf("#");
  const hash = hashAt < 0 ? "" : url.slice(hashAt);
  const head = hashAt < 0 ? url : url.slice(0, hashAt);
  const queryAt = head.indexOf("?");
  const path = queryAt < 0 ? head : head.slice(0, queryAt);
  const kept =
    queryAt < 0
      ? []
      : head
          .slice(queryAt + 1)
          .split("&")
          .filter((part) => part !== "" && !/^utm_(?:source|campaign)(?:=|$)/i.test(part));
  const tags = [`utm_source=${encodeURIComponent(source)}`, ...(campaign ? [`utm_campaign=${encodeURIComponent(campaign)}`] : [])];
  return `${path}?${[...kept, ...tags].join("&")}${hash}`;
}

/** The query parameters that say where a reader came from and nothing about the page: never part of a cache key. */
const TRACKING_PARAM = /^(?:utm_[^=]*|fbclid|gclid)(?:=|$)/i;
/** A cheap first look: most targets carry none. */
const MAY_TRACK = /[?&](?:utm_|fbclid|gclid)/i;

/**
 * A request target (path and query) without the tracking parameters (utm_*, fbclid, gclid), the others kept in
 * their order: `/news/x?utm_source=push&page=2` → `/news/x?page=2`, `/?fbclid=abc` → `/`. A target without them
 * comes back as it is (the same string).
 */
export function withoutTrackingParams(target: string): string {
  if (!MAY_TRACK.test(target)) return target;
  const queryAt = target.indexOf("?");
  if (queryAt < 0) return target;
  const hashAt = target.indexOf("#", queryAt);
  const end = hashAt < 0 ? target.length : hashAt;
  const kept = target
    .slice(queryAt + 1, end)
    .split("&")
    .filter((part) => part !== "" && !TRACKING_PARAM.test(part));
  return `${target.slice(0, queryAt)}${kept.length ? `?${kept.join("&")}` : ""}${target.slice(end)}`;
}
