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
/** The publisher's logo that the article markup names (server/media/share-image.server.ts `publisherLogo`), and its size. */
export const PUBLISHER_LOGO_PATH = "/social/logo.png";
export const PUBLISHER_LOGO_SIZE = { width: 600, height: 600 } as const;
/** The pictures a share image is made of: what the image checker stores, not SVG (markup) nor GIF (animation). */
export const SHARE_IMAGE_RASTER = /\.(?:jpe?g|png|webp|avif)$/i;

/**
 * The crops search engines ask of an article's picture (issue 42: Google's Article markup wants 16:9, 4:3 and 1:1,
 * each at least 1,200 px wide), named in the address as `r=16x9`. Only these: a ratio is a new image to make and
 * keep, so the address cannot ask for any other.
 */
export const CROP_RATIOS = {
  "16x9": { width: 1200, height: 675 },
  "4x3": { width: 1200, height: 900 },
  "1x1": { width: 1200, height: 1200 },
} as const;
export type CropRatio = keyof typeof CROP_RATIOS;

/** The ratio an address names (`r=16x9`), undefined when it names none (the link preview's 1200×630), null when unknown. */
export function cropRatioOf(value: string | null): CropRatio | undefined | null {
  if (value === null) return undefined;
  return Object.hasOwn(CROP_RATIOS, value) ? (value as CropRatio) : null;
}

/** The size of the picture an address asks for: a named ratio's, else the link preview's. */
export function cropSize(ratio: CropRatio | undefined): { width: number; height: number } {
  return ratio ? CROP_RATIOS[ratio] : SHARE_IMAGE_SIZE;
}

/**
 * The address of a library picture's share image, cropped around its focal point (which the address carries, so
 * a new focal point is a new image for the platforms' caches), at the link preview's 1.91:1 or at one of
 * `CROP_RATIOS`; null: the picture itself is shared.
 */
export function shareImagePath(url: string, details: Pick<ImageDetails, "focal"> | undefined, ratio?: CropRatio): string | null {
  if (!details || !SHARE_IMAGE_RASTER.test(url)) return null;
  const { x, y } = clampFocal(details.focal);
  return `${SHARE_IMAGE_PATH}?${new URLSearchParams({ src: url, f: `${x},${y}`, ...(ratio ? { r: ratio } : {}) })}`;
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

/** An `<img>` tag of a rich-text body: its address and its own alt attribute (null when it has none). */
const IMG_TAG = /<img\b[^>]*>/gi;
const attributeOf = (tag: string, name: string): string | null => {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag);
  return match ? (match[1] ?? match[2] ?? match[3] ?? "") : null;
};

/**
 * The pictures of an item that say nothing to a screen reader (issue 39): its lead images (the image fields,
 * described only by the media library's alt text) and the `<img>` of its bodies (described by their own alt
 * attribute or, failing it, the library's), whose library alt text is empty in Arabic and in French. Once each,
 * in the order found. The editor warns about them; it never refuses to publish.
 */
export function imagesWithoutAlt(item: { images: readonly string[]; bodies: readonly string[] }, details: ImageDetailsMap): string[] {
  const missing = new Set<string>();
  const described = (url: string) => Boolean(libraryText("ar", details[url]?.alt) || libraryText("fr", details[url]?.alt));
  for (const url of item.images) if (url && !described(url)) missing.add(url);
  for (const body of item.bodies) {
    for (const [tag] of body.matchAll(IMG_TAG)) {
      const src = attributeOf(tag, "src")?.trim();
      if (!src || attributeOf(tag, "alt")?.trim()) continue;
      if (!described(src)) missing.add(src);
    }
  }
  return [...missing];
}

/** Every picture address of an item (its lead images and its bodies' `<img>`): what to ask the library about. */
export function imageUrlsOfItem(item: { images: readonly string[]; bodies: readonly string[] }): string[] {
  const urls = new Set(item.images.filter(Boolean));
  for (const body of item.bodies) for (const [tag] of body.matchAll(IMG_TAG)) urls.add(attributeOf(tag, "src")?.trim() ?? "");
  urls.delete("");
  return [...urls];
}
