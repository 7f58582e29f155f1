/** The live desk's outbox and the merge of polled entries (issue 44). */
import { describe, expect, it } from "vitest";
import type { LiveEntry } from "#domain/live.ts";
import { mergeEntries, newClientKey, outboxKey, outcomeOf, plainTextOf, postBody, readOutbox, writeOutbox, type OutboxPost } from "./desk-state.ts";

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

const post = (key: string, extra: Partial<OutboxPost> = {}): OutboxPost => ({
  client_key: key,
  body: `<p>${key}</p>`,
  key_event: false,
  pinned: false,
  push: false,
  image: null,
  image_alt: null,
  video_id: null,
  embed_url: null,
  queuedAt: "2026-11-28T05:00:00.000Z",
  ...extra,
});

const entry = (id: number, version = id, extra: Partial<LiveEntry> = {}): LiveEntry => ({
  id,
  version,
  at: "2026-11-28T05:00:00.000Z",
  edited_at: null,
  author: "سيدي",
  body: `<p>${id}</p>`,
  image: null,
  video_id: null,
  embed_url: null,
  key_event: false,
  pinned: false,
  url: `/coverage/x/entries/${id}`,
  ...extra,
});

describe("the live desk's outbox", () => {
  it("is kept per user and per coverage, in order, and read back as it was", () => {
    const storage = memoryStorage();
    const key = outboxKey("u1", 7);
    expect(key).toBe("sahara:live-outbox:v1:u1:7");
    expect(key).not.toBe(outboxKey("u2", 7));
    expect(readOutbox(storage, key)).toEqual([]);
    expect(writeOutbox(storage, key, [post("a"), post("b")])).toBe(true);
    expect(readOutbox(storage, key).map((p) => p.client_key)).toEqual(["a", "b"]);
    // Emptied: nothing left behind.
    writeOutbox(storage, key, []);
    expect(storage.length).toBe(0);
  });

  it("reads what is not one of its posts as nothing, and says when the storage refuses", () => {
    const storage = memoryStorage();
    storage.setItem("k", "{not json");
    expect(readOutbox(storage, "k")).toEqual([]);
    storage.setItem("k", JSON.stringify([{ client_key: "" }, post("ok"), { body: 3 }]));
    expect(readOutbox(storage, "k").map((p) => p.client_key)).toEqual(["ok"]);
    expect(writeOutbox(memoryStorage(true), "k", [post("a")])).toBe(false);
    expect(writeOutbox(null, "k", [post("a")])).toBe(false);
    expect(readOutbox(null, "k")).toEqual([]);
  });

  it("gives each post its own key, on secure pages and plain http alike", () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(newClientKey()).toMatch(uuid);
    const insecure = { getRandomValues: (array: Uint8Array) => globalThis.crypto.getRandomValues(array) };
    const keys = new Set([newClientKey(insecure), newClientKey(insecure)]);
    expect(keys.size).toBe(2);
    for (const key of keys) expect(key).toMatch(uuid);
  });

  it("keeps a post for another try on no answer, a 5xx, an ended session or a rate limit, and drops it otherwise", () => {
    expect([null, 500, 502, 503, 401, 408, 429].map(outcomeOf)).toEqual(Array(7).fill("retry"));
    expect([200, 201].map(outcomeOf)).toEqual(["sent", "sent"]);
    expect([400, 403, 404, 409, 413, 422].map(outcomeOf)).toEqual(Array(6).fill("refused"));
  });

  it("sends the API's fields, an alert only with a key event, blank attachments left out", () => {
    expect(postBody(post("k"))).toEqual({ body: "<p>k</p>", client_key: "k", key_event: false, pinned: false });
    expect(postBody(post("k", { push: true }))).not.toHaveProperty("push");
    expect(
      postBody(post("k", { push: true, key_event: true, image: "/uploads/a.jpg", image_alt: "صورة", video_id: "v1", embed_url: "https://x.com/a/status/1" })),
    ).toEqual({
      body: "<p>k</p>",
      client_key: "k",
      key_event: true,
      pinned: false,
      push: true,
      image: "/uploads/a.jpg",
      image_alt: "صورة",
      video_id: "v1",
      embed_url: "https://x.com/a/status/1",
    });
  });
});

describe("the desk's entries", () => {
  it("merge others' new entries, edits and deletions, newest first", () => {
    const list = mergeEntries([], [entry(3), entry(1)]);
    expect(list.map((e) => e.id)).toEqual([3, 1]);
    const next = mergeEntries(list, [entry(5), entry(1, 6, { body: "<p>edited</p>" })], [3]);
    expect(next.map((e) => e.id)).toEqual([5, 1]);
    expect(next[1].body).toBe("<p>edited</p>");
  });

  it("never take back an edit for an older copy of the entry", () => {
    const list = mergeEntries([], [entry(1, 9, { pinned: true })]);
    expect(mergeEntries(list, [entry(1, 4)])[0].pinned).toBe(true);
  });

  it("read the text of an entry's HTML", () => {
    expect(plainTextOf("<p>نتائج&nbsp;<strong>أولية</strong></p><p>A &amp; B</p>")).toBe("نتائج أولية A & B");
    expect(plainTextOf("<p></p>")).toBe("");
  });
});
