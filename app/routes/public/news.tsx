import { useLocalPath } from "#app/lib/addresses.ts";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/news";
import newsScript from "#app/enhance/news.js?url&no-inline";
// Breaking-news alerts' opt-in (issue 32, decision 0127).
import { PushOptIn, pushEnhancements } from "#app/components/content/push-opt-in.tsx";
import { pushOptIn } from "#server/push/subscriptions.server.ts";
import { getConfig } from "#server/config.server.ts";
import type { ReadingHandle } from "#app/lib/static-page.ts";
import { NewsCard } from "#app/components/content/news-card.tsx";
import { ImageDetailsProvider } from "#app/components/content/image-details.tsx";
import { pageParam } from "#domain/query.ts";
import { cursorParam, LISTINGS, NEWS_CURSOR, NEWS_MAX_PAGE } from "#domain/listings.ts";
import { cursorOfCard, loadKeysetPage } from "#server/content/listings.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { newsPage } from "#server/content/news-feed.server.ts";
import { imageDetailsOf } from "#server/content/image-details.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { SocialBlock } from "#app/components/social/post-card.tsx";
import { socialBlockPosts, SOCIAL_LIMITS } from "#server/social/feed.server.ts";
import { robotsMeta } from "#app/lib/seo.ts";

/** No React in the browser: app/enhance/news.js loads more (decision 0131). */
export const handle: ReadingHandle = { hydrate: false, enhance: (data) => [newsScript, ...pushEnhancements(data)] };

/**
 * Server-rendered pages: ?page=N shows the first N pages, so the load-more button works without JavaScript. The last
 * of them (NEWS_MAX_PAGE) leads on with keyset pages, `?before=` a cursor (decision 0144): 12 older items from that
 * row by the index, so every item is reachable by links and page 500 costs what page 2 costs; `?after=` reads back.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const from = cursorParam(url, NEWS_CURSOR);
  const db = await getDb();
  const lang = languageOfRequest(request);
  const texts = { title: translate(lang, "newsList.title"), intro: translate(lang, "newsList.intro"), push: pushOptIn(getConfig()) };
  if (from) {
    const keyset = await loadKeysetPage(db, LISTINGS.news, from);
    const [social, images] = await Promise.all([socialBlockPosts(SOCIAL_LIMITS.default), imageDetailsOf(db, keyset.items)]);
    return { items: keyset.items, page: null, hasMore: keyset.older !== null, older: keyset.older, newer: keyset.newer, social, images, ...texts };
  }
  const page = pageParam(url, "page", NEWS_MAX_PAGE);
  const result = await newsPage(db, page, { cumulative: true });
  const last = result.items.at(-1);
  const older = page === NEWS_MAX_PAGE && result.hasMore && last ? await cursorOfCard(db, LISTINGS.news, last.id) : null;
  const [social, images] = await Promise.all([socialBlockPosts(SOCIAL_LIMITS.default), imageDetailsOf(db, result)]);
  return { ...result, older, newer: null, social, images, ...texts };
}

/** The neighbours of a page, for crawlers: the next numbered page, then keyset pages; back the same way. */
export const meta: Route.MetaFunction = ({ data, location }) => {
  if (!data) return [];
  const base = location.pathname;
  const next = data.page !== null && data.page < NEWS_MAX_PAGE && data.hasMore ? `?page=${data.page + 1}` : data.older ? `?before=${data.older}` : null;
  const prev = data.page !== null ? (data.page > 2 ? `?page=${data.page - 1}` : data.page === 2 ? "" : null) : data.newer ? `?after=${data.newer}` : "";
  return [
    { title: data.title },
    { name: "description", content: data.intro },
    ...(prev !== null ? [{ tagName: "link", rel: "prev", href: base + prev }] : []),
    ...(next !== null ? [{ tagName: "link", rel: "next", href: base + next }] : []),
    robotsMeta(),
  ];
};

export default function NewsListing({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <ImageDetailsProvider images={loaderData.images}>
      <div className="mx-auto max-w-7xl px-4 py-8">
        <header className="mb-6">
          <h1 className="text-3xl font-bold">{t("newsList.title")}</h1>
          <p className="mt-2 text-ink-soft">{t("newsList.intro")}</p>
          {/* Breaking-news alerts' opt-in (decision 0127): hidden until app/enhance/push.js shows it. */}
          <PushOptIn optIn={loaderData.push} className="mt-4" />
        </header>

        <NewsFeed initial={loaderData} />
        <SocialBlock posts={loaderData.social} />
      </div>
    </ImageDetailsProvider>
  );
}

/**
 * The listing as the server renders it: the first pages (?page=N), and a GET form whose button asks the server
 * for one more page. With JavaScript, app/enhance/news.js makes the same button, and the scroll, load the
 * next page in place (its rules: docs/decisions/0043-news-load-more.md); the messages it shows are the
 * templates here, in the page's language.
 */
function NewsFeed({ initial }: { initial: Route.ComponentProps["loaderData"] }) {
  const { t } = useTranslation();
  const local = useLocalPath();
  const state = initial.hasMore ? "idle" : "end";
  const end = (
    <p className="text-sm text-ink-soft" data-testid="news-end">
      {t("newsList.end")}
    </p>
  );
  return (
    <>
      {initial.items.length === 0 ? (
        <div className="rounded-xl border border-dashed border-sand-300 p-10 text-center" data-testid="news-empty">
          <p className="text-xl font-bold">{t("newsList.emptyTitle")}</p>
          <p className="mt-2 text-ink-soft">{t("newsList.emptyText")}</p>
        </div>
      ) : (
        // What the list is doing, as data-state (and aria-busy while loading): idle (more to load), loading,
        // error (retries spent: the retry button), end (everything is shown).
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="news-list" data-state={state} aria-busy="false">
          {initial.items.map((item, i) => (
            // Straight under the page's h1: the cards' titles are the next level down.
            <NewsCard key={item.id} item={item} eager={i < 3} headingLevel={2} />
          ))}
        </div>
      )}

      <div aria-hidden="true" data-testid="news-sentinel" />
      <div className="mt-8 flex flex-col items-center gap-3" aria-live="polite" data-news-controls="">
        {state === "idle" && initial.page !== null && initial.page < NEWS_MAX_PAGE && (
          <form method="get" action={local("/news")}>
            <input type="hidden" name="page" value={initial.page + 1} />
            <button
              type="submit"
              aria-busy="false"
              className="rounded-md bg-desert-600 px-6 py-3 font-bold text-white hover:bg-desert-700 disabled:cursor-wait disabled:opacity-70"
              data-testid="news-load-more"
              data-label-loading={t("newsList.loadingMore")}
            >
              {t("newsList.loadMore")}
            </button>
          </form>
        )}
        {/* Past the numbered pages, links: older from the last row shown, newer back (app/enhance/news.js leaves them be). */}
        {(initial.page === null || initial.page >= NEWS_MAX_PAGE) && (initial.older || initial.page === null) && (
          <nav aria-label={t("archive.pagination")} className="flex gap-6" data-testid="news-pager">
            {initial.page === null && (
              <a
                rel="prev"
                href={initial.newer ? `${local("/news")}?after=${initial.newer}` : local("/news")}
                className="font-bold text-desert-700 underline"
                data-testid="news-newer"
              >
                {t("archive.newerNews")}
              </a>
            )}
            {initial.older && (
              <a rel="next" href={`${local("/news")}?before=${initial.older}`} className="font-bold text-desert-700 underline" data-testid="news-older">
                {t("archive.olderNews")}
              </a>
            )}
          </nav>
        )}
        {state === "end" && initial.items.length > 0 && end}
        <template data-news="error">
          <div role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-center text-red-900" data-testid="news-error">
            <p className="font-bold">{t("newsList.failedTitle")}</p>
            <p className="text-sm" />
            <button type="button" className="mt-2 font-bold underline" data-testid="news-retry">
              {t("newsList.retry")}
            </button>
          </div>
        </template>
        <template data-news="end">{end}</template>
      </div>
    </>
  );
}
