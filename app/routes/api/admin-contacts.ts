import type { Route } from "./+types/admin-contacts";
import { z } from "zod/mini";
import { getDb } from "#server/db/client.server.ts";
import { listContacts } from "#server/content/contacts.server.ts";
import { CONTACT_FILTERS } from "#domain/contacts.ts";
import { oneOf, wholeNumberOr } from "#domain/query.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { handleApi, methodNotAllowed, parseQuery, privateJson } from "#server/http/api.server.ts";

const Query = z.strictObject({ status: oneOf(CONTACT_FILTERS as [string, ...string[]]), page: wholeNumberOr(1, 1, 999_999) });

/**
 * GET /api/admin/contacts?status=new&page=2 — one page of the contact inbox (50 messages, newest first, each
 * with its 60-character preview), the total of the filter and the count of every filter. `status` is all
 * (the default), new, read or replied; `page` starts at 1, and a page past the end is empty.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/admin/contacts", async () => {
    await requirePermission(request, "contacts.manage", { mode: "api" });
    const { status = "all", page } = parseQuery(request, Query);
    const { items, ...rest } = await listContacts(await getDb(), { status: status as (typeof CONTACT_FILTERS)[number], page });
    return privateJson({ contacts: items, ...rest });
  });
}

/** Any other method: 405, past the same guard. */
export const action = methodNotAllowed(["GET"], (request) => requirePermission(request, "contacts.manage", { mode: "api" }));
