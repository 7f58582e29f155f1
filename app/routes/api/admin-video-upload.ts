import type { Route } from "./+types/admin-video-upload";
import { isVideoId } from "#domain/video-source.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { answerJson, json, jsonError } from "#server/http/json-api.server.ts";
import { getVideoLibrary } from "#server/media/video/index.server.ts";
import { VIDEO_STATUS } from "#server/media/video/types.server.ts";

/**
 * POST /api/admin/videos/{guid}/upload — where to send (or go on sending) the file of a video that has none
 * yet: the same answer as creating it, with fresh credentials. A page reloaded mid-upload resumes through this.
 */
export async function action({ request, params }: Route.ActionArgs) {
  await requirePermission(request, "videos.manage", { mode: "api" });
  if (request.method !== "POST") return jsonError(405, "METHOD_NOT_ALLOWED", "Use POST");
  if (!isVideoId(params.guid)) return jsonError(404, "NOT_FOUND", "Video not found");
  return answerJson(async () => {
    const library = getVideoLibrary();
    const item = await library.get(params.guid);
    if (!item) return jsonError(404, "NOT_FOUND", "Video not found");
    if (item.status !== VIDEO_STATUS.waiting) return jsonError(409, "ALREADY_UPLOADED", "This video already has its file");
    const target = await library.uploadTarget(item.guid);
    return json({
      guid: item.guid,
      tus_endpoint: target.endpoint,
      tus_headers: target.headers,
      tus_metadata: target.metadata,
      expires_at: target.expiresAt ?? null,
    });
  });
}
