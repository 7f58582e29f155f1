import type { Route } from "./+types/categories";
import { getDb } from "../../../server/db/client.ts";
import { apiJson, handleApi, oneOf, readQuery } from "../../../server/api.ts";
import { listCategories } from "../../../server/content/categories.ts";
import { CATEGORY_TYPES } from "../../../server/db/schema.ts";

/** GET /api/categories[?type=news|culture|politics|literature|emirates|opinion|media|general] */
export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/categories", async () => {
    const query = readQuery(request, ["type"]);
    const type = oneOf("type", query.type, CATEGORY_TYPES);
    const categories = await listCategories(await getDb(), { type });
    return apiJson({ categories });
  });
}
