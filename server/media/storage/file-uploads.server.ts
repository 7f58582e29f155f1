/**
 * Resumable uploads of the content forms' files (a podcast's episode, a media item's file, captions, and the
 * image fields' pictures), at FILE_TUS_PATH: the one tus endpoint of ./tus.ts, streaming the complete file into
 * the configured storage (local, Bunny or S3) under its field's folder of back-office.md §7. An image is stored
 * as a form's image is (storeImageBytes: upright, without metadata, with its resized copies). The stored file's
 * public URL comes back in the `Upload-File-Url` header of the last response; the form puts it in the field.
 * Videos do not come here: they go to the video library (server/media/video/tus.server.ts), and the field keeps
 * the video's id.
 */
import { CAPTIONS_MAX_MB, CAPTIONS_MIME, isWebVtt } from "#domain/captions.ts";
import { CONTENT_TYPE_DEFINITIONS } from "#domain/content-types/index.ts";
import { LIBRARY_FOLDER } from "#domain/library.ts";
import { IMAGE_MIME_TYPES, unsupportedFile, type UploadTypeKind } from "#domain/upload-types.ts";
import { arabic } from "#server/http/errors.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { collect } from "./driver.server.ts";
import { safeFileName, storeImageBytes, UPLOAD_LIMITS_MB, UploadError, type Storage } from "./index.server.ts";
import { sniffMedia } from "./file-types.server.ts";
import { createTusEndpoint, refuse, uploadStoreFor, type UploadRate } from "./tus.server.ts";

export const FILE_TUS_PATH = "/api/admin/files/tus";
/** The response header that carries the stored file's public URL. */
export const FILE_URL_HEADER = "Upload-File-Url";

const MB = 1024 * 1024;

const foldersOf = (kinds: readonly string[]) =>
  Object.values(CONTENT_TYPE_DEFINITIONS).flatMap((def) => def.fields.filter((f) => kinds.includes(f.kind)).flatMap((f) => def.folders[f.name] ?? []));

/** The folders of the file fields that take uploads here (audio, a media item's file, captions; images: below). */
export const FILE_UPLOAD_FOLDERS: ReadonlySet<string> = new Set(foldersOf(["audio", "file", "captions"]));
/** Captions folders take WebVTT files only, and WebVTT files go nowhere else. */
const CAPTIONS_FOLDERS: ReadonlySet<string> = new Set(foldersOf(["captions"]));
/** The image fields' folders: pictures only, and pictures go nowhere else. */
export const IMAGE_UPLOAD_FOLDERS: ReadonlySet<string> = new Set(foldersOf(["image"]));

/** Files uploaded straight into the media library (/admin/library): images, audio and PDF, no captions. */
const isLibraryFolder = (folder: string) => folder === LIBRARY_FOLDER;

/** What a folder takes, named in its refusal (domain/upload-types.ts) so that the message is complete. */
function unsupportedIn(folder: string): ReturnType<typeof refuse> {
  const kinds: UploadTypeKind[] = isLibraryFolder(folder)
    ? ["image", "audio", "document"]
    : CAPTIONS_FOLDERS.has(folder)
      ? ["captions"]
      : IMAGE_UPLOAD_FOLDERS.has(folder)
        ? ["image"]
        : ["audio", "document"];
  const { key, values } = unsupportedFile(kinds);
  return refuse(415, arabic(key, values));
}

/** The image types a form's image field takes (storeImage's signatures); SVG is not one: it can carry script. */
const IMAGE_TYPES: ReadonlySet<string> = new Set(IMAGE_MIME_TYPES);

type Accepted = { kind: "audio" | "document" | "captions" | "image"; maxBytes: number };

/** What a declared type may be, and its limit (back-office.md §9; captions: domain/captions.ts). */
function acceptedType(filetype: string): Accepted | null {
  if (IMAGE_TYPES.has(filetype)) return { kind: "image", maxBytes: UPLOAD_LIMITS_MB.image * MB };
  if (filetype === CAPTIONS_MIME) return { kind: "captions", maxBytes: CAPTIONS_MAX_MB * MB };
  if (filetype.startsWith("audio/")) return { kind: "audio", maxBytes: UPLOAD_LIMITS_MB.audio * MB };
  if (filetype === "application/pdf") return { kind: "document", maxBytes: UPLOAD_LIMITS_MB.document * MB };
  return null;
}

/** The file's real type from its first bytes, when it is of the declared kind (images: checkImage, later). */
function sniffed(kind: Exclude<Accepted["kind"], "image">, head: Uint8Array): { mime: string; extension: string } | null {
  if (kind === "captions") return isWebVtt(head) ? { mime: CAPTIONS_MIME, extension: "vtt" } : null;
  if (kind === "document") return String.fromCharCode(...head.slice(0, 5)) === "%PDF-" ? { mime: "application/pdf", extension: "pdf" } : null;
  const media = sniffMedia(head);
  return media?.kind === "audio" ? media : null;
}

export type FileUploadOptions = {
  dataDir: string;
  /** Where complete files go: the configured storage. */
  storage: () => Storage;
  /** The storage every process reaches, when there is one (S3, Bunny): unfinished uploads wait there (sharedStorage). */
  sharedStorage?: Storage | null;
  authorize: (request: Request) => Promise<unknown>;
  /** The slowest an upload may arrive (server/media/storage/tus.server.ts). */
  minRate?: UploadRate;
  /** Records a stored image, audio file or PDF in the media library (server/media/library.server.ts); never fails the upload. */
  record?: (file: { url: string; kind: "image" | "audio" | "document"; bytes: number; originalName: string; uploadedBy: string | null }) => Promise<void>;
};

const storeFailed = (folder: string) => (error: unknown) => {
  logger.error({ err: error, folder }, "stored upload failed");
  throw refuse(502, arabic("newsroom.v.fileStoreFailed"));
};

export function createFileUploadServer(options: FileUploadOptions) {
  return createTusEndpoint({
    path: FILE_TUS_PATH,
    store: uploadStoreFor("files", options.dataDir, options.sharedStorage),
    maxSize: UPLOAD_LIMITS_MB.audio * MB,
    authorize: options.authorize,
    minRate: options.minRate,
    refusals: { unauthenticated: "Sign in to upload", forbidden: "You may not upload files" },
    async onCreate({ size, metadata, request }) {
      const accepted = acceptedType(metadata.filetype ?? "");
      if (!accepted) throw unsupportedIn(metadata.folder ?? "");
      if (size > accepted.maxBytes) throw refuse(413, arabic("newsroom.v.fileTooLarge", { max: accepted.maxBytes / MB }));
      const folder = metadata.folder ?? "";
      // Who uploads it, for the media library (the guard already let the request in); never what the client says.
      const user = (await options.authorize(request).catch(() => null)) as { id?: unknown } | null;
      metadata.uploadedBy = typeof user?.id === "string" ? user.id : "";
      if (isLibraryFolder(folder)) {
        if (accepted.kind === "captions") throw unsupportedIn(folder);
        return metadata;
      }
      if (!FILE_UPLOAD_FOLDERS.has(folder) && !IMAGE_UPLOAD_FOLDERS.has(folder)) throw refuse(400, "Upload-Metadata needs the folder of a file or image field");
      if ((accepted.kind === "captions") !== CAPTIONS_FOLDERS.has(folder)) throw unsupportedIn(folder);
      if ((accepted.kind === "image") !== IMAGE_UPLOAD_FOLDERS.has(folder)) throw unsupportedIn(folder);
      return metadata;
    },
    async onComplete({ head, size, metadata, open }) {
      const accepted = acceptedType(metadata.filetype ?? "")!;
      if (accepted.kind === "image") {
        // At most the image limit (10 MB): decoded and resized in memory, as a form's image is.
        const bytes = await collect(await open(), accepted.maxBytes);
        const stored = await storeImageBytes(metadata.filename ?? "", bytes, metadata.folder, options.storage()).catch((error: unknown) => {
          if (error instanceof UploadError) throw refuse(415, error.message);
          return storeFailed(metadata.folder)(error);
        });
        await options.record?.({ url: stored.url, kind: "image", bytes: size, originalName: metadata.filename ?? "", uploadedBy: metadata.uploadedBy || null });
        return { [FILE_URL_HEADER]: stored.url };
      }
      const real = sniffed(accepted.kind, head);
      // Captions that are not WebVTT have their own code: the spec's words say why, in the back-office's language.
      if (!real) throw accepted.kind === "captions" ? refuse(415, arabic("newsroom.v.captionsNotVtt"), "NOT_WEBVTT") : unsupportedIn(metadata.folder);
      const stored = await options
        .storage()
        .put(metadata.folder, safeFileName(metadata.filename ?? "", real.extension), await open(), real.mime, size)
        .catch(storeFailed(metadata.folder));
      if (accepted.kind !== "captions") {
        await options.record?.({
          url: stored.url,
          kind: accepted.kind,
          bytes: size,
          originalName: metadata.filename ?? "",
          uploadedBy: metadata.uploadedBy || null,
        });
      }
      return { [FILE_URL_HEADER]: stored.url };
    },
  });
}
