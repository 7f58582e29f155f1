/**
 * What the public video library page (/videos) shows: the ready videos of the library with their playback
 * URLs, or — when the library cannot be read — the spec's two sample videos and the error (public-site.md
 * §7 "Video host": on failure two sample videos are shown; §8: 'could not load videos' plus the error).
 */
import { SAMPLE_POSTER_URL, SAMPLE_VIDEO_URL } from "#server/db/demo-assets.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { VIDEO_STATUS, VideoLibraryError, type VideoItem, type VideoLibrary, type VideoPlayback } from "./types.server.ts";

export type VideoCard = VideoItem & { playback: VideoPlayback };
export type VideoLibraryPage = { videos: VideoCard[]; error: string | null };

/** Fixed ids so the samples are stable between renders; they play the demo sample made at seed time. */
export const SAMPLE_VIDEOS: VideoCard[] = [
  {
    guid: "00000000-0000-4000-8000-000000000001",
    title: "الصحراء من الجو (مثال)",
    description: "فيديو تجريبي يظهر عند تعذّر الوصول إلى مكتبة الفيديو.",
    dateUploaded: "2024-01-15T10:00:00.000Z",
    views: 0,
    length: 4,
    thumbnailFileName: null,
    status: VIDEO_STATUS.ready,
    collection: null,
    isDemo: true,
    playback: { mp4: SAMPLE_VIDEO_URL, thumbnail: SAMPLE_POSTER_URL },
  },
  {
    guid: "00000000-0000-4000-8000-000000000002",
    title: "أصوات البادية (مثال)",
    description: "فيديو تجريبي ثانٍ يظهر عند تعذّر الوصول إلى مكتبة الفيديو.",
    dateUploaded: "2024-01-10T10:00:00.000Z",
    views: 0,
    length: 4,
    thumbnailFileName: null,
    status: VIDEO_STATUS.ready,
    collection: null,
    isDemo: true,
    playback: { mp4: SAMPLE_VIDEO_URL, thumbnail: SAMPLE_POSTER_URL },
  },
];

export async function loadVideoLibraryPage(library: Pick<VideoLibrary, "list" | "playbackFor">, opts: { collection?: string } = {}): Promise<VideoLibraryPage> {
  try {
    const items = await library.list(opts);
    // Only a ready video can play; the others belong to the back-office's view of the library.
    const videos = items.filter((v) => v.status === VIDEO_STATUS.ready).map((v) => ({ ...v, playback: library.playbackFor(v) }));
    return { videos, error: null };
  } catch (error) {
    logger.warn({ err: error }, "video library could not be read");
    // The host's own message is meant for readers ("library not found", "timed out"); a database error's
    // text carries the SQL, so the page gets a plain statement and the log gets the detail.
    const message = error instanceof VideoLibraryError ? error.message : "Video library unavailable";
    return { videos: SAMPLE_VIDEOS, error: message };
  }
}
