/**
 * The video library (ARCHITECTURE.md, "video library"): one interface, one driver per host. The public pages
 * read it; the back-office (issue: back-office) will add the write side declared below.
 */
import type { VideoPlayback } from "../../app/lib/video-source.ts";

export type { VideoPlayback };

/** Status numbers of back-office.md §4: 0 waiting, 1 processing, 2 encoding, 3 finished, 4 ready, 5 failed. */
export const VIDEO_STATUS = { waiting: 0, processing: 1, encoding: 2, finished: 3, ready: 4, failed: 5 } as const;

/** A video library item (public-site.md §3), the shape the video host returns. */
export type VideoItem = {
  guid: string;
  title: string;
  description: string | null;
  /** ISO 8601. */
  dateUploaded: string;
  views: number;
  /** Seconds. */
  length: number;
  thumbnailFileName: string | null;
  status: number;
  collection: string | null;
  /** Demo content seeded for the embedded default (ARCHITECTURE.md, "Data"). */
  isDemo: boolean;
};

export type ListOptions = { collection?: string };

/** Failures of the library itself (host unreachable, bad answer), with a stable code to branch on. */
export class VideoLibraryError extends Error {
  constructor(
    public code: "VIDEO_LIBRARY_UNAVAILABLE" | "VIDEO_LIBRARY_BAD_RESPONSE",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface VideoLibrary {
  readonly driver: "local" | "bunny";
  /** Every video of the library, or of one collection; newest first. */
  list(opts?: ListOptions): Promise<VideoItem[]>;
  get(guid: string): Promise<VideoItem | null>;
  /** The URLs a browser plays the video from (no secret in them beyond a signed, expiring token). */
  playbackFor(item: VideoItem): VideoPlayback;
  /** get + playbackFor; null for an unknown or malformed id. */
  playback(guid: string): Promise<VideoPlayback | null>;

  // The back-office issue adds the write side here, for both drivers:
  //   create(input: { title: string; description?: string; collection?: string }): Promise<VideoItem>;
  //   upload(guid: string, file: ReadableStream | NodeJS.ReadableStream): Promise<void>;  (plus the tus endpoint)
  //   setCollection(guid: string, collection: string | null): Promise<void>;
  //   delete(guid: string): Promise<void>;
}
