import type { Route } from "./+types/articles";
import { publicUrl } from "../../lib/content-types.ts";
import { getDb } from "../../../server/db/client.ts";
import { apiJson, handleApi, integerParam, oneOf, readQuery } from "../../../server/api.ts";
import { listPublishedArticles } from "../../../server/content/articles.ts";
import { listSectionArticles, SECTIONS } from "../../../server/content/sections.ts";

type ArticleRow = Awaited<ReturnType<typeof listPublishedArticles>>[number];

/**
 * GET /api/articles?category=culture|opinion|politics|literature|emirates[&limit=1..50][&offset=n]
 * Published articles of a section (its parent category and the children), newest first; every section
 * without `category`.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/articles", async () => {
    const query = readQuery(request, ["category", "limit", "offset"]);
    const section = oneOf("category", query.category, SECTIONS);
    const limit = integerParam("limit", query.limit, { min: 1, max: 50, fallback: 12 });
    const offset = integerParam("offset", query.offset, { min: 0, max: 100_000, fallback: 0 });
    const db = await getDb();
    const rows: Omit<ArticleRow, "updatedAt">[] = section
      ? await listSectionArticles(db, section, {}, { limit, offset })
      : await listPublishedArticles(db, { limit, offset });
    return apiJson({ articles: rows.map(articleJson) });
  });
}

function articleJson(a: Omit<ArticleRow, "updatedAt">) {
  return {
    id: a.id,
    slug: a.pageSlug,
    url: publicUrl("article", a.pageSlug, a.id),
    title: a.title,
    titleFr: a.titleFr,
    excerpt: a.excerpt,
    excerptFr: a.excerptFr,
    author: a.authorName,
    imageUrl: a.imageUrl,
    publishDate: new Date(a.publishDate).toISOString(),
    featured: a.isFeatured,
    views: a.viewCount,
    readTime: a.readTimeMinutes,
    category: a.categorySlug ? { slug: a.categorySlug, name: a.categoryName, nameFr: a.categoryNameFr } : null,
  };
}
