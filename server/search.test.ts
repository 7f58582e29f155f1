import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../tests/helpers/db.ts";
import { ARABIC_PAIRS } from "../tests/helpers/arabic-pairs.ts";
import { articles, coverages, news, podcasts, programs } from "./db/schema.ts";
import { seedDemoContent } from "./db/seed.ts";
import { normalizeArabic, TRANSLATE_FROM } from "../app/lib/arabic.ts";
import { searchPublished, SearchInputError, SEARCH_TYPES, type SearchResult, type SearchType } from "./search.ts";
import ar from "../app/locales/ar/common.json" with { type: "json" };

const MINUTE = 60_000;
const tables = { articles, news, programs, podcasts, coverages } as const;

type Insert = { type: SearchType; title: string; body?: string; slug: string; date: Date; status?: "published" | "draft" };

/** One row of any searchable type, with the words to find in its title or its body. */
async function insertRow(t: TestDatabase, row: Insert): Promise<number> {
  const common = { title: row.title, pageSlug: row.slug, publishDate: row.date, status: row.status ?? "published" } as const;
  const body = row.body ?? "نص";
  const table = tables[row.type];
  const values = row.type === "programs" || row.type === "podcasts" ? { ...common, description: body } : { ...common, content: body };
  const [inserted] = await t.db
    .insert(table as typeof articles)
    .values(values as typeof articles.$inferInsert)
    .returning({ id: (table as typeof articles).id });
  return inserted.id;
}

/** Every character the normaliser handles specially, one string per rule, plus realistic sentences. */
function normaliserSamples(): string[] {
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)).join("");
  const removed =
    range(0x0300, 0x036f) +
    "\u00AD" +
    range(0x0610, 0x061a) +
    "\u061C\u0640" +
    range(0x064b, 0x065f) +
    "\u0670" +
    range(0x06d6, 0x06ed) +
    range(0x200b, 0x200f) +
    range(0x202a, 0x202e) +
    range(0x2066, 0x2069) +
    "\uFEFF";
  const separators =
    "\t\n\v\f\r " +
    range(0x21, 0x2f) +
    range(0x3a, 0x40) +
    range(0x5b, 0x60) +
    range(0x7b, 0x7e) +
    range(0xa0, 0xbf) +
    "\u00D7\u00F7\u060C\u061B\u061F\u066A\u066B\u066C\u06D4\u1680" +
    range(0x2000, 0x200a) +
    range(0x2010, 0x205f) +
    "\u3000\uFD3E\uFD3F";
  return [
    ...ARABIC_PAIRS.flatMap(([a, b]) => [a, b]),
    TRANSLATE_FROM,
    `ا${removed}ب`,
    `ا${separators}ب`,
    [...removed].map((c) => `م${c}`).join(" "),
    [...separators].map((c) => `م${c}ن`).join(""),
    "  «إمارة آدرار»: النخيل، والقوافل؛ وسلطة الأمراء…  ",
    "بِسْمِ ٱللَّهِ ٱلرَّحْمَٰنِ ٱلرَّحِيمِ ۝١",
    "L'émirat de l'Adrar : palmeraies, caravanes — ÉTÉ 1909",
    "ΑΒΓ Ωмир 🐪 中文 ء ئ ؤ",
    "",
    " ",
  ];
}

describe.each(testDatabaseKinds)("search on %s", (kind) => {
  let t: TestDatabase;
  let uploadsDir: string;

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), "search-test-"));
    await seedDemoContent(t.db, { uploadsDir });
  });

  afterAll(async () => {
    await t?.drop();
    if (uploadsDir) fs.rmSync(uploadsDir, { recursive: true, force: true });
  });

  describe("the normaliser", () => {
    it("gives the same output in SQL (ar_normalize) and in JavaScript (normalizeArabic)", async () => {
      const samples = normaliserSamples();
      const rows = sql.join(
        samples.map((s, i) => sql`(${i}::int, ${s}::text)`),
        sql`, `,
      );
      const res = await t.db.execute<{ i: number; n: string }>(sql`select i, ar_normalize(s) as n from (values ${rows}) as v(i, s) order by i`);
      expect(res.rows).toHaveLength(samples.length);
      for (const row of res.rows) expect(row.n, JSON.stringify(samples[row.i])).toBe(normalizeArabic(samples[row.i]));
    });

    it("is immutable, so indexes can be built on it", async () => {
      const res = await t.db.execute<{ provolatile: string }>(sql`select provolatile from pg_proc where proname = 'ar_normalize'`);
      expect(res.rows.map((r) => r.provolatile)).toEqual(["i"]);
    });

    it("backs every searched table with a full-text and a trigram index", async () => {
      const res = await t.db.execute<{ indexname: string }>(sql`select indexname from pg_indexes where schemaname = 'public'`);
      const names = res.rows.map((r) => r.indexname);
      for (const type of SEARCH_TYPES) expect(names).toEqual(expect.arrayContaining([`${type}_search_fts_idx`, `${type}_title_trgm_idx`]));
    });
  });

  describe("Arabic word pairs through the real search", () => {
    const rows: { written: number; typed: number; type: SearchType }[] = [];

    beforeAll(async () => {
      // Newer than every seeded row, so each pair row is within its type's 20 whatever else matches.
      const now = Date.now();
      for (const [i, [written, typed]] of ARABIC_PAIRS.entries()) {
        const type = SEARCH_TYPES[i % SEARCH_TYPES.length];
        const date = new Date(now - MINUTE - i * 2000);
        // One row has the word as written in its title, the other as typed in its body only (full text).
        const w = await insertRow(t, { type, title: `عنوان ${written} للاختبار`, slug: `pair-${i}-written`, date });
        const ty = await insertRow(t, { type, title: `بند اختبار رقم ${i}`, body: `في هذا النص كلمة ${typed} وحدها.`, slug: `pair-${i}-typed`, date });
        rows.push({ written: w, typed: ty, type });
      }
    });

    it.each(ARABIC_PAIRS.map((p, i) => [p[0], p[1], i] as const))("%s and %s find each other", async (written, typed, i) => {
      const { type, written: writtenId, typed: typedId } = rows[i];
      const byTyped = await searchPublished(t.db, typed, { types: [type] });
      expect(byTyped.map((r) => r.id)).toContain(writtenId);
      const byWritten = await searchPublished(t.db, written, { types: [type] });
      expect(byWritten.map((r) => r.id)).toContain(typedId);
    });

    it("finds part of a title word (trigram / LIKE on the normalised title)", async () => {
      const results = await searchPublished(t.db, "ابراهي", { types: [SEARCH_TYPES[20 % SEARCH_TYPES.length]] });
      expect(results.map((r) => r.id)).toContain(rows[20].written);
    });
  });

  describe("the seeded demo content", () => {
    it("finds the article written with hamza when queried without it", async () => {
      const results = await searchPublished(t.db, "امارة ادرار");
      const hit = results.find((r) => r.href === "/articles/adrar-emirate-palms-and-caravans");
      expect(hit).toMatchObject({ type: "articles", title: "إمارة آدرار: النخيل والقوافل وسلطة الأمراء" });
      expect(hit?.titleFr).toContain("Adrar");
      expect(hit?.imageUrl).toBeTruthy();
      expect(hit?.excerpt).toBeTruthy();
    });

    it("finds French titles too", async () => {
      const results = await searchPublished(t.db, "emirat adrar");
      expect(results.map((r) => r.href)).toContain("/articles/adrar-emirate-palms-and-caravans");
    });

    it("links each type to its detail page", async () => {
      const results = await searchPublished(t.db, "نواكشوط");
      const prefixes = new Set(results.map((r) => r.href.replace(/[^/]+$/, "")));
      expect([...prefixes].every((p) => ["/articles/", "/news/", "/programs/", "/podcasts/", "/coverage/"].includes(p))).toBe(true);
      for (const r of results) expect(r.href).toMatch(/^\/[a-z]+\/[a-z0-9-]+$/);
    });

    it("never returns a seeded draft, even when its own title is the query", async () => {
      for (const [type, table] of Object.entries(tables) as [SearchType, typeof articles][]) {
        const drafts = await t.db.select({ id: table.id, title: table.title }).from(table).where(eq(table.status, "draft"));
        for (const draft of drafts) {
          const results = await searchPublished(t.db, draft.title, { types: [type] });
          expect(results.map((r) => r.id)).not.toContain(draft.id);
        }
      }
      const drafts = await searchPublished(t.db, "مسودة");
      expect(drafts).toEqual([]);
    });
  });

  describe("the merge rule", () => {
    const TOKEN = "قرنفلاختباري";
    const CAP_TOKEN = "زعفرانتجريبي";
    /** The published rows carrying TOKEN, newest first per type. */
    const published: Record<SearchType, { id: number; date: number }[]> = { articles: [], news: [], programs: [], podcasts: [], coverages: [] };
    const hidden: string[] = [];
    const capped: { id: number; date: number }[] = [];

    beforeAll(async () => {
      const now = Date.now();
      for (const [k, type] of SEARCH_TYPES.entries()) {
        for (let j = 0; j < 8; j++) {
          // Types interleave in time: row j of type k is (10 + 5j + k) minutes old.
          const date = new Date(now - (10 + 5 * j + k) * MINUTE);
          const id = await insertRow(t, { type, title: `${TOKEN} ${type} ${j}`, slug: `merge-${type}-${j}`, date });
          published[type].push({ id, date: date.getTime() });
        }
        // Newer than all of them, matching, and never shown: a draft and a post dated in the future.
        hidden.push(
          `${type}:${await insertRow(t, { type, title: `${TOKEN} draft`, slug: `merge-${type}-draft`, date: new Date(now - MINUTE), status: "draft" })}`,
        );
        hidden.push(`${type}:${await insertRow(t, { type, title: `${TOKEN} scheduled`, slug: `merge-${type}-scheduled`, date: new Date(now + 60 * MINUTE) })}`);
      }
      for (let j = 0; j < 25; j++) {
        const date = new Date(now - (30 + j) * MINUTE);
        capped.push({ id: await insertRow(t, { type: "articles", title: `${CAP_TOKEN} ${j}`, slug: `cap-${j}`, date }), date: date.getTime() });
      }
    });

    /** The spec's rule, computed from what was inserted: per type ceil(20 / n) newest, merged, newest first, 20. */
    function expected(types: SearchType[]): string[] {
      const perType = Math.ceil(20 / types.length);
      return types
        .flatMap((type) => published[type].slice(0, perType).map((r) => ({ ...r, type })))
        .sort((a, b) => b.date - a.date)
        .slice(0, 20)
        .map((r) => `${r.type}:${r.id}`);
    }
    const keys = (results: SearchResult[]) => results.map((r) => `${r.type}:${r.id}`);
    const countByType = (results: SearchResult[]) => Object.fromEntries(SEARCH_TYPES.map((type) => [type, results.filter((r) => r.type === type).length]));

    it("takes 4 of each of the five types (ceil(20 / 5)), newest first", async () => {
      const results = await searchPublished(t.db, TOKEN);
      expect(results).toHaveLength(20);
      expect(countByType(results)).toEqual({ articles: 4, news: 4, programs: 4, podcasts: 4, coverages: 4 });
      expect(keys(results)).toEqual(expected([...SEARCH_TYPES]));
    });

    it("sorts the merged list by publish date, newest first", async () => {
      const results = await searchPublished(t.db, TOKEN);
      const dates = results.map((r) => r.publishDate.getTime());
      expect(dates).toEqual([...dates].sort((a, b) => b - a));
      // Types are interleaved, not grouped: the rule merges before sorting.
      expect(results.slice(0, 5).map((r) => r.type)).toEqual([...SEARCH_TYPES]);
    });

    it("takes 7 of each of three types (ceil(20 / 3)) and cuts the 21 to 20", async () => {
      const types: SearchType[] = ["news", "podcasts", "coverages"];
      const results = await searchPublished(t.db, TOKEN, { types });
      expect(results).toHaveLength(20);
      expect(keys(results)).toEqual(expected(types));
      // The oldest of the 21 (the 7th coverage) is the one cut.
      expect(keys(results)).not.toContain(`coverages:${published.coverages[6].id}`);
      expect(keys(results)).toContain(`coverages:${published.coverages[5].id}`);
    });

    it("takes 10 of each of two types and 20 of one", async () => {
      expect(keys(await searchPublished(t.db, TOKEN, { types: ["articles", "programs"] }))).toEqual(expected(["articles", "programs"]));
      const one = await searchPublished(t.db, TOKEN, { types: ["podcasts"] });
      expect(keys(one)).toEqual(expected(["podcasts"]));
      expect(one).toHaveLength(8);
    });

    it("never returns more than 20", async () => {
      const results = await searchPublished(t.db, CAP_TOKEN, { types: ["articles"] });
      expect(results).toHaveLength(20);
      expect(results.map((r) => r.id)).toEqual(capped.slice(0, 20).map((r) => r.id));
      // Across all five types the same 25 matches give the per-type share only.
      expect(await searchPublished(t.db, CAP_TOKEN)).toHaveLength(4);
    });

    it("never returns drafts or items scheduled for later, even when they match", async () => {
      expect(hidden).toHaveLength(10);
      for (const types of [undefined, ...SEARCH_TYPES.map((type) => [type])]) {
        const found = keys(await searchPublished(t.db, TOKEN, { types }));
        expect(found.length).toBeGreaterThan(0);
        for (const key of hidden) expect(found).not.toContain(key);
      }
      expect(await searchPublished(t.db, `${TOKEN} draft`)).toEqual([]);
      expect(await searchPublished(t.db, `${TOKEN} scheduled`)).toEqual([]);
    });

    it("gives every result the fields a card needs", async () => {
      const [first] = await searchPublished(t.db, TOKEN, { types: ["coverages"] });
      expect(first).toEqual({
        type: "coverages",
        id: published.coverages[0].id,
        title: `${TOKEN} coverages 0`,
        titleFr: null,
        excerpt: null,
        excerptFr: null,
        imageUrl: null,
        publishDate: new Date(published.coverages[0].date),
        href: "/coverage/merge-coverages-0",
      });
    });
  });

  describe("bad input", () => {
    async function codeOf(run: () => Promise<unknown>): Promise<string> {
      try {
        await run();
      } catch (error) {
        expect(error).toBeInstanceOf(SearchInputError);
        return (error as SearchInputError).code;
      }
      return "no error";
    }

    it("refuses queries shorter than 2 or longer than 200 characters, with the Arabic message", async () => {
      expect(await codeOf(() => searchPublished(t.db, "ا"))).toBe("QUERY_TOO_SHORT");
      expect(await codeOf(() => searchPublished(t.db, "   ب  "))).toBe("QUERY_TOO_SHORT");
      expect(await codeOf(() => searchPublished(t.db, "ا".repeat(201)))).toBe("QUERY_TOO_LONG");
      expect(await codeOf(() => searchPublished(t.db, "ا".repeat(500)))).toBe("QUERY_TOO_LONG");
      await expect(searchPublished(t.db, "ا".repeat(200))).resolves.toEqual([]);
      await expect(searchPublished(t.db, "ا")).rejects.toThrow(ar.search.errors.queryTooShort);
      await expect(searchPublished(t.db, "ا".repeat(201))).rejects.toThrow(ar.search.errors.queryTooLong);
    });

    it("strips control characters and refuses what is left when it is not a search", async () => {
      expect(await codeOf(() => searchPublished(t.db, "\u0000\u0007ا\u001F"))).toBe("QUERY_TOO_SHORT");
      expect(await codeOf(() => searchPublished(t.db, "ًٌ"))).toBe("QUERY_TOO_SHORT");
      expect(await codeOf(() => searchPublished(t.db, "%_"))).toBe("QUERY_TOO_SHORT");
      expect(await codeOf(() => searchPublished(t.db, "ab\uFFFDcd"))).toBe("QUERY_MALFORMED");
      const withControls = await searchPublished(t.db, "\u0000امارة\u0007 ادرار\u202E");
      expect(withControls.map((r) => r.href)).toContain("/articles/adrar-emirate-palms-and-caravans");
    });

    it("treats SQL and LIKE syntax in the query as text", async () => {
      await expect(searchPublished(t.db, "'; drop table articles; --")).resolves.toEqual(expect.any(Array));
      await expect(searchPublished(t.db, "a%b_c\\d")).resolves.toEqual([]);
      const [row] = await t.db.select({ n: sql<number>`count(*)::int` }).from(articles);
      expect(Number(row.n)).toBeGreaterThan(0);
    });

    it("accepts only the five types", async () => {
      expect(await codeOf(() => searchPublished(t.db, "نواكشوط", { types: ["media"] }))).toBe("INVALID_TYPE");
      expect(await codeOf(() => searchPublished(t.db, "نواكشوط", { types: ["articles", "users"] }))).toBe("INVALID_TYPE");
      const both = await searchPublished(t.db, "نواكشوط", { types: ["articles,news"] });
      expect(new Set(both.map((r) => r.type))).toEqual(new Set(["articles", "news"]));
    });
  });
});
