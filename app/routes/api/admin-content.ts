import { z } from "zod";
import type { Route } from "./+types/admin-content";
import { contentTypeBySegment, EDITOR_STATUSES } from "#domain/content-types.ts";
import { getDb } from "#server/db/client.server.ts";
import { createItem, listForStaff, MAX_CONTENT_JSON_BYTES } from "#server/content/newsroom.server.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { answerJson, json, jsonError } from "#server/http/json-api.server.ts";
import { readJsonObject } from "#server/http/request-body.server.ts";

/**
 * GET /api/admin/{type} — one page of a content type's items, newest first (staff view: drafts and
 * scheduled items included). POST /api/admin/{type} — creates an item from the spec's field names.
 * {type} is articles, news, coverage, podcasts, programs or media (the registry's segments).
 */
const ListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(20),
  q: z.string().max(200).optional(),
  status: z.enum([...EDITOR_STATUSES, "all"]).default("all"),
});

export async function loader({ request, params }: Route.LoaderArgs) {
  const def = contentTypeBySegment(params.type);
  // Access is checked before the type is: an unknown type tells nobody without access anything.
  await requirePermission(request, def?.permissions.write ?? "content.write", { mode: "api" });
  if (!def) return jsonError(404, "NOT_FOUND", "Unknown content type");
  const query = ListQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return jsonError(400, "BAD_QUERY", "Invalid query parameters", { errors: z.flattenError(query.error).fieldErrors });
  const { page, per_page: perPage, q, status } = query.data;
  return answerJson(async () => json(await listForStaff(await getDb(), def.type, { page, perPage, q, status })));
}

export async function action({ request, params }: Route.ActionArgs) {
  const def = contentTypeBySegment(params.type);
  const user = await requirePermission(request, def?.permissions.write ?? "content.write", { mode: "api" });
  if (!def) return jsonError(404, "NOT_FOUND", "Unknown content type");
  if (request.method !== "POST") return jsonError(405, "METHOD_NOT_ALLOWED", "Use GET or POST");
  return answerJson(async () => {
    const input = await readJsonObject(request, MAX_CONTENT_JSON_BYTES);
    return json(await createItem(await getDb(), def.type, input, user), 201);
  });
}
