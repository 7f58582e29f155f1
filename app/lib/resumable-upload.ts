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

export type UploadTarget = { endpoint: string; headers?: Record<string, string>; metadata: Record<string, string> };

export type ResumableUpload = {
  /** Resolves when the whole file is on the server. */
  done: Promise<void>;
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
): Promise<ResumableUpload> {
  const { Upload } = await import("tus-js-client");
  let settle!: { resolve: () => void; reject: (error: Error) => void };
  const done = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
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
    onSuccess: () => settle.resolve(),
    onError: (error) => settle.reject(serverMessage(error)),
  });
  const timer = setTimeout(() => {
    void upload.abort(false);
    settle.reject(new Error(UPLOAD_TIMEOUT_MESSAGE));
  }, UPLOAD_TIMEOUT_MS);
  void done.finally(() => clearTimeout(timer)).catch(() => {});
  const previous = (await upload.findPreviousUploads()).find((p) => sameMetadata(p.metadata, target.metadata));
  if (previous) upload.resumeFromPreviousUpload(previous);
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

const sameMetadata = (stored: Record<string, string>, wanted: Record<string, string>) => Object.entries(wanted).every(([k, v]) => stored[k] === v);

/** The server's own words when it refused the file ({"error": "…"} in the body), else the client's message. */
function serverMessage(error: Error & { originalResponse?: { getBody(): string } | null }): Error {
  try {
    const body = JSON.parse(error.originalResponse?.getBody() ?? "") as { error?: unknown };
    if (typeof body.error === "string") return new Error(body.error);
  } catch {
    // not JSON: keep the client's message
  }
  return error;
}
