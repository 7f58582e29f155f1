/**
 * A reader of a live coverage's stream (`GET /coverage/:slug/stream`, text/event-stream) for the HTTP tests: what
 * an EventSource sees, parsed as the standard says (fields `retry`, `id`, `event`, `data`; a line starting with `:`
 * is a comment — the server's heartbeat), kept in arrival order so a test waits for the event it expects instead of
 * sleeping. fetch asks for gzip like a browser: a stream the server compressed without flushing would never arrive.
 */
import type { LiveEventName } from "#domain/live.ts";

export type SseEvent = { id: string | null; event: LiveEventName | "message"; data: string };

export type SseStream = {
  status: number;
  headers: Headers;
  /** Every event so far, in order. */
  events: SseEvent[];
  /** Every comment line so far (`: ping` heartbeats), without the colon. */
  comments: string[];
  /** The last event id the stream set (an EventSource's lastEventId: what it would send as Last-Event-ID). */
  lastEventId: () => string | null;
  /** The `retry:` values sent, in order. */
  retries: number[];
  /** The text received so far, for failure messages and to check what comes first. */
  raw: () => string;
  /** The first event from the `from`-th on (default: any) that matches; waits for it. */
  waitFor: (match: (e: SseEvent) => boolean, what: string, from?: number) => Promise<SseEvent>;
  /** Waits until a comment matching `match` has arrived (counting those already there). */
  waitForComment: (match: (text: string) => boolean, what: string) => Promise<string>;
  /** Waits for the first `retry:` line: the server has taken the reader in. */
  started: () => Promise<void>;
  /** Whether the server has ended the stream. */
  ended: () => boolean;
  /** Goes away as a closed browser tab does. */
  close: () => void;
};

/** How long a wait for an event may take before the test fails saying what it waited for (not a timing assertion). */
const WAIT_LIMIT_MS = 30_000;

export async function openStream(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: "text/event-stream", "accept-encoding": "gzip, br", ...headers }, signal: controller.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const retries: number[] = [];
  let raw = "";
  let lastEventId: string | null = null;
  let ended = false;
  let wake = () => {};
  const changed = () => {
    const w = wake;
    wake = () => {};
    w();
  };

  let pending = "";
  const parse = (block: string) => {
    let id: string | null = null;
    let event: string | null = null;
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) {
        comments.push(line.slice(1).trim());
        continue;
      }
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "retry" && /^\d+$/.test(value)) retries.push(Number(value));
      else if (field === "id") id = lastEventId = value;
      else if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
    if (data.length || event) events.push({ id, event: (event ?? "message") as SseEvent["event"], data: data.join("\n") });
  };

  if (res.ok && res.body) {
    void (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          const text = decoder.decode(chunk, { stream: true });
          raw += text;
          pending += text.replace(/\r\n?/g, "\n");
          let end: number;
          while ((end = pending.indexOf("\n\n")) >= 0) {
            parse(pending.slice(0, end));
            pending = pending.slice(end + 2);
          }
          changed();
        }
      } catch {
        // Aborted by close(), or the server went away: either ends the stream.
      }
      ended = true;
      changed();
    })();
  } else {
    raw = await res.text();
    ended = true;
  }

  const until = async <T>(found: () => T | undefined, what: string): Promise<T> => {
    const started = Date.now();
    for (;;) {
      const hit = found();
      if (hit !== undefined) return hit;
      if (ended) throw new Error(`the stream ended before ${what}; it sent:\n${raw}`);
      if (Date.now() - started > WAIT_LIMIT_MS) throw new Error(`no ${what} within ${WAIT_LIMIT_MS / 1000} s; the stream sent:\n${raw}`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 500).unref();
      });
    }
  };

  return {
    status: res.status,
    headers: res.headers,
    events,
    comments,
    retries,
    lastEventId: () => lastEventId,
    raw: () => raw,
    waitFor: (match, what, from = 0) => until(() => events.slice(from).find(match), what),
    waitForComment: (match, what) => until(() => comments.find(match), what),
    started: () => until(() => (retries.length ? true : undefined), "the retry line").then(() => undefined),
    ended: () => ended,
    close: () => controller.abort(),
  };
}

/** An event's data as JSON. */
export const dataOf = <T>(e: SseEvent): T => JSON.parse(e.data) as T;

/** The value of a gauge or counter without labels in a /metrics text (Prometheus exposition), or null. */
export function metricValue(text: string, name: string): number | null {
  const m = new RegExp(`^${name}(?:\\{\\})? (\\S+)$`, "m").exec(text);
  return m ? Number(m[1]) : null;
}
