import type { Route } from "./+types/admin-author";
import { checkAuthorInput } from "#domain/authors.ts";
import { getDb } from "#server/db/client.server.ts";
import { requirePermission, userCan } from "#server/auth/session.server.ts";
import { AuthorInUseError, authorNotFound, deleteAuthor, getAuthor, updateAuthor } from "#server/content/authors.server.ts";
import { handleApi, NO_QUERY, parseQuery, privateJson } from "#server/http/api.server.ts";
import { arabic, ForbiddenError, MethodNotAllowedError, ValidationError } from "#server/http/errors.server.ts";
import { BODY_LIMITS, readJsonObject } from "#server/http/request-body.server.ts";
import { parseId } from "#domain/ids.ts";
import { assertMayEditAuthor } from "#server/content/ownership.server.ts";

const authorId = (value: string | undefined) => parseId(value);

/**
 * GET /api/admin/authors/{id} — one profile (with `item_count`, the items that name it). PATCH — changes the
 * fields sent; `user_id` (the linked account) needs users.manage besides. DELETE (content.delete) — a profile
 * that items still name answers 409 AUTHOR_IN_USE with their count in `item_count`: take it off them first.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  return handleApi("api/admin/author", async () => {
    await requirePermission(request, "content.write", { mode: "api" });
    const id = authorId(params.id);
    if (id === null) throw authorNotFound();
    parseQuery(request, NO_QUERY);
    const author = await getAuthor(await getDb(), id);
    if (!author) throw authorNotFound();
    return privateJson(author);
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleApi("api/admin/author", async () => {
    const user = await requirePermission(request, request.method === "DELETE" ? "content.delete" : "content.write", { mode: "api" });
    const id = authorId(params.id);
    if (request.method !== "PATCH" && request.method !== "DELETE") throw new MethodNotAllowedError(["GET", "PATCH", "DELETE"]);
    if (id === null) throw authorNotFound();
    parseQuery(request, NO_QUERY);
    const db = await getDb();
    // Ownership (issue 40): another person's profile needs content.others (403 NOT_YOUR_PROFILE).
    await assertMayEditAuthor(db, user, id);
    if (request.method === "DELETE") {
      try {
        await deleteAuthor(db, id);
      } catch (error) {
        if (!(error instanceof AuthorInUseError)) throw error;
        const message = arabic("authors.inUse", { n: error.itemCount });
        return privateJson({ error: { code: error.code, message }, item_count: error.itemCount }, 409);
      }
      return privateJson({ id, deleted: true });
    }
    const checked = checkAuthorInput(await readJsonObject(request, BODY_LIMITS.json), { partial: true });
    if (!checked.ok) throw new ValidationError("authors.v.invalid", checked.fields);
    if (checked.value.user_id !== undefined && !userCan(user, "users.manage")) {
      const current = await getAuthor(db, id);
      if (!current) throw authorNotFound();
      if (current.user_id !== checked.value.user_id) throw new ForbiddenError("authors.accountNeedsPermission", "PERMISSION_NEEDED");
    }
    return privateJson(await updateAuthor(db, id, checked.value));
  });
}
