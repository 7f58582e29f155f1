/**
 * Suggestions as you type (server/search/suggest.server.ts) and their endpoint, GET /api/search/suggest
 * (app/routes/api/search-suggest.ts): published titles by the word being typed, in the reader's language, tags
 * of published items, the search's input rules, a brief cache, and the suggestion budget of decision 0128.
 */
import { sharedCacheDirectives } from "#server/http/shared-cache.server.ts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "#tests/helpers/db.ts";
import { setDatabaseHandle } from "#server/db/client.server.ts";
import { resetConfig } from "#server/config.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { SEARCH_COOKIE } from "./search-limits.server.ts";
import { syncSearchIndex } from "./search-index.server.ts";
import { suggestPublished, suggestTsquery, type Suggestion } from "./suggest.server.ts";
import { analyzeQuery } from "#domain/arabic.ts";
import { loader } from "#app/routes/api/search-suggest.ts";

const DAY = 86_400_000;

describe("suggestions as you type", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    vi.stubEnv("BETTER_AUTH_SECRET", "suggest-test-secret-0123456789abcdef0123");
    vi.stubEnv("SEARCH_RATE_LIMIT", "1,1");
    resetConfig();
    t = await createTestDatabase();
    setDatabaseHandle(t);
    const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
    const article = async (title: string, slug: string, status: string, date: string, titleFr: string | null = null) =>
      rowsOf<{ id: number }>(
        await t.db.execute(sql`insert into articles (title, title_fr, content, page_slug, status, publish_date)
          values (${title}, ${titleFr}, '<p>نص</p>', ${slug}, ${status}, ${date}::timestamptz) returning id`),
      )[0].id;
    const presidential = await article("الانتخابات الرئاسية في موريتانيا", "presidential", "published", at(-1), "L’élection présidentielle en Mauritanie");
    await article("انتخابات بلدية في أطار", "municipal", "published", at(-2));
    const draft = await article("الانتخابات التشريعية", "legislative-draft", "draft", at(-1));
    await article("الانتخابات المقبلة", "coming", "published", at(1));
    await t.db.execute(sql`insert into news (title, content, page_slug, status, publish_date)
      values ('نواكشوط تستضيف مهرجان المدن القديمة', '<p>نص</p>', 'festival', 'published', ${at(-3)}::timestamptz)`);
    const tag = async (name: string, key: string, slug: string, itemId: number) => {
      const [{ id }] = rowsOf<{ id: number }>(await t.db.execute(sql`insert into tags (name, match_key, slug) values (${name}, ${key}, ${slug}) returning id`));
      await t.db.execute(sql`insert into item_tags (content_type, item_id, tag_id) values ('article', ${itemId}, ${id})`);
    };
    await tag("الانتخابات", "الانتخابات", "elections", presidential);
    await tag("انتخابات محلية", "انتخابات محلية", "local-elections", draft);
    await syncSearchIndex(t.db);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    resetConfig();
    await t?.drop();
  });

  it("reads the word being typed as a prefix from three letters, its short stems and the other words whole", () => {
    const typed = (q: string, typing = true) => suggestTsquery(analyzeQuery(q), typing) ?? "";
    expect(typed("الانتخ")).toContain("'=الانتخ':*");
    expect(typed("الانتخ")).toMatch(/'انتخ':\*/);
    expect(typed("ان")).not.toContain(":*");
    expect(typed("انتخابات بلد")).toMatch(/^\('[^']+'( \| '[^']+')*\) & \(.*:\*/);
    expect(typed("انتخابات ", false)).not.toContain(":*");
    // A stem of two letters is never a prefix: it would read the postings of thousands of words.
    for (const part of typed("ونه").split(" | ")) expect(part.replace(/[()' ]/g, "").replace(/:\*$/, "").length >= 3 || !part.includes(":*")).toBe(true);
    // Three letters after the article and its particles: «وال», «للم», «الحا» are not prefixes yet, «بير» is.
    for (const q of ["وال", "للم", "الحا", "بالمد"]) expect(typed(q), q).not.toContain(":*");
    expect(typed("بير")).toContain("'=بير':*");
    expect(typed("الحاك")).toContain(":*");
    expect(suggestTsquery(analyzeQuery("؟؟"), true)).toBeNull();
  });

  const labels = (list: Suggestion[]) => list.map((s) => `${s.kind}:${s.label}→${s.url}`);

  it("completes the word being typed from published titles, newest first, then the tags of published items", async () => {
    const { suggestions } = await suggestPublished(t.db, "الانتخ", "ar");
    expect(labels(suggestions)).toEqual([
      "title:الانتخابات الرئاسية في موريتانيا→/articles/presidential",
      "title:انتخابات بلدية في أطار→/articles/municipal",
      "tag:الانتخابات→/tags/elections",
    ]);
    expect(suggestions[0]).toMatchObject({ type: "articles" });
    // Typed without the article or the hamza, and with a whole word before it.
    expect(labels((await suggestPublished(t.db, "انتخا", "ar")).suggestions)).toContain("title:انتخابات بلدية في أطار→/articles/municipal");
    expect(labels((await suggestPublished(t.db, "انتخابات بلد", "ar")).suggestions)).toEqual(["title:انتخابات بلدية في أطار→/articles/municipal"]);
    expect(labels((await suggestPublished(t.db, "اطا", "ar")).suggestions)).toEqual(["title:انتخابات بلدية في أطار→/articles/municipal"]);
    expect(labels((await suggestPublished(t.db, "نواكش", "ar")).suggestions)).toEqual(["title:نواكشوط تستضيف مهرجان المدن القديمة→/news/festival"]);
  });

  it("shows the French title to a French reader, and finds it by its French words", async () => {
    const { suggestions } = await suggestPublished(t.db, "الانتخابات الرئا", "fr");
    expect(labels(suggestions)).toEqual(["title:L’élection présidentielle en Mauritanie→/articles/presidential"]);
    expect(labels((await suggestPublished(t.db, "électi", "fr")).suggestions)).toEqual([
      "title:L’élection présidentielle en Mauritanie→/articles/presidential",
    ]);
  });

  it("reads a short word being typed as a whole word in titles, and a field ending with a space as whole words", async () => {
    // Titles need three letters of a word being typed; the few tags are matched from two.
    expect(labels((await suggestPublished(t.db, "ان", "ar")).suggestions)).toEqual(["tag:الانتخابات→/tags/elections"]);
    expect((await suggestPublished(t.db, "انتخاب", "ar", { typing: false })).suggestions.filter((s) => s.kind === "title")).toHaveLength(2);
    expect((await suggestPublished(t.db, "كلمةغيرموجودة", "ar")).suggestions).toEqual([]);
  });

  type Body = { query: string; suggestions: Suggestion[]; error?: { code: string; message: string } };
  const get = async (query: string, cookie?: string) => {
    const response = await loader({
      request: new Request(`http://localhost/api/search/suggest${query}`, { headers: cookie ? { cookie } : {} }),
      params: {},
      context: {},
    } as never);
    return { status: response.status, headers: response.headers, body: (await response.json()) as Body };
  };

  it("answers JSON, briefly cacheable, and 400 with the search's codes for bad input", async () => {
    const ok = await get(`?q=${encodeURIComponent("الانتخ")}&lang=ar`);
    expect(ok.status).toBe(200);
    expect(ok.body.query).toBe("الانتخ");
    expect(ok.body.suggestions[0]).toEqual({ kind: "title", type: "articles", label: "الانتخابات الرئاسية في موريتانيا", url: "/articles/presidential" });
    // Browsers keep it 30 s; a shared cache its configured lifetimes (decision 0145).
    expect(ok.headers.get("cache-control")).toBe(`public, max-age=30, ${sharedCacheDirectives()}`);
    expect(ok.headers.get("vary")).toBeNull();
    // Without `lang`, the reader's language: the answer varies with the cookie.
    const fr = await get(`?q=${encodeURIComponent("الانتخابات الرئا")}`, "i18nextLng=fr");
    expect(fr.body.suggestions[0].label).toBe("L’élection présidentielle en Mauritanie");
    expect(fr.headers.get("vary")).toBe("Cookie, Accept-Language");

    for (const [query, code] of [
      [`?q=${encodeURIComponent("ا")}`, "QUERY_TOO_SHORT"],
      [`?q=${encodeURIComponent("ا".repeat(201))}`, "QUERY_TOO_LONG"],
      ["?q=%D8%A7%E0%A4%A", "QUERY_MALFORMED"],
      ["", "INVALID_QUERY"],
      ["?q=abc&lang=de", "INVALID_QUERY"],
      ["?q=abc&page=2", "INVALID_QUERY"],
      [`?q=${"ا".repeat(401)}`, "INVALID_QUERY"],
    ] as const) {
      const bad = await get(query);
      expect(bad.status, query).toBe(400);
      expect(bad.body.error?.code, query).toBe(code);
    }
  });

  it("counts only suggestions that run, against a budget ten times a search's, then answers 429 with Retry-After", async () => {
    // SEARCH_RATE_LIMIT=1,1: ten suggestions a minute for this address (the test's requests name no address).
    const statuses: number[] = [];
    let cookie = "";
    for (const q of ["مدي", "مدن", "مهر", "مهرج", "مهرجا", "تست", "تستض", "تستضي", "قدي", "قديم", "نواك"]) {
      const res = await get(`?q=${encodeURIComponent(q)}&lang=ar`);
      statuses.push(res.status);
      // An answer counted against the address hands out the search cookie, for this browser only.
      if (res.status === 200) {
        expect(res.headers.get("cache-control")).toMatch(/^private/);
        cookie ||= res.headers.getSetCookie()[0].split(";")[0];
      } else {
        expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
        expect(res.body.error?.code).toBe("RATE_LIMITED");
      }
    }
    // Two were answered before this test (its budget is the process's): 8 of these run, the rest wait.
    expect(statuses.filter((s) => s === 200).length).toBeLessThan(statuses.length);
    expect(statuses.at(-1)).toBe(429);
    // An answer this process keeps costs nothing: still answered at the spent address.
    expect((await get(`?q=${encodeURIComponent("مدي")}&lang=ar`)).status).toBe(200);
    // A reader with the cookie has a budget of their own.
    expect(cookie.startsWith(`${SEARCH_COOKIE}=`)).toBe(true);
    const own = await get(`?q=${encodeURIComponent("القديمة")}&lang=ar`, cookie);
    expect(own.status).toBe(200);
    expect(own.headers.get("cache-control")).toBe(`public, max-age=30, ${sharedCacheDirectives()}`);
  });
});
