import type { Route } from "./+types/admin-content-autosave";
import { contentTypeBySegment } from "#domain/content-types/index.ts";
import { getDb } from "#server/db/client.server.ts";
import { contentNotFound, MAX_CONTENT_JSON_BYTES } from "#server/content/newsroom/write.server.ts";
import { autosaveDraft, discardAutosave, newerAutosave } from "#server/content/newsroom/autosaves.server.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { handleApi, NO_QUERY, parseQuery, privateJson } from "#server/http/api.server.ts";
import { MethodNotAllowedError } from "#server/http/errors.server.ts";
import { readJsonObject } from "#server/http/request-body.server.ts";
import { parseId } from "#domain/ids.ts";
import { assertMayEdit } from "#server/content/ownership.server.ts";

/**
 * /api/admin/{type}/{id}/autosave — the editor's autosave of a draft (docs/how-it-works.md, "No lost work"),
 * with the item's own write permission. GET: the caller's autosave when it is newer than the item's last save
 * (`{ autosave: null }` otherwise). POST `{ values: { field: text } }`: kept as the caller's one autosave
 * revision of the item, the item unchanged (409 NOT_A_DRAFT when it is not a draft; 400 INVALID_AUTOSAVE
 * for a field it does not have or a value that is not text). DELETE: the caller's autosave discarded.
 */
/** A route param id out of its column's range names no item: 404, as any other id that names none. */
const itemId = (value: string | undefined): number | null => parseId(value);

async function guard(request: Request, params: Route.LoaderArgs["params"]) {
  const def = contentTypeBySegment(params.type);
  const id = itemId(params.id);
  // Access first: a wrong URL tells nobody without access anything.
  const user = await requirePermission(request, def?.permissions.write ?? "content.write", { mode: "api" });
  if (!def || id === null) throw contentNotFound();
  parseQuery(request, NO_QUERY);
  return { def, id, user };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  return handleApi("api/admin/content-autosave", async () => {
    const { def, id, user } = await guard(request, params);
    return privateJson({ autosave: await newerAutosave(await getDb(), def.type, id, user.id) });
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleApi("api/admin/content-autosave", async () => {
    const { def, id, user } = await guard(request, params);
    const db = await getDb();
    if (request.method === "DELETE") {
      await discardAutosave(db, def.type, id, user.id);
      return privateJson({ discarded: true });
    }
    if (request.method !== "POST") throw new MethodNotAllowedError(["GET", "POST", "DELETE"]);
    // Ownership (issue 40): an autosave is an edit of the item.
    await assertMayEdit(db, user, def.type, id);
    const body = await readJsonObject(request, MAX_CONTENT_JSON_BYTES);
    const saved = await autosaveDraft(db, def.type, id, body, user);
    return privateJson({ autosave: { id: saved.id, saved_at: saved.saved_at } });
  });
}
