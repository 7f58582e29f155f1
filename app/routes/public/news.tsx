import { useCallback, useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/news";
import { NewsCard, type NewsCardData } from "~/components/content/news-card.tsx";
import { pageParam } from "~/lib/query.ts";
import { getDb } from "../../../server/db/client.ts";
import { newsPage } from "../../../server/content/news-feed.ts";
import { translate } from "../../../server/i18n.server.ts";
import { languageOfRequest } from "~/lib/language.ts";

/** Server-rendered pages: ?page=N shows the first N pages, so the load-more link works without JavaScript. */
export async function loader({ request }: Route.LoaderArgs) {
  const page = pageParam(new URL(request.url), "page", 20);
  const result = await newsPage(await getDb(), page, { cumulative: true });
  const lang = languageOfRequest(request);
  return { ...result, title: translate(lang, "newsList.title"), intro: translate(lang, "newsList.intro") };
}

export const meta: Route.MetaFunction = ({ data }) => [{ title: data?.title }, { name: "description", content: data?.intro }];

/** Spec §2: load when a bottom sentinel comes within 200 px; load again while the page is shorter than the window + 100 px. */
const SENTINEL_MARGIN_PX = 200;
const SHORT_PAGE_SLACK_PX = 100;

export default function NewsListing({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [items, setItems] = useState<NewsCardData[]>(loaderData.items);
  const [page, setPage] = useState(loaderData.page);
  const [hasMore, setHasMore] = useState(loaderData.hasMore);
  const [state, setState] = useState<"idle" | "loadingMore" | "error">("idle");
  const [error, setError] = useState<string | null>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const busy = useRef(false);

  // A new server render (language switch, back navigation) starts the list afresh.
  useEffect(() => {
    setItems(loaderData.items);
    setPage(loaderData.page);
    setHasMore(loaderData.hasMore);
    setState("idle");
  }, [loaderData]);

  const loadMore = useCallback(async () => {
    if (busy.current || !hasMore || state === "error") return;
    busy.current = true;
    setState("loadingMore");
    try {
      const res = await fetch(`/api/news?page=${page + 1}`, { headers: { Accept: "application/json" } });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const next = (await res.json()) as { items: NewsCardData[]; hasMore: boolean; page: number };
      setItems((current) => {
        const seen = new Set(current.map((i) => i.id));
        return [...current, ...next.items.filter((i) => !seen.has(i.id))];
      });
      setPage(next.page);
      setHasMore(next.hasMore);
      setState("idle");
    } catch (e) {
      // On error the list stops loading more (spec §4) until the reader retries.
      setError(e instanceof Error ? e.message : String(e));
      setState("error");
    } finally {
      busy.current = false;
    }
  }, [hasMore, page, state]);

  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasMore || state !== "idle") return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void loadMore(), {
      rootMargin: `0px 0px ${SENTINEL_MARGIN_PX}px 0px`,
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasMore, state, loadMore]);

  useEffect(() => {
    if (state === "idle" && hasMore && document.documentElement.scrollHeight < window.innerHeight + SHORT_PAGE_SLACK_PX) void loadMore();
  }, [items, state, hasMore, loadMore]);

  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <header className="mb-6">
        <h1 className="text-3xl font-bold">{t("newsList.title")}</h1>
        <p className="mt-2 text-ink-soft">{t("newsList.intro")}</p>
      </header>

      {items.length === 0 ? (
        <div className="rounded-xl border border-dashed border-sand-300 p-10 text-center" data-testid="news-empty">
          <p className="text-xl font-bold">{t("newsList.emptyTitle")}</p>
          <p className="mt-2 text-ink-soft">{t("newsList.emptyText")}</p>
        </div>
      ) : (
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="news-list">
          {items.map((item, i) => (
            <NewsCard key={item.id} item={item} eager={i < 3} />
          ))}
        </div>
      )}

      <div ref={sentinel} aria-hidden="true" data-testid="news-sentinel" />
      <div className="mt-8 flex flex-col items-center gap-3" aria-live="polite">
        {state === "loadingMore" && <p data-testid="news-loading-more">{t("newsList.loadingMore")}</p>}
        {state === "error" && (
          <div role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-center text-red-900" data-testid="news-error">
            <p className="font-bold">{t("newsList.failedTitle")}</p>
            <p className="text-sm">{error}</p>
            <button
              type="button"
              className="mt-2 font-bold underline"
              onClick={() => {
                setState("idle");
                setError(null);
              }}
            >
              {t("newsList.retry")}
            </button>
          </div>
        )}
        {hasMore && state === "idle" && (
          <Link
            to={`?page=${page + 1}`}
            preventScrollReset
            onClick={(e) => {
              e.preventDefault();
              void loadMore();
            }}
            className="rounded-md bg-desert-600 px-6 py-3 font-bold text-white hover:bg-desert-700"
            data-testid="news-load-more"
          >
            {t("newsList.loadMore")}
          </Link>
        )}
        {!hasMore && items.length > 0 && (
          <p className="text-sm text-ink-soft" data-testid="news-end">
            {t("newsList.end")}
          </p>
        )}
      </div>
    </div>
  );
}
