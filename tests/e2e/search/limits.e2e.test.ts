/**
 * Search's limits against a running server of their own (SEARCH_RATE_LIMIT=2,4: two searches a minute per
 * reader, four per address), each rule of docs/decisions/0128-search-limits-queue-suggestions.md: a page the page
 * cache answers is never counted; searches that run are counted per address when they name nobody, per reader
 * with the search cookie, which one busy address does not lock out; a refusal is a 429 with Retry-After and the
 * spec's message, on the page and in the JSON. Every request comes from the same address (loopback), as a town
 * behind one carrier-grade NAT does: no forged X-Forwarded-For.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "#tests/e2e/support/server.ts";

const RATE_LIMITED_AR = "أجريت عدداً كبيراً من عمليات البحث في وقت قصير. انتظر دقيقة ثم أعد المحاولة.";

describe("search limits that fit carrier-grade NAT", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ SEARCH_RATE_LIMIT: "2,4" });
  });
  afterAll(async () => server?.stop());

  const page = (q: string, cookie?: string) => fetch(`${server.url}/search?q=${encodeURIComponent(q)}`, { headers: cookie ? { cookie } : {} });
  const json = (q: string) => fetch(`${server.url}/api/search?q=${encodeURIComponent(q)}`);

  it("never counts a page the page cache answers, and counts the searches that run per address, then answers 429", async () => {
    // The same search page twenty times: one render, nineteen answers from the cache, one search counted.
    const states: (string | null)[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await page("نواكشوط");
      expect(res.status).toBe(200);
      // A page-cache render hands out no cookie: it answers everybody who asks for that page.
      expect(res.headers.getSetCookie()).toEqual([]);
      states.push(res.headers.get("x-page-cache"));
      await res.arrayBuffer();
    }
    expect(states[0]).toBe("MISS");
    expect(states.slice(1).every((s) => s === "HIT" || s === "HIT-SHARED")).toBe(true);

    // Three other searches run: with the first, the address's four.
    for (const q of ["شنقيط", "وادان", "تيشيت"]) expect((await page(q)).status).toBe(200);
    const refused = await page("ولاتة");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    const html = await refused.text();
    expect(html).toContain('data-code="RATE_LIMITED"');
    expect(html).toContain(RATE_LIMITED_AR);
    // The JSON search shares the budget, in the APIs' error shape.
    const api = await json("ولاتة");
    expect(api.status).toBe(429);
    expect(api.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe("RATE_LIMITED");
    // What the cache holds is still served to everybody at that address.
    expect((await page("نواكشوط")).status).toBe(200);
  });
});

describe("readers with the search cookie behind one busy address", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ SEARCH_RATE_LIMIT: "2,4" });
  });
  afterAll(async () => server?.stop());

  const get = (path: string, cookie?: string) => fetch(server.url + path, { headers: cookie ? { cookie } : {} });
  const q = (text: string) => encodeURIComponent(text);

  it("gives each their own budget: the town keeps searching when its address is spent, each reader up to their figure", async () => {
    // Two readers get their cookie from a search's answer (never from the page cache's).
    const first = await get(`/api/search?q=${q("أطار")}`);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toMatch(/^private/);
    const lines = first.headers.getSetCookie();
    expect(lines.map((l) => /Path=([^;]+)/.exec(l)?.[1])).toEqual(["/search", "/search.data", "/api/search"]);
    expect(lines.every((l) => /HttpOnly/i.test(l) && /SameSite=Lax/i.test(l))).toBe(true);
    const aicha = lines[0].split(";")[0];
    // A search from a hydrated page (React Router's data request) hands it out too.
    const second = await get(`/search.data?q=${q("روصو")}`);
    expect(second.status).toBe(200);
    const moussa = second.headers.getSetCookie()[0].split(";")[0];
    expect(moussa).toMatch(/^sahara_search=/);
    expect(moussa).not.toBe(aicha);

    // Others at the address spend what it has left.
    for (const text of ["كيفة", "النعمة"]) expect((await get(`/search?q=${q(text)}`)).status).toBe(200);
    expect((await get(`/search?q=${q("العيون")}`)).status).toBe(429);

    // Aicha and Moussa still search, the page and the JSON alike, and no new cookie is handed out.
    const own = await get(`/search?q=${q("تجكجة")}`, aicha);
    expect(own.status).toBe(200);
    expect(own.headers.getSetCookie()).toEqual([]);
    expect((await get(`/api/search?q=${q("ازويرات")}`, aicha)).status).toBe(200);
    // Her third in the minute waits; Moussa is not held up by her.
    const hers = await get(`/search?q=${q("بوتلميت")}`, aicha);
    expect(hers.status).toBe(429);
    expect(hers.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await get(`/search?q=${q("بوتلميت")}`, moussa)).status).toBe(200);

    // A cookie we did not sign is no reader: it counts against the spent address.
    const forged = `sahara_search=${"a".repeat(22)}.${"b".repeat(22)}`;
    expect((await get(`/search?q=${q("أكجوجت")}`, forged)).status).toBe(429);
  });
});
