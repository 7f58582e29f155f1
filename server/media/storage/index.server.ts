/**
 * File storage (docs/spec/stack.md, "file storage"): a `Storage` interface with drivers, and the checks every
 * upload passes before a byte is stored. The local driver writes under DATA_DIR/uploads, served at
 * /uploads; Bunny Storage (bunny.ts) and any S3-compatible store (s3.ts) sit behind the same interface,
 * chosen by STORAGE_DRIVER. See docs/decisions/0101-storage-drivers.md.
 *
 * Checks follow back-office.md §5 "File checker": a size limit per kind, the blocked extensions, and the
 * type read from the file's first bytes (a name or a declared type proves nothing).
 */
import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { getConfig, type Config } from "#server/config.server.ts";
import { arabic, ValidationError } from "#server/http/errors.server.ts";
import { BunnyStorage } from "./bunny.server.ts";
import {
  assertValidKey,
  checkedBody,
  encodeKey,
  objectKey,
  StorageError,
  type ListedObject,
  type Storage,
  type StorageBody,
  type StoredFile,
} from "./driver.server.ts";
import { storeImageWithVariants, UndecodableImage } from "./images.server.ts";
import { S3Storage } from "./s3.server.ts";
import type { ImageFormat } from "#domain/image-sources.ts";
import { unsupportedFile } from "#domain/upload-types.ts";

export { StorageError, type ListedObject, type Storage, type StorageBody, type StoredFile } from "./driver.server.ts";

/** back-office.md §9: upload limits per kind. */
export const UPLOAD_LIMITS_MB = { image: 10, video: 500, audio: 50, document: 5 } as const;
export type UploadKind = keyof typeof UPLOAD_LIMITS_MB;

/** back-office.md §5: refused whatever their content. */
export const BLOCKED_EXTENSIONS = ["exe", "bat", "com", "cmd", "scr", "pif", "js", "vbs"] as const;

/**
 * Why an upload was refused (422 UPLOAD_REFUSED): a translation key (the spec's file-checker words) and its
 * values, for a form to show in the reader's language; the message is the Arabic the API answers.
 */
export class UploadError extends ValidationError {
  constructor(
    readonly messageKey: string,
    readonly values: Record<string, string | number> = {},
  ) {
    super(arabic(messageKey, values), {}, { code: "UPLOAD_REFUSED" });
  }
}

type Sniffed = { mime: string; extension: string };

/** Image formats a browser shows, by signature. SVG is refused: it can carry script. */
function sniffImage(bytes: Uint8Array): Sniffed | null {
  const at = (offset: number, ...values: number[]) => values.every((v, i) => bytes[offset + i] === v);
  const ascii = (offset: number, text: string) => at(offset, ...[...text].map((c) => c.charCodeAt(0)));
  if (at(0, 0xff, 0xd8, 0xff)) return { mime: "image/jpeg", extension: "jpg" };
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return { mime: "image/png", extension: "png" };
  if (ascii(0, "GIF87a") || ascii(0, "GIF89a")) return { mime: "image/gif", extension: "gif" };
  if (ascii(0, "RIFF") && ascii(8, "WEBP")) return { mime: "image/webp", extension: "webp" };
  if (ascii(4, "ftypavif") || ascii(4, "ftypavis")) return { mime: "image/avif", extension: "avif" };
  return null;
}

/** A name safe in a URL and on any disk: letters of any script, digits, dot, hyphen, underscore. */
export function safeFileName(name: string, extension: string): string {
  const base =
    path
      .basename(name)
      .replace(/\.[^.]*$/, "")
      .normalize("NFKC")
      .replace(/[^\p{L}\p{N}_-]+/gu, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80) || "file";
  return `${base}.${extension}`;
}

/** A picture refused for its type, with the types that are taken (the spec's words stop at «…»). */
const imageUnsupported = () => {
  const { key, values } = unsupportedFile(["image"]);
  return new UploadError(key, values);
};

/** The checks of the file checker for an image; answers the stored type and extension. */
export function checkImage(name: string, size: number, head: Uint8Array): Sniffed {
  if (!name && size === 0) throw new UploadError("newsroom.v.fileMissing");
  const extension = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase();
  if (extension && (BLOCKED_EXTENSIONS as readonly string[]).includes(extension)) throw new UploadError("newsroom.v.fileUnsafe");
  if (size === 0) throw new UploadError("newsroom.v.fileMissing");
  if (size > UPLOAD_LIMITS_MB.image * 1024 * 1024) throw new UploadError("newsroom.v.fileTooLarge", { max: UPLOAD_LIMITS_MB.image });
  const sniffed = sniffImage(head);
  if (!sniffed) throw imageUnsupported();
  return sniffed;
}

export class LocalStorage implements Storage {
  constructor(
    private readonly root: string,
    private readonly urlPrefix = "/uploads",
  ) {}

  async put(folder: string, filename: string, body: StorageBody, contentType: string, size?: number): Promise<StoredFile> {
    return this.putAt(objectKey(folder, filename), body, contentType, size);
  }

  /** Stores `body` at exactly `key` (an image's resized copies are named after it: server/media/storage/images.server.ts). */
  async putAt(key: string, body: StorageBody, _contentType: string, size?: number): Promise<StoredFile> {
    assertValidKey(key);
    const target = this.pathOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    // Written aside and renamed: a reader never sees half a file, a failed write leaves nothing behind. The
    // partial name starts with a dot, which /uploads refuses to serve.
    const partial = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(4).toString("hex")}.part`);
    try {
      const checked = checkedBody(body, size);
      if (checked instanceof Uint8Array) await fs.writeFile(partial, checked);
      else await pipeline(checked, createWriteStream(partial));
      await fs.rename(partial, target);
    } catch (error) {
      await fs.rm(partial, { force: true });
      throw error;
    }
    return { key, url: this.publicUrl(key) };
  }

  async read(key: string): Promise<Readable> {
    assertValidKey(key);
    const handle = await fs.open(this.pathOf(key), "r").catch((error: NodeJS.ErrnoException) => {
      throw error.code === "ENOENT" || error.code === "EISDIR" ? new StorageError("Read failed with status 404: Not Found", 404) : error;
    });
    return handle.createReadStream();
  }

  async list(prefix: string): Promise<ListedObject[]> {
    assertValidKey(prefix);
    const root = this.pathOf(prefix);
    const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ENOTDIR") return [];
      throw error;
    });
    const listed = await Promise.all(
      entries
        // Dot-files are writes still in progress (putAt's partial files).
        .filter((entry) => entry.isFile() && !entry.name.startsWith("."))
        .map(async (entry): Promise<ListedObject | null> => {
          const full = path.join(entry.parentPath, entry.name);
          const stat = await fs.stat(full).catch(() => null);
          const key = [prefix, ...path.relative(root, full).split(path.sep)].join("/");
          return stat ? { key, size: stat.size, modified: stat.mtime } : null;
        }),
    );
    return listed.filter((entry) => entry !== null);
  }

  async remove(key: string): Promise<void> {
    assertValidKey(key);
    await fs.rm(this.pathOf(key), { force: true });
  }

  async removePrefix(prefix: string): Promise<void> {
    assertValidKey(prefix);
    await fs.rm(this.pathOf(prefix), { recursive: true, force: true });
  }

  publicUrl(key: string): string {
    return `${this.urlPrefix}/${encodeKey(key)}`;
  }

  private pathOf(key: string): string {
    return path.join(this.root, ...key.split("/"));
  }
}

/** The driver STORAGE_DRIVER names; the config check has already fallen back to local when one is unusable. */
export function createStorage(config: Config): Storage {
  switch (config.drivers.storage) {
    case "bunny":
      return new BunnyStorage({
        zone: config.BUNNY_STORAGE_ZONE ?? "",
        accessKey: config.BUNNY_STORAGE_API_KEY ?? "",
        cdnUrl: config.CDN_URL ?? "",
        apiUrl: `https://${config.BUNNY_STORAGE_HOST}`,
      });
    case "s3":
      return new S3Storage({
        endpoint: config.S3_ENDPOINT ?? "",
        region: config.S3_REGION,
        bucket: config.S3_BUCKET ?? "",
        accessKeyId: config.S3_ACCESS_KEY_ID ?? "",
        secretAccessKey: config.S3_SECRET_ACCESS_KEY ?? "",
        publicUrl: config.S3_PUBLIC_URL ?? "",
      });
    case "local":
      return new LocalStorage(path.join(config.dataDir, "uploads"));
  }
}

const storages = new WeakMap<Config, Storage>();

/** The driver of a configuration, made once per configuration (a hosted driver keeps its connections). */
export function storageFor(config: Config): Storage {
  let storage = storages.get(config);
  if (!storage) storages.set(config, (storage = createStorage(config)));
  return storage;
}

export function getStorage(): Storage {
  return storageFor(getConfig());
}

/**
 * The configured storage when every machine reaches it (S3, Bunny): then resumable uploads keep their pieces
 * there and the local video library keeps its files there, so no disk is shared (decision 0119). Null with
 * the local driver, whose files are this machine's.
 */
export function sharedStorage(config: Config): Storage | null {
  return config.drivers.storage === "local" ? null : storageFor(config);
}

/** Checks an uploaded image and stores it in `folder`; throws UploadError with the spec's message. */
export async function storeImage(file: File, folder: string, target: Storage = getStorage()): Promise<StoredFile> {
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  checkImage(file.name, file.size, head);
  return storeImageBytes(file.name, new Uint8Array(await file.arrayBuffer()), folder, target);
}

/**
 * Checks an image already in memory (at most the image limit: a form's file, a finished resumable upload) and
 * stores it with its resized copies in `folder`; answers the original. Throws UploadError with the spec's message.
 */
export async function storeImageBytes(name: string, body: Uint8Array, folder: string, target: Storage = getStorage()): Promise<StoredFile> {
  const sniffed = checkImage(name, body.byteLength, body.subarray(0, 16));
  try {
    // Resized copies beside it, upright and without metadata (decision 0104); answers the original.
    return await storeImageWithVariants(target, folder, safeFileName(name, sniffed.extension), body, sniffed.extension as ImageFormat);
  } catch (error) {
    if (error instanceof UndecodableImage) throw imageUnsupported();
    throw error;
  }
}
