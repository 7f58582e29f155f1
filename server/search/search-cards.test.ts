import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { articles, authors, itemAuthors, news, podcasts } from "#server/db/schema.server.ts";
import { searchPublished } from "./search.server.ts";

/**
 * The statements PostgreSQL connections send while `recorded` is an array. Installed before any connection opens:
 * the client module binds each connection's `query` as it opens it (server/db/client.server.ts).
 */
let recorded: string[] | null = null;
/** The prepared statements' names and texts sent while `prepared` is an array (a statement sent by name). */
let prepared: { name: string; text: string }[] | null = null;
const clientQuery = Object.getOwnPropertyDescriptor(pg.Client.prototype, "query")!.value as (this: pg.Client, ...args: unknown[]) => unknown;
Object.defineProperty(pg.Client.prototype, "query", {
  configurable: true,
  writable: true,
  value: function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; name?: string } | undefined;
    recorded?.push((typeof first === "string" ? first : (first?.text ?? "")).replace(/\s+/g, " ").slice(0, 80));
    if (typeof first === "object" && first?.name) prepared?.push({ name: first.name, text: first.text ?? "" });
    return clientQuery.apply(this, args);
  },
});
afterAll(() => Object.defineProperty(pg.Client.prototype, "query", { configurable: true, writable: true, value: clientQuery }));

/**
 * A page of results reads its cards and their bylines in one statement (decision 0153), and a search whose full
 * matches fill the page makes no round trip beyond its hits, its cards and its transaction.
 */
describe.each(testDatabaseKinds)("search results' cards on %s", (kind) => {
  let t: TestDatabase;
  /** A word no demo text has, so that the page holds only these items. */
  const WORD = "زعفرانتجريبي";
  const made: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    const at = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const [first, second] = await t.db
      .insert(authors)
      .values([
        { slug: "search-cards-a", name: "مريم", nameFr: "Mariem" },
        { slug: "search-cards-b", name: "سيدي", nameFr: "Sidi" },
      ])
      .returning({ id: authors.id });
    const [article] = await t.db
      .insert(articles)
      .values({ title: `مقال عن ${WORD}`, content: "نص", pageSlug: "search-cards-article", publishDate: at(3), status: "published" })
      .returning({ id: articles.id });
    const [item] = await t.db
      .insert(news)
      .values({ title: `خبر عن ${WORD}`, content: "نص", pageSlug: "search-cards-news", publishDate: at(2), status: "published" })
      .returning({ id: news.id });
    const [podcast] = await t.db
      .insert(podcasts)
      .values({ title: `حلقة عن ${WORD}`, description: "وصف", pageSlug: "search-cards-podcast", publishDate: at(1), status: "published" })
      .returning({ id: podcasts.id });
    Object.assign(made, { article: article.id, news: item.id, podcast: podcast.id });
    // The article's byline names the later profile first: byline order, not the profiles' ids.
    await t.db.insert(itemAuthors).values([
      { contentType: "article", itemId: article.id, authorId: second.id, position: 0 },
      { contentType: "article", itemId: article.id, authorId: first.id, position: 1 },
      { contentType: "news", itemId: item.id, authorId: first.id, position: 0 },
    ]);
  });

  afterAll(async () => t?.drop());

  it("gives each result of each type its byline in byline order, and none to an item without authors", async () => {
    const page = await searchPublished(t.db, WORD);
    const byKey = new Map(page.results.map((r) => [`${r.type}:${r.id}`, r.bylines?.map((a) => [a.name, a.name_fr])]));
    expect(byKey).toEqual(
      new Map([
        [`podcasts:${made.podcast}`, []],
        [`news:${made.news}`, [["مريم", "Mariem"]]],
        [
          `articles:${made.article}`,
          [
            ["سيدي", "Sidi"],
            ["مريم", "Mariem"],
          ],
        ],
      ]),
    );
  });

  it.runIf(kind === "postgres")("runs a search whose full matches fill the page in five statements: begin, its settings, hits, cards, commit", async () => {
    // Twenty-one items hold the word: the full matches fill the first page, so no forgiving lookup runs.
    const FULL = "قرنفلالصفحة";
    await t.db.insert(news).values(
      Array.from({ length: 21 }, (_, i) => ({
        title: `خبر ${FULL} ${i}`,
        content: "نص",
        pageSlug: `search-cards-full-${i}`,
        publishDate: new Date(Date.now() - (i + 10) * 60_000),
        status: "published" as const,
      })),
    );
    await searchPublished(t.db, FULL); // indexes what the insert queued, reads the lexeme statistics
    const statements: string[] = [];
    recorded = statements;
    const page = await searchPublished(t.db, FULL).finally(() => (recorded = null));
    expect(page.results).toHaveLength(20);
    expect(page.hasMore).toBe(true);
    const begin = statements.findIndex((s) => /^begin/i.test(s));
    expect(statements.slice(begin)).toEqual([
      expect.stringMatching(/^begin/i),
      expect.stringMatching(/^select set_config\('statement_timeout'/),
      expect.stringMatching(/^select min\(rank\)/),
      expect.stringMatching(/^select \$1::text as type, id/),
      expect.stringMatching(/^commit/i),
    ]);
  });

  it.runIf(kind === "postgres")("reads the cards of any mix of types by one prepared statement, the same text whatever the page holds", async () => {
    // This page holds an article, a news item and a podcast; the next one news items alone.
    const asked: { name: string; text: string }[] = [];
    prepared = asked;
    try {
      await searchPublished(t.db, WORD);
      await searchPublished(t.db, "قرنفلالصفحة");
    } finally {
      prepared = null;
    }
    const cards = asked.filter((p) => /^select \$1::text as type, id/.test(p.text.trim()));
    expect(cards).toHaveLength(2);
    expect(cards[1]).toEqual(cards[0]);
  });

  it.runIf(kind === "postgres")('asks nothing more for "did you mean" when each word of a query is written somewhere, only never together', async () => {
    const OTHER = "ياسمينتجريبي";
    await t.db
      .insert(news)
      .values({ title: `خبر عن ${OTHER}`, content: "نص", pageSlug: "search-cards-other", publishDate: new Date(Date.now() - 4 * 60_000), status: "published" });
    await searchPublished(t.db, OTHER); // indexes what the insert queued
    const statements: string[] = [];
    recorded = statements;
    const page = await searchPublished(t.db, `${WORD} ${OTHER}`).finally(() => (recorded = null));
    // No item holds both words: the partial matches, and no proposal (both words are spelt as written).
    expect(page.results.map((r) => r.closeness)).toContain("partial");
    expect(page.suggestion).toBeNull();
    const begin = statements.findIndex((s) => /^begin/i.test(s));
    expect(statements.slice(begin)).toEqual([
      expect.stringMatching(/^begin/i),
      expect.stringMatching(/^select set_config\('statement_timeout'/),
      expect.stringMatching(/^select min\(rank\)/),
      // The forgiving lookups' plan mode and trigram threshold together.
      expect.stringMatching(/^select set_config\('plan_cache_mode', 'auto', true\), set_config\('pg_trgm/),
      // Which words are written somewhere, and the titles that hold them, in one statement.
      expect.stringMatching(/^select exists/),
      expect.stringMatching(/^select set_config\('plan_cache_mode', 'force/),
      expect.stringMatching(/^select min\(rank\)/),
      expect.stringMatching(/^select \$1::text as type, id/),
      expect.stringMatching(/^commit/i),
    ]);
  });
});
