import { useLocalPath } from "#app/lib/addresses.ts";
import { data } from "react-router";
import { Link } from "#app/lib/link.tsx";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/facebook";
import facebookScript from "#app/enhance/facebook.js?url&no-inline";
import type { ReadingHandle } from "#app/lib/static-page.ts";
import { SocialPostCard, type SocialPost } from "#app/components/social/post-card.tsx";
import { FacebookIcon } from "#app/components/ui/icons.tsx";
import { languageOfRequest } from "#server/http/language.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { getSocialFeed, isValidCursor, socialPageUrl } from "#server/social/feed.server.ts";
import { robotsMeta } from "#app/lib/seo.ts";

/** No React in the browser: app/enhance/facebook.js loads more (decision 0131). */
export const handle: ReadingHandle = { hydrate: false, enhance: [facebookScript] };

type FeedView = { state: "off" } | { state: "ok"; posts: SocialPost[]; nextCursor: string | null } | { state: "error"; message: string; status: number | null };

/**
 * The page's posts, 6 at a time (public-site.md §2 "Social feed page"). `?cursor=` is the opaque cursor of
 * the next page: the load-more link works without JavaScript, and with it the same loader is fetched and
 * the posts appended.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const cursor = new URL(request.url).searchParams.get("cursor");
  if (cursor !== null && !isValidCursor(cursor)) throw data(null, { status: 400, statusText: "Bad Request" });
  const lang = languageOfRequest(request);
  const result = await getSocialFeed({ cursor });
  const feed: FeedView =
    result.state === "ok"
      ? { state: "ok", posts: result.posts, nextCursor: result.nextCursor }
      : result.state === "error"
        ? { state: "error", message: result.error.message, status: result.error.status }
        : { state: "off" };
  return data(
    { feed, cursor, pageUrl: socialPageUrl(), title: translate(lang, "social.pageTitle"), intro: translate(lang, "social.pageIntro") },
    // An error is not worth keeping anywhere: the next request may well succeed.
    { headers: feed.state === "error" ? { "Cache-Control": "no-store" } : {} },
  );
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data?.title },
  { name: "description", content: data?.intro },
  // Older pages are reached by cursors that expire: not for search engines.
  data?.cursor ? { name: "robots", content: "noindex, follow" } : robotsMeta(),
];

const moreHref = (cursor: string) => `/facebook?cursor=${encodeURIComponent(cursor)}`;

type OkFeed = Extract<FeedView, { state: "ok" }>;

/**
 * The list and its load-more link, as the server renders them: the link asks the server for the next page.
 * With JavaScript, app/enhance/facebook.js fetches that page and appends its posts in place; the messages it
 * shows are the templates here, in the page's language.
 */
function FeedList({ initial }: { initial: OkFeed }) {
  const { t } = useTranslation();
  const local = useLocalPath();
  const { posts, nextCursor: next } = initial;
  return (
    <div data-testid="social-feed" data-state={posts.length ? "list" : "empty"} aria-busy="false">
      {posts.length === 0 ? (
        <p className="rounded-xl border border-dashed border-sand-300 p-10 text-center text-xl font-bold" data-testid="social-empty">
          {t("social.empty")}
        </p>
      ) : (
        <div className="mx-auto flex max-w-2xl flex-col gap-6" data-testid="social-posts">
          {posts.map((post, i) => (
            <SocialPostCard key={post.id} post={post} variant="full" eager={i === 0} />
          ))}
        </div>
      )}
      <div className="mt-8 flex flex-col items-center gap-3" aria-live="polite" data-social-controls="" data-not-configured={t("social.notConfigured")}>
        {next && (
          <a
            href={local(moreHref(next))}
            rel="next"
            className="rounded-md bg-desert-600 px-6 py-3 font-bold text-white hover:bg-desert-700"
            data-testid="social-load-more"
            data-label-retry={t("social.retry")}
          >
            {t("social.loadMore")}
          </a>
        )}
        {!next && posts.length > 0 && (
          <p className="text-sm text-ink-soft" data-testid="social-end">
            {t("social.end")}
          </p>
        )}
        <template data-social="loading">
          <p data-testid="social-loading-more">{t("social.loadingMore")}</p>
        </template>
        <template data-social="error">
          <div role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-center text-red-900" data-testid="social-more-error">
            <p className="font-bold">{t("social.failedTitle")}</p>
            <p className="text-sm" lang="en" dir="ltr" />
          </div>
        </template>
      </div>
    </div>
  );
}

export default function FacebookPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const local = useLocalPath();
  const { feed, cursor, pageUrl } = loaderData;

  let body;
  if (feed.state === "off") {
    body = (
      <p className="rounded-xl border border-dashed border-sand-300 p-10 text-center text-ink-soft" data-testid="social-feed" data-state="off">
        {t("social.notConfigured")}
      </p>
    );
  } else if (feed.state === "error") {
    body = (
      <div data-testid="social-feed" data-state="error" aria-busy="false">
        <div role="alert" className="mx-auto max-w-2xl rounded-xl border border-red-300 bg-red-50 p-6 text-center text-red-900" data-testid="social-error">
          <h2 className="text-xl font-bold">{t("social.failedTitle")}</h2>
          <p className="mt-2" lang="en" dir="ltr" data-testid="social-error-message">
            {feed.message}
          </p>
          <p className="mt-2 text-sm">{t("social.checkToken")}</p>
          <a href={local(cursor ? moreHref(cursor) : "/facebook")} className="mt-4 inline-block font-bold underline">
            {t("social.retry")}
          </a>
        </div>
      </div>
    );
  } else {
    body = <FeedList initial={feed} />;
  }

  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <header className="mx-auto mb-8 flex max-w-2xl flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">{t("social.pageTitle")}</h1>
          <p className="mt-2 text-ink-soft">{t("social.pageIntro")}</p>
        </div>
        {pageUrl && (
          <a
            href={pageUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-2 rounded-md bg-[#0a58ca] px-4 py-2 font-bold text-white hover:bg-[#084298]"
            data-testid="social-page-link"
          >
            <FacebookIcon width={18} height={18} />
            {t("social.viewPage")}
            <span className="sr-only">({t("social.newTab")})</span>
          </a>
        )}
      </header>
      {cursor && (
        <p className="mx-auto mb-6 max-w-2xl">
          <Link to="/facebook" className="font-bold text-desert-700 hover:underline" data-testid="social-newest">
            {t("social.newest")}
          </Link>
        </p>
      )}
      {body}
    </div>
  );
}
