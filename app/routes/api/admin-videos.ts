import type { Route } from "./+types/admin-videos";
import { requirePermission } from "#server/auth/session.server.ts";
import { answerJson, arabic, arabicErrors, json, jsonError } from "#server/http/json-api.server.ts";
import { readJsonObject } from "#server/http/request-body.server.ts";
import { getVideoLibrary } from "#server/media/video/index.server.ts";
import { createVideoForUpload, NewVideoInput, toAdminVideo } from "#server/media/video/admin.server.ts";

/**
 * GET /api/admin/videos — the library, newest first, with `status`, `length` (seconds) and `thumbnail`.
 * POST /api/admin/videos `{title, description}` → 201 `{guid, tus_endpoint, tus_headers, tus_metadata}`: the
 * file then goes by tus to `tus_endpoint` with `guid`, `filename` and `filetype` in Upload-Metadata.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "videos.manage", { mode: "api" });
  return answerJson(async () => {
    const library = getVideoLibrary();
    const items = await library.list();
    return json({ videos: items.map((item) => toAdminVideo(library, item)) });
  });
}

export async function action({ request }: Route.ActionArgs) {
  await requirePermission(request, "videos.manage", { mode: "api" });
  if (request.method !== "POST") return jsonError(405, "METHOD_NOT_ALLOWED", "Use GET or POST");
  return answerJson(async () => {
    const parsed = NewVideoInput.safeParse(await readJsonObject(request, 16 * 1024));
    if (!parsed.success) {
      const errors = Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
      return jsonError(422, "VALIDATION_FAILED", arabic("newsroom.ui.videos.missingFields"), { errors: arabicErrors(errors) });
    }
    return json(await createVideoForUpload(getVideoLibrary(), parsed.data), 201);
  });
}
