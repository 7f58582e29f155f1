/**
 * Search's limits (server/search/search-limits.server.ts, decision 0128): each rule on its own, counted in memory.
 * The page-cache rule (hits are never counted) and the HTTP answers (429, Retry-After, the message) are checked
 * against a running server in tests/e2e/search/limits.e2e.test.ts.
 */
import { describe, expect, it } from "vitest";
import { checkConfig, parseSearchRateLimit } from "#server/config.server.ts";
import { CLIENT_IP_HEADER } from "#server/content/views.server.ts";
import { MEMORY_STORE } from "#server/http/rate-limit.server.ts";
import { withRenderScope } from "#server/http/render-scope.server.ts";
import { createSearchLimits, SEARCH_COOKIE, SEARCH_COOKIE_PATHS, type SearchLimitVerdict } from "./search-limits.server.ts";

/** Whole seconds until the window ends: at most the minute (never a timing). */
const RETRY = expect.any(Number) as unknown as number;
const SECRET = "search-limits-test-secret-0123456789abcdef";
let n = 0;
const limitsOf = (reader: number, address: number, sessionReader?: (r: Request) => Promise<string | null>) =>
  createSearchLimits({ limits: { reader, address }, secret: () => SECRET, store: MEMORY_STORE, name: `t${++n}`, sessionReader });

const request = (ip: string, cookie?: string) =>
  new Request("http://site.test/api/search?q=x", { headers: { [CLIENT_IP_HEADER]: ip, ...(cookie ? { cookie } : {}) } });
/** The search cookie a verdict handed out, as the browser sends it back. */
const cookieOf = (verdict: SearchLimitVerdict) => {
  if (!verdict.allowed || !verdict.setCookie.length) throw new Error("no cookie handed out");
  return verdict.setCookie[0].split(";")[0];
};

describe("SEARCH_RATE_LIMIT", () => {
  it("takes a reader's figure, with the address's ten times it, or both", () => {
    expect(parseSearchRateLimit("30")).toEqual({ reader: 30, address: 300 });
    expect(parseSearchRateLimit("20, 1000")).toEqual({ reader: 20, address: 1000 });
    expect(checkConfig({}).config.SEARCH_RATE_LIMIT).toEqual({ reader: 30, address: 300 });
    expect(checkConfig({ SEARCH_RATE_LIMIT: "5" }).config.SEARCH_RATE_LIMIT).toEqual({ reader: 5, address: 50 });
  });

  it("refuses what is not a limit, saying what it wants", () => {
    for (const bad of ["0", "abc", "30,10", "-5", "30/min", "20000", "30,300,3000"]) {
      expect(parseSearchRateLimit(bad), bad).toMatch(/^SEARCH_RATE_LIMIT must be searches per minute per reader/);
      expect(checkConfig({ SEARCH_RATE_LIMIT: bad }).errors.join("\n"), bad).toContain("SEARCH_RATE_LIMIT must be");
    }
  });
});

describe("search limits", () => {
  it("counts requests that name nobody per address, and hands each allowed one the signed cookie on search's paths", async () => {
    const limits = limitsOf(2, 3);
    const verdicts = [];
    for (let i = 0; i < 4; i++) verdicts.push(await limits.check(request("198.51.100.1")));
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, false]);
    expect(verdicts[3]).toEqual({ allowed: false, by: "address", retryAfterSeconds: RETRY });
    const wait = verdicts[3].allowed ? 0 : verdicts[3].retryAfterSeconds;
    expect(wait >= 1 && wait <= 60 && Number.isInteger(wait)).toBe(true);
    const lines = verdicts[0].allowed ? verdicts[0].setCookie : [];
    expect(lines.map((l) => /Path=([^;]+)/.exec(l)?.[1])).toEqual([...SEARCH_COOKIE_PATHS]);
    for (const line of lines) expect(line).toMatch(new RegExp(`^${SEARCH_COOKIE}=[\\w-]{22}\\.[\\w-]{22}; Max-Age=\\d+; Path=[^;]+; HttpOnly; SameSite=Lax$`));
    // Another address has its own budget.
    expect((await limits.check(request("198.51.100.2"))).allowed).toBe(true);
  });

  it("gives each reader with the cookie a budget of their own, so a busy address locks nobody else out", async () => {
    const limits = limitsOf(2, 3);
    const town = "198.51.100.10";
    const ali = cookieOf(await limits.check(request(town)));
    const fatima = cookieOf(await limits.check(request(town)));
    // The address's shared budget is spent by others.
    await limits.check(request(town));
    expect((await limits.check(request(town))).allowed).toBe(false);
    // Each reader still searches, up to their own figure.
    expect(await limits.check(request(town, ali))).toEqual({ allowed: true, by: "reader", setCookie: [] });
    expect((await limits.check(request(town, ali))).allowed).toBe(true);
    expect(await limits.check(request(town, ali))).toEqual({ allowed: false, by: "reader", retryAfterSeconds: RETRY });
    expect((await limits.check(request(town, fatima))).allowed).toBe(true);
    // A reader's budget follows the reader, not the address (a phone moving between networks).
    expect((await limits.check(request("198.51.100.11", ali))).allowed).toBe(false);
  });

  it("takes a forged or tampered cookie for no cookie at all", async () => {
    const limits = limitsOf(1, 2);
    const real = cookieOf(await limits.check(request("198.51.100.20")));
    const tampered = real.replace(/\.(.)/, (_, c: string) => `.${c === "A" ? "B" : "A"}`);
    const forged = `${SEARCH_COOKIE}=${"a".repeat(22)}.${"b".repeat(22)}`;
    // Both count against the address, which the first search already used once.
    expect((await limits.check(request("198.51.100.20", tampered))).by).toBe("address");
    expect(await limits.check(request("198.51.100.20", forged))).toEqual({ allowed: false, by: "address", retryAfterSeconds: RETRY });
    // The real one is still its reader's.
    expect((await limits.check(request("198.51.100.20", real))).allowed).toBe(true);
  });

  it("holds all the readers of one address to ten times the address's figure", async () => {
    const limits = limitsOf(5, 1);
    const readers: string[] = [];
    // One cookie a minute from this address (its budget is 1): the others come from elsewhere, as a phone moves.
    for (let i = 0; i < 3; i++) readers.push(cookieOf(await limits.check(request(`203.0.113.${i + 1}`))));
    const busy = "198.51.100.30";
    const answers: boolean[] = [];
    for (let i = 0; i < 12; i++) answers.push((await limits.check(request(busy, readers[i % 3]))).allowed);
    expect(answers.slice(0, 10).every(Boolean)).toBe(true);
    expect(await limits.check(request(busy, readers[0]))).toEqual({ allowed: false, by: "ceiling", retryAfterSeconds: RETRY });
  });

  it("counts a signed-in reader under their account, whatever cookie or address", async () => {
    const limits = limitsOf(1, 1, (r) => Promise.resolve(r.headers.get("cookie")?.includes("token=good") ? "user-7" : null));
    const session = "sahara.session_token=good.sig";
    expect(await limits.check(request("198.51.100.40", session))).toEqual({ allowed: true, by: "reader", setCookie: [] });
    expect((await limits.check(request("198.51.100.41", session))).by).toBe("reader");
    // A session cookie that names nobody (expired) is no reader: the address counts.
    expect((await limits.check(request("198.51.100.40", "sahara.session_token=stale.sig"))).by).toBe("address");
  });

  it("hands out no cookie from a page-cache render, which answers everybody who asks for the page", async () => {
    const limits = limitsOf(2, 3);
    const { result } = await withRenderScope(() => limits.check(request("198.51.100.50")));
    expect(result).toEqual({ allowed: true, by: "address", setCookie: [] });
  });

  it("gives suggestions budgets ten times a search's, apart from the searches'", async () => {
    const limits = limitsOf(1, 2);
    const ip = "198.51.100.60";
    const suggestions: boolean[] = [];
    for (let i = 0; i < 21; i++) suggestions.push((await limits.check(request(ip), "suggest")).allowed);
    expect(suggestions.filter(Boolean).length).toBe(20);
    expect(await limits.check(request(ip), "search")).toMatchObject({ allowed: true, by: "address" });
  });
});
