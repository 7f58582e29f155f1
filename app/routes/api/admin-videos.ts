import type { Route } from "./+types/admin-videos";
import { requirePermission } from "#server/auth/session.server.ts";
import { handleApi, NO_QUERY, parseQuery, privateJson } from "#server/http/api.server.ts";
import { MethodNotAllowedError, ValidationError } from "#server/http/errors.server.ts";
import { BODY_LIMITS, readJsonObject } from "#server/http/request-body.server.ts";
import { getVideoLibrary } from "#server/media/video/index.server.ts";
import { createVideoForUpload, NewVideoInput, toAdminVideo } from "#server/media/video/admin.server.ts";

/**
 * GET /api/admin/videos — the library, newest first, with `status`, `length` (seconds) and `thumbnail`.
 * POST /api/admin/videos `{title, description}` → 201 `{guid, tus_endpoint, tus_headers, tus_metadata}`: the
 * file then goes by tus to `tus_endpoint` with `guid`, `filename` and `filetype` in Upload-Metadata.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/admin/videos", async () => {
    await requirePermission(request, "videos.manage", { mode: "api" });
    parseQuery(request, NO_QUERY);
    const library = getVideoLibrary();
    const items = await library.list();
    return privateJson({ videos: items.map((item) => toAdminVideo(library, item)) });
  });
}

export async function action({ request }: Route.ActionArgs) {
  return handleApi("api/admin/videos", async () => {
    await requirePermission(request, "videos.manage", { mode: "api" });
    if (request.method !== "POST") throw new MethodNotAllowedError(["GET", "POST"]);
    // A title and a description: the account forms' small limit is plenty.
    const parsed = NewVideoInput.safeParse(await readJsonObject(request, BODY_LIMITS.account));
    if (!parsed.success) {
      const fields = Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
      throw new ValidationError("newsroom.ui.videos.missingFields", fields);
    }
    return privateJson(await createVideoForUpload(getVideoLibrary(), parsed.data), 201);
  });
}
