import type { Route } from "./+types/admin-analytics-item";
import { z } from "zod/mini";
import { parseId } from "#domain/ids.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { contentTypeOf, itemAudience, itemExists, parseRange } from "#server/analytics/queries.server.ts";
import { handleApi, methodNotAllowed, parseQuery, privateJson } from "#server/http/api.server.ts";
import { NotFoundError } from "#server/http/errors.server.ts";

/**
 * GET /api/admin/analytics/items/{type}/{id}?from=&to= — one item's audience (issue 45; docs/api.md, "Audience
 * figures"): `{ views, visitors, sources: { search, facebook, whatsapp, telegram, x, newsletter, push, other, direct },
 * hourly: [{ hour, views }] }` over the range (ISO 8601; the last 7 days by default; at most 400 days: 400
 * INVALID_RANGE), with `analytics.view`. An unknown type or id is 404.
 */
const ItemQuery = z.strictObject({ from: z.optional(z.string()), to: z.optional(z.string()) });

async function guard(request: Request) {
  await requirePermission(request, "analytics.view", { mode: "api" });
}

export async function loader({ request, params }: Route.LoaderArgs) {
  return handleApi("api/admin/analytics/items", async () => {
    await guard(request);
    const query = parseQuery(request, ItemQuery, { maxLength: 40 });
    const type = contentTypeOf(params.type);
    if (!type) throw new NotFoundError("Unknown content type");
    const id = parseId(params.id);
    const db = await getDb();
    if (id === null || !(await itemExists(db, type, id))) throw new NotFoundError("No item of that type has this id.");
    const range = parseRange(query);
    return privateJson(await itemAudience(db, type, id, range));
  });
}

export const action = methodNotAllowed(["GET"], guard);
