/**
 * The share image of a detail page (issue 28): link previews (Open Graph, Twitter cards) show a picture at
 * 1.91:1 and crop whatever they get around its centre, so a portrait loses its subject. For a picture of the
 * media library the page names `/social/share?src=…&f=x,y` instead (app/lib/detail-meta.ts), and this module
 * crops it to 1200×630 around the library's focal point. The focal point is in the address, so a new focal point
 * is a new image for the platforms' caches.
 *
 * Only a raster picture the library has, read from this site's storage, is ever cropped (no address is fetched
 * from elsewhere); anything else is answered null and the route sends the picture itself.
 */
import { LRUCache } from "lru-cache";
import sharp from "sharp";
import { focalCrop, SHARE_IMAGE_RASTER, SHARE_IMAGE_SIZE } from "#domain/image-details.ts";
import { clampFocal, type FocalPoint } from "#domain/library.ts";
import type { Database } from "#server/db/client.server.ts";
import { libraryDetailsByUrl, storageKeyOf } from "#server/media/library.server.ts";
import { collect } from "#server/media/storage/driver.server.ts";
import { getStorage } from "#server/media/storage/index.server.ts";
import { IMAGE_PIXEL_LIMIT } from "#server/media/storage/images.server.ts";
import { logger } from "#server/ops/logger.server.ts";

const MAX_SOURCE_BYTES = 12 * 1024 * 1024;

// Made once, then served from memory: previews ask for the same few pictures again and again.
const made = new LRUCache<string, Promise<Uint8Array | null>>({ max: 50, ttl: 60 * 60 * 1000 });

/**
 * The 1200×630 JPEG of a library picture, cropped around its focal point as the library has it now; null when it
 * is not one. The crop is kept under the library's focal point, not the one the address names: another `f` in
 * the address cannot make the server crop again, and a page naming an old one gets the current crop.
 */
export async function shareImage(db: Database, src: string): Promise<Uint8Array | null> {
  if (!SHARE_IMAGE_RASTER.test(src) || src.length > 2048) return null;
  const details = (await libraryDetailsByUrl(db, [src])).get(src);
  if (details?.kind !== "image") return null;
  const { x, y } = clampFocal(details.focal);
  const key = `${x},${y}|${src}`;
  let work = made.get(key);
  if (!work) {
    work = crop(src, details.focal).then(
      (bytes) => {
        // A picture the storage does not have (yet) is asked again next time.
        if (!bytes) made.delete(key);
        return bytes;
      },
      (error: unknown) => {
        logger.warn({ err: error, src }, "share image not made");
        made.delete(key);
        return null;
      },
    );
    made.set(key, work);
  }
  return work;
}

async function crop(src: string, focal: FocalPoint): Promise<Uint8Array | null> {
  const storage = getStorage();
  const key = storageKeyOf(storage, src);
  if (!key) return null;
  const bytes = await collect(await storage.read(key), MAX_SOURCE_BYTES);
  const image = sharp(bytes, { limitInputPixels: IMAGE_PIXEL_LIMIT, autoOrient: true });
  const meta = await image.metadata();
  // autoOrient: the size as shown (a phone photo's EXIF rotation swaps width and height).
  const turned = (meta.orientation ?? 1) >= 5;
  const width = turned ? meta.height : meta.width;
  const height = turned ? meta.width : meta.height;
  if (!width || !height) return null;
  const area = focalCrop(width, height, SHARE_IMAGE_SIZE.width / SHARE_IMAGE_SIZE.height, focal);
  return image
    .extract(area)
    .resize(SHARE_IMAGE_SIZE.width, SHARE_IMAGE_SIZE.height, { fit: "cover" })
    .flatten({ background: "#ffffff" })
    .jpeg({ quality: 80, mozjpeg: true })
    .toBuffer();
}
