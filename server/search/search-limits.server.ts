/**
 * Search's rate limits, made for readers behind carrier-grade NAT, where a whole town shares a few addresses
 * (docs/decisions/0128-search-limits-queue-suggestions.md). What is counted is what costs: a search page the
 * page cache answers never reaches a loader and is never counted; a search that runs is counted once, in one
 * of two budgets (SEARCH_RATE_LIMIT, server/config.server.ts):
 *
 * - **the reader's own**, R a minute, when the request names a reader: a signed-in session, or the search
 *   cookie (SEARCH_COOKIE, a random id signed with the server's secret, handed out by the answers to
 *   searches and suggestions that are not page-cache renders). One busy address then holds up nobody else;
 *   all the readers of one address together are still held to a ceiling of 10 × A, since cookies are free;
 * - **the address's**, A a minute, for requests that name nobody: scripts, a first search, readers without
 *   JavaScript. A cookie is handed out only on an answer counted here, so an address cannot mint more than A
 *   of them a minute.
 *
 * The cookie is scoped to search's own paths (/search, its data requests, /api/search), so every other page
 * stays anonymous for the page cache. Suggestions as you type have budgets ten times these, of their own.
 * A refusal says when to try again (Retry-After) with the spec's message (search.errors.rateLimited).
 */
import crypto from "node:crypto";
import { parse as parseCookie, serialize as serializeCookie } from "cookie";
import { getConfig, type Config } from "#server/config.server.ts";
import { authSecret } from "#server/ops/secrets.server.ts";
import { clientAddress } from "#server/content/views.server.ts";
import { getSessionUser, hasSessionCookie } from "#server/auth/session.server.ts";
import { currentRenderScope } from "#server/http/render-scope.server.ts";
import { createRateLimiter, type RateLimiter, type RateLimitStoreOption } from "#server/http/rate-limit.server.ts";

/** The search cookie's name: a random id and its signature, nothing else. */
export const SEARCH_COOKIE = "sahara_search";
/** The paths it is sent to: the search page, its React Router data requests, the JSON search and suggestions. */
export const SEARCH_COOKIE_PATHS = ["/search", "/search.data", "/api/search"] as const;
const COOKIE_MAX_AGE_S = 30 * 86_400;
/** The readers of one address together: this many times the address's own budget. */
export const ADDRESS_CEILING_FACTOR = 10;
/** Suggestions (one per pause in typing, mostly cheap) have budgets this many times a search's. */
export const SUGGEST_FACTOR = 10;

export type SearchRateLimit = { reader: number; address: number };
export type SearchCost = "search" | "suggest";

export type SearchLimitVerdict =
  { allowed: true; by: "reader" | "address"; setCookie: string[] } | { allowed: false; by: "reader" | "address" | "ceiling"; retryAfterSeconds: number };

export type SearchLimitsOptions = {
  limits: SearchRateLimit;
  /** The key the search cookie is signed with. */
  secret: () => string;
  store?: RateLimitStoreOption;
  /** The signed-in reader's id, or null (by default the session of server/auth/session.server.ts). */
  sessionReader?: (request: Request) => Promise<string | null>;
  /** Whether the cookie may be Secure (the site is served over https). */
  secure?: () => boolean;
  /** Names the counters (tests give each their own). */
  name?: string;
};

export type SearchLimits = {
  /** Counts one search or suggestion of this request, and says whether it may run. */
  check(request: Request, cost?: SearchCost): Promise<SearchLimitVerdict>;
  reset(): Promise<void>;
};

const WINDOW_MS = 60_000;

export function createSearchLimits({
  limits,
  secret,
  store,
  sessionReader = sessionReaderOf,
  secure = () => false,
  name = "search",
}: SearchLimitsOptions): SearchLimits {
  const make = (what: string, limit: number) => createRateLimiter({ name: `${name}-${what}`, limit, windowMs: WINDOW_MS, store, maxKeys: 50_000 });
  const budgets = (factor: number) => ({
    reader: make(factor === 1 ? "reader" : "suggest-reader", limits.reader * factor),
    address: make(factor === 1 ? "address" : "suggest-address", limits.address * factor),
    ceiling: make(factor === 1 ? "ceiling" : "suggest-ceiling", limits.address * ADDRESS_CEILING_FACTOR * factor),
  });
  const of: Record<SearchCost, { reader: RateLimiter; address: RateLimiter; ceiling: RateLimiter }> = {
    search: budgets(1),
    suggest: budgets(SUGGEST_FACTOR),
  };
  let key: { secret: string; key: Buffer } | undefined;
  const signingKey = () => {
    const s = secret();
    if (key?.secret !== s) key = { secret: s, key: crypto.createHmac("sha256", s).update("sahara-media/search-cookie/v1").digest() };
    return key.key;
  };
  const sign = (id: string) => crypto.createHmac("sha256", signingKey()).update(id).digest("base64url").slice(0, 22);

  /** The reader the cookie names, when it is one we signed. */
  function cookieReader(request: Request): string | null {
    const value = parseCookie(request.headers.get("cookie") ?? "")[SEARCH_COOKIE];
    const match = value ? /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})$/.exec(value) : null;
    if (!match) return null;
    const expected = Buffer.from(sign(match[1]));
    const given = Buffer.from(match[2]);
    return expected.length === given.length && crypto.timingSafeEqual(expected, given) ? match[1] : null;
  }

  function newCookie(): string[] {
    const id = crypto.randomBytes(16).toString("base64url");
    const value = `${id}.${sign(id)}`;
    return SEARCH_COOKIE_PATHS.map((path) =>
      serializeCookie(SEARCH_COOKIE, value, { path, maxAge: COOKIE_MAX_AGE_S, httpOnly: true, sameSite: "lax", secure: secure() }),
    );
  }

  const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

  return {
    async check(request, cost = "search") {
      const budget = of[cost];
      const address = clientAddress(request);
      const session = hasSessionCookie(request) ? await sessionReader(request) : null;
      const reader = session ? `user:${session}` : cookieReader(request);
      if (reader) {
        const own = await budget.reader.hit(reader);
        if (!own.allowed) return { allowed: false, by: "reader", retryAfterSeconds: seconds(own.retryAfterMs) };
        const all = await budget.ceiling.hit(address);
        if (!all.allowed) return { allowed: false, by: "ceiling", retryAfterSeconds: seconds(all.retryAfterMs) };
        return { allowed: true, by: "reader", setCookie: [] };
      }
      const shared = await budget.address.hit(address);
      if (!shared.allowed) return { allowed: false, by: "address", retryAfterSeconds: seconds(shared.retryAfterMs) };
      // A page-cache render answers everybody who asks for that page: it sets no cookie (and stays cacheable).
      return { allowed: true, by: "address", setCookie: currentRenderScope() ? [] : newCookie() };
    },
    async reset() {
      await Promise.all(Object.values(of).flatMap((b) => [b.reader.reset(), b.address.reset(), b.ceiling.reset()]));
    },
  };
}

async function sessionReaderOf(request: Request): Promise<string | null> {
  return (await getSessionUser(request))?.id ?? null;
}

let configured: { limits: Config["SEARCH_RATE_LIMIT"]; value: SearchLimits } | undefined;

/** The process's search limits, from its configuration (counted in Redis when REDIS_URL is set). */
export function searchLimits(config: Config = getConfig()): SearchLimits {
  if (configured?.limits !== config.SEARCH_RATE_LIMIT) {
    configured = {
      limits: config.SEARCH_RATE_LIMIT,
      value: createSearchLimits({ limits: config.SEARCH_RATE_LIMIT, secret: () => authSecret(config), secure: () => config.publicUrl.startsWith("https://") }),
    };
  }
  return configured.value;
}
