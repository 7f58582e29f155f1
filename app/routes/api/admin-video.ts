import type { Route } from "./+types/admin-video";
import { isVideoId } from "#domain/video-source.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { answerJson, json, jsonError } from "#server/http/json-api.server.ts";
import { getVideoLibrary } from "#server/media/video/index.server.ts";
import { toAdminVideo } from "#server/media/video/admin.server.ts";

/** GET /api/admin/videos/{guid} — one video with its status, length and thumbnail. DELETE — removes it and its files. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requirePermission(request, "videos.manage", { mode: "api" });
  if (!isVideoId(params.guid)) return jsonError(404, "NOT_FOUND", "Video not found");
  return answerJson(async () => {
    const library = getVideoLibrary();
    const item = await library.get(params.guid);
    return item ? json(toAdminVideo(library, item)) : jsonError(404, "NOT_FOUND", "Video not found");
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  await requirePermission(request, "videos.manage", { mode: "api" });
  if (request.method !== "DELETE") return jsonError(405, "METHOD_NOT_ALLOWED", "Use GET or DELETE");
  if (!isVideoId(params.guid)) return jsonError(404, "NOT_FOUND", "Video not found");
  return answerJson(async () => {
    const library = getVideoLibrary();
    if (!(await library.get(params.guid))) return jsonError(404, "NOT_FOUND", "Video not found");
    await library.delete(params.guid);
    return json({ deleted: params.guid });
  });
}
