import type { Database } from "#server/db/client.server.ts";
import { cached } from "./cache.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { markDegraded } from "#server/http/render-scope.server.ts";
import { countPublishedNews, listPublishedNews, NEWS_PAGE_SIZE } from "./news.server.ts";

/**
 * One page of the news listing with the has-more rule of public-site.md §4: more while the loaded count
 * is below the published total; when the total is unknown, more while the last page was full.
 */
export function newsPage(db: Database, page: number, { cumulative = false } = {}) {
  return cached(`news-page:${page}:${cumulative}`, ["news", "categories"], () => readNewsPage(db, page, cumulative));
}

async function readNewsPage(db: Database, page: number, cumulative: boolean) {
  const offset = cumulative ? 0 : (page - 1) * NEWS_PAGE_SIZE;
  const limit = cumulative ? page * NEWS_PAGE_SIZE : NEWS_PAGE_SIZE;
  const [items, total] = await Promise.all([
    listPublishedNews(db, { limit, offset }),
    countPublishedNews(db).catch((error) => {
      logger.warn({ err: error }, "news count failed; has-more falls back to a full last page");
      // has-more is a guess then: neither this read nor the page showing it is kept.
      markDegraded();
      return null;
    }),
  ]);
  const loaded = (page - 1) * NEWS_PAGE_SIZE + (cumulative ? items.length - (page - 1) * NEWS_PAGE_SIZE : items.length);
  const hasMore = total === null ? items.length === limit : loaded < total;
  return { items, total, page, hasMore };
}
