/**
 * What a shared cache (a CDN, Varnish) may do with an anonymous answer (docs/decisions/0145-shared-cache.md): keep it
 * CDN_MAX_AGE seconds, serve it CDN_STALE_WHILE_REVALIDATE more while it fetches it again, and CDN_STALE_IF_ERROR
 * more while we fail. A purge by surrogate key (server/cdn/) ends it sooner; a browser keeps what each answer says.
 */
import { getConfig, type Config } from "#server/config.server.ts";

type Lifetimes = Pick<Config, "CDN_MAX_AGE" | "CDN_STALE_WHILE_REVALIDATE" | "CDN_STALE_IF_ERROR">;

/** `s-maxage=…, stale-while-revalidate=…, stale-if-error=…` of these settings (the configured ones by default). */
export function sharedCacheDirectives(config: Lifetimes = getConfig()): string {
  return `s-maxage=${config.CDN_MAX_AGE}, stale-while-revalidate=${config.CDN_STALE_WHILE_REVALIDATE}, stale-if-error=${config.CDN_STALE_IF_ERROR}`;
}

/** A page's (and its `.data`'s): browsers ask again every time (a 304 when unchanged), shared caches keep it. */
export function sharedPageCacheControl(config?: Lifetimes): string {
  return `public, max-age=0, ${sharedCacheDirectives(config)}`;
}

/** An answer browsers may keep `browserSeconds` too (public JSON: 60, feeds: 300). */
export function sharedCacheControl(browserSeconds: number, config?: Lifetimes): string {
  return `public, max-age=${browserSeconds}, ${sharedCacheDirectives(config)}`;
}

/**
 * The keys as Fastly's and Varnish xkey's `Surrogate-Key` (spaces), Cloudflare's `Cache-Tag` and Bunny's `CDN-Tag`
 * (commas): each CDN matches its tag purge against its own header only.
 */
export function surrogateKeyHeaders(keys: readonly string[]): [string, string][] {
  const listed = keys.join(",");
  return [
    [SURROGATE_KEY_HEADER, keys.join(" ")],
    [CACHE_TAG_HEADER, listed],
    [BUNNY_TAG_HEADER, listed],
  ];
}
export const SURROGATE_KEY_HEADER = "Surrogate-Key";
export const CACHE_TAG_HEADER = "Cache-Tag";
export const BUNNY_TAG_HEADER = "CDN-Tag";

/** A media file's keys (an upload, a video rendition): `site` and `media`; never changed under its name, it needs no other. */
export const MEDIA_SURROGATE_HEADERS = surrogateKeyHeaders(["site", "media"]);
