/**
 * The archive by date, keyset pages and moved addresses (issue 42, decision 0144) on a real database (PGlite, and
 * PostgreSQL when TEST_DATABASE_URL is set): a period's items in the newsroom's days, oldest first across types,
 * walked page by page in both directions without loss or repeat; months and days counted; cursors checked; the news
 * listing's keyset pages against its numbered ones; moved addresses written collapsed and without loops.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { archiveDayPath, archivePath, parseArchivePeriod, periodRange } from "#domain/archive.ts";
import { decodeCursor, encodeCursor, LISTINGS, NEWS_CURSOR } from "#domain/listings.ts";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { articles, movedAddresses, news } from "#server/db/schema.server.ts";
import { readArchiveCounts, readArchivePage, type ArchiveItem } from "./archive.server.ts";
import { cursorOfCard, keysetPageOfCards, listCards } from "./listings.server.ts";
import { canonicalPath, movedAddressResponse, movedTo, recordMove } from "./moved-addresses.server.ts";
import { setCacheEnabled } from "./cache.server.ts";

describe("archive periods and cursors (pure)", () => {
  const now = new Date("2026-11-27T12:00:00Z");
  it("reads a year, a month, a day; refuses what is not a date, too old or in the future", () => {
    expect(parseArchivePeriod({ year: "2025" }, now)).toEqual({ year: 2025 });
    expect(parseArchivePeriod({ year: "2025", month: "05", day: "03" }, now)).toEqual({ year: 2025, month: 5, day: 3 });
    for (const bad of [
      { year: "25" },
      { year: "2025", month: "5" },
      { year: "2025", month: "13" },
      { year: "2025", month: "02", day: "30" },
      { year: "1200" },
    ]) {
      expect(parseArchivePeriod(bad, now), JSON.stringify(bad)).toBeNull();
    }
    expect(parseArchivePeriod({ year: "2026", month: "11", day: "28" }, now)).toBeNull();
    expect(parseArchivePeriod({ year: "2027" }, now)).toBeNull();
    expect(parseArchivePeriod({ year: "2026", month: "11", day: "27" }, now)).not.toBeNull();
  });

  it("bounds a period in Nouakchott's days and names its address", () => {
    expect(periodRange({ year: 2025, month: 12 })).toEqual({ from: new Date("2025-12-01T00:00:00Z"), to: new Date("2026-01-01T00:00:00Z") });
    expect(periodRange({ year: 2024, month: 2, day: 29 }).to).toEqual(new Date("2024-03-01T00:00:00Z"));
    expect(archivePath({ year: 2025, month: 5, day: 3 })).toBe("/archive/2025/05/03");
    expect(archiveDayPath("2025-05-03T23:59:00Z")).toBe("/archive/2025/05/03");
  });

  it("round-trips a cursor and refuses edited ones", () => {
    const c = encodeCursor(["2025-05-03T10:00:00.123456Z", 42]);
    expect(decodeCursor(c, NEWS_CURSOR)).toEqual(["2025-05-03T10:00:00.123456Z", 42]);
    for (const bad of ["", "x", "!!", encodeCursor(["2025-05-03", 42]), encodeCursor(["2025-05-03T10:00:00.123456Z", -1]), encodeCursor([1, 2, 3])]) {
      expect(decodeCursor(bad, NEWS_CURSOR), bad).toBeNull();
    }
  });
});

describe.each(testDatabaseKinds)("archive and keyset pages on %s", (kind) => {
  let t: TestDatabase;
  const day = (d: number, h: number, m = 0) => new Date(Date.UTC(2025, 4, d, h, m));
  beforeAll(async () => {
    setCacheEnabled(false);
    t = await createTestDatabase(kind);
    // May 2025: 23 news and 9 articles, many at the same instant (ties broken by type, then id), and a draft.
    const newsRows = Array.from({ length: 23 }, (_, i) => ({
      title: `خبر ${i}`,
      content: "نص",
      pageSlug: `news-${i}`,
      status: "published",
      publishDate: day(1 + (i % 3), 8, i % 2 ? 0 : 30),
      createdAt: new Date(Date.UTC(2025, 4, 1, 0, 0, i)),
    }));
    newsRows.push({ title: "مسودة", content: "نص", pageSlug: "draft", status: "draft", publishDate: day(2, 9), createdAt: new Date(Date.UTC(2025, 4, 1)) });
    await t.db.insert(news).values(newsRows as never);
    await t.db.insert(articles).values(
      Array.from({ length: 9 }, (_, i) => ({
        title: `مقال ${i}`,
        content: "نص",
        pageSlug: `article-${i}`,
        status: "published",
        publishDate: day(1 + (i % 3), 8, 0),
      })) as never,
    );
  });
  afterAll(async () => {
    setCacheEnabled(true);
    await t?.drop();
  });

  const walk = async (period: Parameters<typeof readArchivePage>[1], size: number) => {
    const seen: ArchiveItem[] = [];
    const cursors: string[] = [];
    let from: Parameters<typeof readArchivePage>[2] = null;
    for (let i = 0; i < 50; i++) {
      const page = await readArchivePage(t.db, period, from, size);
      seen.push(...page.items);
      if (!page.next) break;
      cursors.push(page.next);
      from = { direction: "after", cursor: decodeCursor(page.next, ["time", ["article", "news", "program", "podcast", "coverage"], "id"])! };
    }
    return { seen, cursors };
  };

  it("walks a month oldest first across types, page by page, every published item once", async () => {
    const { seen } = await walk({ year: 2025, month: 5 }, 5);
    expect(seen).toHaveLength(32);
    expect(new Set(seen.map((i) => `${i.type}:${i.id}`)).size).toBe(32);
    const times = seen.map((i) => i.publishDate.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(seen.some((i) => i.title === "مسودة")).toBe(false);
    expect(seen.find((i) => i.type === "article")?.url).toMatch(/^\/articles\/article-/);
  });

  it("reads back with `before` exactly the page that led on", async () => {
    const first = await readArchivePage(t.db, { year: 2025, month: 5 }, null, 5);
    const second = await readArchivePage(
      t.db,
      { year: 2025, month: 5 },
      { direction: "after", cursor: decodeCursor(first.next!, ["time", ["article", "news", "program", "podcast", "coverage"], "id"])! },
      5,
    );
    expect(second.prev).not.toBeNull();
    const back = await readArchivePage(
      t.db,
      { year: 2025, month: 5 },
      { direction: "before", cursor: decodeCursor(second.prev!, ["time", ["article", "news", "program", "podcast", "coverage"], "id"])! },
      5,
    );
    expect(back.items.map((i) => `${i.type}:${i.id}`)).toEqual(first.items.map((i) => `${i.type}:${i.id}`));
    expect(back.prev).toBeNull();
  });

  it("counts a year by month and a month by day; a day with nothing is empty", async () => {
    expect(await readArchiveCounts(t.db, { year: 2025 }, "month")).toEqual([{ unit: 5, count: 32 }]);
    expect(await readArchiveCounts(t.db, { year: 2025, month: 5 }, "day")).toEqual([
      { unit: 1, count: 8 + 3 },
      { unit: 2, count: 8 + 3 },
      { unit: 3, count: 7 + 3 },
    ]);
    expect((await readArchivePage(t.db, { year: 2025, month: 5, day: 20 }, null, 5)).items).toEqual([]);
  });

  it("pages the news listing by keyset as its numbered pages do, and back", async () => {
    const all = await listCards(t.db, LISTINGS.news, { limit: 100 });
    const walked: number[] = [];
    let from: Parameters<typeof keysetPageOfCards>[2] = null;
    let older: string | null = null;
    for (let i = 0; i < 10; i++) {
      const page: { items: { id: number }[]; older: string | null } = await keysetPageOfCards(t.db, LISTINGS.news, from, 5);
      walked.push(...page.items.map((c) => c.id));
      older = page.older;
      if (!older) break;
      from = { direction: "before", cursor: decodeCursor(older, NEWS_CURSOR)! };
    }
    expect(walked).toEqual(all.map((c) => c.id));
    expect(older).toBeNull();
    // The cursor of the 10th item leads on to the 11th, as `?page=` would.
    const tenth = await cursorOfCard(t.db, LISTINGS.news, all[9].id);
    const after10 = await keysetPageOfCards(t.db, LISTINGS.news, { direction: "before", cursor: decodeCursor(tenth!, NEWS_CURSOR)! }, 5);
    expect(after10.items.map((c) => c.id)).toEqual(all.slice(10, 15).map((c) => c.id));
    const back = await keysetPageOfCards(t.db, LISTINGS.news, { direction: "after", cursor: decodeCursor(after10.newer!, NEWS_CURSOR)! }, 5);
    expect(back.items.map((c) => c.id)).toEqual(all.slice(5, 10).map((c) => c.id));
  });

  it("keeps moved addresses collapsed and without loops, and answers 301 in the request's language", async () => {
    await recordMove(t.db, "/tags/a", "/tags/b");
    await recordMove(t.db, "/tags/b", "/tags/c");
    expect(await movedTo(t.db, "/tags/a")).toBe("/tags/c");
    expect(await movedTo(t.db, "/tags/b")).toBe("/tags/c");
    // Back to a name it had: the live address leads nowhere.
    await recordMove(t.db, "/tags/c", "/tags/a");
    expect(await movedTo(t.db, "/tags/a")).toBeNull();
    expect(await movedTo(t.db, "/tags/b")).toBe("/tags/a");
    expect(await movedTo(t.db, "/tags/c")).toBe("/tags/a");
    const rows = await t.db.select().from(movedAddresses);
    expect(rows.every((r) => r.oldPath !== r.newPath)).toBe(true);
    // An Arabic slug in either spelling of the URL.
    await recordMove(t.db, "/tags/الانتخابات", "/tags/انتخابات-2025");
    expect(await movedTo(t.db, canonicalPath("/tags/الانتخابات"))).toBe(canonicalPath("/tags/انتخابات-2025"));
    const fr = await movedAddressResponse(t.db, new Request("http://x/fr/tags/b?page=2"));
    expect(fr?.status).toBe(301);
    expect(fr?.headers.get("Location")).toBe("/fr/tags/a?page=2");
    expect((await movedAddressResponse(t.db, new Request("http://x/tags/c")))?.headers.get("Location")).toBe("/tags/a");
    expect(await movedAddressResponse(t.db, new Request("http://x/tags/nowhere"))).toBeNull();
    expect(await movedAddressResponse(t.db, new Request("http://x/admin/tags/b"))).toBeNull();
  });
});
