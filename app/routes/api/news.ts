import type { Route } from "./+types/news";
import { z } from "zod/mini";
import { pageNumber } from "#domain/query.ts";
import { getDb } from "#server/db/client.server.ts";
import { apiJson, handleApi, methodNotAllowed, parseQuery } from "#server/http/api.server.ts";
import { newsPage } from "#server/content/news-feed.server.ts";
import { imageDetailsOf } from "#server/content/image-details.server.ts";

const Query = z.strictObject({ page: pageNumber(500) });

/**
 * GET /api/news?page=N: the news listing's next pages, as JSON for its load-more and infinite scroll, with
 * `images`: the media library's details (alt text, caption, credit, focal point) of that page's pictures by URL.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/news", async () => {
    const { page } = parseQuery(request, Query);
    const db = await getDb();
    const result = await newsPage(db, page);
    return apiJson({ ...result, images: await imageDetailsOf(db, result.items) }, { cache: "public, max-age=30" });
  });
}

/** Any other method: 405 in the APIs' error shape. */
export const action = methodNotAllowed(["GET"]);
