/**
 * The media library's details of the pictures a public page shows (issue 28): alt text, caption, credit and
 * focal point by URL, in ONE query per page (server/media/library.server.ts `libraryDetailsByUrl`), kept in the
 * read cache under the "library" tag. Changing or deleting a library file invalidates that tag (library.server.ts):
 * the read cache drops these entries and the page cache (which hears every invalidation,
 * server/http/page-cache.server.ts) renders its pages again; with REDIS_URL the other processes hear it through
 * the cache bus.
 */
import crypto from "node:crypto";
import type { ContentTypeDefinition } from "#domain/content-types/index.ts";
import { imagesWithoutAlt, imageUrlsIn, imageUrlsOfItem, type ImageDetails, type ImageDetailsMap } from "#domain/image-details.ts";
import type { Database } from "#server/db/client.server.ts";
import { libraryDetailsByUrl } from "#server/media/library.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { cached } from "./cache.server.ts";

/** At most this many pictures are looked up for one page (a listing page shows a few dozen). */
const MAX_URLS = 200;

/** The library's details of these pictures, by URL; a picture the library does not have is left out. Never throws. */
export async function imageDetailsFor(db: Database, urls: readonly string[]): Promise<ImageDetailsMap> {
  const wanted = [...new Set(urls.filter(Boolean))].sort().slice(0, MAX_URLS);
  if (wanted.length === 0) return {};
  const key = `images:${crypto.createHash("sha1").update(wanted.join("\n")).digest("base64url")}`;
  try {
    return await cached(key, ["library"], async () => {
      const found = await libraryDetailsByUrl(db, wanted);
      const map: ImageDetailsMap = {};
      for (const [url, details] of found) map[url] = details satisfies ImageDetails;
      return map;
    });
  } catch (error) {
    // A page shows its pictures without captions rather than failing.
    logger.warn({ err: error }, "library details not read");
    return {};
  }
}

/** The details of every picture in a loader's data (its image-like fields, at any depth), for `images` beside it. */
export function imageDetailsOf(db: Database, data: unknown): Promise<ImageDetailsMap> {
  return imageDetailsFor(db, imageUrlsIn(data));
}

/**
 * The pictures of an item, as the editor saved it, that have no alt text (domain/image-details.ts
 * `imagesWithoutAlt`): its lead images (image fields but the share image, which no reader is shown in the
 * page) and the pictures of its bodies, the Arabic and the French one. Read from the library, not the read
 * cache, so an alt text written a moment ago counts. Never throws: a warning that cannot be worked out is none.
 */
export async function imagesWithoutAltOf(db: Database, def: ContentTypeDefinition, item: Record<string, unknown>): Promise<string[]> {
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  const images = def.fields.filter((f) => f.kind === "image" && f.group !== "searchAndSharing").map((f) => text(item[f.name]));
  const bodies = def.fields.filter((f) => f.kind === "richtext").flatMap((f) => [text(item[f.name]), text(item[`${f.name}_fr`])]);
  const found = { images, bodies };
  const urls = imageUrlsOfItem(found).slice(0, MAX_URLS);
  if (!urls.length) return [];
  try {
    const details: ImageDetailsMap = Object.fromEntries(await libraryDetailsByUrl(db, urls));
    return imagesWithoutAlt(found, details);
  } catch (error) {
    logger.warn({ err: error, type: def.type }, "pictures without alt text not worked out");
    return [];
  }
}
