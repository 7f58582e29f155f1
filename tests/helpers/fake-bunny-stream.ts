/**
 * A local stand-in for Bunny Stream, written from its public documentation rather than from our driver:
 *
 * - the API under /library/{id}/ (AccessKey header, JSON): videos (list with page/itemsPerPage/collection,
 *   get, create, update, delete) and collections (list, create); a wrong key or library is a 401;
 * - the tus 1.0.0 endpoint /tusupload (creation, HEAD, PATCH), which checks on every request the presigned
 *   headers: AuthorizationSignature = sha256_hex(library_id + api_key + expiration_time + video_id),
 *   AuthorizationExpire (in the future), VideoId, LibraryId; a finished upload moves the video to status 1,
 *   then (after `processingMs`) to 4 with a length and a thumbnail;
 * - a CDN on its own port serving /{guid}/playlist.m3u8 (and its rendition and segment), play_720p.mp4 (the
 *   uploaded bytes) and the thumbnail once the video is ready; with a token key it checks Bunny's token
 *   authentication (SHA-256; query token, or a directory token in the path) and answers 403 otherwise.
 *
 * A test can make the API answer a status or hang (the request is held until `close()`).
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeBunnyVideo = {
  videoLibraryId: number;
  guid: string;
  title: string;
  dateUploaded: string;
  views: number;
  isPublic: boolean;
  length: number;
  status: number;
  thumbnailFileName: string;
  collectionId: string;
  metaTags: { property: string; value: string }[];
  transcodingMessages: { level: number; message: string }[];
  encodeProgress: number;
  storageSize: number;
  /** The uploaded file (not part of Bunny's answer). */
  file?: Buffer;
};
export type FakeBunnyCollection = { videoLibraryId: number; guid: string; name: string; videoCount: number };
export type ApiMode = { kind: "ok" } | { kind: "status"; status: number; body?: string } | { kind: "hang" };

export type FakeBunnyStream = {
  libraryId: string;
  apiKey: string;
  tokenKey: string | null;
  apiUrl: string;
  tusEndpoint: string;
  cdnUrl: string;
  videos: Map<string, FakeBunnyVideo>;
  collections: Map<string, FakeBunnyCollection>;
  /** API requests (method, path with query); the key never appears here. */
  requests: { method: string; path: string; keyOk: boolean }[];
  tusRequests: { method: string; status: number }[];
  cdnRequests: { path: string; status: number }[];
  setMode: (mode: ApiMode) => void;
  /** Adds `n` ready videos, each dated a minute after the one before. */
  seed: (n: number, fields?: Partial<FakeBunnyVideo>) => FakeBunnyVideo[];
  close: () => Promise<void>;
};

const THUMBNAIL = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 0xff, 0xd9]);
const SEGMENT = Buffer.alloc(188 * 4, 0x47);

function send(res: http.ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) {
  const text = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { ...(body === undefined || typeof body === "string" ? {} : { "Content-Type": "application/json; charset=utf-8" }), ...headers });
  res.end(text);
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function listen(server: http.Server) {
  server.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Bunny's date format: UTC without a zone, with fractions of a second. */
const bunnyDate = (d: Date) => d.toISOString().replace(/Z$/, "");

/**
 * Token authentication as Bunny's CDN checks it: the token is base64url(sha256(key + signed path + expires
 * + the other token parameters sorted, as key=value joined by &)); the signed path is token_path when given
 * (then the request path must start with it), else the request path.
 */
export function checkCdnToken(tokenKey: string, rawPath: string, query: URLSearchParams, nowSeconds = Math.floor(Date.now() / 1000)) {
  let path = rawPath;
  let params = query;
  const inPath = /^\/bcdn_token=([^/]*)(\/.*)$/.exec(rawPath);
  if (inPath) {
    params = new URLSearchParams(`token=${inPath[1]}`);
    path = inPath[2];
  }
  const token = params.get("token");
  const expires = params.get("expires");
  if (!token || !expires || !/^\d+$/.test(expires)) return { ok: false as const, path, reason: "missing token" };
  if (Number(expires) < nowSeconds) return { ok: false as const, path, reason: "expired" };
  const signedPath = params.get("token_path") ?? path;
  if (!path.startsWith(signedPath)) return { ok: false as const, path, reason: "outside token_path" };
  const extra = [...params.entries()]
    .filter(([k]) => k !== "token" && k !== "expires")
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const expected = crypto
    .createHash("sha256")
    .update(`${tokenKey}${signedPath}${expires}${extra}`)
    .digest("base64")
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
  return expected === token ? { ok: true as const, path } : { ok: false as const, path, reason: "bad token" };
}

export async function startFakeBunnyStream({
  libraryId = "424242",
  apiKey = "bunny-stream-api-key-0f1e2d3c4b5a",
  tokenKey = null,
  processingMs = 0,
}: { libraryId?: string; apiKey?: string; tokenKey?: string | null; processingMs?: number } = {}): Promise<FakeBunnyStream> {
  const videos = new Map<string, FakeBunnyVideo>();
  const collections = new Map<string, FakeBunnyCollection>();
  const uploads = new Map<string, { videoId: string; length: number; chunks: Buffer[]; offset: number; metadata: Record<string, string> }>();
  const requests: FakeBunnyStream["requests"] = [];
  const tusRequests: FakeBunnyStream["tusRequests"] = [];
  const cdnRequests: FakeBunnyStream["cdnRequests"] = [];
  const held = new Set<http.ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  let mode: ApiMode = { kind: "ok" };
  let clock = Date.UTC(2024, 4, 20, 12);
  const nextDate = () => bunnyDate(new Date((clock += 60_000)));

  const newVideo = (title: string, collectionId = ""): FakeBunnyVideo => ({
    videoLibraryId: Number(libraryId),
    guid: crypto.randomUUID(),
    title,
    dateUploaded: nextDate(),
    views: 0,
    isPublic: false,
    length: 0,
    status: 0,
    thumbnailFileName: "thumbnail.jpg",
    collectionId,
    metaTags: [],
    transcodingMessages: [],
    encodeProgress: 0,
    storageSize: 0,
  });

  const page = <T>(items: T[], url: URL) => {
    const pageNo = Math.max(1, Number(url.searchParams.get("page") ?? 1) || 1);
    const perPage = Math.min(1000, Math.max(1, Number(url.searchParams.get("itemsPerPage") ?? 100) || 100));
    return { totalItems: items.length, currentPage: pageNo, itemsPerPage: perPage, items: items.slice((pageNo - 1) * perPage, pageNo * perPage) };
  };
  const publicVideo = (v: FakeBunnyVideo) => {
    const { file: _file, ...rest } = v;
    return rest;
  };

  // --- the API ------------------------------------------------------------------------------------------
  const api = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://x");
      if (url.pathname === "/tusupload" || url.pathname.startsWith("/tusupload/")) return tus(req, res, url);
      const keyOk = req.headers.accesskey === apiKey;
      requests.push({ method: req.method ?? "", path: url.pathname + url.search, keyOk });
      if (mode.kind === "hang") return void held.add(res);
      if (mode.kind === "status") return send(res, mode.status, mode.body ?? JSON.stringify({ Message: "Something went wrong" }));
      const m = /^\/library\/([^/]+)(\/.*)$/.exec(url.pathname);
      if (!m) return send(res, 404, { Message: "Not found" });
      if (!keyOk || m[1] !== libraryId) return send(res, 401, { Message: "Authorization has been denied for this request." });
      const rest = m[2];
      const body = req.method === "POST" ? await readBody(req) : Buffer.alloc(0);
      let json: Record<string, unknown> = {};
      if (body.length) {
        try {
          json = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
        } catch {
          return send(res, 400, { Message: "Invalid JSON" });
        }
      }

      if (rest === "/videos" && req.method === "GET") {
        const collection = url.searchParams.get("collection");
        const all = [...videos.values()].filter((v) => !collection || v.collectionId === collection).sort((a, b) => (a.dateUploaded < b.dateUploaded ? 1 : -1));
        const p = page(all, url);
        return send(res, 200, { ...p, items: p.items.map(publicVideo) });
      }
      if (rest === "/videos" && req.method === "POST") {
        if (typeof json.title !== "string" || !json.title) return send(res, 400, { Message: "The title field is required." });
        const collectionId = typeof json.collectionId === "string" ? json.collectionId : "";
        if (collectionId && !collections.has(collectionId)) return send(res, 400, { Message: "Collection not found" });
        const v = newVideo(json.title, collectionId);
        videos.set(v.guid, v);
        return send(res, 200, publicVideo(v));
      }
      const one = /^\/videos\/([^/]+)$/.exec(rest);
      if (one) {
        const v = videos.get(one[1]);
        if (!v) return send(res, 404, { success: false, message: "The requested video was not found", statusCode: 404 });
        if (req.method === "GET") return send(res, 200, publicVideo(v));
        if (req.method === "DELETE") {
          videos.delete(v.guid);
          return send(res, 200, { success: true, message: "OK", statusCode: 200 });
        }
        if (req.method === "POST") {
          if (typeof json.title === "string") v.title = json.title;
          if (typeof json.collectionId === "string") {
            if (json.collectionId && !collections.has(json.collectionId)) return send(res, 400, { Message: "Collection not found" });
            v.collectionId = json.collectionId;
          }
          if (Array.isArray(json.metaTags)) v.metaTags = json.metaTags as FakeBunnyVideo["metaTags"];
          return send(res, 200, { success: true, message: "OK", statusCode: 200 });
        }
      }
      if (rest === "/collections" && req.method === "GET") return send(res, 200, page([...collections.values()], url));
      if (rest === "/collections" && req.method === "POST") {
        if (typeof json.name !== "string" || !json.name) return send(res, 400, { Message: "The name field is required." });
        const c = { videoLibraryId: Number(libraryId), guid: crypto.randomUUID(), name: json.name, videoCount: 0 };
        collections.set(c.guid, c);
        return send(res, 200, c);
      }
      return send(res, 404, { Message: "Not found" });
    })().catch((error: unknown) => send(res, 500, { Message: String(error) }));
  });

  // --- tus ------------------------------------------------------------------------------------------------
  const TUS = { "Tus-Resumable": "1.0.0" };
  async function tus(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const answer = (status: number, headers: Record<string, string> = {}, body?: string) => {
      tusRequests.push({ method: req.method ?? "", status });
      send(res, status, body, { ...TUS, ...headers });
    };
    if (req.method === "OPTIONS") return answer(204, { "Tus-Version": "1.0.0", "Tus-Extension": "creation" });
    if (req.headers["tus-resumable"] !== "1.0.0") return answer(412, { "Tus-Version": "1.0.0" });
    const signature = String(req.headers.authorizationsignature ?? "");
    const expire = String(req.headers.authorizationexpire ?? "");
    const videoId = String(req.headers.videoid ?? "");
    const library = String(req.headers.libraryid ?? "");
    if (!signature || !/^\d+$/.test(expire) || !videoId || library !== libraryId) return answer(401, {}, "Missing authorization headers");
    if (Number(expire) < Date.now() / 1000) return answer(401, {}, "Authorization expired");
    const expected = crypto
      .createHash("sha256")
      .update(libraryId + apiKey + expire + videoId)
      .digest("hex");
    if (signature !== expected) return answer(401, {}, "Invalid signature");
    const video = videos.get(videoId);
    if (!video) return answer(404, {}, "Video not found");

    if (url.pathname === "/tusupload" && req.method === "POST") {
      const length = Number(req.headers["upload-length"]);
      if (!Number.isInteger(length) || length <= 0) return answer(400, {}, "Upload-Length required");
      const metadata: Record<string, string> = {};
      for (const pair of String(req.headers["upload-metadata"] ?? "").split(",")) {
        const [k, v] = pair.trim().split(" ");
        if (k) metadata[k] = v ? Buffer.from(v, "base64").toString("utf8") : "";
      }
      if (!metadata.filetype || !metadata.title) return answer(400, {}, "filetype and title metadata are required");
      const id = crypto.randomBytes(12).toString("hex");
      uploads.set(id, { videoId, length, chunks: [], offset: 0, metadata });
      return answer(201, { Location: `${apiUrl}/tusupload/${id}` });
    }
    const upload = uploads.get(url.pathname.slice("/tusupload/".length));
    if (!upload || upload.videoId !== videoId) return answer(404, {}, "Upload not found");
    if (req.method === "HEAD")
      return answer(200, { "Upload-Offset": String(upload.offset), "Upload-Length": String(upload.length), "Cache-Control": "no-store" });
    if (req.method === "PATCH") {
      if (req.headers["content-type"] !== "application/offset+octet-stream") return answer(415);
      if (Number(req.headers["upload-offset"]) !== upload.offset) return answer(409, { "Upload-Offset": String(upload.offset) });
      const chunk = await readBody(req);
      if (upload.offset + chunk.length > upload.length) return answer(413);
      upload.chunks.push(chunk);
      upload.offset += chunk.length;
      if (upload.offset === upload.length) {
        video.file = Buffer.concat(upload.chunks);
        video.storageSize = video.file.length;
        video.status = 1;
        const done = () => {
          video.status = 4;
          video.encodeProgress = 100;
          video.length = 42;
        };
        if (processingMs > 0) {
          const t = setTimeout(() => (timers.delete(t), done()), processingMs);
          timers.add(t);
        } else done();
      }
      return answer(204, { "Upload-Offset": String(upload.offset) });
    }
    return answer(405);
  }

  // --- the CDN --------------------------------------------------------------------------------------------
  const cdn = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const answer = (status: number, body?: Buffer | string, type?: string) => {
      cdnRequests.push({ path: url.pathname, status });
      res.writeHead(status, type ? { "Content-Type": type } : {});
      res.end(req.method === "HEAD" ? undefined : body);
    };
    let path = url.pathname;
    if (tokenKey) {
      const check = checkCdnToken(tokenKey, url.pathname, url.searchParams);
      if (!check.ok) return answer(403, check.reason);
      path = check.path;
    } else if (path.startsWith("/bcdn_token=")) return answer(403, "token authentication is off");
    const m = /^\/([0-9a-f-]{36})\/(.+)$/.exec(path);
    const video = m ? videos.get(m[1]) : undefined;
    if (!m || !video || video.status !== 4) return answer(404, "Not found");
    switch (m[2]) {
      case "playlist.m3u8":
        return answer(200, "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2000000,RESOLUTION=1280x720\n720p/video.m3u8\n", "application/x-mpegURL");
      case "720p/video.m3u8":
        return answer(200, "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.0,\nvideo0.ts\n#EXT-X-ENDLIST\n", "application/x-mpegURL");
      case "720p/video0.ts":
        return answer(200, SEGMENT, "video/mp2t");
      case "play_720p.mp4":
        return answer(200, video.file ?? Buffer.alloc(0), "video/mp4");
      case video.thumbnailFileName:
        return answer(200, THUMBNAIL, "image/jpeg");
      default:
        return answer(404, "Not found");
    }
  });

  const apiUrl = await listen(api);
  const cdnUrl = await listen(cdn);

  return {
    libraryId,
    apiKey,
    tokenKey,
    apiUrl,
    tusEndpoint: `${apiUrl}/tusupload`,
    cdnUrl,
    videos,
    collections,
    requests,
    tusRequests,
    cdnRequests,
    setMode: (m) => {
      mode = m;
    },
    seed(n, fields = {}) {
      return Array.from({ length: n }, (_, i) => {
        const v = { ...newVideo(`فيديو ${i + 1}`), status: 4, length: 30 + i, views: i, ...fields };
        videos.set(v.guid, v);
        return v;
      });
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const res of held) res.destroy();
      held.clear();
      api.closeAllConnections();
      cdn.closeAllConnections();
      await Promise.all([new Promise((r) => api.close(r)), new Promise((r) => cdn.close(r))]);
    },
  };
}
