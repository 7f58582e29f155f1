import type { Route } from "./+types/admin-content-lock";
import { z } from "zod/mini";
import { contentTypeBySegment } from "#domain/content-types/index.ts";
import { oneOf } from "#domain/query.ts";
import { parseId } from "#domain/ids.ts";
import { getDb } from "#server/db/client.server.ts";
import { getForStaff } from "#server/content/newsroom/read.server.ts";
import { contentNotFound } from "#server/content/newsroom/write.server.ts";
import { lockOf, releaseLock, takeLock } from "#server/content/item-locks.server.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { assertMayEdit } from "#server/content/ownership.server.ts";
import { handleApi, NO_QUERY, parseQuery, privateJson } from "#server/http/api.server.ts";
import { MethodNotAllowedError } from "#server/http/errors.server.ts";

/**
 * /api/admin/{type}/{id}/lock — who is editing the item (decision 0139), with the item's write permission.
 * POST takes or renews the caller's lock: 200 `{ holder, since }` when the caller holds it, 409 `{ holder, since }`
 * when another account does (`holder` is `{ id, name }`, `since` ISO 8601); `?takeover=1` takes it from them.
 * DELETE releases the caller's lock (`{ released }`; a lock another holds stays theirs). GET reads it:
 * `{ holder, since }`, both null when nobody holds it. Only an account that may edit the item (ownership) may.
 */
const TAKE_QUERY = z.strictObject({ takeover: oneOf(["1"]) });

async function guard(request: Request, params: Route.LoaderArgs["params"]) {
  const def = contentTypeBySegment(params.type);
  const id = parseId(params.id);
  // Access first: a wrong URL tells nobody without access anything.
  const user = await requirePermission(request, def?.permissions.write ?? "content.write", { mode: "api" });
  if (!def || id === null) throw contentNotFound();
  const db = await getDb();
  if (!(await getForStaff(db, def.type, id))) throw contentNotFound();
  // Ownership (issue 40): only who may edit the item may hold its lock (403 NOT_YOUR_ITEM).
  await assertMayEdit(db, user, def.type, id);
  return { def, id, user, db };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  return handleApi("api/admin/content-lock", async () => {
    const { def, id, db } = await guard(request, params);
    parseQuery(request, NO_QUERY);
    const lock = await lockOf(db, def.type, id);
    return privateJson(lock ?? { holder: null, since: null });
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleApi("api/admin/content-lock", async () => {
    const { def, id, user, db } = await guard(request, params);
    if (request.method === "DELETE") {
      parseQuery(request, NO_QUERY);
      return privateJson({ released: await releaseLock(db, def.type, id, user.id) });
    }
    if (request.method !== "POST") throw new MethodNotAllowedError(["GET", "POST", "DELETE"]);
    const { takeover } = parseQuery(request, TAKE_QUERY);
    const { held, lock } = await takeLock(db, def.type, id, user.id, { takeover: takeover === "1" });
    return privateJson({ holder: lock.holder, since: lock.since }, held ? 200 : 409);
  });
}
