/**
 * The video library of this process. The driver comes from the checked configuration
 * (VIDEO_DRIVER → config.drivers.video); this switch is the one place a new driver is added.
 */
import { getConfig, type Config } from "../config.ts";
import { getDb } from "../db/client.ts";
import { createLocalVideoLibrary } from "./local.ts";
import type { VideoLibrary } from "./types.ts";

export type { VideoItem, VideoLibrary, VideoPlayback } from "./types.ts";
export { VIDEO_STATUS, VideoLibraryError } from "./types.ts";

let current: { config: Config; library: VideoLibrary } | undefined;

export function createVideoLibrary(config: Config): VideoLibrary {
  switch (config.drivers.video) {
    case "local":
      return createLocalVideoLibrary({ db: getDb, dataDir: config.dataDir });
    case "bunny":
      // The hosted (Bunny Stream) driver arrives with its own issue: server/video/bunny.ts, built from
      // BUNNY_STREAM_LIBRARY_ID, BUNNY_STREAM_API_KEY, BUNNY_STREAM_CDN_HOSTNAME and BUNNY_STREAM_TOKEN_KEY.
      // Until then the embedded library serves, so a configured host never leaves the pages empty.
      return createLocalVideoLibrary({ db: getDb, dataDir: config.dataDir });
  }
}

export function getVideoLibrary(): VideoLibrary {
  const config = getConfig();
  if (!current || current.config !== config) current = { config, library: createVideoLibrary(config) };
  return current.library;
}
