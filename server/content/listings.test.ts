/**
 * The one listing loader (./listings.server.ts) on a seeded database: a declared listing's filter, order and window,
 * a listing of several types in one order, the count, the lead-and-list pages; and a field declared once on a
 * definition's card reaching the listing's cards and the public JSON API without a query module's edit.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { setDatabaseHandle } from "#server/db/client.server.ts";
import { seedDemoContent } from "#server/db/seed.server.ts";
import { CONTENT_TYPES, definitionOf, type CardField } from "#domain/content-types/index.ts";
import { apiItem, LEAD_AND_LIST, LISTINGS, listing, refine, SECTIONS, type Listing } from "#domain/listings.ts";
import { countCards, listCards, listingKey, listingTags, readLeadAndList } from "./listings.server.ts";
import { loader as articlesLoader } from "#app/routes/api/articles.ts";

const isSortedDesc = (values: (Date | number)[]) => values.every((v, i) => i === 0 || Number(values[i - 1]) >= Number(v));

describe("listing declarations (pure)", () => {
  it("derives cache tags from what the cards read and keys from the name and parameters", () => {
    expect(listingTags(LISTINGS.section("culture"))).toEqual(["article", "categories", "authors"]);
    expect(listingTags(LISTINGS.shows)).toEqual(["program", "podcast"]);
    const key = listingKey(refine(LISTINGS.section("culture"), { category: "music" }), 2);
    expect(key.startsWith("section:culture:")).toBe(true);
    expect(key).toContain("music");
    expect(key).not.toBe(listingKey(LISTINGS.section("culture"), 2));
  });

  it("writes a card as its API item: card fields, $url, $category and dates as ISO text", () => {
    const card = { id: 7, pageSlug: "x", publishDate: new Date("2026-01-02T03:04:05Z"), categorySlug: "music", categoryName: "م", categoryNameFr: "M" };
    expect(apiItem("article", card, { id: "id", url: "$url", at: "publishDate", category: "$category" })).toEqual({
      id: 7,
      url: "/articles/x",
      at: "2026-01-02T03:04:05.000Z",
      category: { slug: "music", name: "م", nameFr: "M" },
    });
  });
});

describe.each(testDatabaseKinds)("listings on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    await seedDemoContent(t.db, { uploadsDir: fs.mkdtempSync(path.join(os.tmpdir(), "listings-")) });
    setDatabaseHandle(t);
  });
  afterAll(async () => {
    setDatabaseHandle(undefined);
    await t?.drop();
  });

  it("every declared listing and every type's card reads: a card naming a column its table lacks fails here, not on a page", async () => {
    const declared: Listing[] = Object.values(LISTINGS).flatMap((l): Listing[] => (typeof l === "function" ? SECTIONS.map((s) => l(s)) : [l]));
    for (const l of declared) await expect(listCards(t.db, l, { limit: 1 }), l.name).resolves.toBeInstanceOf(Array);
    for (const type of CONTENT_TYPES) {
      await expect(listCards(t.db, listing({ name: `card:${type}`, types: [type], limit: 1 }), { limit: 1 }), type).resolves.toBeInstanceOf(Array);
    }
  });

  it("a single type's listing: its card's fields exactly, its filter and its order", async () => {
    const rows = await listCards(t.db, LISTINGS.mostRead("opinion"));
    expect(rows.length).toBe(5);
    expect(isSortedDesc(rows.map((r) => r.viewCount))).toBe(true);
    const card = definitionOf("article").card;
    const expected = ["id", ...card.fields.map((f) => (typeof f === "string" ? f : f.name)), "categoryName", "categoryNameFr", "categorySlug", "bylines"];
    expect(Object.keys(rows[0]).sort()).toEqual(expected.sort());
  });

  it("several types in one order, each row with its type and only its own fields", async () => {
    const rows = await listCards(t.db, refine(LISTINGS.shows, {}), { limit: 12 });
    expect(new Set(rows.map((r) => r.type))).toEqual(new Set(["program", "podcast"]));
    expect(isSortedDesc(rows.map((r) => r.publishDate))).toBe(true);
    for (const r of rows) expect("programType" in r, r.type).toBe(r.type === "program");
    const [programs, podcasts] = await Promise.all([countCards(t.db, LISTINGS.programs), countCards(t.db, LISTINGS.podcasts)]);
    expect(await countCards(t.db, LISTINGS.shows)).toBe(programs + podcasts);
  });

  it("a lead-and-list page keeps its lead out of every page of the list", async () => {
    const first = await readLeadAndList(t.db, LEAD_AND_LIST.culture, {}, 1);
    const second = await readLeadAndList(t.db, LEAD_AND_LIST.culture, {}, 2);
    expect(first.lead.length).toBeGreaterThan(0);
    expect(first.lead.every((a) => a.isFeatured)).toBe(true);
    const leadIds = new Set(first.lead.map((a) => a.id));
    for (const a of [...first.list.items, ...second.list.items]) expect(leadIds.has(a.id)).toBe(false);
  });

  it("a field declared once on a definition's card reaches the listing's cards and the public API", async () => {
    const article = definitionOf("article");
    const card = article.card as { fields: readonly CardField[] };
    const api = article.api as Record<string, string>;
    const saved = { fields: card.fields, api: { ...api } };
    // "subtitle" stands for a new field: the share title is a column every article has.
    card.fields = [...card.fields, { name: "subtitle", column: "shareTitle" }];
    api.subtitle = "subtitle";
    try {
      const [row] = await listCards(t.db, listing({ name: "probe", types: ["article"], limit: 1 }));
      expect(row).toHaveProperty("subtitle");
      const response = await articlesLoader({ request: new Request("http://localhost/api/articles?limit=1"), params: {}, context: {} } as never);
      const body = (await response.json()) as { articles: Record<string, unknown>[] };
      expect(body.articles[0]).toHaveProperty("subtitle");
    } finally {
      card.fields = saved.fields;
      delete api.subtitle;
    }
  });
});
