import type { Route } from "./+types/articles";
import { typeApiItem } from "#domain/listings.ts";
import { getDb } from "#server/db/client.server.ts";
import { z } from "zod/mini";
import { oneOf, wholeNumberOr } from "#domain/query.ts";
import { apiJson, handleApi, methodNotAllowed, parseQuery } from "#server/http/api.server.ts";
import { listPublishedArticles } from "#server/content/articles.server.ts";
import { listSectionArticles, SECTIONS } from "#server/content/sections.server.ts";

const Query = z.strictObject({ category: oneOf(SECTIONS), limit: wholeNumberOr(12, 1, 50), offset: wholeNumberOr(0, 0, 100_000) });

/**
 * GET /api/articles?category=culture|opinion|politics|literature|emirates[&limit=1..50][&offset=n]
 * Published articles of a section (its parent category and the children), newest first; every section
 * without `category`.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/articles", async () => {
    const { category: section, limit, offset } = parseQuery(request, Query);
    const db = await getDb();
    const rows = section ? await listSectionArticles(db, section, {}, { limit, offset }) : await listPublishedArticles(db, { limit, offset });
    // The item's fields are the article definition's `api` (domain/content-types/article.ts).
    return apiJson({ articles: rows.map((a) => typeApiItem("article", a)) });
  });
}

/** Any other method: 405 in the APIs' error shape. */
export const action = methodNotAllowed(["GET"]);
