/**
 * The live desk's state kept outside React (issue 44): the outbox of posts waiting to be sent, kept in localStorage
 * before each is sent so that a lost connection, a closed tab or a reload loses none, and the merge of the entries
 * the desk polls for. The server de-duplicates a post by its `client_key`, so sending one again after a lost answer
 * never posts it twice.
 */
import { entryText, LIVE_ENTRY_LIMITS, type LiveEntry } from "#domain/live.ts";

/** What the composer's form holds: the API's fields (contracts.md), without the idempotency key. */
export type EntryDraft = {
  body: string;
  key_event: boolean;
  pinned: boolean;
  push: boolean;
  image: string | null;
  image_alt: string | null;
  video_id: string | null;
  embed_url: string | null;
};

/** One post as the composer made it: its fields, its idempotency key and when it was queued (ISO). */
export type OutboxPost = EntryDraft & { client_key: string; queuedAt: string };

const PREFIX = "sahara:live-outbox:v1:";

/** One user's outbox for one coverage: `sahara:live-outbox:v1:{user}:{coverage}`. */
export const outboxKey = (owner: string, coverageId: number) => `${PREFIX}${owner}:${coverageId}`;

const isPost = (value: unknown): value is OutboxPost => {
  const post = value as Partial<OutboxPost> | null;
  return (
    !!post &&
    typeof post.client_key === "string" &&
    post.client_key.length > 0 &&
    post.client_key.length <= LIVE_ENTRY_LIMITS.maxClientKey &&
    typeof post.body === "string" &&
    typeof post.queuedAt === "string"
  );
};

/** The posts kept under `key`, oldest first; nothing when the storage is missing, refuses or holds something else. */
export function readOutbox(storage: Storage | null, key: string): OutboxPost[] {
  if (!storage) return [];
  try {
    const value: unknown = JSON.parse(storage.getItem(key) ?? "[]");
    return Array.isArray(value) ? value.filter(isPost) : [];
  } catch {
    return [];
  }
}

/** Keeps `posts` under `key` (none: the key is removed); false when the storage refused (full or disabled). */
export function writeOutbox(storage: Storage | null, key: string, posts: readonly OutboxPost[]): boolean {
  if (!storage) return false;
  try {
    if (posts.length) storage.setItem(key, JSON.stringify(posts));
    else storage.removeItem(key);
    return true;
  } catch {
    return false;
  }
}

/**
 * A new post's idempotency key: a random UUID. crypto.randomUUID exists only on secure pages (https, localhost); a
 * newsroom reached over plain http on its network still gets 122 random bits from getRandomValues.
 */
export function newClientKey(source: { getRandomValues(array: Uint8Array): Uint8Array; randomUUID?: () => string } = globalThis.crypto): string {
  if (typeof source.randomUUID === "function") return source.randomUUID();
  const bytes = source.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** What the desk does with a post after the server's answer (or none). */
export type SendOutcome = "sent" | "retry" | "refused";

/**
 * A 2xx is sent; no answer, a 5xx, a timeout, an ended session (401: sent again once signed in), 408 and 429 are worth
 * retrying; any other 4xx will not get better by asking again: the editor corrects the post.
 */
export function outcomeOf(status: number | null): SendOutcome {
  if (status === null || status >= 500 || status === 401 || status === 408 || status === 429) return "retry";
  return status >= 200 && status < 300 ? "sent" : "refused";
}

/** The request body of a post: the API's fields, blank ones left out. */
export function postBody(post: OutboxPost): Record<string, unknown> {
  const body: Record<string, unknown> = { body: post.body, client_key: post.client_key, key_event: post.key_event, pinned: post.pinned };
  // An alert is only ever sent for a key event (the API refuses the other way round).
  if (post.push && post.key_event) body.push = true;
  if (post.image) {
    body.image = post.image;
    body.image_alt = post.image_alt ?? "";
  }
  if (post.video_id) body.video_id = post.video_id;
  if (post.embed_url) body.embed_url = post.embed_url;
  return body;
}

/** The entries after changes: each changed one in place of its older copy (or added), the deleted ones out; newest first. */
export function mergeEntries(list: readonly LiveEntry[], changed: readonly LiveEntry[], deleted: readonly number[] = []): LiveEntry[] {
  const byId = new Map(list.map((entry) => [entry.id, entry]));
  for (const entry of changed) {
    const known = byId.get(entry.id);
    // An older answer (a slow poll overtaken by a save) never puts back what was already replaced.
    if (!known || known.version <= entry.version) byId.set(entry.id, entry);
  }
  for (const id of deleted) byId.delete(id);
  return [...byId.values()].sort((a, b) => b.id - a.id);
}

/** The readable text of an entry's HTML (domain/live.ts), as the composer and the outbox name it. */
export const plainTextOf = entryText;
