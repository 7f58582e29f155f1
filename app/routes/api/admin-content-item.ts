import type { Route } from "./+types/admin-content-item";
import { contentTypeBySegment } from "#domain/content-types/index.ts";
import { getDb } from "#server/db/client.server.ts";
import { getForStaff } from "#server/content/newsroom/read.server.ts";
import { contentNotFound, deleteItem, MAX_CONTENT_JSON_BYTES, updateItem } from "#server/content/newsroom/write.server.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { handleApi, NO_QUERY, parseQuery, privateJson } from "#server/http/api.server.ts";
import { errorAnswer, MethodNotAllowedError, ValidationError } from "#server/http/errors.server.ts";
import { readJsonObject } from "#server/http/request-body.server.ts";
import { parseId } from "#domain/ids.ts";
import { ItemLockedError } from "#server/content/item-locks.server.ts";
import { assertMayEdit } from "#server/content/ownership.server.ts";
import { setLive } from "#server/content/live/entries.server.ts";
import { isLive } from "#domain/live.ts";

/**
 * GET /api/admin/{type}/{id} — one item as staff see it. PATCH — changes the fields sent (the spec's names);
 * sending the `updated_at` last read refuses the change with 409 if someone saved since. DELETE — removes it.
 * A coverage's PATCH of exactly `{"live": true|false}` (optionally with `updated_at`, not checked: starting and
 * ending change no field the editor holds) starts or ends its live coverage (issue 44): `{ id, live, started_at,
 * ended_at }`, with the right to publish.
 */
/** A route param id out of its column's range names no item: 404, as any other id that names none. */
const itemId = (value: string | undefined): number | null => parseId(value);

export async function loader({ request, params }: Route.LoaderArgs) {
  return handleApi("api/admin/content-item", async () => {
    const def = contentTypeBySegment(params.type);
    const id = itemId(params.id);
    // Access is checked before the type and id are: a wrong URL tells nobody without access anything.
    await requirePermission(request, def?.permissions.write ?? "content.write", { mode: "api" });
    if (!def || id === null) throw contentNotFound();
    parseQuery(request, NO_QUERY);
    const item = await getForStaff(await getDb(), def.type, id);
    if (!item) throw contentNotFound();
    return privateJson(item);
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleApi("api/admin/content-item", async () => {
    const def = contentTypeBySegment(params.type);
    const id = itemId(params.id);
    const permissions = def?.permissions ?? { write: "content.write", delete: "content.delete" };
    const user = await requirePermission(request, request.method === "DELETE" ? permissions.delete : permissions.write, { mode: "api" });
    if (!def || id === null) throw contentNotFound();
    // Ownership (issue 40): without content.others, only one's own or credited items change (403 NOT_YOUR_ITEM).
    if (request.method === "DELETE" || request.method === "PATCH") await assertMayEdit(await getDb(), user, def.type, id);
    if (request.method === "DELETE") {
      await deleteItem(await getDb(), def.type, id, user);
      return privateJson({ id, deleted: true });
    }
    if (request.method !== "PATCH") throw new MethodNotAllowedError(["GET", "PATCH", "DELETE"]);
    const { updated_at: expectedUpdatedAt, ...changes } = await readJsonObject(request, MAX_CONTENT_JSON_BYTES);
    if (def.type === "coverage" && Object.keys(changes).length === 1 && "live" in changes) return liveAnswer(id, changes.live, user);
    const expected = typeof expectedUpdatedAt === "string" ? expectedUpdatedAt : null;
    try {
      return privateJson(await updateItem(await getDb(), def.type, id, changes, user, { expectedUpdatedAt: expected, partial: true, respectLock: true }));
    } catch (error) {
      if (error instanceof ItemLockedError) return lockedAnswer(error);
      throw error;
    }
  });
}

/** Starts or ends a coverage's live period (setLive checks content.publish and ownership). */
async function liveAnswer(id: number, live: unknown, user: Parameters<typeof setLive>[3]): Promise<Response> {
  if (typeof live !== "boolean")
    throw new ValidationError("أرسل live بقيمة true أو false.", { live: "القيمة يجب أن تكون true أو false." }, { status: 400, code: "INVALID_LIVE" });
  const state = await setLive(await getDb(), id, live, user);
  return privateJson({ id, live: isLive(state), ...state });
}

/**
 * Another account holds the item's lock (decision 0139): 409 LOCKED in the one error shape, with who holds it
 * since when beside it (`holder`, `since`), as the lock endpoint answers them.
 */
function lockedAnswer(error: ItemLockedError): Response {
  const { status, body, headers } = errorAnswer(error, "api/admin/content-item");
  return Response.json({ ...body, holder: error.lock.holder, since: error.lock.since }, { status, headers });
}
