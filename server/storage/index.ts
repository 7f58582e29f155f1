/**
 * File storage (ARCHITECTURE "file storage"): a `Storage` interface with drivers, and the checks every
 * upload passes before a byte is stored. The local driver writes under DATA_DIR/uploads, served at
 * /uploads; the hosted drivers (Bunny Storage, S3) plug in behind the same interface with the media
 * pipeline.
 *
 * Checks follow back-office.md §5 "File checker": a size limit per kind, the blocked extensions, and the
 * type read from the file's first bytes (a name or a declared type proves nothing).
 */
import fs from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { getConfig } from "../config.ts";

export type StoredFile = { url: string; key: string };

export interface Storage {
  /** Stores `body` under `{folder}/{timestamp}-{filename}` and answers its public URL. */
  put(folder: string, filename: string, body: Uint8Array, contentType: string): Promise<StoredFile>;
  remove(key: string): Promise<void>;
}

/** back-office.md §9: upload limits per kind. */
export const UPLOAD_LIMITS_MB = { image: 10, video: 500, audio: 50, document: 5 } as const;
export type UploadKind = keyof typeof UPLOAD_LIMITS_MB;

/** back-office.md §5: refused whatever their content. */
export const BLOCKED_EXTENSIONS = ["exe", "bat", "com", "cmd", "scr", "pif", "js", "vbs"] as const;

/** Why an upload was refused: a translation key (the spec's file-checker words) and its values. */
export class UploadError extends Error {
  readonly code = "UPLOAD_REFUSED";
  constructor(
    readonly messageKey: string,
    readonly values: Record<string, string | number> = {},
  ) {
    super(messageKey);
    this.name = "UploadError";
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

  async put(folder: string, filename: string, body: Uint8Array, _contentType: string): Promise<StoredFile> {
    const key = `${folder}/${Date.now()}-${randomBytes(3).toString("hex")}-${filename}`;
    const target = path.join(this.root, key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    // Written aside and renamed: a reader never sees half a file, a failed write leaves nothing behind.
    const partial = `${target}.part`;
    try {
      await fs.writeFile(partial, body);
      await fs.rename(partial, target);
    } catch (error) {
      await fs.rm(partial, { force: true });
      throw error;
    }
    return { key, url: `${this.urlPrefix}/${key.split("/").map(encodeURIComponent).join("/")}` };
  }

  async remove(key: string): Promise<void> {
    const target = path.resolve(this.root, key);
    if (!target.startsWith(path.resolve(this.root) + path.sep)) return;
    await fs.rm(target, { force: true });
  }
}

let storage: Storage | undefined;

export function getStorage(): Storage {
  // Hosted drivers come with the media pipeline; until then every driver setting stores locally.
  storage ??= new LocalStorage(path.join(getConfig().dataDir, "uploads"));
  return storage;
}

/** Checks an uploaded image and stores it in `folder`; throws UploadError with the spec's message. */
export async function storeImage(file: File, folder: string, target: Storage = getStorage()): Promise<StoredFile> {
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  const sniffed = checkImage(file.name, file.size, head);
  const body = new Uint8Array(await file.arrayBuffer());
  return target.put(folder, safeFileName(file.name, sniffed.extension), body, sniffed.mime);
}
