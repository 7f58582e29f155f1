import type { Route } from "./+types/admin-video-upload";
import { isVideoId } from "#domain/video-source.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { handleApi, methodNotAllowed, privateJson } from "#server/http/api.server.ts";
import { ConflictError, MethodNotAllowedError } from "#server/http/errors.server.ts";
import { getVideoLibrary, videoNotFound } from "#server/media/video/index.server.ts";
import { VIDEO_STATUS } from "#server/media/video/types.server.ts";

/**
 * POST /api/admin/videos/{guid}/upload — where to send (or go on sending) the file of a video that has none
 * yet: the same answer as creating it, with fresh credentials. A page reloaded mid-upload resumes through this.
 */
/** GET and the rest: 405, past the guard, for a video that exists. */
export const loader = methodNotAllowed(["POST"], async (request, params) => {
  await requirePermission(request, "videos.manage", { mode: "api" });
  const guid = params.guid;
  if (!guid || !isVideoId(guid) || !(await getVideoLibrary().get(guid))) throw videoNotFound();
});

export async function action({ request, params }: Route.ActionArgs) {
  return handleApi("api/admin/video-upload", async () => {
    await requirePermission(request, "videos.manage", { mode: "api" });
    if (request.method !== "POST") throw new MethodNotAllowedError(["POST"]);
    if (!isVideoId(params.guid)) throw videoNotFound();
    const library = getVideoLibrary();
    const item = await library.get(params.guid);
    if (!item) throw videoNotFound();
    if (item.status !== VIDEO_STATUS.waiting) throw new ConflictError("This video already has its file", "ALREADY_UPLOADED");
    const target = await library.uploadTarget(item.guid);
    return privateJson({
      guid: item.guid,
      tus_endpoint: target.endpoint,
      tus_headers: target.headers,
      tus_metadata: target.metadata,
      expires_at: target.expiresAt ?? null,
    });
  });
}
