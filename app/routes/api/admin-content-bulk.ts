import type { Route } from "./+types/admin-content-bulk";
import { z } from "zod/mini";
import { contentTypeBySegment, EDITOR_STATUSES } from "#domain/content-types/index.ts";
import { oneOf } from "#domain/query.ts";
import { getDb } from "#server/db/client.server.ts";
import { authorizeBulk, BULK_ACTIONS, idsMatching, MAX_BULK_ITEMS, MAX_BULK_JSON_BYTES, parseBulkBody, runBulkAction } from "#server/content/bulk.server.ts";
import { canEditOthers } from "#server/auth/permissions.server.ts";
import { requirePermission, userCan } from "#server/auth/session.server.ts";
import { handleApi, parseQuery, privateJson } from "#server/http/api.server.ts";
import { ForbiddenError, MethodNotAllowedError, NotFoundError } from "#server/http/errors.server.ts";
import { readJsonObject } from "#server/http/request-body.server.ts";

/**
 * POST /api/admin/{type}/bulk — one bulk action on a type's items, chosen by `ids` or by the list's `filter`
 * (server/content/bulk.server.ts; docs/api.md, "Bulk actions"): `{ action, ids | filter, publish_date?,
 * category_id?, tag? }` → `{ action, count, ids }`. The type's write permission; a delete its delete permission.
 * GET — what a filter (`q`, `status`, as the list's) would select: `{ count, ids, max_items, actions }`.
 */
const SelectionQuery = z.strictObject({
  q: z.optional(z.string().check(z.maxLength(200, "must be at most 200 characters"))),
  status: oneOf([...EDITOR_STATUSES, "all"] as const),
});

const unknownType = () => new NotFoundError("Unknown content type");

export async function loader({ request, params }: Route.LoaderArgs) {
  return handleApi("api/admin/content-bulk", async () => {
    const def = contentTypeBySegment(params.type);
    // Access is checked before the type is: an unknown type tells nobody without access anything.
    const user = await requirePermission(request, def?.permissions.write ?? "content.write", { mode: "api" });
    if (!def) throw unknownType();
    const { q, status = "all" } = parseQuery(request, SelectionQuery, { maxLength: 200 });
    // Without content.others a filter selects only the caller's own items (issue 40), as the action would.
    const ownedBy = canEditOthers(user.profile) ? undefined : user.id;
    const ids = await idsMatching(await getDb(), def.type, { q, status, ownedBy });
    return privateJson({ count: ids.length, ids, max_items: MAX_BULK_ITEMS, actions: BULK_ACTIONS });
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleApi("api/admin/content-bulk", async () => {
    const def = contentTypeBySegment(params.type);
    const permissions = def?.permissions ?? { write: "content.write", delete: "content.delete" };
    const user = await requirePermission(request, permissions.write, { mode: "api" });
    if (!def) throw unknownType();
    if (request.method !== "POST") throw new MethodNotAllowedError(["GET", "POST"]);
    const bulk = parseBulkBody(await readJsonObject(request, MAX_BULK_JSON_BYTES));
    // A delete needs the type's delete permission besides.
    if (bulk.action === "delete" && !userCan(user, permissions.delete)) throw new ForbiddenError("newsroom.bulk.v.deleteNotAllowed", "PERMISSION_NEEDED");
    // content.publish for what readers see, and ownership without content.others (issue 40).
    return privateJson(await runBulkAction(await getDb(), def.type, authorizeBulk(bulk, user), user));
  });
}
