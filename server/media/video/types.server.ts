/**
 * The video library (docs/spec/stack.md, "video library"): one interface, one driver per host. The public pages
 * read it; the back-office writes through create/uploadTarget/update/delete.
 */
import type { VideoPlayback } from "#domain/video-source.ts";
import { NotFoundError, UpstreamError } from "#server/http/errors.server.ts";

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
  /** Why processing failed (status 5), when the library says. */
  failureReason?: string | null;
  collection: string | null;
  /** Demo content seeded for the embedded default (docs/spec/stack.md, "Data"). */
  isDemo: boolean;
};

export type ListOptions = { collection?: string };

/** Failures of the library itself (host unreachable, bad answer): 502, with a stable code to branch on. */
export class VideoLibraryError extends UpstreamError {
  declare readonly code: "VIDEO_LIBRARY_UNAVAILABLE" | "VIDEO_LIBRARY_BAD_RESPONSE" | "VIDEO_LIBRARY_UNAUTHORIZED" | "VIDEO_LIBRARY_NOT_FOUND";
  constructor(code: VideoLibraryError["code"], message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** No video by that id in the library (404 NOT_FOUND). */
export const videoNotFound = () => new NotFoundError("Video not found");

export interface VideoLibrary {
  readonly driver: "local" | "bunny";
  /** Every video of the library, or of one collection; newest first. */
  list(opts?: ListOptions): Promise<VideoItem[]>;
  get(guid: string): Promise<VideoItem | null>;
  /** The URLs a browser plays the video from (no secret in them beyond a signed, expiring token). */
  playbackFor(item: VideoItem): VideoPlayback;
  /** get + playbackFor; null for an unknown or malformed id. */
  playback(guid: string): Promise<VideoPlayback | null>;

  /** Records a new, empty video (status 0): its file follows by tus to `uploadTarget(guid)`. */
  create(input: { title: string; description?: string | null; collection?: string | null }): Promise<VideoItem>;
  /**
   * Where and how the browser sends the file (tus 1.0.0, creation + core): the endpoint, the headers each
   * request carries (a hosted library's expiring signature; none locally), and the Upload-Metadata to send.
   */
  uploadTarget(guid: string): Promise<VideoUploadTarget>;
  update(guid: string, input: { title?: string; description?: string | null; collection?: string | null }): Promise<void>;
  /** Removes the video and its files; an unknown id is not an error. */
  delete(guid: string): Promise<void>;
}

export type VideoUploadTarget = {
  endpoint: string;
  headers: Record<string, string>;
  metadata: Record<string, string>;
  /** Seconds since the epoch after which `headers` no longer authorise the upload (hosted library). */
  expiresAt?: number;
};
