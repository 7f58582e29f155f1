/**
 * The Graph API client (public-site.md §7, "Social network graph API"). Every call names the version of
 * FACEBOOK_GRAPH_VERSION: the spec's v19.0 stopped being served on 2026-05-21, and each version lasts about two
 * years (docs/decisions/0060-social-feed.md). Server-only: the page token is added to every request here and
 * never leaves this module — not in an error, a log line, a returned URL or the paging cursor the pages receive
 * (the `paging.next` URL Facebook returns carries the token, so only its cursor parameters are kept, re-encoded
 * as an opaque string).
 */

import { CodedError, type ErrorLevel } from "#server/errors.server.ts";

/** The post fields of public-site.md §7. */
export const POST_FIELDS = "id,message,full_picture,created_time,permalink_url,attachments,from";

/** Largest Graph answer we read; a page of posts is a few kilobytes. */
const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

export type GraphErrorCode = "bad-request" | "unauthorized" | "forbidden" | "not-found" | "http" | "timeout" | "network" | "invalid-response";

/** The spec's messages by status (public-site.md §8, "Social network API"), verbatim. */
export function graphErrorMessage(status: number): string {
  if (status === 400)
    return "Invalid Facebook API request. The access token may be expired, invalid, or lacks proper permissions. Please generate a new token.";
  if (status === 401) return "Unauthorized. Your Facebook access token is invalid or expired.";
  if (status === 403) return "Access denied. Your Facebook token may have expired or lacks permissions.";
  if (status === 404) return "Facebook page not found. Check your page ID.";
  return `Facebook API error (${status})`;
}

function codeOfStatus(status: number): GraphErrorCode {
  return status === 400 ? "bad-request" : status === 401 ? "unauthorized" : status === 403 ? "forbidden" : status === 404 ? "not-found" : "http";
}

/**
 * What Meta said when it refused a request: its `error` object (https://developers.facebook.com/docs/graph-api/guides/error-handling),
 * the token cut out. For administrators and the log, never for readers.
 */
export type MetaError = {
  code: number | null;
  subcode: number | null;
  type: string | null;
  message: string | null;
  fbtraceId: string | null;
};

/** What an administrator has to do about a refusal: the debug page explains each kind. */
export type RefusalKind = "version" | "token" | "permission" | "rate-limit" | "page" | "field" | "temporary" | "other";

const RATE_LIMIT_CODES = new Set([4, 17, 32, 341, 613, 80001]);
const TOKEN_CODES = new Set([102, 190]);

/**
 * The kind of a refusal by Meta's code (its error-handling guide, and what it answers a retired version):
 * 2635 "You are calling a deprecated version", 12 "… is deprecated for versions …", and 2500 "Unknown path
 * components" — our paths are fixed, so an unknown one means a version Meta does not know.
 */
export function refusalKind(meta: MetaError): RefusalKind {
  const { code, subcode } = meta;
  if (code === 2635 || code === 12 || code === 2500) return "version";
  if (code !== null && TOKEN_CODES.has(code)) return "token";
  if (code === 10 || (code !== null && code >= 200 && code <= 299)) return "permission";
  if (code !== null && RATE_LIMIT_CODES.has(code)) return "rate-limit";
  if (code === 100) return subcode === 33 || /does not exist/i.test(meta.message ?? "") ? "page" : "field";
  if (code === 803) return "page";
  if (code === 1 || code === 2) return "temporary";
  if (code === null && meta.type === "OAuthException") return "token";
  return "other";
}

/** Facebook away or answering badly is a warning (the feed keeps its last posts); a refusal needs an administrator. */
const GRAPH_LEVEL: Record<GraphErrorCode, ErrorLevel> = {
  "bad-request": "error",
  unauthorized: "error",
  forbidden: "error",
  "not-found": "error",
  http: "warn",
  timeout: "warn",
  network: "warn",
  "invalid-response": "warn",
};

/**
 * A failed Graph call. `message` is safe to show to anyone; `meta` (Meta's own answer) and `detail` (why a
 * request got no answer from Meta, or what came back instead of one) are for administrators and the log. Its
 * `code` is the kind the feed's answer and the debug page already show (lower-case: a published contract), not
 * an UPPER_SNAKE one; the context carries Meta's codes and trace id.
 */
export class GraphError extends CodedError {
  declare readonly code: GraphErrorCode;
  constructor(
    code: GraphErrorCode,
    message: string,
    readonly status: number | null = null,
    readonly detail: string | null = null,
    readonly meta: MetaError | null = null,
  ) {
    super(code, message, {
      level: GRAPH_LEVEL[code],
      context: { status, metaCode: meta?.code, metaSubcode: meta?.subcode, fbtraceId: meta?.fbtraceId },
    });
  }

  /** What a page may show: nothing of Facebook's own answer. */
  toPublic(): PublicGraphError {
    return { code: this.code, status: this.status, message: this.message };
  }
}

export type PublicGraphError = { code: GraphErrorCode; status: number | null; message: string };

/** A post as the Graph API returns it (public-site.md §3, "social post"); every field may be missing. */
export type GraphPost = {
  id?: unknown;
  message?: unknown;
  full_picture?: unknown;
  created_time?: unknown;
  permalink_url?: unknown;
  /** `{ data: GraphAttachment[] }` when present. */
  attachments?: unknown;
  /** `{ id, name }` when present. */
  from?: unknown;
};

export type GraphAttachment = {
  media_type?: unknown;
  type?: unknown;
  media_url?: unknown;
  unshimmed_url?: unknown;
  url?: unknown;
  title?: unknown;
  media?: { image?: { src?: unknown } };
  subattachments?: { data?: GraphAttachment[] };
};

export type GraphPostsPage = { posts: GraphPost[]; nextCursor: string | null };

export type GraphClientOptions = {
  /** FACEBOOK_GRAPH_URL, e.g. https://graph.facebook.com (a local stand-in in tests). */
  baseUrl: string;
  /** FACEBOOK_GRAPH_VERSION, e.g. v26.0: the first segment of every path. */
  version: string;
  pageId: string;
  token: string;
  /** Each request is abandoned after this long. */
  timeoutMs: number;
  fetch?: typeof fetch;
};

/** The paging parameters a `next` URL may carry; anything else in it (the token, fields, limit) is ours to set. */
const CURSOR_KEYS = ["after", "before", "until", "since", "__paging_token"] as const;
const CURSOR_VALUE = /^[\w\-=.:%]{1,1000}$/;
const OPAQUE = /^[A-Za-z0-9_-]{1,2400}$/;

/** The cursor part of Facebook's `paging.next` URL, as an opaque base64url string (null when there is none). */
export function cursorFromNextUrl(next: unknown, token: string): string | null {
  if (typeof next !== "string" || !next) return null;
  let url: URL;
  try {
    url = new URL(next);
  } catch {
    return null;
  }
  const kept = new URLSearchParams();
  for (const key of CURSOR_KEYS) {
    const value = url.searchParams.get(key);
    if (value !== null && CURSOR_VALUE.test(value) && !value.includes(token)) kept.set(key, value);
  }
  if (![...kept.keys()].length) return null;
  return Buffer.from(kept.toString(), "utf8").toString("base64url");
}

/** The paging parameters of an opaque cursor, or null when it is not one of ours. */
export function parseCursor(cursor: string): URLSearchParams | null {
  if (!OPAQUE.test(cursor)) return null;
  const params = new URLSearchParams(Buffer.from(cursor, "base64url").toString("utf8"));
  const kept = new URLSearchParams();
  for (const [key, value] of params) {
    if (!(CURSOR_KEYS as readonly string[]).includes(key) || !CURSOR_VALUE.test(value)) return null;
    kept.set(key, value);
  }
  return [...kept.keys()].length ? kept : null;
}

/** Meta's `error` object of an answer, bounded and without the token; null when the answer has none. */
export function metaErrorOf(body: unknown, hide: (text: string) => string = (t) => t): MetaError | null {
  const error = (body as { error?: unknown } | null | undefined)?.error;
  if (!error || typeof error !== "object") return null;
  const e = error as Record<string, unknown>;
  const int = (v: unknown) => (typeof v === "number" && Number.isSafeInteger(v) ? v : typeof v === "string" && /^\d{1,9}$/.test(v) ? Number(v) : null);
  const text = (v: unknown, max: number) => (typeof v === "string" && v.trim() ? hide(v.trim()).slice(0, max) : null);
  const meta = {
    code: int(e.code),
    subcode: int(e.error_subcode),
    type: text(e.type, 100),
    message: text(e.message, 1000),
    fbtraceId: text(e.fbtrace_id, 100),
  };
  return Object.values(meta).some((v) => v !== null) ? meta : null;
}

/** Reads at most `max` bytes of a body; more is an invalid answer. */
export async function readLimited(res: Response, max: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel();
    throw new GraphError("invalid-response", "Facebook API error (response too large)", res.status);
  }
  if (!res.body) return new Uint8Array();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new GraphError("invalid-response", "Facebook API error (response too large)", res.status);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export type GraphClient = ReturnType<typeof createGraphClient>;

export function createGraphClient(options: GraphClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, "");
  const doFetch = options.fetch ?? fetch;
  const { token, timeoutMs, version } = options;
  // Checked by the configuration; a caller passing anything else is a bug, not Meta's refusal.
  if (!/^v\d+\.\d+$/.test(version)) throw new TypeError(`not a Graph API version: ${version}`);
  const hide = (text: string) => (token ? text.split(token).join("[redacted]") : text);

  /** GET a Graph path; the token is added here (spec: "an access token parameter is added if missing"). */
  async function get(pathname: string, params: Record<string, string> | URLSearchParams = {}): Promise<unknown> {
    const url = new URL(`${base}${pathname}`);
    for (const [k, v] of params instanceof URLSearchParams ? params : Object.entries(params)) url.searchParams.set(k, v);
    url.searchParams.set("access_token", token);
    let res: Response;
    try {
      res = await doFetch(url, { headers: { Accept: "application/json" }, redirect: "error", signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw failure(error);
    }
    let bytes: Uint8Array;
    try {
      bytes = await readLimited(res, MAX_RESPONSE_BYTES);
    } catch (error) {
      throw error instanceof GraphError ? error : failure(error);
    }
    const text = Buffer.from(bytes).toString("utf8");
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!res.ok) {
      const meta = metaErrorOf(body, hide);
      throw new GraphError(codeOfStatus(res.status), graphErrorMessage(res.status), res.status, meta ? null : hide(text.slice(0, 300)) || null, meta);
    }
    if (body === undefined || body === null || typeof body !== "object") {
      throw new GraphError("invalid-response", "Facebook API error (invalid response)", res.status, hide(text.slice(0, 300)));
    }
    return body;
  }

  function failure(error: unknown): GraphError {
    const name = (error as { name?: string } | null)?.name;
    if (name === "TimeoutError" || name === "AbortError") {
      return new GraphError("timeout", `Facebook did not answer within ${Math.round(timeoutMs / 100) / 10} s`, null);
    }
    const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
    return new GraphError("network", "Facebook could not be reached", null, hide(String(cause?.code ?? cause?.message ?? (error as Error)?.message ?? error)));
  }

  const page = `/${version}/${encodeURIComponent(options.pageId)}`;

  return {
    pageId: options.pageId,
    version,

    /** One page of the page's posts, newest first; `cursor` is a `nextCursor` from an earlier page. */
    async listPosts({ limit, cursor }: { limit: number; cursor?: string | null }): Promise<GraphPostsPage> {
      const params = new URLSearchParams({ fields: POST_FIELDS, limit: String(limit) });
      if (cursor) {
        const paging = parseCursor(cursor);
        if (!paging) throw new GraphError("bad-request", graphErrorMessage(400), 400, "malformed cursor");
        for (const [k, v] of paging) params.set(k, v);
      }
      const body = (await get(`${page}/posts`, params)) as {
        data?: unknown;
        paging?: { next?: unknown };
      };
      if (!Array.isArray(body.data)) throw new GraphError("invalid-response", "Facebook API error (invalid response)", 200, "no data array");
      return { posts: body.data as GraphPost[], nextCursor: cursorFromNextUrl(body.paging?.next, token) };
    },

    /**
     * GET /{version}/me with the token (the debug page's first check). The spec's call names no version; one
     * without a version is answered in the app's default version, so it would not test the one we use.
     */
    me: () => get(`/${version}/me`),
    /** GET /{version}/{pageId} (the second). */
    page: () => get(page),
    /** GET /{version}/{pageId}/posts with id, message, created_time and limit 1 (the third). */
    onePost: () => get(`${page}/posts`, { fields: "id,message,created_time", limit: "1" }),
  };
}
