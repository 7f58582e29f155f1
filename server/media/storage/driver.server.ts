/**
 * What every storage driver shares: the interface, the key layout and the errors. Kept apart from
 * index.ts so the hosted drivers can import it without a cycle through `getStorage()`.
 */
import { randomBytes } from "node:crypto";
import { Transform, type Readable } from "node:stream";
import { CodedError } from "#server/errors.server.ts";

export type StoredFile = { url: string; key: string };

/** Bytes already in memory (a small image), or a stream for anything that may be large. */
export type StorageBody = Uint8Array | Readable;

/** One object found by `list`: its key, its size, and when it was last written where the store says. */
export type ListedObject = { key: string; size: number; modified?: Date };

export interface Storage {
  /**
   * Stores `body` under `{folder}/{timestamp}-{tag}-{filename}` and answers its key and public URL. A
   * stream is passed through, never collected, so memory does not grow with the file. `size`, when known,
   * is the exact byte count: drivers send it ahead (no chunked encoding) and refuse a body of another size.
   */
  put(folder: string, filename: string, body: StorageBody, contentType: string, size?: number): Promise<StoredFile>;
  /**
   * Stores `body` at exactly `key`, replacing what was there: files named after another (an image's resized
   * copies), a video's renditions, the pieces of an upload still arriving (server/media/storage/tus-store.server.ts).
   */
  putAt(key: string, body: StorageBody, contentType: string, size?: number): Promise<StoredFile>;
  /** The stored bytes as a stream, never collected; a key that is not there is a StorageError with status 404. */
  read(key: string): Promise<Readable>;
  /** Every object under the folder `prefix` (subfolders included), in no particular order; none is no error. */
  list(prefix: string): Promise<ListedObject[]>;
  /** Removes a stored file; a key that is already gone is not an error. */
  remove(key: string): Promise<void>;
  /** Removes the folder `prefix` and everything under it; an empty or absent folder is not an error. */
  removePrefix(prefix: string): Promise<void>;
  /** The address a reader's browser loads the file from. */
  publicUrl(key: string): string;
}

/**
 * A store refused or could not be reached. The message is meant for the log and the editor; it names the
 * status and never a credential.
 */
export class StorageError extends CodedError {
  declare readonly code: "STORAGE_FAILED";
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super("STORAGE_FAILED", message, { level: "error", context: { status } });
  }
}

// Letters and marks of any script (Arabic names keep their harakat), digits, `_ - .`; never a leading dot,
// so neither `..` nor hidden files can be named.
const SEGMENT = /^[\p{L}\p{M}\p{N}_-][\p{L}\p{M}\p{N}._-]*$/u;

export function isValidKey(key: string): boolean {
  return key.length <= 1024 && key.split("/").every((segment) => SEGMENT.test(segment));
}

/**
 * The spec's `{folder}/{timestamp}-{filename}`. Three random bytes follow the timestamp: two editors saving
 * `cover.jpg` in the same millisecond must not overwrite each other, and hosted stores overwrite silently.
 */
export function objectKey(folder: string, filename: string): string {
  const key = `${folder}/${Date.now()}-${randomBytes(3).toString("hex")}-${filename}`;
  if (!folder || filename.includes("/") || !isValidKey(key)) throw new StorageError(`Invalid storage path: ${folder}/${filename}`);
  return key;
}

export function assertValidKey(key: string): void {
  if (!isValidKey(key)) throw new StorageError("Invalid storage key");
}

/** Each segment percent-encoded: Arabic names stay intact and the URL stays valid as written. */
export function encodeKey(key: string): string {
  return key.split("/").map(encodeURIComponent).join("/");
}

/**
 * The body as the store should receive it: when `size` is announced, a stream that runs longer or ends
 * shorter fails the upload instead of leaving a truncated file (or a length the store rejects later).
 */
export function checkedBody(body: StorageBody, size: number | undefined): StorageBody {
  if (size === undefined) return body;
  if (body instanceof Uint8Array) {
    if (body.byteLength !== size) throw lengthMismatch(body.byteLength, size);
    return body;
  }
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      callback(seen > size ? lengthMismatch(seen, size) : null, chunk);
    },
    flush(callback) {
      callback(seen === size ? null : lengthMismatch(seen, size));
    },
  });
  // pipe() links the two streams one way only: an error upstream, or the upload giving up downstream,
  // must end the other side too.
  body.on("error", (error) => counter.destroy(error));
  counter.on("close", () => {
    if (!body.readableEnded) body.destroy();
  });
  return body.pipe(counter);
}

const lengthMismatch = (seen: number, size: number) =>
  new StorageError(`Upload failed: the file has ${seen > size ? "more than" : "only"} ${seen} bytes, ${size} were announced`);

export function byteLength(body: StorageBody): number | undefined {
  return body instanceof Uint8Array ? body.byteLength : undefined;
}

/** Bytes of a stream collected, up to `max` (a small object: an upload's description); more is a StorageError. */
export async function collect(stream: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      stream.destroy();
      throw new StorageError(`Read failed: more than ${max} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** Runs `work` on every item, `limit` at a time; the first failure is thrown once the running ones end. */
export async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
