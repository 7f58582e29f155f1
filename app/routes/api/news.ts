import type { Route } from "./+types/news";
import { z } from "zod/mini";
import { pageNumber } from "#domain/query.ts";
import { getDb } from "#server/db/client.server.ts";
import { apiJson, handleApi, methodNotAllowed, parseQuery } from "#server/http/api.server.ts";
import { newsPage } from "#server/content/news-feed.server.ts";

const Query = z.strictObject({ page: pageNumber(500) });

/** GET /api/news?page=N: the news listing's next pages, as JSON for its load-more and infinite scroll. */
export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/news", async () => {
    const { page } = parseQuery(request, Query);
    return apiJson(await newsPage(await getDb(), page), { cache: "public, max-age=30" });
  });
}

/** Any other method: 405 in the APIs' error shape. */
export const action = methodNotAllowed(["GET"]);
