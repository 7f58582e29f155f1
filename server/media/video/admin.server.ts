/**
 * The newsroom's side of the video library (back-office.md §2 "Video library management" and the media
 * pipeline's API): the checked input of a new video, and the one JSON shape the screen and the API share.
 */
import { z } from "zod";
import { VideoLibraryError, type VideoItem, type VideoLibrary } from "./types.server.ts";

/** back-office.md: title and file are required ('يرجى ملء جميع الحقول المطلوبة'); the file follows by tus. */
export const NewVideoInput = z.object({
  title: z.string().trim().min(1, "newsroom.ui.videos.missingFields").max(200, "newsroom.v.tooLong"),
  description: z.string().trim().max(5000, "newsroom.v.tooLong").nullish(),
  collection: z.string().trim().max(60).nullish(),
});

export type AdminVideo = {
  guid: string;
  title: string;
  description: string | null;
  status: number;
  /** Seconds. */
  length: number;
  views: number;
  thumbnail: string | null;
  /** The 720p file, only once the video is ready (status 4). */
  play: string | null;
  date_uploaded: string;
  failure_reason: string | null;
};

export function toAdminVideo(library: VideoLibrary, item: VideoItem): AdminVideo {
  const playback = library.playbackFor(item);
  return {
    guid: item.guid,
    title: item.title,
    description: item.description,
    status: item.status,
    length: item.length,
    views: item.views,
    thumbnail: playback.thumbnail ?? null,
    play: item.status === 4 ? (playback.mp4 ?? null) : null,
    date_uploaded: item.dateUploaded,
    failure_reason: item.failureReason ?? null,
  };
}

/** Creates the record and answers where its file goes: the API's `{guid, tus_endpoint}` and what tus needs. */
export async function createVideoForUpload(library: VideoLibrary, input: z.infer<typeof NewVideoInput>) {
  const item = await library.create({ title: input.title, description: input.description ?? null, collection: input.collection ?? null });
  try {
    const target = await library.uploadTarget(item.guid);
    return {
      guid: item.guid,
      tus_endpoint: target.endpoint,
      tus_headers: target.headers,
      tus_metadata: target.metadata,
      expires_at: target.expiresAt ?? null,
      video: toAdminVideo(library, item),
    };
  } catch (error) {
    // No upload target, no use for the record: it would sit in the list at "waiting" for ever.
    await library.delete(item.guid).catch(() => {});
    throw error instanceof VideoLibraryError ? error : new VideoLibraryError("VIDEO_LIBRARY_UNAVAILABLE", "Could not prepare the upload", { cause: error });
  }
}
