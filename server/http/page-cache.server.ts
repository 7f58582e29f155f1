/**
 * The full-page cache for anonymous readers (docs/decisions/0106-page-cache.md).
 *
 * A public GET page (or feed: /rss.xml and its /fr, /en twins, /sitemap.xml, /sitemaps/N.xml) is rendered once per
 * address (path and query as sent: the language is in the address, docs/decisions/0143-language-addresses.md),
 * kept as bytes (identity, gzip and brotli) with a weak ETag, and served from memory:
 *  - fresh for `freshMs`; then served stale for `staleMs` more while one request renders it again in the
 *    background (stale-while-revalidate); after that a request waits for a new render;
 *  - a miss renders once: requests for the same page arriving meanwhile wait for that render (no stampede);
 *  - a failed render (5xx, an exception, or a degraded page: a read failed and the page shows less) is never
 *    kept; the last good page is served instead for `errorMs` (stale-if-error), else a 503;
 *  - every read-cache invalidation (server/content/cache.server.ts `invalidate`: the newsroom's saves and deletes, scheduled
 *    publishing, and other processes' writes through Redis) expires every page; a change of the social feed
 *    expires the pages that show it. An expired page is not served again except when a render fails.
 * Only requests with no cookie but the language cookie and the reading preferences' and no Authorization header are
 * served from it (the language cookie decides nothing on an address that names its language: it is not even passed
 * to the render). A reader who chose night reading or a text size (decision 0149) gets a copy of the page rendered
 * with that choice, kept beside the common one under the address and the choice (nine at most), and sent `private`
 * with `Vary: Cookie`, so that no shared cache hands it to anyone else; readers without a choice share the one page;
 * only 200 HTML (or feed XML) answers without Set-Cookie and without a private or no-store Cache-Control are
 * kept. Everything else passes to the app untouched; responseCachePolicy marks what is personal `private`.
 * A page every reader shares varies on Accept-Encoding alone, so that a shared cache (a CDN) keeps one copy per address.
 * It names what it shows in `Surrogate-Key` and `Cache-Tag` (`surrogateKeys`, kept with the page so that every
 * hit replays them), and so does every other answer a shared cache may keep (`responseCachePolicy`): a purge by
 * one of the read cache's tags reaches every copy that showed it (docs/decisions/0145-shared-cache.md).
 *
 * Pages are rendered without a nonce; the Content-Security-Policy of a cached page lists the SHA-256 hash of
 * each of its inline scripts instead of the per-request nonce (no nonce is ever reused).
 */
import crypto from "node:crypto";
import { promisify } from "node:util";
import type { IncomingMessage, ServerResponse } from "node:http";
import zlib from "node:zlib";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { parse as parseCookie } from "cookie";
import { LRUCache } from "lru-cache";
import { LANGUAGE_COOKIE } from "#domain/language.ts";
import { READING_COOKIE } from "#domain/reading-preferences.ts";
import { isAddressedByLanguage, neutralPath } from "#domain/addresses.ts";
import { withoutTrackingParams } from "#domain/link-tags.ts";
import { CACHE_TAG_NAMES, onInvalidate } from "#server/content/cache.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { newRenderScope, runInRenderScope, withRenderScope, type RenderScope } from "./render-scope.server.ts";
import { requestUrl } from "./request-guard.server.ts";
import { SURROGATE_KEY_HEADER, surrogateKeyHeaders } from "./shared-cache.server.ts";
import { readingVariantOf } from "./reading-preferences.server.ts";

const gzip = promisify(zlib.gzip);
/** The least brotli window (2^lgwin − 16 bytes) that holds a page of `bytes`, within brotli's 16..24. */
const brotliWindowOf = (bytes: number) => Math.min(24, Math.max(16, Math.ceil(Math.log2(bytes + 16))));
const brotli = promisify(zlib.brotliCompress);

/** Renders one request the way the app would (React Router's fetch handler), for nobody in particular. */
export type RenderPage = (request: Request) => Promise<Response>;

export type PageCacheOptions = {
  render: RenderPage;
  /** The public origin pages are rendered under (config.publicUrl), never the request's Host header. */
  origin: string;
  /** The Cache-Control a kept page is sent with (CDN_MAX_AGE…: config `sharedCacheControl`); else from the lifetimes below. */
  cacheControl?: string;
  freshMs?: number;
  staleMs?: number;
  errorMs?: number;
  /** Bytes kept, all three encodings of all pages together. */
  maxBytes?: number;
  now?: () => number;
};

type Entry = {
  path: string;
  headers: [string, string][];
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
  /** 'sha256-…' of each inline script, for the CSP. */
  scriptHashes: string[];
  /** The last policy this page was sent with, and that policy with its script hashes (most answers share one). */
  csp?: { policy: string; withHashes: string };
  /** The fast path's answers with this page, header blocks made once (freshBlocks). */
  fresh?: FreshBlocks;
  /** The reading preferences it was rendered with (decision 0149), null for the page every reader without one shares. */
  variant: string | null;
  storedAt: number;
  freshUntil: number;
  staleUntil: number;
};

/** A render's answer, whole: kept when it is a good page, else passed on as it is. */
type Rendered = { status: number; headers: [string, string][]; body: Buffer; scriptHashes: string[]; failed: boolean };
type Fill = { entry: Entry | null; rendered: Rendered | null; error?: unknown };

export const PAGE_CACHE_DEFAULTS = { freshMs: 60_000, staleMs: 10 * 60_000, errorMs: 24 * 60 * 60_000, maxBytes: 64 * 1024 * 1024 };

/** Never from the cache, in any language: the back-office, sign-in, set-up, debugging, APIs, the language switch. */
const PRIVATE_PATHS = /^\/(?:admin|api|auth|debug|setup|language|preferences|files|uploads)(?:\/|$)/;
/** The feeds and sitemaps, kept like pages so that an outage serves their last good copy (not HTML, but public). */
const FEED_PATHS = /^\/(?:rss\.xml|sitemap\.xml|sitemaps\/[^/]+\.xml)$/;
/** Whether a path (any language's address) is a feed or sitemap the cache keeps. */
export const isFeedPath = (path: string) => FEED_PATHS.test(neutralPath(path));
/**
 * A live coverage's entries (JSON: shared caches keep it by its own headers, the process's read cache holds its
 * reads) and its event stream (never kept anywhere): not pages, though their paths have no extension.
 */
const LIVE_PATHS = /^\/coverage\/[^/]+\/(?:entries|stream)$/;
/** Pages that show the social feed (home and news blocks, /facebook, in every language): expired when the feed changes. */
const SOCIAL_PAGES = new Set(["/", "/news", "/facebook"]);
/** Headers of the rendered answer that the cache sets itself or must never replay. */
const DROPPED_HEADERS = new Set([
  "set-cookie",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "etag",
  "cache-control",
  "vary",
  "date",
]);
export const PAGE_CACHE_HEADER = "X-Page-Cache";

/** The inline scripts of a page (no src), those a browser runs: classic and module scripts, not data blocks. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attrs = m[1];
    if (/\bsrc\s*=/i.test(attrs)) continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1]?.toLowerCase();
    if (type && type !== "module" && type !== "text/javascript" && type !== "application/javascript") continue;
    hashes.add(`'sha256-${crypto.createHash("sha256").update(m[2], "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

/** The policy of this response with its nonce replaced by the page's script hashes (or by nothing). */
export function policyWithHashes(policy: string, hashes: readonly string[]): string {
  return policy.replace(/\s*'nonce-[^']*'/g, hashes.length ? ` ${hashes.join(" ")}` : "");
}

type RequestParts = { method: string; path: string; headers: Record<string, string | string[] | undefined> };

/**
 * Whether a request carries anything that may make its answer personal: a cookie but the language's and the
 * reading preferences' (nobody's secret: the cache keeps a copy per choice, `readingVariantOf`), or Authorization.
 */
export function carriesCredentials(req: Pick<RequestParts, "headers">): boolean {
  if (req.headers.authorization) return true;
  const cookie = req.headers.cookie;
  if (!cookie) return false;
  const names = Object.keys(parseCookie(Array.isArray(cookie) ? cookie.join("; ") : cookie));
  return names.some((name) => name !== LANGUAGE_COOKIE && name !== READING_COOKIE);
}

/** The Cache-Control and Vary of a page rendered with a reader's choice: theirs alone, revalidated by its ETag. */
const VARIANT_CACHE_CONTROL = "private, max-age=0";
const VARIANT_VARY = "Accept-Encoding, Cookie";

/** Whether a request may be answered from the cache: an anonymous GET or HEAD of a public page. */
export function isCacheableRequest(req: RequestParts): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  if (PRIVATE_PATHS.test(neutralPath(req.path)) || LIVE_PATHS.test(neutralPath(req.path))) return false;
  // Files, feeds and React Router's data requests (/news.data) are not HTML pages.
  if (/\.[a-z0-9]+$/i.test(req.path) && !isFeedPath(req.path)) return false;
  // A page whose language the reader's headers would choose cannot be kept under its address alone.
  if (!isAddressedByLanguage(req.path) && !isFeedPath(req.path)) return false;
  return !carriesCredentials(req);
}

/**
 * The surrogate keys of an answer (docs/decisions/0145-shared-cache.md): `site` on all; the read-cache tags of what
 * its render read (every tag when it read the database outside the read cache: what it shows cannot be named);
 * `<type>-<id>` of the item a detail page shows; `home` on the home page and `social` on the pages showing the
 * social feed, in every language. A shared cache purged by one of them drops the answer.
 */
export function surrogateKeys(path: string, scope: Pick<RenderScope, "tags" | "unkeyed" | "views">): string[] {
  const keys = new Set<string>(["site"]);
  for (const tag of scope.unkeyed ? [...CACHE_TAG_NAMES, ...scope.tags] : scope.tags) keys.add(tag);
  const page = neutralPath(path);
  if (page === "/") keys.add("home");
  if (SOCIAL_PAGES.has(page)) keys.add("social");
  for (const view of scope.views) keys.add(`${view.contentType}-${view.contentId}`);
  return [...keys];
}

/** The Cache-Control of a page served from a cache with these lifetimes (shared caches may keep it as we do). */
export function publicCacheControl({ freshMs, staleMs, errorMs }: Pick<typeof PAGE_CACHE_DEFAULTS, "freshMs" | "staleMs" | "errorMs">): string {
  return `public, max-age=0, s-maxage=${Math.round(freshMs / 1000)}, stale-while-revalidate=${Math.round(staleMs / 1000)}, stale-if-error=${Math.round(errorMs / 1000)}`;
}

/**
 * Cache headers of every answer that does not come from the page cache, whether the cache is on or off: an
 * answer to a request with credentials (a session cookie) is `private, no-store` in any format — HTML, React
 * Router's `.data`, JSON — unless its route said otherwise, and so is any other HTML; a page or its `.data`
 * varies with the Cookie header, except an anonymous reading page's, whose address alone decides its language
 * (decision 0143: it varies on Accept-Encoding only). An anonymous `.data` answer may be kept by shared caches
 * like its page (`pageControl`) when it is a 200; any other (a redirect, an error) is `no-store`.
 */
export function responseCachePolicy(pageControl: string) {
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    // A reading choice changes the page (and the root's `.data`): never kept by a shared cache under the address alone.
    const personal = carriesCredentials(req) || readingVariantOf(req.headers.cookie) !== null;
    // A read (a page the page cache does not answer, a feed, public JSON) notes what it reads, for its keys.
    const scope = req.method === "GET" || req.method === "HEAD" ? newRenderScope() : undefined;
    const isData = req.path.endsWith(".data");
    const addressed = isAddressedByLanguage(isData ? pageOfData(req.path) : req.path);
    const writeHead = res.writeHead.bind(res);
    res.writeHead = function (...args: Parameters<typeof writeHead>) {
      const status = typeof args[0] === "number" ? args[0] : res.statusCode;
      const isHtml = String(res.getHeader("Content-Type") ?? "").startsWith("text/html");
      if (personal || ((isHtml || isData) && !addressed)) res.vary("Cookie");
      const control = res.getHeader("Cache-Control");
      // A route's own no-store, on an answer for someone, says private too.
      if (personal && typeof control === "string" && /\bno-store\b/.test(control) && !/\bprivate\b/.test(control))
        res.setHeader("Cache-Control", `private, ${control}`);
      if (!control) {
        if (personal || isHtml) res.setHeader("Cache-Control", "private, no-store");
        else if (isData && status === 200 && req.method === "GET" && !res.getHeader("Set-Cookie")) res.setHeader("Cache-Control", pageControl);
        // Any other data answer, a redirect above all (React Router answers a .data request's redirect 202 with
        // its target in the body), is kept by no cache: an old address's answer must follow the item it leads to.
        else if (isData) res.setHeader("Cache-Control", "no-store");
      }
      // Whoever asked, an answer a shared cache may keep names what it shows (public JSON is the same for everyone).
      if (scope && sharedCacheMayKeep(res)) {
        // A cookie is somebody's: an answer that sets one is nobody else's to keep.
        if (res.getHeader("Set-Cookie")) res.setHeader("Cache-Control", "private, no-store");
        else if (!res.getHeader(SURROGATE_KEY_HEADER))
          for (const [name, value] of surrogateKeyHeaders(surrogateKeys(isData ? pageOfData(req.path) : req.path, scope))) res.setHeader(name, value);
      }
      return writeHead(...args);
    } as typeof writeHead;
    if (scope) runInRenderScope(scope, next);
    else next();
  };
}

/** Whether an answer's Cache-Control lets a shared cache keep it. */
function sharedCacheMayKeep(res: ExpressResponse): boolean {
  const control = String(res.getHeader("Cache-Control") ?? "");
  return /\b(?:public|s-maxage)\b/.test(control) && !/\b(?:private|no-store)\b/.test(control);
}

/** The page a React Router data request is for: `/fr/news.data` → `/fr/news`, `/_root.data` → `/`. */
function pageOfData(path: string): string {
  const page = path.slice(0, -".data".length);
  return page.endsWith("/_root") ? page.slice(0, -"_root".length) : page;
}

type Encoding = "br" | "gzip" | "identity";
/** The Accept-Encoding values seen and their answer: a handful of browsers' strings, over and over. */
const encodings = new Map<string, Encoding>();

/** The encoding a cached page is sent in: brotli, else gzip, else the page as it is (only what the cache keeps). */
export function preferredEncoding(accept: string | undefined): Encoding {
  if (accept === undefined) return "identity";
  let known = encodings.get(accept);
  if (known === undefined) {
    known = parsedEncoding(accept);
    if (encodings.size >= 256) encodings.clear();
    encodings.set(accept, known);
  }
  return known;
}

function parsedEncoding(accept: string): Encoding {
  const q = new Map<string, number>();
  for (const part of accept.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    q.set(name, qParam ? Number(qParam.slice(2)) || 0 : 1);
  }
  const accepts = (name: string) => (q.get(name) ?? q.get("*") ?? 0) > 0;
  if (accepts("br")) return "br";
  if (accepts("gzip")) return "gzip";
  return "identity";
}

/**
 * The request the page is rendered from: the reader's headers without anything personal, under our origin. Nor
 * the language cookie or Accept-Language: the page is kept under its address alone, so nothing but the address
 * may choose its language.
 */
function renderRequest(req: ExpressRequest, origin: string, variant: string | null): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || UNRENDERED_HEADERS.has(name) || name.startsWith("if-")) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  // The one cookie a kept page may depend on, as the copy's key names it (decision 0149).
  if (variant) headers.set("cookie", `${READING_COOKIE}=${variant}`);
  // Rendered from the address it is kept under (`keyOf`): the tracking tags change nothing on the page.
  const target = { originalUrl: withoutTrackingParams(req.originalUrl), protocol: req.protocol, headers: req.headers };
  return new Request(requestUrl(target, origin), { method: "GET", headers });
}
const UNRENDERED_HEADERS = new Set(["cookie", "authorization", "host", "accept-language"]);

type Lifetimes = { freshMs: number; staleMs: number; now: () => number };

/**
 * Renders a page once and says whether it may be kept; a good page comes back as an entry with its three
 * encodings. `current` tells, once the render has landed, whether no invalidation happened meanwhile.
 */
async function renderEntry(render: RenderPage, request: Request, current: () => boolean, { freshMs, staleMs, now }: Lifetimes): Promise<Fill> {
  let rendered: Rendered;
  try {
    const { result, scope } = await withRenderScope(async () => {
      const response = await render(request);
      return { response, body: Buffer.from(await response.arrayBuffer()) };
    });
    const { response, body } = result;
    const headers = [...response.headers.entries()];
    const type = response.headers.get("content-type") ?? "";
    const control = response.headers.get("cache-control") ?? "";
    const isHtml = type.startsWith("text/html");
    const scriptHashes = isHtml ? inlineScriptHashes(body.toString("utf8")) : [];
    // Degraded whatever the status: a detail page whose read failed answers with a redirect home.
    const failed = response.status >= 500 || scope.degraded;
    rendered = { status: response.status, headers, body, scriptHashes, failed };
    const isFeed = isFeedPath(new URL(request.url).pathname) && /\bxml\b/.test(type);
    const keep =
      response.status === 200 && (isHtml || isFeed) && !scope.degraded && !response.headers.has("set-cookie") && !/no-store|private|no-cache/i.test(control);
    if (!keep) return { entry: null, rendered };
    const [gz, br] = await Promise.all([
      gzip(body, { level: 9 }),
      brotli(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 7,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          // A window as large as the page, not brotli's 4 MB: the same bytes out, a 20 ms first compression of a
          // process down to 4 (the allocation), and less memory per compression.
          [zlib.constants.BROTLI_PARAM_LGWIN]: brotliWindowOf(body.length),
        },
      }),
    ]);
    const at = now();
    // Invalidated while rendering: the page may predate the write. It answers the requests that waited
    // for it and stays as a last resort, but it is not fresh.
    const fresh = current();
    const entry: Entry = {
      path: new URL(request.url).pathname,
      // The surrogate keys travel with the page's own headers, so every answer with it (a HIT, the fast path) names them.
      headers: [
        ...headers.filter(([name]) => !DROPPED_HEADERS.has(name.toLowerCase())),
        ...surrogateKeyHeaders(surrogateKeys(new URL(request.url).pathname, scope)),
      ],
      identity: body,
      gzip: gz,
      br,
      variant: request.headers.get("cookie") ? readingVariantOf(request.headers.get("cookie")) : null,
      etag: `W/"${crypto.createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
      scriptHashes,
      storedAt: at,
      freshUntil: fresh ? at + freshMs : 0,
      staleUntil: fresh ? at + freshMs + staleMs : 0,
    };
    return { entry, rendered };
  } catch (error) {
    return { entry: null, rendered: null, error };
  }
}

type SendSettings = { cacheControl: string; now: () => number };

/** Answers with a kept page: its headers, this answer's CSP with the page's script hashes, a 304 when the reader has it. */
function sendEntry(req: ExpressRequest, res: ExpressResponse, entry: Entry, state: string, { cacheControl, now }: SendSettings) {
  for (const [name, value] of entry.headers) res.setHeader(name, value);
  res.setHeader("Cache-Control", entry.variant ? VARIANT_CACHE_CONTROL : cacheControl);
  // The address decides the language and nothing personal is served from here (decision 0143); a reader's reading
  // choice is theirs (decision 0149).
  res.setHeader("Vary", entry.variant ? VARIANT_VARY : "Accept-Encoding");
  res.setHeader("ETag", entry.etag);
  res.setHeader("Age", String(Math.max(0, Math.floor((now() - entry.storedAt) / 1000))));
  res.setHeader(PAGE_CACHE_HEADER, state);
  const policy = res.getHeader("Content-Security-Policy");
  if (typeof policy === "string") {
    if (entry.csp?.policy !== policy) entry.csp = { policy, withHashes: policyWithHashes(policy, entry.scriptHashes) };
    res.setHeader("Content-Security-Policy", entry.csp.withHashes);
  }
  if (isCurrent(req.headers["if-none-match"], entry.etag)) {
    res.status(304).end();
    return;
  }
  const encoding = preferredEncoding(req.headers["accept-encoding"]);
  const body = encoding === "br" ? entry.br : encoding === "gzip" ? entry.gzip : entry.identity;
  // Set before the body is written, so compression() leaves the bytes alone.
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", String(body.length));
  res.status(200);
  if (req.method === "HEAD") res.end();
  else res.end(body);
}

/** Whether a reader's If-None-Match names this page (a weak comparison, as for any GET), or is `*`. */
function isCurrent(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const tags = ifNoneMatch.split(",").map((t) => t.trim().replace(/^W\//, ""));
  return tags.includes(etag.replace(/^W\//, "")) || tags.includes("*");
}

/**
 * The headers the fast path's answers start with, in order (server/http/fast-path.server.ts): the request id
 * (the first; its value is each answer's own) and the security headers of a public page.
 */
export type FreshLead = readonly (readonly [string, string])[];

/**
 * A page's answers from the fast path, as flat header lists for `writeHead` (name, value, name, value…) in the
 * order `sendEntry` after the lead's headers gives them — a 200 per encoding (a HEAD takes the same), and a 304 —
 * made once per page: an answer only writes its request id (at 1) and its Age (at `ageAt`) into one.
 */
type FreshBlocks = { lead: FreshLead; br: string[]; gzip: string[]; identity: string[]; notModified: string[]; ageAt: number };

function freshBlocks(entry: Entry, lead: FreshLead, cacheControl: string): FreshBlocks {
  // setHeader's rules: one value per name, a name set again keeps its place and takes the new value.
  const start = new Map<string, [string, string]>();
  const set = (headers: Map<string, [string, string]>, name: string, value: string) => headers.set(name.toLowerCase(), [name, value]);
  for (const [name, value] of lead) set(start, name, value);
  for (const [name, value] of entry.headers) set(start, name, value);
  set(start, "Cache-Control", entry.variant ? VARIANT_CACHE_CONTROL : cacheControl);
  set(start, "Vary", entry.variant ? VARIANT_VARY : "Accept-Encoding");
  set(start, "ETag", entry.etag);
  set(start, "Age", "0");
  set(start, PAGE_CACHE_HEADER, "HIT");
  const policy = start.get("content-security-policy");
  if (policy) set(start, policy[0], policyWithHashes(policy[1], entry.scriptHashes));
  const flat = (headers: Map<string, [string, string]>) => [...headers.values()].flat();
  const sent = (encoding: Encoding) => {
    const headers = new Map(start);
    if (encoding !== "identity") set(headers, "Content-Encoding", encoding);
    set(headers, "Content-Length", String(entry[encoding].length));
    return flat(headers);
  };
  const notModified = flat(start);
  const ageAt = [...start.keys()].indexOf("age") * 2 + 1;
  return { lead, br: sent("br"), gzip: sent("gzip"), identity: sent("identity"), notModified, ageAt };
}

/** A render's own answer, not kept (a 404, a redirect, a degraded page): passed on once, never stored. */
function sendRendered(req: ExpressRequest, res: ExpressResponse, rendered: Rendered, state: string, status = rendered.status) {
  for (const [name, value] of rendered.headers) {
    const lower = name.toLowerCase();
    if (lower === "content-length" || lower === "content-encoding" || lower === "transfer-encoding") continue;
    if (lower === "set-cookie") continue; // an anonymous page sets none; never hand one reader's to another
    res.append(name, value);
  }
  if (!rendered.headers.some(([name]) => name.toLowerCase() === "cache-control")) res.setHeader("Cache-Control", "no-store");
  res.setHeader(PAGE_CACHE_HEADER, state);
  if (status === 503) res.setHeader("Retry-After", "30");
  const policy = res.getHeader("Content-Security-Policy");
  if (typeof policy === "string") res.setHeader("Content-Security-Policy", policyWithHashes(policy, rendered.scriptHashes));
  res.status(status);
  if (req.method === "HEAD") res.end();
  else res.end(rendered.body);
}

function unavailable(res: ExpressResponse) {
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Retry-After", "30");
  res.setHeader(PAGE_CACHE_HEADER, "ERROR");
  res.status(503).type("text/plain; charset=utf-8").send("الخدمة غير متاحة مؤقتاً، حاول بعد قليل / Service temporarily unavailable, please try again shortly");
}

export type PageCache = ReturnType<typeof createPageCache>;

export function createPageCache(options: PageCacheOptions) {
  const { render, origin } = options;
  const freshMs = options.freshMs ?? PAGE_CACHE_DEFAULTS.freshMs;
  const staleMs = options.staleMs ?? PAGE_CACHE_DEFAULTS.staleMs;
  const errorMs = options.errorMs ?? PAGE_CACHE_DEFAULTS.errorMs;
  const now = options.now ?? Date.now;
  const entries = new LRUCache<string, Entry>({
    maxSize: options.maxBytes ?? PAGE_CACHE_DEFAULTS.maxBytes,
    sizeCalculation: (e) => e.identity.length + e.gzip.length + e.br.length + 512,
  });
  /** Renders under way, by key; a render started before the last invalidation is not joined. */
  const inflight = new Map<string, { generation: number; fill: Promise<Fill> }>();
  let generation = 0;
  /** `fastHits`: the hits among `hits` answered before Express's stack (server/http/fast-path.server.ts). */
  const stats = { hits: 0, fastHits: 0, stale: 0, misses: 0, renders: 0, failures: 0, bypasses: 0 };
  const sending: SendSettings = { cacheControl: options.cacheControl ?? publicCacheControl({ freshMs, staleMs, errorMs }), now };
  const send = (req: ExpressRequest, res: ExpressResponse, entry: Entry, state: string) => sendEntry(req, res, entry, state, sending);

  /**
   * The key of a page: its address, the target (path and query) as sent, the address naming the language, less the
   * tracking tags (utm_*, fbclid, gclid: where the reader came from, read by the page's script from the address bar),
   * so that a tagged link gets the one copy of its page (issue 45; deploy/varnish/default.vcl strips the same); then
   * the reader's reading choice when they made one (decision 0149): a copy of the page per choice.
   */
  const keyOf = (target: string, variant: string | null) => (variant ? `${withoutTrackingParams(target)}\n${variant}` : withoutTrackingParams(target));

  /** Starts (or joins) the render of a page; a good page is stored when it lands. */
  function fill(key: string, request: Request): { fill: Promise<Fill>; joined: boolean } {
    const running = inflight.get(key);
    if (running && running.generation === generation) return { fill: running.fill, joined: true };
    const gen = generation;
    stats.renders++;
    const promise = renderEntry(render, request, () => gen === generation, { freshMs, staleMs, now }).then((result) => {
      if (result.entry) entries.set(key, result.entry, { ttl: freshMs + staleMs + errorMs });
      else {
        stats.failures += result.rendered?.failed || result.error ? 1 : 0;
        if (result.error) logger.error({ err: result.error, url: request.url }, "page render failed");
      }
      return result;
    });
    const record = { generation: gen, fill: promise };
    inflight.set(key, record);
    void promise.finally(() => {
      if (inflight.get(key) === record) inflight.delete(key);
    });
    return { fill: promise, joined: false };
  }

  async function middleware(req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
    if (!isCacheableRequest(req)) {
      stats.bypasses++;
      return next();
    }
    try {
      const variant = readingVariantOf(req.headers.cookie);
      const request = renderRequest(req, origin, variant);
      const key = keyOf(req.originalUrl, variant);
      const entry = entries.get(key);
      const t = now();
      if (entry && t < entry.freshUntil) {
        stats.hits++;
        return send(req, res, entry, "HIT");
      }
      if (entry && t < entry.staleUntil) {
        stats.stale++;
        fill(key, request); // in the background; a failure keeps this copy
        return send(req, res, entry, "STALE");
      }
      stats.misses++;
      const { fill: filling, joined } = fill(key, request);
      const result = await filling;
      if (result.entry) return send(req, res, result.entry, joined ? "HIT-SHARED" : "MISS");
      const failed = !result.rendered || result.rendered.failed;
      // stale-if-error: the last good page rather than an error or a page with parts missing.
      if (failed && entry && t < entry.storedAt + freshMs + staleMs + errorMs) return send(req, res, entry, "STALE-IF-ERROR");
      if (!result.rendered) return unavailable(res);
      return sendRendered(req, res, result.rendered, failed ? "ERROR" : "PASS", result.rendered.status >= 500 ? 503 : result.rendered.status);
    } catch (error) {
      next(error);
    }
  }

  /**
   * The fast path's question (server/http/fast-path.server.ts), asked before Express runs: the fresh page this
   * request would get from `middleware` as a HIT, or undefined for anything else (a bypass, a miss, a stale page:
   * those go through Express). `url` is the request target as received (the guard changes none the fast path takes).
   */
  function freshPage(req: { method: string; url: string; headers: RequestParts["headers"] & ExpressRequest["headers"] }): Entry | undefined {
    if ((req.method !== "GET" && req.method !== "HEAD") || carriesCredentials(req)) return undefined;
    // The rest of isCacheableRequest is about the path: a page is only ever kept under the target of a request
    // that passed it (`middleware`), so this same target passes it too.
    const entry = entries.get(keyOf(req.url, readingVariantOf(req.headers.cookie)));
    return entry && now() < entry.freshUntil ? entry : undefined;
  }

  /**
   * Answers with a page `freshPage` found, as `middleware` answers a HIT after the lead's headers, in one
   * `writeHead` of the page's header block (nothing may have been set on `res` before). Returns the body's bytes.
   */
  function sendFresh(req: IncomingMessage, res: ServerResponse, entry: Entry, lead: FreshLead, id: string): number {
    stats.hits++;
    stats.fastHits++;
    const blocks = entry.fresh?.lead === lead ? entry.fresh : (entry.fresh = freshBlocks(entry, lead, sending.cacheControl));
    const age = String(Math.max(0, Math.floor((now() - entry.storedAt) / 1000)));
    if (isCurrent(req.headers["if-none-match"], entry.etag)) {
      const headers = blocks.notModified;
      headers[1] = id;
      headers[blocks.ageAt] = age;
      res.writeHead(304, headers);
      res.end();
      return 0;
    }
    const encoding = preferredEncoding(req.headers["accept-encoding"]);
    const headers = blocks[encoding];
    headers[1] = id;
    headers[blocks.ageAt] = age;
    res.writeHead(200, headers);
    if (req.method === "HEAD") {
      res.end();
      return 0;
    }
    const body = entry[encoding];
    res.end(body);
    return body.length;
  }

  /** Expires pages (all, or those a predicate picks): they are rendered again on their next request. */
  function expire(which: (entry: Entry) => boolean = () => true) {
    generation++;
    for (const entry of entries.values()) {
      if (which(entry)) {
        entry.freshUntil = 0;
        entry.staleUntil = 0;
      }
    }
  }

  return {
    middleware,
    freshPage,
    sendFresh,
    expire,
    /** A change of the social feed: the pages that show it. */
    expireSocialPages: () => expire((entry) => SOCIAL_PAGES.has(neutralPath(entry.path))),
    clear: () => {
      generation++;
      entries.clear();
    },
    stats: () => ({ ...stats, size: entries.size, bytes: entries.calculatedSize }),
  };
}

/**
 * Keeps a page cache in step with the content: every read-cache invalidation (a write here, scheduled
 * publishing, another process's write) expires every page; a social feed change expires the pages showing it.
 * Returns the unsubscribe.
 */
export function followInvalidations(cache: PageCache, onSocialChange?: (listener: () => void) => () => void): () => void {
  const offWrites = onInvalidate(() => cache.expire());
  const offSocial = onSocialChange?.(() => cache.expireSocialPages());
  return () => {
    offWrites();
    offSocial?.();
  };
}
