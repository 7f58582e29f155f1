import type { Route } from "./+types/admin-content-notes";
import { redirect } from "react-router";
import { contentTypeBySegment } from "#domain/content-types/index.ts";
import { parseId } from "#domain/ids.ts";
import { getDb } from "#server/db/client.server.ts";
import { contentNotFound } from "#server/content/newsroom/write.server.ts";
import { addNote, listNotes } from "#server/content/item-notes.server.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { assertMayEdit } from "#server/content/ownership.server.ts";
import { handleApi, NO_QUERY, parseQuery, privateJson } from "#server/http/api.server.ts";
import { MethodNotAllowedError } from "#server/http/errors.server.ts";
import { readFormData, readJsonObject } from "#server/http/request-body.server.ts";

/**
 * /api/admin/{type}/{id}/notes — the newsroom's internal notes on an item (decision 0139), with the item's write
 * permission, for those who may edit the item (ownership); never on the public site or the public API.
 * GET: `{ notes: [{ id, author: { id, name }, text, at }] }`, oldest first. POST `{ text }` (1 to 2,000
 * characters): 201 with the note; 400 INVALID_NOTE otherwise. The editor's form posts here without JavaScript
 * too (form-encoded): it goes back to the item's thread (303).
 */
async function guard(request: Request, params: Route.LoaderArgs["params"]) {
  const def = contentTypeBySegment(params.type);
  const id = parseId(params.id);
  // Access first: a wrong URL tells nobody without access anything.
  const user = await requirePermission(request, def?.permissions.write ?? "content.write", { mode: "api" });
  if (!def || id === null) throw contentNotFound();
  parseQuery(request, NO_QUERY);
  // Ownership (issue 40): the item's thread is for those who may edit it (403 NOT_YOUR_ITEM).
  await assertMayEdit(await getDb(), user, def.type, id);
  return { def, id, user };
}

const isForm = (request: Request) => /^application\/x-www-form-urlencoded\b/i.test(request.headers.get("Content-Type") ?? "");

export async function loader({ request, params }: Route.LoaderArgs) {
  return handleApi("api/admin/content-notes", async () => {
    const { def, id } = await guard(request, params);
    return privateJson({ notes: await listNotes(await getDb(), def.type, id) });
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleApi("api/admin/content-notes", async () => {
    const { def, id, user } = await guard(request, params);
    if (request.method !== "POST") throw new MethodNotAllowedError(["GET", "POST"]);
    if (isForm(request)) {
      const form = await readFormData(request);
      await addNote(await getDb(), def.type, id, user, form.get("text"));
      return redirect(`/admin/${def.segment}/${id}#notes`, 303);
    }
    const body = await readJsonObject(request);
    return privateJson(await addNote(await getDb(), def.type, id, user, body.text), 201);
  });
}
