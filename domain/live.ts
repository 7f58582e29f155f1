/**
 * Live coverage (issue 44, docs/decisions/0146-live-coverage.md): a coverage item that is live collects short
 * entries, which readers see arrive without reloading. This module is the vocabulary both sides share: the shapes
 * of the readers' JSON and of the stream's events, the limits of an entry, and the addresses. The server's half is
 * server/content/live/; the reader's script app/enhance/live.js reads the same shapes.
 */

/** A coverage's live state: live between its start and its end (a start with no end yet). */
export type LiveState = {
  /** When it was started (ISO), or null: never live. */
  started_at: string | null;
  /** When it was ended (ISO), or null: still live (when started). */
  ended_at: string | null;
};

export const isLive = (state: LiveState): boolean => state.started_at !== null && state.ended_at === null;

/**
 * One entry as readers get it (the JSON of `/coverage/:slug/entries`, the stream's events, the page's data). Field
 * names are the API's (snake_case), kept exactly: integrations read them.
 */
export type LiveEntry = {
  id: number;
  /**
   * The entry's last change in the coverage's one sequence of changes (ids and versions are drawn from the same
   * sequence, so `after=<id>` and `after=<version>` are both cursors): a reader who has seen up to N asks `after=N`.
   */
  version: number;
  /** When it was posted (ISO). */
  at: string;
  /** When it was last edited (ISO), or null: never edited. */
  edited_at: string | null;
  /** The byline: the author's display name at the time of posting. */
  author: string;
  /** The text, sanitised HTML of the rich-text editor's allow-list. */
  body: string;
  /** A picture from the media library, with its alternative text. */
  image: { url: string; alt: string } | null;
  /** A video of the video library, by its id. */
  video_id: string | null;
  /** An embedded social post's address (shown as a link card until the reader asks for it). */
  embed_url: string | null;
  key_event: boolean;
  pinned: boolean;
  /** Its shareable page (language-neutral: the reader's page prefixes its language). */
  url: string;
};

/** `GET /coverage/:slug/entries?after=<id>`: newest first, with the deletions since the cursor. */
export type LiveEntriesAnswer = LiveState & {
  /** The highest version in this answer, or the `after` asked when nothing changed: the next request's `after`. */
  cursor: number;
  entries: LiveEntry[];
  /** Ids of entries deleted since the cursor (only when `after` was given). */
  deleted: number[];
  /** How long the client waits before asking again (ms): longer when the server is loaded. */
  retry_ms: number;
};

/**
 * The stream's events (`GET /coverage/:slug/stream`, text/event-stream), one per change; each event's `id:` is the
 * change's version, so a reconnecting EventSource resumes after the last it saw (Last-Event-ID).
 *  - `entry`: a new entry, data LiveEntry
 *  - `edit`: an entry changed (text, key event, pinned), data LiveEntry
 *  - `delete`: data { id }
 *  - `status`: the coverage started or ended, data LiveState
 *  - `slow`: the server is loaded: data { retry_ms }; the client closes the stream and polls at that pace
 */
export const LIVE_EVENTS = ["entry", "edit", "delete", "status", "slow"] as const;
export type LiveEventName = (typeof LIVE_EVENTS)[number];

/** What one process's live bus carries between processes: the change, never the entry (each process reads it once). */
export type LiveChange = { coverageId: number; kind: "entry" | "edit" | "delete" | "status"; entryId: number | null; version: number };

/** Limits of one entry, checked by the API and the composer alike. */
export const LIVE_ENTRY_LIMITS = {
  /** Characters of its text once the markup is taken out. */
  minText: 1,
  maxText: 5000,
  /** Bytes of its HTML as sent. */
  maxHtmlBytes: 64 * 1024,
  /** The idempotency key a composer sends with a post it may resend. */
  maxClientKey: 64,
} as const;

/**
 * The readable text of an entry's sanitised HTML: the key events' summary, the entry page's description, the
 * composer's length check and the outbox's preview.
 */
export function entryText(html: string): string {
  return html
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}

/** Entries a page shows before "older entries" (and the JSON's first answer without a cursor). */
export const LIVE_PAGE_SIZE = 50;
/** Entries listed under «أهم الأحداث» at the top of the page. */
export const LIVE_KEY_EVENTS_SHOWN = 10;
/** The latest entries in the page's `LiveBlogPosting` JSON-LD (`liveBlogUpdate`). */
export const LIVE_JSON_LD_UPDATES = 10;

/** The anchor of an entry on its coverage's page. */
export const entryAnchor = (id: number) => `entry-${id}`;
/** An entry's own page under its coverage's path (`/coverage/<slug>`), language-neutral. */
export const entryPath = (coveragePath: string, id: number) => `${coveragePath}/entries/${id}`;

/** The ticker of every page (`/live.json` and the header): live coverages first, then breaking items. */
export type TickerItem = { kind: "live" | "breaking"; title: string; url: string };
export type TickerAnswer = { items: TickerItem[]; retry_ms: number };
/** Items the ticker shows at most, and how long a breaking item stays in it. */
export const TICKER_MAX_ITEMS = 5;
export const TICKER_BREAKING_HOURS = 6;
