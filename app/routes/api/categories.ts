import type { Route } from "./+types/categories";
import { getDb } from "#server/db/client.server.ts";
import { z } from "zod/mini";
import { oneOf } from "#domain/query.ts";
import { apiJson, handleApi, methodNotAllowed, parseQuery } from "#server/http/api.server.ts";
import { listCategories } from "#server/content/categories.server.ts";
import { CATEGORY_TYPES } from "#server/db/schema.server.ts";

const Query = z.strictObject({ type: oneOf(CATEGORY_TYPES) });

/** GET /api/categories[?type=news|culture|politics|literature|emirates|opinion|media|general] */
export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/categories", async () => {
    const { type } = parseQuery(request, Query);
    const categories = await listCategories(await getDb(), { type });
    return apiJson({ categories });
  });
}

/** Any other method: 405 in the APIs' error shape. */
export const action = methodNotAllowed(["GET"]);
