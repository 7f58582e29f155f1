/**
 * File storage (docs/spec/stack.md, "file storage"): a `Storage` interface with drivers, and the checks every
 * upload passes before a byte is stored. The local driver writes under DATA_DIR/uploads, served at
 * /uploads; Bunny Storage (bunny.ts) and any S3-compatible store (s3.ts) sit behind the same interface,
 * chosen by STORAGE_DRIVER. See docs/decisions/0101-storage-drivers.md.
 *
 * Checks follow back-office.md §5 "File checker": a size limit per kind, the blocked extensions, and the
 * type read from the file's first bytes (a name or a declared type proves nothing).
 */
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { getConfig, type Config } from "#server/config.server.ts";
import { arabic, ValidationError } from "#server/http/errors.server.ts";
import { BunnyStorage } from "./bunny.server.ts";
import { assertValidKey, checkedBody, encodeKey, objectKey, type Storage, type StorageBody, type StoredFile } from "./driver.server.ts";
import { storeImageWithVariants, UndecodableImage } from "./images.server.ts";
import { S3Storage } from "./s3.server.ts";
import type { ImageFormat } from "#domain/image-sources.ts";

export { StorageError, type Storage, type StorageBody, type StoredFile } from "./driver.server.ts";

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

/** The checks of the file checker for an image; answers the stored type and extension. */
export function checkImage(name: string, size: number, head: Uint8Array): Sniffed {
  if (!name && size === 0) throw new UploadError("newsroom.v.fileMissing");
  const extension = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase();
  if (extension && (BLOCKED_EXTENSIONS as readonly string[]).includes(extension)) throw new UploadError("newsroom.v.fileUnsafe");
  if (size === 0) throw new UploadError("newsroom.v.fileMissing");
  if (size > UPLOAD_LIMITS_MB.image * 1024 * 1024) throw new UploadError("newsroom.v.fileTooLarge", { max: UPLOAD_LIMITS_MB.image });
  const sniffed = sniffImage(head);
  if (!sniffed) throw new UploadError("newsroom.v.fileUnsupported");
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
    const target = path.join(this.root, ...key.split("/"));
    await fs.mkdir(path.dirname(target), { recursive: true });
    // Written aside and renamed: a reader never sees half a file, a failed write leaves nothing behind. The
    // partial name starts with a dot, which /uploads refuses to serve.
    const partial = path.join(path.dirname(target), `.${path.basename(target)}.part`);
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

  async remove(key: string): Promise<void> {
    assertValidKey(key);
    await fs.rm(path.join(this.root, ...key.split("/")), { force: true });
  }

  publicUrl(key: string): string {
    return `${this.urlPrefix}/${encodeKey(key)}`;
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

let storage: Storage | undefined;

export function getStorage(): Storage {
  storage ??= createStorage(getConfig());
  return storage;
}

/** Checks an uploaded image and stores it in `folder`; throws UploadError with the spec's message. */
export async function storeImage(file: File, folder: string, target: Storage = getStorage()): Promise<StoredFile> {
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  const sniffed = checkImage(file.name, file.size, head);
  const body = new Uint8Array(await file.arrayBuffer());
  try {
    // Resized copies beside it, upright and without metadata (decision 0104); answers the original.
    return await storeImageWithVariants(target, folder, safeFileName(file.name, sniffed.extension), body, sniffed.extension as ImageFormat);
  } catch (error) {
    if (error instanceof UndecodableImage) throw new UploadError("newsroom.v.fileUnsupported");
    throw error;
  }
}
