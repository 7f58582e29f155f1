/**
 * The emirates page's filter on a seeded database: its chips are the four emirates in the spec's order,
 * and each chip lists that emirate's published articles only (the queries are the section module's).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { seedDemoContent } from "#server/db/seed.server.ts";
import { articles } from "#server/db/schema.server.ts";
import { findSection, listSectionArticles, listSectionChips } from "./sections.server.ts";
import { listVideosOfCategories } from "./media.server.ts";
import { EMIRATE_SLUGS } from "#domain/emirates.ts";
import { eq } from "drizzle-orm";

describe.each(testDatabaseKinds)("emirates page queries on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    await seedDemoContent(t.db, { uploadsDir: fs.mkdtempSync(path.join(os.tmpdir(), "emirates-")) });
  });
  afterAll(async () => t?.drop());

  it("offers the filter adrar, brakna, taganit, trarza (children of the emirates category, in order)", async () => {
    const chips = await listSectionChips(t.db, "emirates");
    expect(chips.map((c) => c.slug)).toEqual(EMIRATE_SLUGS);
    expect((await findSection(t.db, "emirates"))?.slug).toBe("emirates");
  });

  it("all: the published articles of every emirate, newest first, at most the limit", async () => {
    const all = await listSectionArticles(t.db, "emirates", {}, { limit: 24 });
    expect(all.length).toBeGreaterThanOrEqual(8);
    expect(new Set(all.map((a) => a.categorySlug))).toEqual(new Set(EMIRATE_SLUGS));
    expect(all.every((a, i) => i === 0 || new Date(all[i - 1].publishDate) >= new Date(a.publishDate))).toBe(true);
    expect(await listSectionArticles(t.db, "emirates", {}, { limit: 3 })).toHaveLength(3);
  });

  it("each emirate lists its own articles only, with at least one video report to play inline", async () => {
    for (const slug of EMIRATE_SLUGS) {
      const rows = await listSectionArticles(t.db, "emirates", { category: slug }, { limit: 24 });
      expect(rows.length, slug).toBeGreaterThanOrEqual(2);
      expect(rows.every((a) => a.categorySlug === slug)).toBe(true);
      const videos = rows.filter((a) => a.contentType === "video");
      expect(videos.length, slug).toBeGreaterThanOrEqual(1);
      for (const v of videos) expect(v.videoUrl).toBeTruthy();
    }
  });

  it("an unpublished emirate article is never listed", async () => {
    const [one] = await listSectionArticles(t.db, "emirates", { category: "trarza" }, { limit: 1 });
    await t.db.update(articles).set({ status: "draft" }).where(eq(articles.id, one.id));
    const rows = await listSectionArticles(t.db, "emirates", { category: "trarza" }, { limit: 24 });
    expect(rows.some((a) => a.id === one.id)).toBe(false);
    await t.db.update(articles).set({ status: "published" }).where(eq(articles.id, one.id));
  });

  it("the videos of the media library for one emirate, or for all four", async () => {
    const chips = await listSectionChips(t.db, "emirates");
    const all = await listVideosOfCategories(
      t.db,
      chips.map((c) => c.id),
      8,
    );
    expect(all).toHaveLength(4);
    const adrar = await listVideosOfCategories(
      t.db,
      chips.filter((c) => c.slug === "adrar").map((c) => c.id),
      8,
    );
    expect(adrar.map((m) => m.categorySlug)).toEqual(["adrar"]);
  });
});
