/**
 * The media library's queries on a seeded database: every filter of the page, its limits and order, and
 * that only published items whose date has come are ever listed.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { seedDemoContent } from "#server/db/seed.server.ts";
import { categories, media } from "#server/db/schema.server.ts";
import {
  HOME_MEDIA_LIMIT,
  listHomeMedia,
  listPublishedMedia,
  listVideosOfCategories,
  loadMediaPage,
  MEDIA_FEATURED_LIMIT,
  MEDIA_FILTERS,
  MEDIA_LIST_LIMIT,
  MEDIA_PAGE_SIZE,
  mediaTypeOfFilter,
} from "./media.server.ts";

const isSortedDesc = (dates: (Date | string)[]) => dates.every((d, i) => i === 0 || new Date(dates[i - 1]).getTime() >= new Date(d).getTime());
const HOUR = 3_600_000;

describe("media filters (pure)", () => {
  it("maps the spec's filter names, and the column values, to media types", () => {
    expect(MEDIA_FILTERS.map((f) => f.filter)).toEqual(["all", "video", "audio", "images", "documents"]);
    expect(mediaTypeOfFilter(null)).toBeNull();
    expect(mediaTypeOfFilter("all")).toBeNull();
    expect(mediaTypeOfFilter("video")).toBe("video");
    expect(mediaTypeOfFilter("audio")).toBe("audio");
    expect(mediaTypeOfFilter("images")).toBe("image");
    expect(mediaTypeOfFilter("image")).toBe("image");
    expect(mediaTypeOfFilter("documents")).toBe("document");
    expect(mediaTypeOfFilter("podcasts")).toBeUndefined();
    expect(mediaTypeOfFilter("Video")).toBeUndefined();
  });
});

describe.each(testDatabaseKinds)("media library on %s", (kind) => {
  let t: TestDatabase;
  let hiddenIds: number[] = [];

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    await seedDemoContent(t.db, { uploadsDir: fs.mkdtempSync(path.join(os.tmpdir(), "media-")) });
    // Rows that must never show: a draft (featured, so it would lead every list) and one dated tomorrow.
    const base = { description: "hidden", mediaType: "video" as const, fileUrl: "/uploads/x.mp4", isFeatured: true, viewCount: 99999 };
    const rows = await t.db
      .insert(media)
      .values([
        { ...base, title: "draft item", pageSlug: "test-draft-media", status: "draft" as const, publishDate: new Date(Date.now() - HOUR) },
        { ...base, title: "future item", pageSlug: "test-future-media", status: "published" as const, publishDate: new Date(Date.now() + 24 * HOUR) },
      ])
      .returning({ id: media.id });
    hiddenIds = rows.map((r) => r.id);
  });
  afterAll(async () => t?.drop());

  it("all: every published item (48 in the demo), newest first, never a draft or a future item", async () => {
    const all = await listPublishedMedia(t.db);
    expect(all).toHaveLength(48);
    expect(isSortedDesc(all.map((m) => m.publishDate))).toBe(true);
    expect(all.some((m) => hiddenIds.includes(m.id))).toBe(false);
    // The card columns: category joined, nothing else leaked.
    expect(Object.keys(all[0]).sort()).toEqual(
      [
        "authorName",
        "categoryName",
        "categoryNameFr",
        "categorySlug",
        "description",
        "durationSeconds",
        "fileUrl",
        "id",
        "imageUrl",
        "isDemo",
        "isFeatured",
        "mediaType",
        "pageSlug",
        "publishDate",
        "thumbnailUrl",
        "title",
        "titleFr",
        "views",
      ].sort(),
    );
  });

  it("each type filter lists that type only (12 of each in the demo)", async () => {
    for (const f of MEDIA_FILTERS) {
      if (!f.mediaType) continue;
      const rows = await listPublishedMedia(t.db, { type: f.mediaType });
      expect(rows, f.filter).toHaveLength(12);
      expect(new Set(rows.map((m) => m.mediaType))).toEqual(new Set([f.mediaType]));
      expect(isSortedDesc(rows.map((m) => m.publishDate))).toBe(true);
    }
  });

  it("the list stops at its limit", async () => {
    expect(MEDIA_LIST_LIMIT).toBe(60);
    expect(await listPublishedMedia(t.db, { limit: 5 })).toHaveLength(5);
    expect(await listPublishedMedia(t.db, { type: "audio", limit: 3 })).toHaveLength(3);
  });

  it("the page: at most 4 featured items of the filter, and the list without them, a page at a time", async () => {
    for (const f of MEDIA_FILTERS) {
      const { featured } = await loadMediaPage(t.db, f.mediaType);
      const items: Awaited<ReturnType<typeof loadMediaPage>>["items"] = [];
      for (let page = 1; ; page++) {
        const next = await loadMediaPage(t.db, f.mediaType, page);
        expect(next.items.length).toBeLessThanOrEqual(MEDIA_PAGE_SIZE);
        if (page > 1) expect(next.featured).toEqual([]);
        items.push(...next.items);
        if (!next.hasMore) break;
        expect(next.items).toHaveLength(MEDIA_PAGE_SIZE);
      }
      // Every item once, across the pages.
      expect(new Set(items.map((m) => m.id)).size).toBe(items.length);
      expect(featured.length, f.filter).toBeGreaterThan(0);
      expect(featured.length).toBeLessThanOrEqual(MEDIA_FEATURED_LIMIT);
      expect(featured.every((m) => m.isFeatured)).toBe(true);
      if (f.mediaType) expect([...featured, ...items].every((m) => m.mediaType === f.mediaType)).toBe(true);
      const featuredIds = new Set(featured.map((m) => m.id));
      expect(items.some((m) => featuredIds.has(m.id))).toBe(false);
      // Together they are the whole filtered list.
      expect(featured.length + items.length).toBe(f.mediaType ? 12 : 48);
      expect([...featured, ...items].some((m) => hiddenIds.includes(m.id))).toBe(false);
    }
    const all = await loadMediaPage(t.db, null);
    expect(all.featured).toHaveLength(MEDIA_FEATURED_LIMIT);
  });

  it("home: 4 items, featured first, then newest first", async () => {
    const rows = await listHomeMedia(t.db);
    expect(rows).toHaveLength(HOME_MEDIA_LIMIT);
    const firstPlain = rows.findIndex((m) => !m.isFeatured);
    if (firstPlain !== -1) expect(rows.slice(firstPlain).every((m) => !m.isFeatured)).toBe(true);
    expect(isSortedDesc(rows.filter((m) => m.isFeatured).map((m) => m.publishDate))).toBe(true);
  });

  it("videos of some categories: videos only, of those categories", async () => {
    const cats = await t.db
      .select({ id: categories.id, slug: categories.slug })
      .from(categories)
      .where(inArray(categories.slug, ["adrar", "brakna"]));
    const rows = await listVideosOfCategories(
      t.db,
      cats.map((c) => c.id),
    );
    expect(rows.length).toBe(2);
    expect(rows.every((m) => m.mediaType === "video" && ["adrar", "brakna"].includes(m.categorySlug ?? ""))).toBe(true);
    expect(await listVideosOfCategories(t.db, [])).toEqual([]);
    const [adrar] = cats.filter((c) => c.slug === "adrar");
    expect(await listVideosOfCategories(t.db, [adrar.id], 1)).toHaveLength(1);
  });

  it("an item without author, category or file comes back with nulls (the page shows the defaults)", async () => {
    const [row] = await t.db
      .insert(media)
      .values({ title: "bare item", mediaType: "audio", pageSlug: "test-bare-media", status: "published", publishDate: new Date(Date.now() - HOUR) })
      .returning({ id: media.id });
    const found = (await listPublishedMedia(t.db, { type: "audio" })).find((m) => m.id === row.id);
    expect(found).toMatchObject({ authorName: null, categoryName: null, description: null, fileUrl: null, views: 0 });
    await t.db.delete(media).where(eq(media.id, row.id));
  });
});
