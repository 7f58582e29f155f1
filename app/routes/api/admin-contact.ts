import type { Route } from "./+types/admin-contact";
import { getDb } from "#server/db/client.server.ts";
import { CONTACT_JSON_MAX_BYTES, ContactNotFoundError, deleteContact, getContact, updateContact } from "#server/content/contacts.server.ts";
import { contactIdOf } from "#domain/contacts.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { answerJson, json, jsonError } from "#server/http/json-api.server.ts";
import { readJsonObject } from "#server/http/request-body.server.ts";

/**
 * GET /api/admin/contacts/{id} — one whole message (reading it through the API leaves its status alone).
 * PATCH with `{"status": "new" | "read" | "replied"}` — sets its status. DELETE — removes it for good.
 * Every method needs `contacts.manage`; PATCH and DELETE also our own Origin, as the inbox's forms do.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requirePermission(request, "contacts.manage", { mode: "api" });
  const id = contactIdOf(params.id);
  return answerJson(async () => {
    const message = id ? await getContact(await getDb(), id) : null;
    if (!message) throw new ContactNotFoundError();
    return json(message);
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  if (request.method !== "PATCH" && request.method !== "DELETE") return jsonError(405, "METHOD_NOT_ALLOWED", "Use GET, PATCH or DELETE");
  await requirePermission(request, "contacts.manage", { mode: "api" });
  const id = contactIdOf(params.id) ?? 0;
  return answerJson(async () => {
    if (request.method === "DELETE") {
      await deleteContact(await getDb(), id);
      return json({ id, deleted: true });
    }
    const changes = await readJsonObject(request, CONTACT_JSON_MAX_BYTES);
    return json(await updateContact(await getDb(), id, changes));
  });
}
