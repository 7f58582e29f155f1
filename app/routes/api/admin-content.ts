import type { Route } from "./+types/admin-content";
import { z } from "zod/mini";
import { contentTypeBySegment, EDITOR_STATUSES } from "#domain/content-types/index.ts";
import { oneOf, wholeNumberOr } from "#domain/query.ts";
import { getDb } from "#server/db/client.server.ts";
import { listForStaff } from "#server/content/newsroom/read.server.ts";
import { createItem, MAX_CONTENT_JSON_BYTES } from "#server/content/newsroom/write.server.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { handleApi, parseQuery, privateJson } from "#server/http/api.server.ts";
import { MethodNotAllowedError, NotFoundError } from "#server/http/errors.server.ts";
import { readJsonObject } from "#server/http/request-body.server.ts";

/**
 * GET /api/admin/{type} — one page of a content type's items, newest first (staff view: drafts and
 * scheduled items included). POST /api/admin/{type} — creates an item from the spec's field names.
 * {type} is a content type's segment (its definition's `segment`, domain/content-types/: /api/admin/articles …).
 */
const ListQuery = z.strictObject({
  page: wholeNumberOr(1, 1, 100_000),
  per_page: wholeNumberOr(20, 1, 100),
  q: z.optional(z.string().check(z.maxLength(200, "must be at most 200 characters"))),
  status: oneOf([...EDITOR_STATUSES, "all"] as const),
});

const unknownType = () => new NotFoundError("Unknown content type");

export async function loader({ request, params }: Route.LoaderArgs) {
  return handleApi("api/admin/content", async () => {
    const def = contentTypeBySegment(params.type);
    // Access is checked before the type is: an unknown type tells nobody without access anything.
    await requirePermission(request, def?.permissions.write ?? "content.write", { mode: "api" });
    if (!def) throw unknownType();
    const { page, per_page: perPage, q, status = "all" } = parseQuery(request, ListQuery, { maxLength: 200 });
    return privateJson(await listForStaff(await getDb(), def.type, { page, perPage, q, status }));
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleApi("api/admin/content", async () => {
    const def = contentTypeBySegment(params.type);
    const user = await requirePermission(request, def?.permissions.write ?? "content.write", { mode: "api" });
    if (!def) throw unknownType();
    if (request.method !== "POST") throw new MethodNotAllowedError(["GET", "POST"]);
    const input = await readJsonObject(request, MAX_CONTENT_JSON_BYTES);
    return privateJson(await createItem(await getDb(), def.type, input, user), 201);
  });
}
