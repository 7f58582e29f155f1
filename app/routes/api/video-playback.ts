import { data } from "react-router";
import type { Route } from "./+types/video-playback";
import { isVideoId } from "#domain/video-source.ts";
import { getVideoLibrary } from "#server/media/video/index.server.ts";

/**
 * GET /api/videos/{guid}/playback — where the browser plays a hosted video from. The URLs are built on the
 * server (they may carry a signed token); the player asks here when its page did not already know them.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const guid = params.guid;
  if (!isVideoId(guid)) {
    return data(
      { error: "Invalid video id: expected a 36-character UUID (8-4-4-4-12 hexadecimal digits)" },
      { status: 400, headers: { "Cache-Control": "no-store" } },
    );
  }
  const playback = await getVideoLibrary().playback(guid);
  if (!playback) return data({ error: "Video not found" }, { status: 404, headers: { "Cache-Control": "no-store" } });
  // Short and private: a signed URL of the hosted library expires, and must not sit in a shared cache.
  return data({ playback }, { headers: { "Cache-Control": "private, max-age=60" } });
}
