import type { Route } from "./+types/video-playback";
import { isVideoId } from "#domain/video-source.ts";
import { apiJson, handleApi, methodNotAllowed, NO_QUERY, parseQuery } from "#server/http/api.server.ts";
import { BadRequestError } from "#server/http/errors.server.ts";
import { getVideoLibrary, videoNotFound } from "#server/media/video/index.server.ts";

/**
 * GET /api/videos/{guid}/playback — where the browser plays a hosted video from. The URLs are built on the
 * server (they may carry a signed token); the player asks here when its page did not already know them.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  return handleApi("api/videos/playback", async () => {
    parseQuery(request, NO_QUERY);
    const guid = params.guid;
    if (!isVideoId(guid)) throw new BadRequestError("INVALID_VIDEO_ID", "Invalid video id: expected a 36-character UUID (8-4-4-4-12 hexadecimal digits)");
    const playback = await getVideoLibrary().playback(guid);
    if (!playback) throw videoNotFound();
    // Short and private: a signed URL of the hosted library expires, and must not sit in a shared cache.
    return apiJson({ playback }, { cache: "private, max-age=60" });
  });
}

/** Any other method: 405 in the APIs' error shape. */
export const action = methodNotAllowed(["GET"]);
