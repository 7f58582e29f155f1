import type { Route } from "./+types/admin-content-corrections";
import { contentTypeBySegment } from "#domain/content-types/index.ts";
import { parseId } from "#domain/ids.ts";
import { getDb } from "#server/db/client.server.ts";
import { contentNotFound } from "#server/content/newsroom/write.server.ts";
import { addCorrection, correctionsOf, parseCorrectionBody } from "#server/content/corrections.server.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { canPublish } from "#server/auth/permissions.server.ts";
import { handleApi, NO_QUERY, parseQuery, privateJson } from "#server/http/api.server.ts";
import { ForbiddenError, MethodNotAllowedError } from "#server/http/errors.server.ts";
import { readJsonObject } from "#server/http/request-body.server.ts";

/**
 * /api/admin/{type}/{id}/corrections — an item's published corrections (issue 40, decision 0140; docs/api.md,
 * "Corrections"). GET (the type's write permission): `{ corrections: [{ id, text, text_fr, created_at, author_id }] }`,
 * oldest first. POST `{ text, text_fr? }` (content.publish, else 403 PUBLISH_PERMISSION): 201 with the correction itself;
 * 409 NOT_PUBLISHED when the item is not published; 422 VALIDATION for an empty or too long text.
 */
const MAX_CORRECTION_JSON_BYTES = 16 * 1024;

async function guard(request: Request, params: Route.LoaderArgs["params"]) {
  const def = contentTypeBySegment(params.type);
  const id = parseId(params.id);
  // Access first: a wrong URL tells nobody without access anything.
  const user = await requirePermission(request, def?.permissions.write ?? "content.write", { mode: "api" });
  if (!def || id === null) throw contentNotFound();
  parseQuery(request, NO_QUERY);
  return { def, id, user };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  return handleApi("api/admin/content-corrections", async () => {
    const { def, id } = await guard(request, params);
    return privateJson({ corrections: await correctionsOf(await getDb(), def.type, id) });
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleApi("api/admin/content-corrections", async () => {
    const { def, id, user } = await guard(request, params);
    if (request.method !== "POST") throw new MethodNotAllowedError(["GET", "POST"]);
    if (!canPublish(user.profile)) throw new ForbiddenError("rights.publishNeeded", "PUBLISH_PERMISSION");
    const input = parseCorrectionBody(await readJsonObject(request, MAX_CORRECTION_JSON_BYTES));
    return privateJson(await addCorrection(await getDb(), def.type, id, input, user), 201);
  });
}
