import type { Route } from "./+types/admin-library-file";
import { z } from "zod/mini";
import { parseLibraryPatch } from "#domain/library.ts";
import { getDb } from "#server/db/client.server.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { handleApi, NO_QUERY, parseQuery, privateJson } from "#server/http/api.server.ts";
import { arabic, arabicFields, ForbiddenError, MethodNotAllowedError, NotFoundError, ValidationError } from "#server/http/errors.server.ts";
import { BODY_LIMITS, readJsonObject } from "#server/http/request-body.server.ts";
import { deleteLibraryFileAs, getLibraryFile, updateLibraryFile, usageOf } from "#server/media/library.server.ts";
import { getStorage } from "#server/media/storage/index.server.ts";
import { parseId } from "#domain/ids.ts";

const DeleteQuery = z.strictObject({ force: z.optional(z.enum(["1"], "must be 1")) });

const fileId = (value: string | undefined) => parseId(value);
const notFound = () => new NotFoundError("Not found");

/**
 * GET /api/admin/library/{id} — one library file with its usage count and `usage` (the items that use it).
 * PATCH — any of `alt`, `caption`, `credit` as `{ar, fr}` and `focal` as `{x, y}` (0..1); answers the file.
 * DELETE — removes the row and the stored file; a file in use answers 409 FILE_IN_USE with `usage` unless `?force=1`.
 * Needs content.delete besides (403 PERMISSION_NEEDED, used or not): a published item may lose its picture.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  return handleApi("api/admin/library-file", async () => {
    await requirePermission(request, "content.write", { mode: "api" });
    const id = fileId(params.id);
    if (id === null) throw notFound();
    parseQuery(request, NO_QUERY);
    const db = await getDb();
    const file = await getLibraryFile(db, id);
    if (!file) throw notFound();
    return privateJson({ ...file, usage: await usageOf(db, file.url) });
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleApi("api/admin/library-file", async () => {
    const user = await requirePermission(request, "content.write", { mode: "api" });
    const id = fileId(params.id);
    if (request.method !== "PATCH" && request.method !== "DELETE") throw new MethodNotAllowedError(["GET", "PATCH", "DELETE"]);
    if (id === null) throw notFound();
    const db = await getDb();
    if (request.method === "DELETE") {
      const { force } = parseQuery(request, DeleteQuery);
      const done = await deleteLibraryFileAs(db, user.profile, id, { force: force === "1", storage: getStorage() });
      if (done.state === "forbidden") throw new ForbiddenError(arabic("library.deleteNeedsPermission"), "PERMISSION_NEEDED");
      if (done.state === "not-found") throw notFound();
      if (done.state === "in-use") {
        return privateJson({ error: { code: "FILE_IN_USE", message: arabic("library.inUse", { count: done.usage.length }) }, usage: done.usage }, 409);
      }
      return privateJson({ id, deleted: true, usage: done.usage });
    }
    parseQuery(request, NO_QUERY);
    const checked = parseLibraryPatch(await readJsonObject(request, BODY_LIMITS.account));
    if (!checked.ok) throw new ValidationError(arabic("library.v.invalid"), arabicFields(checked.fields), { status: 400 });
    const file = await updateLibraryFile(db, id, checked.value);
    if (!file) throw notFound();
    return privateJson(file);
  });
}
