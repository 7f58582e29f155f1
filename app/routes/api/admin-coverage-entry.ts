import type { Route } from "./+types/admin-coverage-entry";
import { parseId } from "#domain/ids.ts";
import { LIVE_ENTRY_LIMITS } from "#domain/live.ts";
import { getDb } from "#server/db/client.server.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { deleteEntry, editEntry, findEntry, liveStateOf } from "#server/content/live/entries.server.ts";
import { handleApi, NO_QUERY, parseQuery, privateJson } from "#server/http/api.server.ts";
import { MethodNotAllowedError, NotFoundError } from "#server/http/errors.server.ts";
import { readJsonObject } from "#server/http/request-body.server.ts";

/**
 * /api/admin/coverage/{id}/entries/{entryId} — one entry of a live coverage (issue 44). GET: the entry. PATCH any
 * of `body, key_event, pinned, image, image_alt, video_id, embed_url, push` (null removes an attachment): the
 * entry as it is now. DELETE: `{ id, deleted: true }` (readers are told; the entry stays as a tombstone). Staff
 * with content.publish who may edit the coverage.
 */
const MAX_ENTRY_JSON_BYTES = LIVE_ENTRY_LIMITS.maxHtmlBytes + 16 * 1024;

const entryNotFound = () => new NotFoundError("لا توجد مداخلة بهذا المعرّف في هذه التغطية.", "ENTRY_NOT_FOUND");

/** A route param out of range names nothing: 404, as any id that names nothing. */
function idsOf(params: { id?: string; entryId?: string }) {
  const id = parseId(params.id);
  const entryId = parseId(params.entryId);
  if (id === null || entryId === null) throw entryNotFound();
  return { id, entryId };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  return handleApi("api/admin/coverage-entry", async () => {
    await requirePermission(request, "content.publish", { mode: "api" });
    const { id, entryId } = idsOf(params);
    parseQuery(request, NO_QUERY);
    const db = await getDb();
    if (!(await liveStateOf(db, id))) throw entryNotFound();
    const entry = await findEntry(db, id, entryId);
    if (!entry) throw entryNotFound();
    return privateJson(entry);
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleApi("api/admin/coverage-entry", async () => {
    const user = await requirePermission(request, "content.publish", { mode: "api" });
    const { id, entryId } = idsOf(params);
    parseQuery(request, NO_QUERY);
    if (request.method === "DELETE") {
      await deleteEntry(await getDb(), id, entryId, user);
      return privateJson({ id: entryId, deleted: true });
    }
    if (request.method !== "PATCH") throw new MethodNotAllowedError(["GET", "PATCH", "DELETE"]);
    const body = await readJsonObject(request, MAX_ENTRY_JSON_BYTES);
    return privateJson(await editEntry(await getDb(), id, entryId, body, user));
  });
}
