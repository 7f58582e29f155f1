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
import { readFile } from "node:fs/promises";
import path from "node:path";
import { LRUCache } from "lru-cache";
import sharp from "sharp";
import { cropSize, focalCrop, PUBLISHER_LOGO_SIZE, SHARE_IMAGE_RASTER, type CropRatio } from "#domain/image-details.ts";
import { clampFocal, type FocalPoint } from "#domain/library.ts";
import type { Database } from "#server/db/client.server.ts";
import { libraryDetailsByUrl, storageKeyOf } from "#server/media/library.server.ts";
import { collect } from "#server/media/storage/driver.server.ts";
import { getStorage } from "#server/media/storage/index.server.ts";
import { IMAGE_PIXEL_LIMIT } from "#server/media/storage/images.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { projectRoot } from "#server/paths.server.ts";

const MAX_SOURCE_BYTES = 12 * 1024 * 1024;

// Made once, then served from memory: previews ask for the same few pictures again and again.
const made = new LRUCache<string, Promise<Uint8Array | null>>({ max: 50, ttl: 60 * 60 * 1000 });

/**
 * The JPEG of a library picture at 1200×630 (link previews) or at one of the article markup's ratios (`ratio`,
 * domain/image-details.ts CROP_RATIOS), cropped around its focal point as the library has it now; null when it
 * is not one. The crop is kept under the library's focal point, not the one the address names: another `f` in
 * the address cannot make the server crop again, and a page naming an old one gets the current crop.
 */
export async function shareImage(db: Database, src: string, ratio?: CropRatio): Promise<Uint8Array | null> {
  if (!SHARE_IMAGE_RASTER.test(src) || src.length > 2048) return null;
  const details = (await libraryDetailsByUrl(db, [src])).get(src);
  if (details?.kind !== "image") return null;
  const { x, y } = clampFocal(details.focal);
  const key = `${x},${y}|${ratio ?? ""}|${src}`;
  let work = made.get(key);
  if (!work) {
    work = crop(src, details.focal, cropSize(ratio)).then(
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

async function crop(src: string, focal: FocalPoint, size: { width: number; height: number }): Promise<Uint8Array | null> {
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
  const area = focalCrop(width, height, size.width / size.height, focal);
  return (
    image
      .extract(area)
      // A smaller picture is enlarged: search engines take an article's image only from 1,200 px wide.
      .resize(size.width, size.height, { fit: "cover" })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 80, mozjpeg: true })
      .toBuffer()
  );
}

/**
 * The publisher's logo as search engines read it (JSON-LD `publisher.logo`, app/lib/seo.ts): a raster square of
 * PUBLISHER_LOGO_SIZE made from the site's logo (an SVG by default, which Google's article markup does not take),
 * when that logo is a file of the project's public folder; null otherwise (the route sends the logo itself).
 */
export async function publisherLogo(logoUrl: string): Promise<Uint8Array | null> {
  let work = logos.get(logoUrl);
  if (!work) {
    work = renderLogo(logoUrl).catch((error: unknown) => {
      logger.warn({ err: error, logoUrl }, "publisher logo not made");
      return null;
    });
    logos.set(logoUrl, work);
  }
  return work;
}

const logos = new Map<string, Promise<Uint8Array | null>>();

async function renderLogo(logoUrl: string): Promise<Uint8Array | null> {
  if (!/^\/(?!\/)[\w./-]+$/.test(logoUrl) || logoUrl.includes("..")) return null;
  const publicDir = path.join(projectRoot(), "public");
  const file = path.join(publicDir, logoUrl);
  if (!file.startsWith(publicDir + path.sep)) return null;
  const bytes = await readFile(file).catch(() => null);
  if (!bytes) return null;
  const { width, height } = PUBLISHER_LOGO_SIZE;
  // An SVG is drawn at the density that makes it the logo's size, not enlarged from its own few pixels.
  return sharp(bytes, { density: 600, limitInputPixels: IMAGE_PIXEL_LIMIT })
    .resize(width, height, { fit: "contain", background: { r: 255, g: 255, b: 255, alpha: 0 } })
    .png()
    .toBuffer();
}
