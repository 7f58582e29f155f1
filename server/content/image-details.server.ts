/**
 * The media library's details of the pictures a public page shows (issue 28): alt text, caption, credit and
 * focal point by URL, in ONE query per page (server/media/library.server.ts `libraryDetailsByUrl`), kept in the
 * read cache under the "library" tag. Changing or deleting a library file invalidates that tag (library.server.ts):
 * the read cache drops these entries and the page cache (which hears every invalidation,
 * server/http/page-cache.server.ts) renders its pages again; with REDIS_URL the other processes hear it through
 * the cache bus.
 */
import crypto from "node:crypto";
import { imageUrlsIn, type ImageDetails, type ImageDetailsMap } from "#domain/image-details.ts";
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
