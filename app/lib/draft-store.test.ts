import { describe, expect, it } from "vitest";
import { draftKey, dropDraft, keepDraft, pruneDrafts, readDraft, sameValues } from "./draft-store.ts";

/** A Storage over a Map, as localStorage behaves; `full` makes every write throw as a full quota does. */
function memoryStorage(full = false): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    key: (i: number) => [...map.keys()][i] ?? null,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => {
      if (full) throw new DOMException("quota", "QuotaExceededError");
      map.set(k, String(v));
    },
    removeItem: (k: string) => void map.delete(k),
    clear: () => map.clear(),
  };
}

describe("the editor's copy on this device", () => {
  it("is kept per user and per item, and read back as it was", () => {
    const storage = memoryStorage();
    const mine = draftKey("u1", "article", 7);
    expect(mine).not.toBe(draftKey("u2", "article", 7));
    expect(draftKey("u1", "news", null)).toBe("sahara:draft:v1:u1:news:new");
    const now = new Date("2026-01-02T03:04:05.000Z");
    expect(keepDraft(storage, mine, { title: "عنوان", content: "<p>نص</p>" }, "2026-01-01T00:00:00.000Z", now)).toBe(true);
    expect(readDraft(storage, mine)).toEqual({
      savedAt: now.toISOString(),
      values: { title: "عنوان", content: "<p>نص</p>" },
      base: "2026-01-01T00:00:00.000Z",
    });
    expect(readDraft(storage, draftKey("u2", "article", 7))).toBeNull();
    dropDraft(storage, mine);
    expect(readDraft(storage, mine)).toBeNull();
  });

  it("says so when the storage refuses, and reads nothing from no storage", () => {
    expect(keepDraft(memoryStorage(true), "k", { title: "x" }, null)).toBe(false);
    expect(keepDraft(null, "k", { title: "x" }, null)).toBe(false);
    expect(readDraft(null, "k")).toBeNull();
  });

  it("ignores what is not one of its copies, and keeps only text values", () => {
    const storage = memoryStorage();
    storage.setItem("a", "not json");
    storage.setItem("b", JSON.stringify({ savedAt: "yesterday", values: {} }));
    storage.setItem("c", JSON.stringify({ savedAt: "2026-01-01T00:00:00Z", values: { title: "t", n: 3 } }));
    expect(readDraft(storage, "a")).toBeNull();
    expect(readDraft(storage, "b")).toBeNull();
    expect(readDraft(storage, "c")?.values).toEqual({ title: "t" });
  });

  it("prunes copies older than the limit and unreadable ones, leaving other keys alone", () => {
    const storage = memoryStorage();
    const now = new Date("2026-03-01T00:00:00Z");
    keepDraft(storage, draftKey("u", "news", 1), { title: "old" }, null, new Date("2026-01-01T00:00:00Z"));
    keepDraft(storage, draftKey("u", "news", 2), { title: "fresh" }, null, new Date("2026-02-25T00:00:00Z"));
    storage.setItem(`${draftKey("u", "news", 3)}`, "{broken");
    storage.setItem("i18nextLng", "ar");
    expect(pruneDrafts(storage, now, 30)).toBe(2);
    expect(readDraft(storage, draftKey("u", "news", 2))?.values.title).toBe("fresh");
    expect(storage.getItem("i18nextLng")).toBe("ar");
  });

  it("compares forms field by field, a missing field as blank", () => {
    expect(sameValues({ title: "a", excerpt: "" }, { title: "a" })).toBe(true);
    expect(sameValues({ title: "a" }, { title: "b" })).toBe(false);
  });
});
