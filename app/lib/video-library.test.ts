import { describe, expect, it } from "vitest";
import { searchAndSortVideos, searchVideos, sortVideos, toVideoSort } from "./video-library.ts";

const v = (guid: string, title: string, date: string, views: number, length: number, description: string | null = null) => ({
  guid,
  title,
  description,
  dateUploaded: date,
  views,
  length,
});
const items = [
  v("a", "بحيرة ألاگ", "2026-03-01T00:00:00Z", 50, 300, "طيور مهاجرة"),
  v("b", "École du désert", "2026-05-01T00:00:00Z", 900, 90),
  v("c", "أطار القديمة", "2026-04-01T00:00:00Z", 10, 1200, "السوق والتمور"),
];

describe("video library search and sort", () => {
  it("matches every word in the title or description, after the Arabic and accent normalisation", () => {
    expect(searchVideos(items, "الاگ").map((x) => x.guid)).toEqual(["a"]); // ألاگ written without hamza
    expect(searchVideos(items, "ecole").map((x) => x.guid)).toEqual(["b"]);
    expect(searchVideos(items, "التمور").map((x) => x.guid)).toEqual(["c"]); // description
    expect(searchVideos(items, "اطار تمور").map((x) => x.guid)).toEqual(["c"]); // two words, both present
    expect(searchVideos(items, "اطار طيور")).toEqual([]);
    expect(searchVideos(items, "   ")).toHaveLength(3);
  });

  it("sorts newest first, most viewed, longest, and by title", () => {
    expect(sortVideos(items, "newest", "ar").map((x) => x.guid)).toEqual(["b", "c", "a"]);
    expect(sortVideos(items, "views", "ar").map((x) => x.guid)).toEqual(["b", "a", "c"]);
    expect(sortVideos(items, "duration", "ar").map((x) => x.guid)).toEqual(["c", "a", "b"]);
    expect(sortVideos(items, "title", "fr").map((x) => x.guid)).toEqual(["b", "c", "a"]);
    expect(searchAndSortVideos(items, "", "views", "ar")).toHaveLength(3);
  });

  it("knows the four sorts and nothing else", () => {
    expect(toVideoSort(null)).toBe("newest");
    expect(toVideoSort("")).toBe("newest");
    for (const s of ["newest", "views", "duration", "title"]) expect(toVideoSort(s)).toBe(s);
    expect(toVideoSort("random")).toBeNull();
  });
});
