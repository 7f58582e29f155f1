/**
 * The file types each kind of upload takes, by the names editors know them (issue 46): what a refusal names so
 * that it is complete («نوع الملف غير مدعوم. الأنواع المقبولة: JPEG, PNG…»). The checks themselves are the
 * server's (server/media/storage: signatures, not names); keep these lists in step with them.
 */
export const UPLOAD_TYPE_NAMES = {
  image: ["JPEG", "PNG", "GIF", "WebP", "AVIF"],
  audio: ["MP3", "M4A", "OGG", "WAV", "FLAC"],
  video: ["MP4", "MOV", "WebM", "AVI", "WMV"],
  document: ["PDF"],
  captions: ["WebVTT (.vtt)"],
} as const;

export type UploadTypeKind = keyof typeof UPLOAD_TYPE_NAMES;

/** The translation key of a refusal for a type not taken; its `types` value is allowedTypes(…). */
export const UNSUPPORTED_FILE_KEY = "desk.upload.unsupported";

/**
 * The accepted types of these kinds as one list. Latin names and commas, the same in every language, so that
 * a message built on the server in one language and shown in another carries no foreign word.
 */
export const allowedTypes = (kinds: readonly UploadTypeKind[]) => [...new Set(kinds.flatMap((kind) => UPLOAD_TYPE_NAMES[kind]))].join(", ");

/** The refusal of a file of none of these kinds: its key and values. */
export const unsupportedFile = (kinds: readonly UploadTypeKind[]) => ({ key: UNSUPPORTED_FILE_KEY, values: { types: allowedTypes(kinds) } });

/** The image types a form's image field takes, as the browser reports them (SVG is not one: it can carry script). */
export const IMAGE_MIME_TYPES: readonly string[] = ["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif"];
