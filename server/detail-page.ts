/**
 * The loader every detail page shares (public-site.md §2 "Detail screens"): the item by slug or id, published
 * only, cached; /{type}/{id} answers with a permanent redirect to the slug URL; a missing item is a 404; a
 * failed load sends the reader home with the spec's toast; related items degrade to an empty list.
 */
import { redirect } from "react-router";
import type { Database } from "./db/client.ts";
import { cached, type CacheTag } from "./cache.ts";
import {
  DETAIL_PATH,
  findPublishedArticle,
  findPublishedCoverage,
  findPublishedNews,
  findPublishedPodcast,
  findPublishedProgram,
  listRelated,
  parseItemKey,
  type DetailType,
  type RelatedItem,
} from "./content/detail.ts";
import { loadOrGoHome, notFound, orEmpty } from "./http.ts";

const finders = {
  article: findPublishedArticle,
  news: findPublishedNews,
  program: findPublishedProgram,
  podcast: findPublishedPodcast,
  coverage: findPublishedCoverage,
} satisfies Record<DetailType, unknown>;

const tables: Record<DetailType, CacheTag> = { article: "articles", news: "news", program: "programs", podcast: "podcasts", coverage: "coverages" };

type Found<T extends DetailType> = NonNullable<Awaited<ReturnType<(typeof finders)[T]>>>;

export async function loadDetailPage<T extends DetailType>(
  db: Database,
  type: T,
  slugOrId: string | undefined,
): Promise<{ item: Found<T>; related: RelatedItem[] }> {
  const key = parseItemKey(slugOrId);
  if (!key) notFound();
  const find = finders[type] as unknown as (db: Database, key: { slug: string } | { id: number }) => Promise<Found<T> | null>;
  const item = await loadOrGoHome(type, () => cached(`${type}:${JSON.stringify(key)}`, [tables[type], "categories"], () => find(db, key)));
  if (!item) notFound();
  // Some links use the id; the slug URL is the one to share and index.
  if ("id" in key && item.pageSlug) throw redirect(`${DETAIL_PATH[type]}/${item.pageSlug}`, 301);
  const related = await orEmpty(`related ${type}`, () => cached(`related:${type}:${item.id}`, [tables[type]], () => listRelated(db, type, item)));
  return { item, related };
}
