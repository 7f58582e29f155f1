/**
 * Responsive images from a stored image's URL alone (decision 0104): the name of an uploaded image carries
 * its intrinsic size, `…-cover.1600x900.jpg`, and its resized copies sit next to it under names derived
 * from it, `…-cover.1600x900.w640.jpg` and `…-cover.1600x900.w640.webp`. No column lists the variants; a
 * URL without the size (demo SVGs, external images, uploads made before variants) is shown as it is.
 *
 * Client-safe and shared with the server (server/media/storage/images.server.ts makes exactly the files named here), so
 * the two sides cannot disagree on a name. The width ladder is part of every stored name's contract:
 * changing it means making the new widths for the images already stored.
 */

/** The widths made of every image wider than them (the original's own width is always there too). */
export const IMAGE_WIDTHS = [320, 640, 960, 1280, 1920] as const;

/** Stored image formats. GIF is kept as uploaded (it may be animated): no variants, only its size. */
export type ImageFormat = "jpg" | "png" | "gif" | "webp" | "avif";

export const IMAGE_MIME: Record<ImageFormat, string> = {
  jpg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
};

/** A stored name or URL that follows the convention: `{stem}.{ext}`, the stem ending in `.{width}x{height}`. */
export type SizedImage = { stem: string; width: number; height: number; format: ImageFormat };

export type ImageVariant = { width: number; format: ImageFormat; name: string };

// The size right before the extension, at the end of the last path segment (no query, no fragment). Stored
// names never have another dot before it: safeFileName() turns dots into hyphens.
const SIZED = /^(.*[^/.]\.([1-9]\d{0,4})x([1-9]\d{0,4}))\.(jpg|png|gif|webp|avif)$/;

/** The size and format a stored name or URL carries, or null when it does not follow the convention. */
export function parseSizedImage(nameOrUrl: string): SizedImage | null {
  const m = SIZED.exec(nameOrUrl);
  if (!m) return null;
  return { stem: m[1], width: Number(m[2]), height: Number(m[3]), format: m[4] as ImageFormat };
}

/** `cover.jpg` of 1600×900 → `cover.1600x900.jpg`. `base` has no extension. */
export function sizedName(base: string, width: number, height: number, format: ImageFormat): string {
  return `${base}.${width}x${height}.${format}`;
}

/** The ladder's widths below `width`: an image is never upscaled. */
export function variantWidths(width: number): number[] {
  return IMAGE_WIDTHS.filter((w) => w < width);
}

/** Whether a WebP copy accompanies a format (the older ones; WebP and AVIF are already small). */
const withWebp = (format: ImageFormat) => format === "jpg" || format === "png";

/**
 * Every file stored beside the original, named from the original's stem: in its own format at each ladder
 * width below its width (the original itself is the full size), and for JPEG and PNG in WebP at those widths
 * and at full size. None for GIF.
 */
export function variantsOf(image: SizedImage): ImageVariant[] {
  if (image.format === "gif") return [];
  const below = variantWidths(image.width);
  const name = (width: number, format: ImageFormat) => ({ width, format, name: `${image.stem}.w${width}.${format}` });
  const own = below.map((w) => name(w, image.format));
  const webp = withWebp(image.format) ? [...below, image.width].map((w) => name(w, "webp")) : [];
  return [...own, ...webp];
}

export type ImageSources = {
  src: string;
  /** Intrinsic size, when the name carries it. */
  width?: number;
  height?: number;
  /** Candidates in the original's format, for the <img>. */
  srcSet?: string;
  /** WebP candidates, for a <source type="image/webp"> in front of the <img>. */
  webpSrcSet?: string;
};

/** What an <img> (and its <picture>) needs for `url`; only `src` when the URL does not follow the convention. */
export function imageSources(url: string): ImageSources {
  // A space or comma would split a srcset candidate; stored URLs are percent-encoded and never have them.
  const image = /[\s,?#]/.test(url) ? null : parseSizedImage(url);
  if (!image) return { src: url };
  const { width, height, format } = image;
  if (format === "gif") return { src: url, width, height };
  const variants = variantsOf(image);
  const list = (items: string[]) => items.join(", ");
  const own = variants.filter((v) => v.format === format).map((v) => `${v.name} ${v.width}w`);
  const webp = variants.filter((v) => v.format === "webp" && format !== "webp").map((v) => `${v.name} ${v.width}w`);
  return { src: url, width, height, srcSet: list([...own, `${url} ${width}w`]), webpSrcSet: webp.length ? list(webp) : undefined };
}
