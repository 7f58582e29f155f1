/**
 * The one resumable-upload endpoint builder (tus 1.0.0: core, creation, termination) for every large file the
 * newsroom sends: the video library's videos (server/media/video/tus.server.ts) and the images, audio and
 * documents of the content forms (server/media/storage/file-uploads.server.ts). Mounted before any body limit:
 * a file is stored as it arrives, so memory does not grow with its size, and an upload cut at 80 % resumes from
 * the offset the server reports.
 *
 * Where an upload waits until it is complete (decision 0119): with a storage every process reaches (S3, Bunny)
 * in that storage, by StorageTusStore (./tus-store.server.ts), so the next request of an upload may reach any
 * process; with the local driver on this machine's disk, by @tus/file-store (one machine, or one shared DATA_DIR).
 *
 * What can be checked before a byte is accepted is (permission, origin, declared size and type, blocked
 * extensions); the file's own signature is checked once it is complete, before it goes where it belongs.
 */
import fs from "node:fs";
import path from "node:path";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Readable } from "node:stream";
import { Server, EVENTS } from "@tus/server";
import { FileStore } from "@tus/file-store";
import { logger } from "#server/ops/logger.server.ts";
import { observeUpload, uploadKind } from "#server/ops/metrics.server.ts";
import { closeAfterRefusal, watchTransferRate, type TransferRate } from "#server/http/request-guard.server.ts";
import { guardRefusalOf } from "#server/http/api.server.ts";
import { arabic } from "#server/http/errors.server.ts";
import { StorageError, type Storage } from "./driver.server.ts";
import { BLOCKED_EXTENSIONS } from "./index.server.ts";
import { SNIFF_BYTES } from "./file-types.server.ts";
import { StorageTusStore } from "./tus-store.server.ts";

const MB = 1024 * 1024;

/** An unfinished upload is kept this long for its resume, then removed. */
const UNFINISHED_UPLOAD_TTL_MS = 24 * 3600_000;

type Refusal = { status_code: number; body: string };

/** The stable code of a refusal of each status, unless the hook names its own. */
const REFUSAL_CODES: Record<number, string> = {
  400: "BAD_REQUEST",
  401: "UNAUTHENTICATED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "FILE_TOO_LARGE",
  415: "UNSUPPORTED_FILE",
  502: "STORAGE_FAILED",
};

/**
 * What a hook throws to refuse an upload: the status, and the API's one error shape (docs/api-errors.md)
 * whose message the browser shows.
 */
export const refuse = (status: number, message: string, code = REFUSAL_CODES[status] ?? "UPLOAD_REFUSED"): Refusal => ({
  status_code: status,
  body: JSON.stringify({ error: { code, message } }) + "\n",
});

/** The extension of a declared file name when it is one the spec refuses whatever the content. */
export function refuseBlockedName(filename: string) {
  const extension = /\.([^.]+)$/.exec(filename)?.[1]?.toLowerCase();
  if (extension && (BLOCKED_EXTENSIONS as readonly string[]).includes(extension)) throw refuse(415, arabic("newsroom.v.fileUnsafe"));
}

/** The HTTP status of whatever a guard threw (a Response, or react-router's data() with its init). */
function statusOfThrown(error: unknown): number | null {
  if (error instanceof Response) return error.status;
  const init = (error as { init?: { status?: number } } | null)?.init;
  return typeof init?.status === "number" ? init.status : null;
}

export type CompletedUpload = {
  /** Its first bytes (SNIFF_BYTES, fewer for a shorter file), for the signature check. */
  head: Uint8Array;
  size: number;
  metadata: Record<string, string>;
  /** The complete file as a stream, read as it is consumed; the hook streams it into place (it is removed afterwards). */
  open: () => Promise<Readable>;
};

/** Where an endpoint's unfinished uploads wait: a folder of this machine's disk, or a folder of a shared storage. */
export type UploadStore = { directory: string } | { storage: Storage; prefix: string; pieceSize?: number };

/** The two endpoints' folders: under DATA_DIR on the local disk, under `tus/` in a shared storage. */
export const UPLOAD_FOLDERS = { videos: { directory: "tus", prefix: "tus/videos" }, files: { directory: "tus-files", prefix: "tus/files" } } as const;

/** The store of one endpoint: the shared storage when there is one (decision 0119), else DATA_DIR. */
export function uploadStoreFor(endpoint: keyof typeof UPLOAD_FOLDERS, dataDir: string, shared: Storage | null | undefined): UploadStore {
  const folders = UPLOAD_FOLDERS[endpoint];
  return shared ? { storage: shared, prefix: folders.prefix } : { directory: path.join(dataDir, folders.directory) };
}

function dataStoreOf(store: UploadStore): FileStore | StorageTusStore {
  return "storage" in store
    ? new StorageTusStore({ ...store, expirationPeriodInMilliseconds: UNFINISHED_UPLOAD_TTL_MS })
    : new FileStore({ directory: store.directory, expirationPeriodInMilliseconds: UNFINISHED_UPLOAD_TTL_MS });
}

/** Removes the uploads of both endpoints abandoned for a day (the daily `uploads.prune` job); answers how many. */
export async function pruneUnfinishedUploads(dataDir: string, shared: Storage | null): Promise<number> {
  let removed = 0;
  for (const endpoint of ["videos", "files"] as const) {
    const store = uploadStoreFor(endpoint, dataDir, shared);
    // FileStore makes its folder as it starts: a worker on another machine has nothing there to prune.
    if ("directory" in store && !fs.existsSync(store.directory)) continue;
    removed += await dataStoreOf(store).deleteExpired();
  }
  return removed;
}

/** The first `bytes` of a stream, which is then closed. */
async function headOf(stream: Readable, bytes: number): Promise<Uint8Array> {
  const head = Buffer.alloc(bytes);
  let filled = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      filled += chunk.copy(head, filled, 0, Math.min(chunk.length, bytes - filled));
      if (filled >= bytes) break;
    }
  } finally {
    stream.destroy();
  }
  return head.subarray(0, filled);
}

export type TusEndpointOptions = {
  path: string;
  /** Where an upload waits until it is complete (uploadStoreFor). */
  store: UploadStore;
  /** The largest declared length accepted at all (a hook may refuse less, by type). */
  maxSize: number;
  /** Throws (a Response or react-router data) when the request may not upload: the server's session guard. */
  authorize: (request: Request) => Promise<unknown>;
  /** Words of the refusal for a guard's 401 and 403. */
  refusals: { unauthenticated: string; forbidden: string };
  /** Checks the declared upload before any byte; answers the metadata to keep, or throws `refuse(…)`. `request` is the creation request. */
  onCreate: (upload: { size: number; metadata: Record<string, string>; request: Request }) => Promise<Record<string, string>>;
  /** Puts a complete file where it belongs; may answer headers for the last response; throws `refuse(…)`. */
  onComplete: (upload: CompletedUpload) => Promise<Record<string, string> | void>;
  /** The slowest an upload may arrive (UPLOAD_MIN_BYTES_PER_SECOND over UPLOAD_RATE_WINDOW_MS); see guardUploadBody. */
  minRate?: UploadRate;
};

export type UploadRate = TransferRate;
export const DEFAULT_UPLOAD_RATE: UploadRate = { bytesPerSecond: 1024, windowMs: 30_000 };

const OFFSET_STREAM = "application/offset+octet-stream";

const hasBody = (req: IncomingMessage) =>
  req.headers["transfer-encoding"] !== undefined || (req.headers["content-length"] !== undefined && req.headers["content-length"] !== "0");

/**
 * What tus leaves to the HTTP layer, for a request that carries a body:
 * - a creation request whose body is not upload bytes (tus creation-with-upload sends them as
 *   application/offset+octet-stream) is refused before a byte is read;
 * - any refusal (4xx, 5xx) while the body is still coming closes the connection once the client has had the
 *   answer (closeAfterRefusal), so the rest is not read only to be thrown away (Node would read it all);
 * - a body arriving slower than `rate` on average over a window has its connection closed: a client sending a
 *   byte every few seconds would otherwise hold it for ever, since the idle time-out never fires. tus keeps
 *   what arrived; the upload resumes from the offset HEAD reports.
 * Answers true when the request was refused here.
 */
export function guardUploadBody(req: IncomingMessage, res: ServerResponse, rate: UploadRate): boolean {
  if (!hasBody(req)) return false;
  const answer = res.writeHead.bind(res);
  res.writeHead = function (...args: Parameters<typeof answer>) {
    const status = typeof args[0] === "number" ? args[0] : res.statusCode;
    if (status >= 400 && !req.complete) closeAfterRefusal(req, res);
    return answer(...args);
  } as typeof answer;
  if (req.method === "POST" && !(req.headers["content-type"] ?? "").toLowerCase().startsWith(OFFSET_STREAM)) {
    res.writeHead(400, { "Content-Type": "application/json; charset=utf-8", "Tus-Resumable": "1.0.0" });
    res.end(refuse(400, "A creation request carries no body but the upload's bytes (application/offset+octet-stream)").body);
    return true;
  }
  watchTransferRate(req, res, rate, () => {
    logger.info({ endpoint: req.url?.split("?")[0], windowMs: rate.windowMs }, "upload too slow: connection closed");
    req.socket.destroy();
  });
  return false;
}

export function createTusEndpoint(options: TusEndpointOptions) {
  const datastore = dataStoreOf(options.store);

  async function removeUpload(id: string) {
    await datastore.remove(id).catch((error: unknown) => logger.warn({ err: error, upload: id, endpoint: options.path }, "finished upload not removed"));
  }

  const server = new Server({
    path: options.path,
    datastore,
    // No maxSize here: its refusal has no words of ours. The declared length is checked below, and tus refuses
    // any PATCH that would go past the declared length.
    relativeLocation: true,
    // Termination after the end would only delete a stored file behind the item's back.
    disableTerminationForFinishedUploads: true,
    async onIncomingRequest(req) {
      try {
        await options.authorize(req as unknown as Request);
      } catch (error) {
        const status = statusOfThrown(error);
        if (status) throw refuse(status, status === 401 ? options.refusals.unauthenticated : options.refusals.forbidden, guardRefusalOf(error)?.code);
        throw error;
      }
    },
    async onUploadCreate(req, upload) {
      const metadata = Object.fromEntries(Object.entries(upload.metadata ?? {}).map(([k, v]) => [k, v ?? ""]));
      refuseBlockedName(metadata.filename ?? "");
      if (!upload.size) throw refuse(400, arabic("newsroom.v.fileMissing"));
      if (upload.size > options.maxSize) throw refuse(413, arabic("newsroom.v.fileTooLarge", { max: Math.floor(options.maxSize / MB) }));
      return { metadata: await options.onCreate({ size: upload.size, metadata, request: req as unknown as Request }) };
    },
    async onUploadFinish(_req, upload) {
      const metadata = Object.fromEntries(Object.entries(upload.metadata ?? {}).map(([k, v]) => [k, v ?? ""]));
      const open = async (): Promise<Readable> => datastore.read(upload.id);
      try {
        const head = await headOf(await open(), SNIFF_BYTES);
        const headers = await options.onComplete({ head, size: upload.size ?? 0, metadata, open });
        observeUpload(uploadKind(metadata.filetype), upload.size ?? 0);
        return headers ? { headers } : {};
      } finally {
        await removeUpload(upload.id);
      }
    },
    // The store unreachable (S3 or Bunny away): the API's shape and words, and the cause in the log only.
    onResponseError(_req, error) {
      if (!(error instanceof StorageError)) return undefined;
      logger.error({ err: error, endpoint: options.path }, "upload store failed");
      return refuse(502, arabic("newsroom.v.fileStoreFailed"));
    },
  });

  server.on(EVENTS.POST_TERMINATE, (_req, _res, id) => logger.info({ upload: id, endpoint: options.path }, "upload cancelled"));

  return {
    server,
    /** Node handler for requests under the endpoint's path. */
    handle: async (req: IncomingMessage, res: ServerResponse) => {
      if (guardUploadBody(req, res, options.minRate ?? DEFAULT_UPLOAD_RATE)) return;
      await server.handle(req, res);
    },
    matches: (pathname: string) => pathname === options.path || pathname.startsWith(`${options.path}/`),
    /** Removes uploads abandoned for a day. */
    cleanUp: () => server.cleanUpExpiredUploads(),
  };
}
