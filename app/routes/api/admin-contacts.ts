import type { Route } from "./+types/admin-contacts";
import { getDb } from "#server/db/client.server.ts";
import { listContacts } from "#server/content/contacts.server.ts";
import { CONTACT_FILTERS, isContactFilter } from "#domain/contacts.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { answerJson, json, jsonError } from "#server/http/json-api.server.ts";

/**
 * GET /api/admin/contacts?status=new&page=2 — one page of the contact inbox (50 messages, newest first, each
 * with its 60-character preview), the total of the filter and the count of every filter. `status` is all
 * (the default), new, read or replied; `page` starts at 1, and a page past the end is empty.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "contacts.manage", { mode: "api" });
  const query = new URL(request.url).searchParams;
  const errors: Record<string, string> = {};
  for (const name of query.keys()) if (name !== "status" && name !== "page") errors[name] = "Unknown parameter: use status and page.";
  const status = query.get("status") ?? "all";
  if (!isContactFilter(status)) errors.status = `One of: ${CONTACT_FILTERS.join(", ")}.`;
  const page = query.get("page") ?? "1";
  if (!/^\d{1,6}$/.test(page) || Number(page) < 1) errors.page = "A whole number from 1.";
  if (Object.keys(errors).length) return jsonError(400, "BAD_QUERY", "Invalid query parameters", { errors });
  return answerJson(async () => {
    const { items, ...rest } = await listContacts(await getDb(), { status: status as (typeof CONTACT_FILTERS)[number], page: Number(page) });
    return json({ contacts: items, ...rest });
  });
}
