/**
 * The editor's copy of a form kept on this device (docs/how-it-works.md, "No lost work"): what an editor
 * typed, saved in localStorage as they type, per user and per item (its type and id, or "new"), so that a
 * crash, a closed tab, a lost connection or an expired session loses nothing. The editor offers it back
 * when it differs from what it opened; a successful save removes it. Storage that refuses (full, private
 * mode, disabled) is not an error: the editor just has no local copy.
 */
export type DraftValues = Record<string, string>;

export type LocalDraft = {
  /** When it was kept (ISO). */
  savedAt: string;
  values: DraftValues;
  /** The item's version the editor had open (its updated_at), none for a new item. */
  base: string | null;
};

/** A local copy older than this is dropped when any editor opens (the server's autosaves are kept as long). */
export const LOCAL_DRAFT_KEEP_DAYS = 30;

const PREFIX = "sahara:draft:v1:";

/** The key of one user's copy of one item: `sahara:draft:v1:{user}:{type}:{id|new}`. */
export function draftKey(userId: string, type: string, id: number | null): string {
  return `${PREFIX}${userId}:${type}:${id ?? "new"}`;
}

/** The browser's localStorage, or null where there is none or it may not be used. */
export function browserStorage(): Storage | null {
  try {
    const storage = globalThis.localStorage;
    return storage ?? null;
  } catch {
    return null;
  }
}

/** Keeps `values` under `key`; false when the storage refused (full or disabled). */
export function keepDraft(storage: Storage | null, key: string, values: DraftValues, base: string | null, now = new Date()): boolean {
  if (!storage) return false;
  const draft: LocalDraft = { savedAt: now.toISOString(), values, base };
  try {
    storage.setItem(key, JSON.stringify(draft));
    return true;
  } catch {
    return false;
  }
}

/** A kept copy from its stored text, or null (none, or not one of ours). */
export function parseDraft(text: string | null): LocalDraft | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<LocalDraft> | null;
    if (!value || typeof value.savedAt !== "string" || Number.isNaN(Date.parse(value.savedAt))) return null;
    if (!value.values || typeof value.values !== "object" || Array.isArray(value.values)) return null;
    const values: DraftValues = {};
    for (const [name, v] of Object.entries(value.values)) if (typeof v === "string") values[name] = v;
    return { savedAt: value.savedAt, values, base: typeof value.base === "string" ? value.base : null };
  } catch {
    return null;
  }
}

/** The copy kept under `key`, or null (none, or not one of ours). */
export function readDraft(storage: Storage | null, key: string): LocalDraft | null {
  if (!storage) return null;
  try {
    return parseDraft(storage.getItem(key));
  } catch {
    return null;
  }
}

export function dropDraft(storage: Storage | null, key: string): void {
  try {
    storage?.removeItem(key);
  } catch {
    // Nothing to do: the copy stays until it is replaced or pruned.
  }
}

/** Drops the copies (of every user) older than `days`, and any that cannot be read; returns how many. */
export function pruneDrafts(storage: Storage | null, now = new Date(), days = LOCAL_DRAFT_KEEP_DAYS): number {
  if (!storage) return 0;
  const oldest = now.getTime() - days * 24 * 60 * 60 * 1000;
  const stale: string[] = [];
  try {
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (!key?.startsWith(PREFIX)) continue;
      const draft = parseDraft(storage.getItem(key));
      if (!draft || Date.parse(draft.savedAt) < oldest) stale.push(key);
    }
  } catch {
    return 0;
  }
  for (const key of stale) dropDraft(storage, key);
  return stale.length;
}

/** Whether two forms hold the same text (a field missing on one side counts as blank). */
export function sameValues(a: DraftValues, b: DraftValues): boolean {
  for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if ((a[name] ?? "").trim() !== (b[name] ?? "").trim()) return false;
  }
  return true;
}
