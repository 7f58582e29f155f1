import type { Route } from "./+types/literature";
import { publicUrl } from "../../lib/content-types.ts";
import { getDb } from "../../../server/db/client.ts";
import { apiJson, handleApi, integerParam, oneOf, readQuery } from "../../../server/api.ts";
import { listPublishedArticlesInCategories } from "../../../server/content/articles.ts";
import { LITERATURE_TYPES } from "../../../server/content/sections.ts";

type Row = Awaited<ReturnType<typeof listPublishedArticlesInCategories>>[number];

/**
 * GET /api/literature[?type=poetry|prose|folktales|translations][&limit=1..50][&offset=n]
 * Published literature as the spec's "literature item" (public-site.md §3), newest first.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/literature", async () => {
    const query = readQuery(request, ["type", "limit", "offset"]);
    const type = oneOf("type", query.type, LITERATURE_TYPES);
    const limit = integerParam("limit", query.limit, { min: 1, max: 50, fallback: 20 });
    const offset = integerParam("offset", query.offset, { min: 0, max: 100_000, fallback: 0 });
    const rows = await listPublishedArticlesInCategories(await getDb(), type ? [type] : LITERATURE_TYPES, { limit, offset });
    return apiJson({ items: rows.map(literatureItem) });
  });
}

function literatureItem(a: Row) {
  return {
    id: a.id,
    slug: a.pageSlug,
    url: publicUrl("article", a.pageSlug, a.id),
    type: a.categorySlug,
    typeFr: a.categoryNameFr,
    category: a.categoryName,
    title: a.title,
    titleFr: a.titleFr,
    excerpt: a.excerpt,
    excerptFr: a.excerptFr,
    content: a.content,
    contentFr: a.contentFr,
    author: a.authorName,
    authorFr: a.authorNameFr,
    imageUrl: a.imageUrl,
    date: new Date(a.publishDate).toISOString(),
    views: a.viewCount,
    readTime: a.readTimeMinutes,
    featured: a.isFeatured,
  };
}
