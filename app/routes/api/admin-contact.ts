import type { Route } from "./+types/admin-contact";
import { getDb } from "#server/db/client.server.ts";
import { CONTACT_JSON_MAX_BYTES, contactNotFound, deleteContact, getContact, updateContact } from "#server/content/contacts.server.ts";
import { contactIdOf } from "#domain/contacts.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { handleApi, NO_QUERY, parseQuery, privateJson } from "#server/http/api.server.ts";
import { MethodNotAllowedError } from "#server/http/errors.server.ts";
import { readJsonObject } from "#server/http/request-body.server.ts";

/**
 * GET /api/admin/contacts/{id} — one whole message (reading it through the API leaves its status alone).
 * PATCH with `{"status": "new" | "read" | "replied"}` — sets its status. DELETE — removes it for good.
 * Every method needs `contacts.manage`; PATCH and DELETE also our own Origin, as the inbox's forms do.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  return handleApi("api/admin/contact", async () => {
    await requirePermission(request, "contacts.manage", { mode: "api" });
    parseQuery(request, NO_QUERY);
    const id = contactIdOf(params.id);
    const message = id ? await getContact(await getDb(), id) : null;
    if (!message) throw contactNotFound();
    return privateJson(message);
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleApi("api/admin/contact", async () => {
    if (request.method !== "PATCH" && request.method !== "DELETE") throw new MethodNotAllowedError(["GET", "PATCH", "DELETE"]);
    await requirePermission(request, "contacts.manage", { mode: "api" });
    const id = contactIdOf(params.id) ?? 0;
    if (request.method === "DELETE") {
      await deleteContact(await getDb(), id);
      return privateJson({ id, deleted: true });
    }
    const changes = await readJsonObject(request, CONTACT_JSON_MAX_BYTES);
    return privateJson(await updateContact(await getDb(), id, changes));
  });
}
