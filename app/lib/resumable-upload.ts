/**
 * Resumable uploads from the browser (tus 1.0.0 with tus-js-client), for every video and audio file the
 * newsroom sends. The client library loads only when an upload starts: no screen pays for it otherwise.
 *
 * - Retries on network errors, 5xx, 409 and 423 at the spec's delays (0, 1, 3, 5 s), and not while offline.
 * - A dropped connection or a reloaded page resumes from the offset the server reports: the upload's address
 *   is kept in localStorage under the file's fingerprint until it completes.
 * - The spec's 30-minute limit ends an upload with 'Video upload timed out'.
 */
export const UPLOAD_RETRY_DELAYS_MS = [0, 1000, 3000, 5000];
export const UPLOAD_TIMEOUT_MS = 30 * 60 * 1000;
export const UPLOAD_TIMEOUT_MESSAGE = "Video upload timed out";
/** Chunks bound what a dropped connection can cost on a slow link; the server keeps what arrived anyway. */
const CHUNK_BYTES = 8 * 1024 * 1024;

/** back-office.md §9: video progress steps 25 (the video exists), 75 (the file is sent), 100 (done). */
export const VIDEO_STEPS = { created: 25, sent: 75 } as const;
/** The local library's tus endpoint: where an unfinished upload of the same file is looked for. */
const LOCAL_VIDEO_TUS_ENDPOINT = "/api/admin/videos/tus";
/** The content forms' audio and document files (server/media/storage/file-uploads.server.ts). */
const FILE_TUS_ENDPOINT = "/api/admin/files/tus";
const FILE_URL_HEADER = "Upload-File-Url";

export type UploadTarget = { endpoint: string; headers?: Record<string, string>; metadata: Record<string, string> };

export type ResumableUpload = {
  /** Resolves when the whole file is on the server, with where it was stored when the server says. */
  done: Promise<string | null>;
  /** Stops and forgets the upload (the server discards what it had). */
  cancel: () => Promise<void>;
};

export type PreviousUpload = { metadata: Record<string, string>; uploadUrl: string | null };

/** An earlier, unfinished upload of this very file (same name, size, type and date) to `endpoint`. */
export async function findPreviousUpload(file: File, endpoint: string): Promise<PreviousUpload | null> {
  const { Upload } = await import("tus-js-client");
  const probe = new Upload(file, { endpoint: absolute(endpoint) });
  const found = await probe.findPreviousUploads();
  const latest = found.sort((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime))[0];
  return latest ? { metadata: latest.metadata, uploadUrl: latest.uploadUrl } : null;
}

const absolute = (endpoint: string) => new URL(endpoint, window.location.href).toString();

export async function startResumableUpload(
  file: File,
  target: UploadTarget,
  handlers: { onProgress: (sent: number, total: number) => void; onRetry?: (error: Error) => void },
  /** The address of an unfinished upload of this file, to go on from its offset when the file's fingerprint does not find it. */
  resumeUrl?: string | null,
): Promise<ResumableUpload> {
  const { Upload } = await import("tus-js-client");
  let settle!: { resolve: (url: string | null) => void; reject: (error: Error) => void };
  const done = new Promise<string | null>((resolve, reject) => (settle = { resolve, reject }));
  const upload = new Upload(file, {
    endpoint: absolute(target.endpoint),
    headers: target.headers ?? {},
    metadata: { ...target.metadata, filename: file.name, filetype: file.type },
    chunkSize: CHUNK_BYTES,
    retryDelays: UPLOAD_RETRY_DELAYS_MS,
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    onShouldRetry: (error, _attempt, options) => {
      if (typeof navigator !== "undefined" && navigator.onLine === false) return false;
      const status = error.originalResponse?.getStatus() ?? 0;
      const retry = status === 0 || status >= 500 || status === 409 || status === 423;
      if (retry) handlers.onRetry?.(error);
      return retry && options.retryDelays !== null;
    },
    onProgress: handlers.onProgress,
    onSuccess: ({ lastResponse }) => settle.resolve(lastResponse.getHeader(FILE_URL_HEADER) ?? null),
    onError: (error) => settle.reject(serverMessage(error)),
  });
  const timer = setTimeout(() => {
    void upload.abort(false);
    settle.reject(new Error(UPLOAD_TIMEOUT_MESSAGE));
  }, UPLOAD_TIMEOUT_MS);
  void done.finally(() => clearTimeout(timer)).catch(() => {});
  const previous = (await upload.findPreviousUploads()).find((p) => sameMetadata(p.metadata, target.metadata));
  if (previous) upload.resumeFromPreviousUpload(previous);
  else if (resumeUrl) upload.url = resumeUrl;
  upload.start();
  // A link back after being offline resumes at once rather than waiting for the user.
  const online = () => upload.start();
  window.addEventListener("online", online);
  void done.finally(() => window.removeEventListener("online", online)).catch(() => {});
  return {
    done,
    cancel: async () => {
      clearTimeout(timer);
      await upload.abort(true).catch(() => {});
      settle.reject(new DOMException("cancelled", "AbortError"));
    },
  };
}

type LibraryTarget = { guid: string; tus_endpoint: string; tus_headers: Record<string, string>; tus_metadata: Record<string, string> };

/** The message of the APIs' one error shape, `{error: {code, message, fields?}}` (docs/api-errors.md), if the body is one. */
function errorMessageOf(body: unknown): string | null {
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof message === "string" && message ? message : null;
}

/** A JSON call to the back-office API; the error's message (the spec's words) becomes the thrown error's. */
export async function adminJson<T>(url: string, body?: unknown, method = "POST"): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer: unknown = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(errorMessageOf(answer) ?? `HTTP ${res.status}`);
  return answer as T;
}

export type UploadSteps = {
  /** The video's record exists (library uploads) or the upload is about to start. */
  onStarted: (upload: { guid?: string; resuming: boolean }) => void;
  onProgress: (sent: number, total: number) => void;
  /** The running upload, to cancel it. */
  onUpload: (upload: ResumableUpload) => void;
};

/**
 * A video into the library: its record (or, for the same file half sent before a reload, the record it
 * already has), then the file by tus. Resolves with the video's id once the file is in.
 */
export async function uploadToVideoLibrary(file: File, input: { title: string; description?: string }, steps: UploadSteps): Promise<string> {
  const previous = await findPreviousUpload(file, LOCAL_VIDEO_TUS_ENDPOINT).catch(() => null);
  const target = previous?.metadata.guid
    ? await adminJson<LibraryTarget>(`/api/admin/videos/${previous.metadata.guid}/upload`, {})
    : await adminJson<LibraryTarget>("/api/admin/videos", input);
  steps.onStarted({ guid: target.guid, resuming: Boolean(previous?.metadata.guid) });
  const upload = await startResumableUpload(file, { endpoint: target.tus_endpoint, headers: target.tus_headers, metadata: target.tus_metadata }, steps);
  steps.onUpload(upload);
  await upload.done;
  return target.guid;
}

/** An unfinished upload of a library video kept by this browser (tus-js-client's record in localStorage). */
export type StoredVideoUpload = { guid: string; uploadUrl: string; size: number; filename: string; filetype: string; created: string; key: string };

/** The unfinished video uploads this browser remembers, by video id (the newest one of each). */
export async function storedVideoUploads(): Promise<Map<string, StoredVideoUpload>> {
  const { defaultOptions } = await import("tus-js-client");
  const all = await defaultOptions.urlStorage.findAllUploads();
  const found = new Map<string, StoredVideoUpload>();
  for (const u of all.sort((a, b) => Date.parse(a.creationTime) - Date.parse(b.creationTime))) {
    const guid = u.metadata?.guid;
    if (!guid || !u.uploadUrl || typeof u.size !== "number") continue;
    found.set(guid.toLowerCase(), {
      guid: guid.toLowerCase(),
      uploadUrl: u.uploadUrl,
      size: u.size,
      filename: u.metadata.filename ?? "",
      filetype: u.metadata.filetype ?? "",
      created: u.creationTime,
      key: u.urlStorageKey,
    });
  }
  return found;
}

/**
 * How many bytes of an upload the server holds (tus HEAD's Upload-Offset), or null when it has none or cannot
 * say. A request cut a moment ago may still hold the upload's lock (423, 409) or be settling: asked again shortly.
 */
export async function uploadOffset(uploadUrl: string, retryDelaysMs: readonly number[] = [500, 1500, 3000]): Promise<number | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(absolute(uploadUrl), { method: "HEAD", headers: { "Tus-Resumable": "1.0.0" }, cache: "no-store" });
      const offset = Number(res.headers.get("Upload-Offset") ?? "");
      if (res.ok && res.headers.has("Upload-Offset") && Number.isFinite(offset)) return offset;
      // Gone (404, 410) or refused: nothing to resume from.
      if (res.status !== 423 && res.status !== 409 && res.status < 500) return null;
    } catch {
      // offline or cut: asked again below
    }
    if (attempt >= retryDelaysMs.length) return null;
    await new Promise((resolve) => setTimeout(resolve, retryDelaysMs[attempt]));
  }
}

/** Whether `file` is the one an unfinished upload was of: same name and size (what the editor can see and tell). */
export const isSameFile = (file: Pick<File, "name" | "size">, stored: Pick<StoredVideoUpload, "filename" | "size">) =>
  file.name === stored.filename && file.size === stored.size;

/**
 * The file of a library video that has none yet, chosen again after an interruption: sent on from the offset the
 * server holds (the stored upload's address), or from the start when this browser kept no upload of it.
 */
export async function resumeVideoUpload(file: File, guid: string, stored: StoredVideoUpload | null, steps: UploadSteps): Promise<string> {
  const target = await adminJson<LibraryTarget>(`/api/admin/videos/${guid}/upload`, {});
  steps.onStarted({ guid, resuming: Boolean(stored) });
  const upload = await startResumableUpload(
    file,
    { endpoint: target.tus_endpoint, headers: target.tus_headers, metadata: target.tus_metadata },
    steps,
    stored?.uploadUrl,
  );
  steps.onUpload(upload);
  await upload.done;
  // Whichever way it resumed, the record of the interrupted upload has served.
  if (stored) await import("tus-js-client").then(({ defaultOptions }) => defaultOptions.urlStorage.removeUpload(stored.key)).catch(() => {});
  return guid;
}

/** An audio or document file into the storage folder of its field; resolves with its public URL. */
export async function uploadFileToStorage(file: File, folder: string, steps: UploadSteps): Promise<string> {
  steps.onStarted({ resuming: false });
  const upload = await startResumableUpload(file, { endpoint: FILE_TUS_ENDPOINT, metadata: { folder } }, steps);
  steps.onUpload(upload);
  const url = await upload.done;
  if (!url) throw new Error("The server did not say where the file was stored");
  return url;
}

const sameMetadata = (stored: Record<string, string>, wanted: Record<string, string>) => Object.entries(wanted).every(([k, v]) => stored[k] === v);

/** The server's own words when it refused the file (the error shape's message, its code kept), else the client's message. */
function serverMessage(error: Error & { originalResponse?: { getBody(): string } | null }): Error {
  try {
    const body = JSON.parse(error.originalResponse?.getBody() ?? "") as { error?: { code?: unknown } } | null;
    const message = errorMessageOf(body);
    // The code lets the page say it in its own language (use-upload.ts): the API's words are Arabic.
    if (message) return Object.assign(new Error(message), { code: typeof body?.error?.code === "string" ? body.error.code : undefined });
  } catch {
    // not JSON: keep the client's message
  }
  return error;
}
