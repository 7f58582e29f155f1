import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/news";
import { NewsCard, type NewsCardData } from "#app/components/content/news-card.tsx";
import { ImageDetailsProvider } from "#app/components/content/image-details.tsx";
import type { ImageDetailsMap } from "#domain/image-details.ts";
import { pageParam } from "#domain/query.ts";
import { withRetry } from "#app/lib/retry.ts";
import { getDb } from "#server/db/client.server.ts";
import { newsPage } from "#server/content/news-feed.server.ts";
import { imageDetailsOf } from "#server/content/image-details.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { SocialBlock } from "#app/components/social/post-card.tsx";
import { socialBlockPosts, SOCIAL_LIMITS } from "#server/social/feed.server.ts";

/** Server-rendered pages: ?page=N shows the first N pages, so the load-more button works without JavaScript. */
export async function loader({ request }: Route.LoaderArgs) {
  const page = pageParam(new URL(request.url), "page", 20);
  const db = await getDb();
  const result = await newsPage(db, page, { cumulative: true });
  const lang = languageOfRequest(request);
  const [social, images] = await Promise.all([socialBlockPosts(SOCIAL_LIMITS.default), imageDetailsOf(db, result)]);
  return { ...result, social, images, title: translate(lang, "newsList.title"), intro: translate(lang, "newsList.intro") };
}

export const meta: Route.MetaFunction = ({ data }) => [{ title: data?.title }, { name: "description", content: data?.intro }];

/**
 * Spec §2: load when a bottom sentinel comes within 200 px of view. Its other rule, an extra load while the page is
 * shorter than the window plus 100 px, needs no code of its own: such a page has the sentinel inside that margin.
 */
const SENTINEL_MARGIN_PX = 200;

/**
 * What the list is doing, shown on it as data-state (and aria-busy while loading): idle (more to load), loading
 * (one request, with its retries), error (retries spent: the retry button), end (everything is shown).
 */
type FeedState = "idle" | "loading" | "error" | "end";
/** /api/news's answer: a page of cards and the library's details of their pictures (alt text, focal point). */
type NewsPage = { items: NewsCardData[]; hasMore: boolean; page: number; images?: ImageDetailsMap };

class HttpError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/** A 4xx other than a timeout or a rate limit will not get better by asking again. */
const retryable = (error: unknown) => !(error instanceof HttpError && error.status < 500 && error.status !== 408 && error.status !== 429);

async function fetchNewsPage(page: number, signal: AbortSignal): Promise<NewsPage> {
  const res = await fetch(`/api/news?page=${page}`, { headers: { Accept: "application/json" }, signal });
  if (!res.ok) throw new HttpError(res.status);
  return (await res.json()) as NewsPage;
}

export default function NewsListing({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  // A new server answer (language switch, revalidation, ?page=N) starts the list afresh: a new key mounts a new
  // feed, and the old one's request in flight is aborted as it unmounts.
  const [shown, setShown] = useState(loaderData);
  const [generation, setGeneration] = useState(0);
  if (shown !== loaderData) {
    setShown(loaderData);
    setGeneration((g) => g + 1);
  }

  return (
    <ImageDetailsProvider images={loaderData.images}>
      <div className="mx-auto max-w-7xl px-4 py-8">
        <header className="mb-6">
          <h1 className="text-3xl font-bold">{t("newsList.title")}</h1>
          <p className="mt-2 text-ink-soft">{t("newsList.intro")}</p>
        </header>

        <NewsFeed key={generation} initial={loaderData} />
        <SocialBlock posts={loaderData.social} />
      </div>
    </ImageDetailsProvider>
  );
}

/**
 * The listing's two ways of loading more, the infinite scroll and the button, share one loader: one request in
 * flight at a time, keyed by the page it asks for, and a page once shown is never asked for again
 * (docs/decisions/0043-news-load-more.md).
 */
function NewsFeed({ initial }: { initial: Route.ComponentProps["loaderData"] }) {
  const { t } = useTranslation();
  const [items, setItems] = useState<NewsCardData[]>(initial.items);
  // The library's details of every picture shown: the server's first pages', then each loaded page's own.
  const [images, setImages] = useState<ImageDetailsMap>(initial.images);
  const [shownPages, setShownPages] = useState(initial.page);
  const [state, setState] = useState<FeedState>(initial.hasMore ? "idle" : "end");
  const [error, setError] = useState<string | null>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  // Refs, not state: a tap and the scroll arriving in the same frame both run before React renders again, so
  // the guard must be visible to the second caller at once.
  const lastPage = useRef(initial.page);
  const inFlight = useRef<number | null>(null);
  const halted = useRef(!initial.hasMore);
  const aborter = useRef<AbortController | null>(null);

  useEffect(() => () => aborter.current?.abort(), []);

  const loadMore = useCallback(async ({ retrying = false } = {}) => {
    if (inFlight.current !== null || (halted.current && !retrying)) return;
    const next = lastPage.current + 1;
    inFlight.current = next;
    halted.current = false;
    const abort = new AbortController();
    aborter.current = abort;
    setState("loading");
    setError(null);
    try {
      const result = await withRetry(() => fetchNewsPage(next, abort.signal), { signal: abort.signal, retryable });
      lastPage.current = next;
      halted.current = !result.hasMore;
      setItems((current) => {
        const seen = new Set(current.map((item) => item.id));
        return [...current, ...result.items.filter((item) => !seen.has(item.id))];
      });
      if (result.images && Object.keys(result.images).length > 0) setImages((current) => ({ ...current, ...result.images }));
      setShownPages(next);
      setState(result.hasMore ? "idle" : "end");
    } catch (e) {
      if (abort.signal.aborted) return;
      // Retries spent: the scroll stops (spec §4) and the reader decides when to try again.
      halted.current = true;
      setError(e instanceof Error ? e.message : String(e));
      setState("error");
    } finally {
      inFlight.current = null;
    }
  }, []);

  // The scroll only listens while the list is idle. A new observer reports at once whether the sentinel is in
  // view, so a reader still at the bottom after a page arrives gets the next one.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || state !== "idle" || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void loadMore(), {
      rootMargin: `0px 0px ${SENTINEL_MARGIN_PX}px 0px`,
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [state, loadMore]);

  const busy = state === "loading";
  return (
    <>
      {items.length === 0 ? (
        <div className="rounded-xl border border-dashed border-sand-300 p-10 text-center" data-testid="news-empty">
          <p className="text-xl font-bold">{t("newsList.emptyTitle")}</p>
          <p className="mt-2 text-ink-soft">{t("newsList.emptyText")}</p>
        </div>
      ) : (
        <ImageDetailsProvider images={images}>
          <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="news-list" data-state={state} aria-busy={busy}>
            {items.map((item, i) => (
              // Straight under the page's h1: the cards' titles are the next level down.
              <NewsCard key={item.id} item={item} eager={i < 3} headingLevel={2} />
            ))}
          </div>
        </ImageDetailsProvider>
      )}

      <div ref={sentinel} aria-hidden="true" data-testid="news-sentinel" />
      <div className="mt-8 flex flex-col items-center gap-3" aria-live="polite">
        {state === "error" && (
          <div role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-center text-red-900" data-testid="news-error">
            <p className="font-bold">{t("newsList.failedTitle")}</p>
            <p className="text-sm">{error}</p>
            <button type="button" className="mt-2 font-bold underline" onClick={() => void loadMore({ retrying: true })} data-testid="news-retry">
              {t("newsList.retry")}
            </button>
          </div>
        )}
        {(state === "idle" || busy) && (
          // A GET form: without JavaScript it asks the server for ?page=N (the first N pages); with it, the same
          // button loads the next page in place. It stays mounted while loading, disabled, so a tap never lands
          // on a button that is being replaced.
          <form
            method="get"
            action="/news"
            onSubmit={(e) => {
              e.preventDefault();
              void loadMore();
            }}
          >
            <input type="hidden" name="page" value={shownPages + 1} />
            <button
              type="submit"
              disabled={busy}
              aria-busy={busy}
              className="rounded-md bg-desert-600 px-6 py-3 font-bold text-white hover:bg-desert-700 disabled:cursor-wait disabled:opacity-70"
              data-testid="news-load-more"
            >
              {busy ? t("newsList.loadingMore") : t("newsList.loadMore")}
            </button>
          </form>
        )}
        {state === "end" && items.length > 0 && (
          <p className="text-sm text-ink-soft" data-testid="news-end">
            {t("newsList.end")}
          </p>
        )}
      </div>
    </>
  );
}
