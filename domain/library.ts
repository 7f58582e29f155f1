/**
 * The media library (decision 0120): every image, audio file and PDF the newsroom has uploaded, found again by
 * its public address, with its alt text, caption and credit in Arabic and French and its focal point. Shared by
 * the server (server/media/library.server.ts), the back-office screen (/admin/library), the pickers of the
 * forms and the public pages: plain types and pure functions, no database and no zod.
 *
 * ("media" is already a content type, the media page's items: this is the library, its rows "library files".)
 */

import { numberLocale } from "./format.ts";
import type { Language } from "./language.ts";

/** What a library file is (the library_files.kind column). */
export const LIBRARY_KINDS = ["image", "audio", "document"] as const;
export type LibraryKind = (typeof LIBRARY_KINDS)[number];

/** What the screen and the API filter by: the stored kinds, and the video library's videos. */
export const LIBRARY_FILTERS = ["image", "audio", "document", "video"] as const;
export type LibraryFilter = (typeof LIBRARY_FILTERS)[number];

export const isLibraryFilter = (value: unknown): value is LibraryFilter => (LIBRARY_FILTERS as readonly unknown[]).includes(value);

export type Localized = { ar: string; fr: string };
/** Where the subject of a picture is, each between 0 (left, top) and 1 (right, bottom). */
export type FocalPoint = { x: number; y: number };

export type LibraryFile = {
  /** The row's id; 0 for a video (it is the video library's: `url` holds its id and `href` its screen). */
  id: number;
  /** The public address, exactly as the content columns store it (a video: its id). */
  url: string;
  kind: LibraryFilter;
  mime: string | null;
  bytes: number | null;
  width: number | null;
  height: number | null;
  /** The name it was uploaded under (a video: its title). */
  name: string;
  alt: Localized;
  caption: Localized;
  credit: Localized;
  focal: FocalPoint;
  /** ISO 8601. */
  createdAt: string;
  /** How many content items use it (image and file columns, rich-text bodies). */
  usageCount: number;
  /** A picture to show for it in a grid: the image itself, a video's thumbnail; null for sound and documents. */
  thumbnail: string | null;
  /** Where it is managed when not in the library screen (a video: /admin/videos). */
  href: string | null;
};

/** What the public pages and the pickers need of a file, by URL (libraryDetailsByUrl). */
export type LibraryDetails = {
  kind: LibraryKind;
  alt: Localized;
  caption: Localized;
  credit: Localized;
  focal: FocalPoint;
  width: number | null;
  height: number | null;
};

/** A content item that uses a file; `published` when readers see it now (what a delete would break for them). */
export type LibraryUsage = { type: string; id: number; title: string; href: string; published: boolean };

export type LibraryPage = { items: LibraryFile[]; total: number; page: number; pageSize: number };

/** The changes an editor may make to a file. */
export type LibraryPatch = { alt?: Localized; caption?: Localized; credit?: Localized; focal?: FocalPoint };

export const LIBRARY_PAGE_SIZE = 24;
export const LIBRARY_MAX_PAGE_SIZE = 100;
/** The longest search text taken. */
export const LIBRARY_QUERY_MAX = 100;
/** Characters at most of each text, per language. */
export const LIBRARY_TEXT_MAX = { alt: 300, caption: 1000, credit: 200 } as const;
export const LIBRARY_TEXT_FIELDS = ["alt", "caption", "credit"] as const;
export type LibraryTextField = (typeof LIBRARY_TEXT_FIELDS)[number];

/** The storage folder of files uploaded straight into the library (server/media/storage/file-uploads.server.ts). */
export const LIBRARY_FOLDER = "library";
/** What the library's file chooser offers: the image types the checker takes, any audio, PDF. */
export const LIBRARY_ACCEPT = "image/jpeg,image/png,image/gif,image/webp,image/avif,audio/*,application/pdf";

export const CENTERED: FocalPoint = { x: 0.5, y: 0.5 };

/** A coordinate between 0 and 1 (anything else, NaN included, is brought inside; NaN to the middle). */
export function clampUnit(value: number): number {
  if (!Number.isFinite(value)) return 0.5;
  return Math.min(1, Math.max(0, value));
}

/** A focal point inside the picture, rounded to 0.1 % (what a click can mean). */
export function clampFocal(focal: Partial<FocalPoint> | null | undefined): FocalPoint {
  const round = (n: number) => Math.round(clampUnit(n) * 1000) / 1000;
  return { x: round(focal?.x ?? 0.5), y: round(focal?.y ?? 0.5) };
}

/** The CSS `object-position` that keeps the focal point in view when a picture is cropped. */
export function focalPosition(focal: FocalPoint | null | undefined): string {
  const { x, y } = clampFocal(focal);
  return `${Math.round(x * 1000) / 10}% ${Math.round(y * 1000) / 10}%`;
}

/** The stored kind of a file from its type, or null when the library does not keep it. */
export function libraryKindOfMime(mime: string): LibraryKind | null {
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("audio/")) return "audio";
  if (mime === "application/pdf") return "document";
  return null;
}

/** The text in a language, or the other language's when it has none. */
export const localizedText = (text: Localized, lang: string): string => (lang === "fr" || lang === "en" ? text.fr || text.ar : text.ar || text.fr);

type Checked<T> = { ok: true; value: T } | { ok: false; fields: Record<string, string> };

/**
 * A PATCH body checked: any of alt, caption, credit as `{ar, fr}` strings within LIBRARY_TEXT_MAX, focal as
 * `{x, y}` numbers between 0 and 1. The messages are translation keys (library.v.*). Texts are trimmed.
 */
export function parseLibraryPatch(body: unknown): Checked<LibraryPatch> {
  const fields: Record<string, string> = {};
  const patch: LibraryPatch = {};
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { ok: false, fields: { body: "library.v.body" } };
  const input = body as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (!(LIBRARY_TEXT_FIELDS as readonly string[]).includes(key) && key !== "focal") fields[key] = "library.v.unknownField";
  }
  for (const name of LIBRARY_TEXT_FIELDS) {
    if (input[name] === undefined) continue;
    const value = input[name] as Record<string, unknown> | null;
    if (typeof value !== "object" || value === null) {
      fields[name] = "library.v.text";
      continue;
    }
    const out: Localized = { ar: "", fr: "" };
    for (const lang of ["ar", "fr"] as const) {
      const text = value[lang] ?? "";
      if (typeof text !== "string") fields[`${name}.${lang}`] = "library.v.text";
      else if (text.trim().length > LIBRARY_TEXT_MAX[name]) fields[`${name}.${lang}`] = `library.v.${name}TooLong`;
      else out[lang] = text.trim();
    }
    patch[name] = out;
  }
  if (input.focal !== undefined) {
    const focal = input.focal as Record<string, unknown> | null;
    const ok = (n: unknown) => typeof n === "number" && Number.isFinite(n) && n >= 0 && n <= 1;
    if (typeof focal !== "object" || focal === null || !ok(focal.x) || !ok(focal.y)) fields.focal = "library.v.focal";
    else patch.focal = clampFocal({ x: focal.x as number, y: focal.y as number });
  }
  return Object.keys(fields).length ? { ok: false, fields } : { ok: true, value: patch };
}

/** Bytes as the screen shows them (KB, MB), with the language's digits and separators. */
export function formatBytes(bytes: number | null, lang: string): string {
  if (bytes === null) return "";
  const locale = numberLocale(lang as Language);
  // French writes octets (o, Ko, Mo); Arabic and English the Latin abbreviations a newsroom reads on every device.
  const units = lang === "fr" ? ["o", "Ko", "Mo", "Go"] : ["B", "KB", "MB", "GB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`;
}
