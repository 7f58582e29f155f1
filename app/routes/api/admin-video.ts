import type { Route } from "./+types/admin-video";
import { isVideoId } from "#domain/video-source.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { handleApi, NO_QUERY, parseQuery, privateJson } from "#server/http/api.server.ts";
import { MethodNotAllowedError } from "#server/http/errors.server.ts";
import { getVideoLibrary, videoNotFound } from "#server/media/video/index.server.ts";
import { toAdminVideo } from "#server/media/video/admin.server.ts";

/** GET /api/admin/videos/{guid} — one video with its status, length and thumbnail. DELETE — removes it and its files. */
export async function loader({ request, params }: Route.LoaderArgs) {
  return handleApi("api/admin/video", async () => {
    await requirePermission(request, "videos.manage", { mode: "api" });
    if (!isVideoId(params.guid)) throw videoNotFound();
    parseQuery(request, NO_QUERY);
    const library = getVideoLibrary();
    const item = await library.get(params.guid);
    if (!item) throw videoNotFound();
    return privateJson(toAdminVideo(library, item));
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleApi("api/admin/video", async () => {
    await requirePermission(request, "videos.manage", { mode: "api" });
    if (request.method !== "DELETE") throw new MethodNotAllowedError(["GET", "DELETE"]);
    if (!isVideoId(params.guid)) throw videoNotFound();
    const library = getVideoLibrary();
    if (!(await library.get(params.guid))) throw videoNotFound();
    await library.delete(params.guid);
    return privateJson({ deleted: params.guid });
  });
}
