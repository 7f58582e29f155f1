import type { Route } from "./+types/admin-coverage-entries";
import { z } from "zod/mini";
import { parseId } from "#domain/ids.ts";
import { isLive, LIVE_ENTRY_LIMITS } from "#domain/live.ts";
import { getDb } from "#server/db/client.server.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { listEntries, liveStateOf, postEntry } from "#server/content/live/entries.server.ts";
import { handleApi, NO_QUERY, parseQuery, privateJson } from "#server/http/api.server.ts";
import { MethodNotAllowedError, NotFoundError } from "#server/http/errors.server.ts";
import { readJsonObject } from "#server/http/request-body.server.ts";

/**
 * /api/admin/coverage/{id}/entries — a live coverage's entries (issue 44), for staff who may publish (an entry is
 * public the moment it is posted) and may edit the coverage. GET `?after=<cursor>`: `{ live, started_at, ended_at,
 * cursor, entries, deleted }`, every entry whatever the coverage's state (a draft's too), private and never kept.
 * POST `{ body, key_event?, pinned?, image?, image_alt?, video_id?, embed_url?, client_key?, push? }`: 201
 * `{ id, entry }`, or 200 with the same shape when `client_key` names an entry posted before (a resent post).
 */
const QUERY = z.strictObject({
  after: z.optional(z.pipe(z.string("must be a whole number").check(z.regex(/^\d{1,15}$/, "must be a whole number")), z.transform(Number))),
});
/** The body's bound: the entry's HTML at its largest, and room for the other fields. */
const MAX_ENTRY_JSON_BYTES = LIVE_ENTRY_LIMITS.maxHtmlBytes + 16 * 1024;

const coverageNotFound = () => new NotFoundError("لا توجد تغطية بهذا المعرّف.", "COVERAGE_NOT_FOUND");

export async function loader({ request, params }: Route.LoaderArgs) {
  return handleApi("api/admin/coverage-entries", async () => {
    await requirePermission(request, "content.publish", { mode: "api" });
    const id = parseId(params.id);
    if (id === null) throw coverageNotFound();
    const { after } = parseQuery(request, QUERY);
    const db = await getDb();
    const state = await liveStateOf(db, id);
    if (!state) throw coverageNotFound();
    const list = await listEntries(db, id, { after, limit: 200 });
    return privateJson({ live: isLive(state), ...state, ...list });
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleApi("api/admin/coverage-entries", async () => {
    const user = await requirePermission(request, "content.publish", { mode: "api" });
    const id = parseId(params.id);
    if (id === null) throw coverageNotFound();
    if (request.method !== "POST") throw new MethodNotAllowedError(["GET", "POST"]);
    parseQuery(request, NO_QUERY);
    const body = await readJsonObject(request, MAX_ENTRY_JSON_BYTES);
    const { entry, created } = await postEntry(await getDb(), id, body, user);
    return privateJson({ id: entry.id, entry }, created ? 201 : 200);
  });
}
