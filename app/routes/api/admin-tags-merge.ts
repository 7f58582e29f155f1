import type { Route } from "./+types/admin-tags-merge";
import { z } from "zod/mini";
import { TAG_MERGE_MAX, TagMerge, tagFieldErrors } from "#domain/tags.ts";
import { getDb } from "#server/db/client.server.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { handleApi, NO_QUERY, parseQuery, privateJson } from "#server/http/api.server.ts";
import { MethodNotAllowedError, ValidationError } from "#server/http/errors.server.ts";
import { BODY_LIMITS, readJsonObject } from "#server/http/request-body.server.ts";
import { mergeTags } from "#server/content/tags.server.ts";

/**
 * POST /api/admin/tags/merge `{ "into": id, "from": [ids] }` — every item of the `from` tags gets `into` (once), and
 * the `from` tags are deleted (their pages answer 404). Answers the remaining tag with `merged_from`. An unknown
 * id: 404, nothing changed.
 */
export async function action({ request }: Route.ActionArgs) {
  return handleApi("api/admin/tags/merge", async () => {
    await requirePermission(request, "tags.manage", { mode: "api" });
    if (request.method !== "POST") throw new MethodNotAllowedError(["GET", "POST"]);
    parseQuery(request, NO_QUERY);
    const parsed = z.safeParse(TagMerge, await readJsonObject(request, BODY_LIMITS.account));
    if (!parsed.success) throw new ValidationError("tags.invalid", tagFieldErrors(parsed.error));
    const { tag, mergedFrom } = await mergeTags(await getDb(), parsed.data);
    return privateJson({ ...tag, merged_from: mergedFrom });
  });
}

/** GET — what a merge accepts: `{ max_from }` (the most tags one merge folds in). */
export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/admin/tags/merge", async () => {
    await requirePermission(request, "tags.manage", { mode: "api" });
    parseQuery(request, NO_QUERY);
    return privateJson({ max_from: TAG_MERGE_MAX });
  });
}
