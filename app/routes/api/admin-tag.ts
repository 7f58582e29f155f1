import type { Route } from "./+types/admin-tag";
import { z } from "zod/mini";
import { TagPatch, tagFieldErrors } from "#domain/tags.ts";
import { getDb } from "#server/db/client.server.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { handleApi, NO_QUERY, parseQuery, privateJson } from "#server/http/api.server.ts";
import { MethodNotAllowedError, NotFoundError, ValidationError } from "#server/http/errors.server.ts";
import { BODY_LIMITS, readJsonObject } from "#server/http/request-body.server.ts";
import { deleteTag, getTag, renameTag } from "#server/content/tags.server.ts";
import { parseId } from "#domain/ids.ts";

const tagId = (value: string | undefined) => parseId(value);
const notFound = () => new NotFoundError("tags.notFound");

/**
 * GET /api/admin/tags/{id} — one tag with its item count.
 * PATCH — `{ "name"?, "slug"? }`: renames it; a name spelt as another tag's merges this one into that one
 * (answered: the tag that remains, with `merged_from`); a slug another tag has: 409 SLUG_TAKEN.
 * DELETE — removes the tag from its items and deletes it: `{ id, deleted: true, items }`.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  return handleApi("api/admin/tag", async () => {
    await requirePermission(request, "content.write", { mode: "api" });
    const id = tagId(params.id);
    if (id === null) throw notFound();
    parseQuery(request, NO_QUERY);
    const tag = await getTag(await getDb(), id);
    if (!tag) throw notFound();
    return privateJson(tag);
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleApi("api/admin/tag", async () => {
    // Renaming and deleting a tag: tags.manage (issue 40); reading one stays content.write.
    await requirePermission(request, "tags.manage", { mode: "api" });
    if (request.method !== "PATCH" && request.method !== "DELETE") throw new MethodNotAllowedError(["GET", "PATCH", "DELETE"]);
    const id = tagId(params.id);
    if (id === null) throw notFound();
    parseQuery(request, NO_QUERY);
    const db = await getDb();
    if (request.method === "DELETE") {
      const { items } = await deleteTag(db, id);
      return privateJson({ id, deleted: true, items });
    }
    const parsed = z.safeParse(TagPatch, await readJsonObject(request, BODY_LIMITS.account));
    if (!parsed.success) throw new ValidationError("tags.invalid", tagFieldErrors(parsed.error));
    const { tag, mergedFrom } = await renameTag(db, id, parsed.data);
    return privateJson({ ...tag, merged_from: mergedFrom });
  });
}
