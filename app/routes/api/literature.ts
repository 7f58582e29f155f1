import type { Route } from "./+types/literature";
import { apiItem, LISTINGS } from "#domain/listings.ts";
import { getDb } from "#server/db/client.server.ts";
import { z } from "zod/mini";
import { oneOf, wholeNumberOr } from "#domain/query.ts";
import { apiJson, handleApi, methodNotAllowed, parseQuery } from "#server/http/api.server.ts";
import { listPublishedArticlesInCategories } from "#server/content/articles.server.ts";
import { LITERATURE_TYPES } from "#server/content/sections.server.ts";

const Query = z.strictObject({ type: oneOf(LITERATURE_TYPES), limit: wholeNumberOr(20, 1, 50), offset: wholeNumberOr(0, 0, 100_000) });

/**
 * GET /api/literature[?type=poetry|prose|folktales|translations][&limit=1..50][&offset=n]
 * Published literature as the spec's "literature item" (public-site.md §3), newest first.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/literature", async () => {
    const { type, limit, offset } = parseQuery(request, Query);
    const rows = await listPublishedArticlesInCategories(await getDb(), type ? [type] : LITERATURE_TYPES, { limit, offset });
    // The spec's literature item, declared with its listing (domain/listings.ts).
    return apiJson({ items: rows.map((a) => apiItem("article", a, LISTINGS.literatureApi.api)) });
  });
}

/** Any other method: 405 in the APIs' error shape. */
export const action = methodNotAllowed(["GET"]);
