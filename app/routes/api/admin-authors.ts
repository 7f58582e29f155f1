import type { Route } from "./+types/admin-authors";
import { z } from "zod/mini";
import { checkAuthorInput } from "#domain/authors.ts";
import { wholeNumberOr } from "#domain/query.ts";
import { getDb } from "#server/db/client.server.ts";
import { requirePermission, userCan } from "#server/auth/session.server.ts";
import { AUTHORS_PER_PAGE, createAuthor, listAuthors } from "#server/content/authors.server.ts";
import { handleApi, parseQuery, privateJson } from "#server/http/api.server.ts";
import { ForbiddenError, MethodNotAllowedError, ValidationError } from "#server/http/errors.server.ts";
import { BODY_LIMITS, readJsonObject } from "#server/http/request-body.server.ts";

const ListQuery = z.strictObject({
  q: z.optional(z.string().check(z.maxLength(100, "must be at most 100 characters"))),
  page: wholeNumberOr(1, 1, 100_000),
  per_page: wholeNumberOr(AUTHORS_PER_PAGE, 1, 100),
  ids: z.optional(z.string().check(z.regex(/^[1-9]\d{0,8}(,[1-9]\d{0,8}){0,49}$/, "must be ids separated by commas"))),
});

/**
 * GET /api/admin/authors?q=&ids=&page=&per_page= — the author profiles by name (`q` finds a name in any language or
 * the slug; `ids`, comma-separated, those profiles): `{ authors, total, page, perPage }`. POST — a new profile (`name` required; `slug` made from it when
 * blank); linking an account (`user_id`) needs users.manage besides. Decision 0121.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/admin/authors", async () => {
    await requirePermission(request, "content.write", { mode: "api" });
    const { q, ids, page, per_page: perPage } = parseQuery(request, ListQuery, { maxLength: 500 });
    return privateJson(await listAuthors(await getDb(), { q, ids: ids?.split(",").map(Number), page, perPage }));
  });
}

export async function action({ request }: Route.ActionArgs) {
  return handleApi("api/admin/authors", async () => {
    const user = await requirePermission(request, "content.write", { mode: "api" });
    if (request.method !== "POST") throw new MethodNotAllowedError(["GET", "POST"]);
    const checked = checkAuthorInput(await readJsonObject(request, BODY_LIMITS.json));
    if (!checked.ok) throw new ValidationError("authors.v.invalid", checked.fields);
    if (checked.value.user_id && !userCan(user, "users.manage")) throw new ForbiddenError("authors.accountNeedsPermission", "PERMISSION_NEEDED");
    return privateJson(await createAuthor(await getDb(), checked.value), 201);
  });
}
