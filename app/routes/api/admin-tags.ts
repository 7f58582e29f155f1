import type { Route } from "./+types/admin-tags";
import { z } from "zod/mini";
import { wholeNumberOr } from "#domain/query.ts";
import { TAG_NAME_MAX, TAGS_SCREEN_PAGE_SIZE } from "#domain/tags.ts";
import { getDb } from "#server/db/client.server.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { handleApi, methodNotAllowed, parseQuery, privateJson } from "#server/http/api.server.ts";
import { listTags } from "#server/content/tags.server.ts";

const Query = z.strictObject({
  q: z.optional(z.string()),
  page: wholeNumberOr(1, 1, 999_999),
  per_page: wholeNumberOr(TAGS_SCREEN_PAGE_SIZE, 1, 100),
});

/**
 * GET /api/admin/tags?q=&page=&per_page= — the newsroom's tags with how many items each is on:
 * `{ tags: [{ id, slug, name, count, url }], total, page, perPage }`. Without `q`, every tag by name; with `q`
 * (at most 60 characters), the tags it matches, best first: what the form's tag input suggests as an editor types
 * (Arabic-aware: «الانتخابات» finds «الإنتخابات»; with or without «ال»; the start of any word). Bounded: 100 a page
 * at most, and a query weighs 500 tags at most.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/admin/tags", async () => {
    await requirePermission(request, "content.write", { mode: "api" });
    const { q, page, per_page } = parseQuery(request, Query, { maxLength: TAG_NAME_MAX });
    return privateJson(await listTags(await getDb(), { q: q?.trim() || undefined, page, perPage: per_page }));
  });
}

/** Any other method: 405, past the same guard (tags are made by saving an item: the `tags` field). */
export const action = methodNotAllowed(["GET"], (request) => requirePermission(request, "content.write", { mode: "api" }));
