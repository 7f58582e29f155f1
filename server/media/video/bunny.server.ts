/**
 * The hosted video library: Bunny Stream (the spec's video host, back-office.md §7 "Video streaming
 * library", public-site.md §7 "Video host"). Items live in the host's library and are managed through its
 * HTTP API (`AccessKey` header); files go from the browser straight to the host by tus with an expiring
 * signature; playback URLs point at the library's CDN host, signed with its token key when one is set.
 *
 * The API key stays on this server: it is sent in one header to the API and nowhere else — not in a URL,
 * an error, a log line, or anything handed to the browser (the tus signature is a hash Bunny designed for
 * browsers to carry).
 */
import { createHash } from "node:crypto";
import { isVideoId } from "#domain/video-source.ts";
import { canonicalCollection } from "./local.server.ts";
import { VideoLibraryError, type ListOptions, type VideoItem, type VideoLibrary, type VideoPlayback, type VideoUploadTarget } from "./types.server.ts";

export const BUNNY_API_URL = "https://video.bunnycdn.com";
export const BUNNY_EMBED_URL = "https://iframe.mediadelivery.net/embed";

/** What the newsroom and the readers see when a call fails (back-office.md §8, public-site.md §8). */
export const BUNNY_MESSAGES = {
  list: "خطأ في تحميل الفيديوهات",
  create: "فشل في إنشاء الفيديو في مكتبة Bunny",
  upload: "فشل في رفع الفيديو إلى مكتبة Bunny",
  update: "فشل في تحديث الفيديو في مكتبة Bunny",
  delete: "فشل في حذف الفيديو",
} as const;
type Operation = keyof typeof BUNNY_MESSAGES;

export type BunnyVideoLibraryOptions = {
  libraryId: string;
  apiKey: string;
  /** The library's CDN host (vz-….b-cdn.net); a full http(s) origin is taken as it is (tests). */
  cdnHostname: string;
  /** The token authentication key: when set, every CDN URL (and the embed) is signed and expires. */
  tokenKey?: string | null;
  apiUrl?: string;
  /** Defaults to `{apiUrl}/tusupload`. */
  tusEndpoint?: string;
  embedUrl?: string;
  /** Every API call is abandoned after this long. */
  timeoutMs?: number;
  /** How long a signed playback URL stays valid (rounded up to the hour, so URLs stay cacheable). */
  playbackTtlSeconds?: number;
  /** How long the tus signature authorises an upload. */
  uploadTtlSeconds?: number;
  /** How long the name → id map of the library's collections is trusted. */
  collectionsTtlMs?: number;
  /** Milliseconds since the epoch (tests). */
  now?: () => number;
  fetch?: typeof fetch;
};

/** Bunny's status numbers are the spec's (0 waiting … 4 ready, 5 failed); 6 is "upload failed". */
const BUNNY_UPLOAD_FAILED = 6;

type BunnyVideo = {
  guid: string;
  title?: string | null;
  description?: string | null;
  dateUploaded?: string | null;
  views?: number | null;
  length?: number | null;
  status?: number | null;
  thumbnailFileName?: string | null;
  collectionId?: string | null;
  metaTags?: { property?: string | null; value?: string | null }[] | null;
  transcodingMessages?: { level?: number | null; message?: string | null }[] | null;
};
type BunnyPage<T> = { totalItems?: number; currentPage?: number; itemsPerPage?: number; items?: T[] | null };
type BunnyCollection = { guid: string; name?: string | null };

const PAGE_SIZE = 100;
/** A runaway answer (a host that always says "more") stops here: 100 000 videos. */
const MAX_PAGES = 1000;

const sha256 = (text: string) => createHash("sha256").update(text, "utf8");

/** The tus upload signature of Bunny Stream: hex SHA-256 of library id, API key, expiry and video id. */
export function bunnyTusSignature(libraryId: string, apiKey: string, expires: number, videoId: string): string {
  return sha256(`${libraryId}${apiKey}${expires}${videoId}`).digest("hex");
}

/** The embed view token: hex SHA-256 of the token key, video id and expiry. */
export function bunnyEmbedToken(tokenKey: string, videoId: string, expires: number): string {
  return sha256(`${tokenKey}${videoId}${expires}`).digest("hex");
}

/**
 * Bunny CDN token authentication (SHA-256): base64url(sha256(key + signed path + expires + sorted params)).
 * A file token goes in the query (`?token=…&expires=…`). A directory token signs `token_path` and goes in
 * the path (`/bcdn_token=…&expires=…&token_path=…/dir/file`), so the relative URLs inside an HLS playlist
 * (renditions, segments) carry it too.
 */
export function signBunnyCdnUrl(url: string, tokenKey: string, expires: number, opts: { directory?: string } = {}): string {
  const u = new URL(url);
  const signedPath = opts.directory ?? u.pathname;
  const params = opts.directory ? `token_path=${opts.directory}` : "";
  const token = sha256(`${tokenKey}${signedPath}${expires}${params}`).digest("base64url");
  if (opts.directory) {
    return `${u.origin}/bcdn_token=${token}&expires=${expires}&token_path=${encodeURIComponent(opts.directory)}${u.pathname}${u.search}`;
  }
  u.searchParams.set("token", token);
  u.searchParams.set("expires", String(expires));
  return u.toString();
}

/** Bunny writes its dates without a zone; they are UTC. */
function isoDate(value: string | null | undefined): string {
  if (!value) return new Date(0).toISOString();
  const zoned = /(?:Z|[+-]\d\d:?\d\d)$/i.test(value) ? value : `${value}Z`;
  const time = Date.parse(zoned);
  return Number.isNaN(time) ? new Date(0).toISOString() : new Date(time).toISOString();
}

const nonNegative = (n: unknown) => (typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0);

/** The driver's options with their defaults applied. */
type BunnySettings = {
  libraryId: string;
  apiKey: string;
  tokenKey: string | null;
  apiUrl: string;
  tusEndpoint: string;
  embedUrl: string;
  cdnOrigin: string;
  timeoutMs: number;
  playbackTtl: number;
  uploadTtl: number;
  collectionsTtl: number;
  now: () => number;
  fetch: typeof fetch;
  libraryPath: string;
};

function settingsOf(options: BunnyVideoLibraryOptions): BunnySettings {
  const libraryId = options.libraryId.trim();
  const apiUrl = (options.apiUrl ?? BUNNY_API_URL).replace(/\/+$/, "");
  return {
    libraryId,
    apiKey: options.apiKey,
    tokenKey: options.tokenKey || null,
    apiUrl,
    tusEndpoint: options.tusEndpoint ?? `${apiUrl}/tusupload`,
    embedUrl: (options.embedUrl ?? BUNNY_EMBED_URL).replace(/\/+$/, ""),
    cdnOrigin: /^https?:\/\//i.test(options.cdnHostname) ? options.cdnHostname.replace(/\/+$/, "") : `https://${options.cdnHostname.replace(/\/+$/, "")}`,
    timeoutMs: options.timeoutMs ?? 10_000,
    playbackTtl: options.playbackTtlSeconds ?? 24 * 3600,
    uploadTtl: options.uploadTtlSeconds ?? 2 * 3600,
    collectionsTtl: options.collectionsTtlMs ?? 5 * 60_000,
    now: options.now ?? Date.now,
    fetch: options.fetch ?? fetch,
    libraryPath: `/library/${encodeURIComponent(libraryId)}`,
  };
}

type CallOptions = { query?: Record<string, string | number | undefined>; body?: unknown; notFound?: "null" };

/** The library's HTTP API as the driver calls it. */
type BunnyApi = {
  call: <T>(op: Operation, method: "GET" | "POST" | "DELETE", path: string, options?: CallOptions) => Promise<T | null>;
  fail: (op: Operation, code: VideoLibraryError["code"], detail: string) => VideoLibraryError;
};

function bunnyApi(s: BunnySettings): BunnyApi {
  const { apiKey, tokenKey, timeoutMs } = s;

  /** Keeps secrets out of any text that might travel (a host's message that echoes a header, say). */
  const scrub = (text: string) =>
    [apiKey, tokenKey].reduce<string>((t, secret) => (secret && secret.length >= 4 ? t.split(secret).join("[redacted]") : t), text);

  const fail = (op: Operation, code: VideoLibraryError["code"], detail: string) =>
    new VideoLibraryError(code, BUNNY_MESSAGES[op], { cause: new Error(scrub(detail)) });

  /**
   * One API call: JSON in and out, the access key in its header, a time limit. A 404 is `null` when the
   * caller says it means "no such video"; every other failure is a VideoLibraryError with a stable code.
   */
  async function call<T>(op: Operation, method: "GET" | "POST" | "DELETE", path: string, { query, body, notFound }: CallOptions = {}): Promise<T | null> {
    const url = new URL(`${s.apiUrl}${s.libraryPath}${path}`);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== "") url.searchParams.set(k, String(v));
    const what = `${method} ${url.pathname}`;
    let res: Response;
    try {
      res = await s.fetch(url, {
        method,
        headers: { AccessKey: apiKey, Accept: "application/json", ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: "error",
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      throw fail(
        op,
        "VIDEO_LIBRARY_UNAVAILABLE",
        `${what}: ${timedOut ? `no answer within ${timeoutMs} ms` : error instanceof Error ? error.message : "network error"}`,
      );
    }
    let text: string;
    try {
      text = await res.text();
    } catch (error) {
      throw fail(op, "VIDEO_LIBRARY_UNAVAILABLE", `${what}: the answer was cut (${error instanceof Error ? error.message : "read error"})`);
    }
    if (res.status === 404 && notFound === "null") return null;
    if (!res.ok) {
      const hostMessage = /"message"\s*:\s*"([^"]{0,200})"/i.exec(text)?.[1] ?? "";
      const detail = `${what}: HTTP ${res.status}${hostMessage ? ` (${hostMessage})` : ""}`;
      if (res.status === 401 || res.status === 403) throw fail(op, "VIDEO_LIBRARY_UNAUTHORIZED", detail);
      if (res.status === 404) throw fail(op, "VIDEO_LIBRARY_NOT_FOUND", detail);
      if (res.status >= 500 || res.status === 429) throw fail(op, "VIDEO_LIBRARY_UNAVAILABLE", detail);
      throw fail(op, "VIDEO_LIBRARY_BAD_RESPONSE", detail);
    }
    if (!text.trim()) return {} as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw fail(op, "VIDEO_LIBRARY_BAD_RESPONSE", `${what}: HTTP ${res.status} with an answer that is not JSON`);
    }
  }

  return { call, fail };
}

type CollectionMap = { at: number; byName: Map<string, string>; byId: Map<string, string> };

/** The library's collections: the spec names them (aayan, news, …); the host knows them by id. */
type BunnyCollections = {
  /** The host's id of a collection named by the spec (or by its old name); created when `create` says so. */
  idOf: (op: Operation, name: string, options?: { create?: boolean }) => Promise<string | null>;
  /** A collection id as the name items carry; unknown ids (a collection made elsewhere) are looked up once. */
  namesOf: (op: Operation, ids: Iterable<string>) => Promise<Map<string, string>>;
};

function bunnyCollections({ call, fail }: BunnyApi, { now, collectionsTtl }: BunnySettings): BunnyCollections {
  let collections: CollectionMap | null = null;
  let loadingCollections: Promise<CollectionMap> | null = null;

  async function fetchCollections(op: Operation): Promise<CollectionMap> {
    const byName = new Map<string, string>();
    const byId = new Map<string, string>();
    for (let page = 1; page <= MAX_PAGES; page++) {
      const answer = await call<BunnyPage<BunnyCollection>>(op, "GET", "/collections", { query: { page, itemsPerPage: PAGE_SIZE } });
      const items = Array.isArray(answer?.items) ? answer.items : [];
      for (const c of items) {
        if (!c || typeof c.guid !== "string" || !c.name) continue;
        const name = canonicalCollection(c.name);
        byId.set(c.guid.toLowerCase(), name);
        if (!byName.has(name)) byName.set(name, c.guid);
      }
      if (items.length < PAGE_SIZE || byId.size >= (answer?.totalItems ?? 0)) break;
    }
    return { at: now(), byName, byId };
  }

  async function loadCollections(op: Operation, { fresh = false } = {}): Promise<CollectionMap> {
    if (!fresh && collections && now() - collections.at < collectionsTtl) return collections;
    loadingCollections ??= fetchCollections(op).finally(() => (loadingCollections = null));
    collections = await loadingCollections;
    return collections;
  }

  async function idOf(op: Operation, name: string, { create = false } = {}): Promise<string | null> {
    const canonical = canonicalCollection(name);
    if (!canonical) return null;
    let known = (await loadCollections(op)).byName.get(canonical);
    // Another process may have made it since the map was read.
    if (!known && create) known = (await loadCollections(op, { fresh: true })).byName.get(canonical);
    if (known || !create) return known ?? null;
    const made = await call<BunnyCollection>(op, "POST", "/collections", { body: { name: canonical } });
    if (!made || typeof made.guid !== "string") throw fail(op, "VIDEO_LIBRARY_BAD_RESPONSE", "POST collections: no guid in the answer");
    collections?.byName.set(canonical, made.guid);
    collections?.byId.set(made.guid.toLowerCase(), canonical);
    return made.guid;
  }

  async function namesOf(op: Operation, ids: Iterable<string>) {
    let map: CollectionMap | null = collections;
    const wanted = [...ids].filter(Boolean).map((id) => id.toLowerCase());
    if (!wanted.length) return map?.byId ?? new Map<string, string>();
    try {
      const loaded = await loadCollections(op);
      map = wanted.some((id) => !loaded.byId.has(id)) && now() - loaded.at > 1000 ? await loadCollections(op, { fresh: true }) : loaded;
    } catch {
      // The items are worth more than their collection's name: list them without it.
    }
    return map?.byId ?? new Map<string, string>();
  }

  return { idOf, namesOf };
}

function toItem(v: BunnyVideo, names: Map<string, string>): VideoItem {
  const rawStatus = typeof v.status === "number" ? v.status : 0;
  const status = rawStatus === BUNNY_UPLOAD_FAILED ? 5 : rawStatus;
  const description = v.description ?? v.metaTags?.find((t) => t?.property === "description")?.value ?? null;
  const failure = status === 5 ? (v.transcodingMessages ?? []).filter((m) => m?.message && (m.level ?? 0) >= 2).map((m) => m.message)[0] : null;
  const collectionId = v.collectionId ? v.collectionId.toLowerCase() : "";
  return {
    guid: v.guid.toLowerCase(),
    title: v.title ?? "",
    description: description || null,
    dateUploaded: isoDate(v.dateUploaded),
    views: nonNegative(v.views),
    length: Math.round(nonNegative(v.length)),
    thumbnailFileName: v.thumbnailFileName || null,
    status,
    failureReason: failure ?? (rawStatus === BUNNY_UPLOAD_FAILED ? BUNNY_MESSAGES.upload : null),
    collection: collectionId ? (names.get(collectionId) ?? null) : null,
    isDemo: false,
  };
}

const isVideo = (v: unknown): v is BunnyVideo => !!v && typeof (v as BunnyVideo).guid === "string" && isVideoId((v as BunnyVideo).guid);

/** Every video of the library (or of one collection), page after page, newest first. */
async function listVideos({ call, fail }: BunnyApi, collections: BunnyCollections, opts: ListOptions): Promise<VideoItem[]> {
  let collectionId: string | undefined;
  if (opts.collection) {
    const id = await collections.idOf("list", opts.collection);
    if (!id) return [];
    collectionId = id;
  }
  const videos: BunnyVideo[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await call<BunnyPage<BunnyVideo>>("list", "GET", "/videos", {
      query: { page, itemsPerPage: PAGE_SIZE, orderBy: "date", collection: collectionId },
    });
    if (!answer || (answer.items !== undefined && !Array.isArray(answer.items))) throw fail("list", "VIDEO_LIBRARY_BAD_RESPONSE", "GET videos: no items");
    const items = answer.items ?? [];
    videos.push(...items.filter(isVideo));
    if (items.length < PAGE_SIZE || (typeof answer.totalItems === "number" && page * PAGE_SIZE >= answer.totalItems)) break;
  }
  const seen = new Set<string>();
  const unique = videos.filter((v) => !seen.has(v.guid.toLowerCase()) && seen.add(v.guid.toLowerCase()));
  const names = await collections.namesOf(
    "list",
    unique.map((v) => v.collectionId ?? ""),
  );
  return unique
    .map((v) => toItem(v, names))
    .sort((a, b) => Date.parse(b.dateUploaded) - Date.parse(a.dateUploaded) || (a.guid < b.guid ? 1 : a.guid > b.guid ? -1 : 0));
}

/** The CDN's URLs of a video, signed when the library has a token key. */
function playbackOf({ cdnOrigin, embedUrl, libraryId, tokenKey, now, playbackTtl }: BunnySettings, item: VideoItem): VideoPlayback {
  const guid = item.guid.toLowerCase();
  // At least `playbackTtl` ahead, on the hour, so a page's URLs stay put.
  const expires = Math.ceil((Math.floor(now() / 1000) + playbackTtl) / 3600) * 3600;
  const file = (name: string) => (tokenKey ? signBunnyCdnUrl(`${cdnOrigin}/${guid}/${name}`, tokenKey, expires) : `${cdnOrigin}/${guid}/${name}`);
  const thumbName = item.thumbnailFileName && /^[\w.-]+$/.test(item.thumbnailFileName) ? item.thumbnailFileName : "thumbnail.jpg";
  const out: VideoPlayback = {};
  // The renditions exist once the host has finished encoding; before that only the player page can say so.
  if (item.status === 4) {
    const playlist = `${cdnOrigin}/${guid}/playlist.m3u8`;
    out.hls = tokenKey ? signBunnyCdnUrl(playlist, tokenKey, expires, { directory: `/${guid}/` }) : playlist;
    out.mp4 = file("play_720p.mp4");
  }
  const embed = `${embedUrl}/${encodeURIComponent(libraryId)}/${guid}`;
  out.embed = tokenKey ? `${embed}?token=${bunnyEmbedToken(tokenKey, guid, expires)}&expires=${expires}` : embed;
  out.thumbnail = file(thumbName);
  return out;
}

/** Where the browser sends a video's file by tus, with the signature that lets it (no API key leaves the server). */
function uploadTargetOf({ tusEndpoint, libraryId, apiKey, now, uploadTtl }: BunnySettings, id: string, title: string): VideoUploadTarget {
  const expiresAt = Math.floor(now() / 1000) + uploadTtl;
  return {
    endpoint: tusEndpoint,
    headers: {
      AuthorizationSignature: bunnyTusSignature(libraryId, apiKey, expiresAt, id),
      AuthorizationExpire: String(expiresAt),
      VideoId: id,
      LibraryId: libraryId,
    },
    // filetype is the file's own type: the browser's upload replaces this default with it.
    metadata: { filetype: "video/mp4", title },
    expiresAt,
  };
}

export function createBunnyVideoLibrary(options: BunnyVideoLibraryOptions): VideoLibrary {
  const settings = settingsOf(options);
  const api = bunnyApi(settings);
  const { call, fail } = api;
  const collections = bunnyCollections(api, settings);

  /** Titles of videos made by this process, for the tus metadata (saves a round trip after `create`). */
  const recentTitles = new Map<string, string>();
  const remember = (guid: string, title: string) => {
    recentTitles.set(guid, title);
    if (recentTitles.size > 200) recentTitles.delete(recentTitles.keys().next().value!);
  };

  const library: VideoLibrary = {
    driver: "bunny",

    list: (opts: ListOptions = {}) => listVideos(api, collections, opts),

    async get(guid) {
      if (!isVideoId(guid)) return null;
      const v = await call<BunnyVideo>("list", "GET", `/videos/${guid.toLowerCase()}`, { notFound: "null" });
      if (!v) return null;
      if (!isVideo(v)) throw fail("list", "VIDEO_LIBRARY_BAD_RESPONSE", "GET video: no guid in the answer");
      return toItem(v, await collections.namesOf("list", [v.collectionId ?? ""]));
    },

    playbackFor: (item) => playbackOf(settings, item),

    async playback(guid) {
      const item = await library.get(guid);
      return item ? library.playbackFor(item) : null;
    },

    async create(input) {
      const collectionId = input.collection ? await collections.idOf("create", input.collection, { create: true }) : null;
      const made = await call<BunnyVideo>("create", "POST", "/videos", { body: { title: input.title, ...(collectionId ? { collectionId } : {}) } });
      if (!isVideo(made)) throw fail("create", "VIDEO_LIBRARY_BAD_RESPONSE", "POST videos: no guid in the answer");
      const guid = made.guid.toLowerCase();
      if (input.description) {
        // Bunny keeps a description as a meta tag; a failure here must not leave a record without its text.
        try {
          await call("create", "POST", `/videos/${guid}`, { body: { title: input.title, metaTags: [{ property: "description", value: input.description }] } });
          made.metaTags = [{ property: "description", value: input.description }];
        } catch (error) {
          await library.delete(guid).catch(() => {});
          throw error;
        }
      }
      remember(guid, input.title);
      const names = new Map(collectionId ? [[collectionId.toLowerCase(), canonicalCollection(input.collection!)]] : []);
      return toItem({ ...made, title: made.title ?? input.title, collectionId: made.collectionId || collectionId }, names);
    },

    async uploadTarget(guid) {
      if (!isVideoId(guid)) throw fail("upload", "VIDEO_LIBRARY_NOT_FOUND", "uploadTarget: not a video id");
      const id = guid.toLowerCase();
      let title = recentTitles.get(id);
      if (title === undefined) {
        const v = await call<BunnyVideo>("upload", "GET", `/videos/${id}`, { notFound: "null" });
        if (!v) throw fail("upload", "VIDEO_LIBRARY_NOT_FOUND", `uploadTarget: no video ${id} in the library`);
        title = v.title ?? "";
      }
      return uploadTargetOf(settings, id, title);
    },

    async update(guid, input) {
      if (!isVideoId(guid)) return;
      const id = guid.toLowerCase();
      const body: Record<string, unknown> = {};
      if (input.title !== undefined) body.title = input.title;
      if (input.description !== undefined) body.metaTags = [{ property: "description", value: input.description ?? "" }];
      if (input.collection !== undefined) body.collectionId = input.collection ? await collections.idOf("update", input.collection, { create: true }) : "";
      if (!Object.keys(body).length) return;
      // An unknown id is nothing to update, as in the embedded library.
      await call("update", "POST", `/videos/${id}`, { body, notFound: "null" });
      if (input.title !== undefined) remember(id, input.title);
    },

    async delete(guid) {
      if (!isVideoId(guid)) return;
      const id = guid.toLowerCase();
      // Already gone (another editor, a retry) is what was asked for.
      await call("delete", "DELETE", `/videos/${id}`, { notFound: "null" });
      recentTitles.delete(id);
    },
  };
  return library;
}
