/**
 * Resized copies of every uploaded image (decision 0104). From bytes the file checker has accepted: the
 * original re-encoded upright (EXIF orientation applied) and without its metadata (a phone photo's GPS
 * position must not be published), stored under a name carrying its size, `…-cover.1600x900.jpg`; then,
 * next to it, the copies domain/image-sources.ts names from that name (`….w640.jpg`, `….w640.webp`…), which
 * the public pages turn into `srcset` with no database column.
 *
 * The copies are written at keys derived from the original's (`putAt`). GIFs are kept as uploaded (they may
 * be animated) with their size in the name and no copies.
 */
import sharp, { type Sharp } from "sharp";
import { IMAGE_MIME, parseSizedImage, sizedName, variantsOf, type ImageFormat } from "#domain/image-sources.ts";
import { CodedError } from "#server/errors.server.ts";
import type { Storage, StoredFile } from "./driver.server.ts";

/**
 * Pixels decoded at most (a 10 MB PNG of one colour can declare 30000×30000 and would take gigabytes once
 * decoded). 50 MP covers every camera's usual output (a 48 MP phone photo is 8064×6048 = 48.8 MP).
 */
export const IMAGE_PIXEL_LIMIT = 50_000_000;

/** Encoder settings: small files for readers on costly mobile data, at a quality a news photo keeps. */
const ENCODE = {
  jpg: (s: Sharp) => s.jpeg({ quality: 80, mozjpeg: true }),
  png: (s: Sharp) => s.png({ compressionLevel: 9 }),
  webp: (s: Sharp) => s.webp({ quality: 78 }),
  avif: (s: Sharp) => s.avif({ quality: 55 }),
} satisfies Record<Exclude<ImageFormat, "gif">, (s: Sharp) => Sharp>;

/** The bytes are not an image sharp can decode (or exceed IMAGE_PIXEL_LIMIT): the spec's "unsupported file". */
export class UndecodableImage extends CodedError {
  declare readonly code: "IMAGE_UNDECODABLE";
  constructor(cause: unknown) {
    // The uploader's file, refused with the spec's message: nothing of ours failed.
    super("IMAGE_UNDECODABLE", "image could not be decoded", { level: "info", cause });
  }
}

const decoder = (bytes: Uint8Array) => sharp(bytes, { limitInputPixels: IMAGE_PIXEL_LIMIT, autoOrient: true });

async function decoded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new UndecodableImage(error);
  }
}

/** The image upright and without metadata (sharp keeps none unless asked), `width` wide or full size. */
function encode(bytes: Uint8Array, format: Exclude<ImageFormat, "gif">, width?: number): Promise<Uint8Array> {
  const resized = width ? decoder(bytes).resize({ width, withoutEnlargement: true }) : decoder(bytes);
  return decoded(() => ENCODE[format](resized).toBuffer());
}

/**
 * Stores a checked image and its copies in `folder`; answers the original's key and URL. `filename` is the
 * safe name with the sniffed format's extension. Throws UndecodableImage before anything is stored; when a
 * copy fails to store, what was stored is removed and the error rethrown.
 */
export async function storeImageWithVariants(target: Storage, folder: string, filename: string, bytes: Uint8Array, format: ImageFormat): Promise<StoredFile> {
  const base = filename.replace(/\.[^.]*$/, "");
  const meta = await decoded(() => decoder(bytes).metadata());
  const { width, height } = meta.autoOrient;
  const mime = IMAGE_MIME[format];
  if (format === "gif" || (meta.pages ?? 1) > 1) {
    // Animated (or GIF): re-encoding would lose frames or grow the file; GIF carries no EXIF. Decoding the
    // first frame (into a few bytes) still proves it is an image.
    await decoded(() => decoder(bytes).resize(8, 8).raw().toBuffer());
    return target.put(folder, sizedName(base, width, meta.pageHeight ?? height, format), bytes, mime);
  }
  const original = await encode(bytes, format);
  const stored = await target.put(folder, sizedName(base, width, height, format), original, mime);
  const written: string[] = [stored.key];
  try {
    for (const variant of variantsOf(parseSizedImage(stored.key)!)) {
      const body = await encode(bytes, variant.format as Exclude<ImageFormat, "gif">, variant.width);
      written.push((await target.putAt(variant.name, body, IMAGE_MIME[variant.format])).key);
    }
  } catch (error) {
    await Promise.allSettled(written.map((key) => target.remove(key)));
    throw error;
  }
  return stored;
}

/** Removes a stored image and the copies its name implies (a name without the size has none). */
export async function removeImage(target: Storage, key: string): Promise<void> {
  const image = parseSizedImage(key);
  for (const variant of image ? variantsOf(image) : []) await target.remove(variant.name);
  await target.remove(key);
}
