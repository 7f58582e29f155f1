import { data } from "react-router";
import type { Route } from "./+types/news";
import { pageParam } from "~/lib/query.ts";
import { getDb } from "../../../server/db/client.ts";
import { newsPage } from "../../../server/content/news-feed.ts";

/** GET /api/news?page=N: the news listing's next pages, as JSON for its load-more and infinite scroll. */
export async function loader({ request }: Route.LoaderArgs) {
  const page = pageParam(new URL(request.url));
  const result = await newsPage(await getDb(), page);
  return data(result, { headers: { "Cache-Control": "public, max-age=30" } });
}
