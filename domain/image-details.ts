/**
 * What the reading pages know of a picture beyond its address (issue 28): the media library's alternative
 * text, caption and credit in Arabic and French, and its focal point. A page's loader asks the library once
 * for every picture it shows (server/content/image-details.server.ts) and passes them as `ImageDetailsMap`,
 * by URL; the cards and the detail page read them through app/components/content/image-details.tsx.
 *
 * Client-safe: plain data and the rules that turn it into attributes.
 */
import { clampFocal, focalPosition, localizedText, type LibraryDetails, type Localized } from "./library.ts";

/** One library file as a page shows it (server/media/library.server.ts `libraryDetailsByUrl`). */
export type ImageDetails = LibraryDetails;

/** Loader data: the details of the page's pictures by their URL (only those the library has). */
export type ImageDetailsMap = Record<string, ImageDetails>;

/** A text of the library in the reader's language (domain/library.ts `localizedText`: the other language's when empty). */
export function libraryText(lang: string, text: Localized | undefined): string {
  return text ? localizedText(text, lang).trim() : "";
}

/**
 * The CSS `object-position` of a cover-cropped picture (domain/library.ts `focalPosition`), or undefined for the
 * centre, the browser's default: a picture nobody placed gets no style attribute.
 */
export function objectPositionOf(details: Pick<ImageDetails, "focal"> | undefined): string | undefined {
  if (!details) return undefined;
  const { x, y } = clampFocal(details.focal);
  return x === 0.5 && y === 0.5 ? undefined : focalPosition(details.focal);
}

/**
 * The crop of a `width`×`height` picture to the `ratio` (width / height) that keeps the focal point as near the
 * centre as the picture allows: the share image (1200×630) and any server-side crop use it.
 */
export function focalCrop(
  width: number,
  height: number,
  ratio: number,
  focal: { x: number; y: number } = { x: 0.5, y: 0.5 },
): { left: number; top: number; width: number; height: number } {
  const cropWidth = Math.min(width, Math.round(height * ratio));
  const cropHeight = Math.min(height, Math.round(width / ratio));
  const { x, y } = clampFocal(focal);
  const place = (size: number, crop: number, at: number) => Math.min(size - crop, Math.max(0, Math.round(at * size - crop / 2)));
  return { left: place(width, cropWidth, x), top: place(height, cropHeight, y), width: cropWidth, height: cropHeight };
}

/** Where a library picture's share image is made (server/media/share-image.server.ts), and its size. */
export const SHARE_IMAGE_PATH = "/social/share";
export const SHARE_IMAGE_SIZE = { width: 1200, height: 630 } as const;
/** The pictures a share image is made of: what the image checker stores, not SVG (markup) nor GIF (animation). */
export const SHARE_IMAGE_RASTER = /\.(?:jpe?g|png|webp|avif)$/i;

/**
 * The address of a library picture's share image, cropped around its focal point (which the address carries, so
 * a new focal point is a new image for the platforms' caches); null: the picture itself is shared.
 */
export function shareImagePath(url: string, details: Pick<ImageDetails, "focal"> | undefined): string | null {
  if (!details || !SHARE_IMAGE_RASTER.test(url)) return null;
  const { x, y } = clampFocal(details.focal);
  return `${SHARE_IMAGE_PATH}?${new URLSearchParams({ src: url, f: `${x},${y}` })}`;
}

/** Keys of loader data that hold a picture's address (imageUrl, image_url, thumbnailUrl, poster…). */
const IMAGE_KEY = /image|thumbnail|cover|poster/i;
const ADDRESS = /^(?:https?:\/\/|\/(?!\/))\S+$/i;

/** Every picture address in a loader's data (under an image-like key), once each: what to ask the library about. */
export function imageUrlsIn(data: unknown, found: Set<string> = new Set(), depth = 0): string[] {
  if (depth > 8 || data === null || typeof data !== "object" || data instanceof Date) return [...found];
  for (const [key, value] of Array.isArray(data) ? data.map((v) => ["", v] as const) : Object.entries(data)) {
    if (typeof value === "string") {
      if (key && IMAGE_KEY.test(key) && value.length < 2048 && ADDRESS.test(value)) found.add(value);
    } else imageUrlsIn(value, found, depth + 1);
  }
  return [...found];
}
