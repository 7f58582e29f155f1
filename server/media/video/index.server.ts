/**
 * The video library of this process. The driver comes from the checked configuration
 * (VIDEO_DRIVER → config.drivers.video); this switch is the one place a new driver is added.
 */
import { getConfig, type Config } from "#server/config.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { sharedStorage } from "#server/media/storage/index.server.ts";
import { createBunnyVideoLibrary } from "./bunny.server.ts";
import { createLocalVideoLibrary } from "./local.server.ts";
import type { VideoLibrary } from "./types.server.ts";

export type { VideoItem, VideoLibrary, VideoPlayback } from "./types.server.ts";
export { VIDEO_STATUS, VideoLibraryError, videoNotFound } from "./types.server.ts";

let current: { config: Config; library: VideoLibrary } | undefined;

export function createVideoLibrary(config: Config): VideoLibrary {
  switch (config.drivers.video) {
    case "local":
      // With S3 or Bunny storage, uploaded videos' files live there, not on this machine (decision 0119).
      return createLocalVideoLibrary({ db: getDb, dataDir: config.dataDir, storage: sharedStorage(config) });
    case "bunny": {
      // The configuration check only selects this driver with its three settings present (in production a
      // missing one refuses to start; elsewhere it falls back to "local").
      const { BUNNY_STREAM_LIBRARY_ID: libraryId, BUNNY_STREAM_API_KEY: apiKey, BUNNY_STREAM_CDN_HOSTNAME: cdnHostname } = config;
      if (!libraryId || !apiKey || !cdnHostname)
        throw new Error("VIDEO_DRIVER=bunny needs BUNNY_STREAM_LIBRARY_ID, BUNNY_STREAM_API_KEY and BUNNY_STREAM_CDN_HOSTNAME");
      return createBunnyVideoLibrary({
        libraryId,
        apiKey,
        cdnHostname,
        tokenKey: config.BUNNY_STREAM_TOKEN_KEY ?? null,
        apiUrl: config.BUNNY_STREAM_API_URL,
      });
    }
  }
}

export function getVideoLibrary(): VideoLibrary {
  const config = getConfig();
  if (!current || current.config !== config) current = { config, library: createVideoLibrary(config) };
  return current.library;
}
