import { useLocalPath } from "#app/lib/addresses.ts";
import { data } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/videos";
import { PageIntro, EmptyState } from "#app/components/sections/section-ui.tsx";
import { OPENER_PAGE_MODULES, PlayBadge, playerStart, videoOpener, VideoTemplates } from "#app/components/media/video-player.tsx";
import videosModule from "#app/enhance/videos.js?url";
import type { ReadingHandle } from "#app/lib/static-page.ts";
import { useEnhanceInApp } from "#app/lib/enhance-in-app.ts";
import { FOLD_FROM, normalizeArabic, REMOVED_CLASS, SEPARATOR_CLASS, SURFACE_FROM } from "#domain/arabic.ts";
import { textProps } from "#domain/localized.ts";
import { SearchIcon } from "#app/components/ui/icons.tsx";
import { excerpt, formatDate, formatDuration, isoDate } from "#domain/format.ts";
import { type Language } from "#domain/language.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { formatNumber, numberLocale } from "#domain/plural.ts";
import { DEFAULT_VIDEO_SORT, searchVideos, sortVideos, toVideoSort, VIDEO_QUERY_MAX, VIDEO_SORTS, type VideoSort } from "#app/lib/video-library.ts";
import { getVideoLibrary } from "#server/media/video/index.server.ts";
import { loadVideoLibraryPage, type VideoCard } from "#server/media/video/page.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { robotsMeta } from "#app/lib/seo.ts";

/**
 * The video library (public-site.md §2 "Video library"): search, sort, grid and a modal player. The server
 * applies ?q= and ?sort= so the form works without JavaScript; in the browser the same functions
 * (app/lib/video-library.ts) filter the loaded list as the reader types.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const lang = languageOfRequest(request);
  const q = (url.searchParams.get("q") ?? "").slice(0, VIDEO_QUERY_MAX);
  const sort = toVideoSort(url.searchParams.get("sort"));
  const page = await loadVideoLibraryPage(getVideoLibrary());
  return data(
    {
      ...page,
      q,
      sort: sort ?? DEFAULT_VIDEO_SORT,
      unknownSort: sort === null,
      title: translate(lang, "videos.title"),
      intro: translate(lang, "videos.intro"),
    },
    // An unknown sort is the reader's mistake: say so (400) but still show the library.
    { status: sort === null ? 400 : 200 },
  );
}

export const meta: Route.MetaFunction = ({ data }) => [{ title: data?.title }, { name: "description", content: data?.intro }, robotsMeta()];

/**
 * normalizeArabic (domain/arabic.ts) as the filter script applies it to the query: after NFKC each character the
 * tables replace becomes what normalizeArabic makes of it, the removed characters go, separators become one space.
 */
const NORMALIZED_CHARS = [...new Set(SURFACE_FROM + FOLD_FROM)];
const NORMALIZE = JSON.stringify({
  chars: Object.fromEntries(NORMALIZED_CHARS.map((ch) => [ch, normalizeArabic(ch)])),
  removed: REMOVED_CLASS,
  separators: SEPARATOR_CLASS,
});

const SORT_LABEL: Record<VideoSort, string> = {
  newest: "videos.sortNewest",
  views: "videos.sortViews",
  duration: "videos.sortDuration",
  title: "videos.sortTitle",
};

/**
 * The page is HTML (no React in the browser): the GET form searches and sorts on the server; with JavaScript
 * app/enhance/videos.js filters and sorts the cards already in the page as the reader types (every video is in
 * the page: those the query leaves out wait in a <template>), and app/enhance/video-openers.js opens the modal player.
 */
export const handle: ReadingHandle = { hydrate: false, enhance: [...OPENER_PAGE_MODULES, videosModule] };

export default function VideoLibraryPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const local = useLocalPath();
  const lang = i18n.language as Language;
  const { videos, error, q, sort } = loaderData;
  useEnhanceInApp(...OPENER_PAGE_MODULES, videosModule);
  // Every video, in the chosen order; the query decides which are shown.
  const ordered = sortVideos(videos, sort, lang);
  const matching = new Set(searchVideos(videos, q).map((v) => v.guid));
  const shown = ordered.filter((v) => matching.has(v.guid));
  const rest = ordered.filter((v) => !matching.has(v.guid));
  const tile = (v: VideoCard, i: number) => (
    <li key={v.guid} data-guid={v.guid} {...videoFilterData(v)}>
      <VideoTile video={v} eager={i < 3} lang={lang} />
    </li>
  );
  const clearHref = local(sort === DEFAULT_VIDEO_SORT ? "/videos" : `/videos?sort=${sort}`);

  return (
    <>
      <PageIntro title={t("videos.title")} intro={t("videos.intro")} testId="videos-intro">
        <form
          method="get"
          action={local("/videos")}
          role="search"
          className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-end"
          data-testid="videos-form"
          data-video-filter=""
          data-normalize={NORMALIZE}
          data-count={t("videos.count", { n: "{n}" })}
          data-default-sort={DEFAULT_VIDEO_SORT}
          data-query-max={VIDEO_QUERY_MAX}
          data-number-locale={numberLocale(lang)}
        >
          <div className="flex-1">
            <label htmlFor="videos-q" className="mb-1 block text-sm font-bold">
              {t("videos.searchLabel")}
            </label>
            <div className="relative">
              <SearchIcon className="pointer-events-none absolute start-3 top-1/2 -translate-y-1/2 text-ink-soft" />
              <input
                id="videos-q"
                type="search"
                name="q"
                defaultValue={q}
                maxLength={VIDEO_QUERY_MAX}
                placeholder={t("videos.searchPlaceholder")}
                className="w-full rounded-md border border-sand-300 bg-white py-2.5 pe-3 ps-10 text-ink placeholder:text-ink-soft focus:border-desert-600 focus:outline-2 focus:outline-desert-600"
                data-testid="videos-search"
              />
            </div>
          </div>
          <div className="flex items-end gap-3">
            <div className="flex-1 sm:flex-none">
              <label htmlFor="videos-sort" className="mb-1 block text-sm font-bold">
                {t("videos.sortLabel")}
              </label>
              <select
                id="videos-sort"
                name="sort"
                defaultValue={sort}
                className="w-full rounded-md border border-sand-300 bg-white px-3 py-2.5 text-ink focus:border-desert-600 focus:outline-2 focus:outline-desert-600 sm:w-48"
                data-testid="videos-sort"
              >
                {VIDEO_SORTS.map((s) => (
                  <option key={s} value={s}>
                    {t(SORT_LABEL[s])}
                  </option>
                ))}
              </select>
            </div>
            {/* Without JavaScript this sends the form; with it the list is already up to date, so it hides. */}
            <button type="submit" className="rounded-md bg-desert-700 px-5 py-2.5 font-bold text-white hover:bg-desert-600 [[data-hydrated]_&]:hidden">
              {t("videos.apply")}
            </button>
          </div>
        </form>
      </PageIntro>

      <section className="mx-auto max-w-7xl px-4 py-8" aria-labelledby="videos-results-heading" data-testid="videos-results">
        <h2 id="videos-results-heading" className="sr-only">
          {t("videos.title")}
        </h2>
        {loaderData.unknownSort && (
          <p role="status" className="mb-4 rounded-md border border-amber-400 bg-amber-50 p-3 text-amber-950" data-testid="videos-unknown-sort">
            {t("videos.unknownSort")}
          </p>
        )}
        {error && (
          <div role="alert" className="mb-6 rounded-md border border-red-300 bg-red-50 p-4 text-red-900" data-testid="videos-error">
            <p className="font-bold">{t("videos.loadError")}</p>
            <p className="mt-1 text-sm" dir="auto">
              {error}
            </p>
            <p className="mt-1 text-sm">{t("videos.sampleNotice")}</p>
          </div>
        )}
        {videos.length === 0 ? (
          <EmptyState>
            <span data-testid="videos-empty">{t("videos.empty")}</span>
          </EmptyState>
        ) : (
          <>
            {/* Both states are in the page; the filter shows the one that applies. */}
            <div hidden={shown.length > 0} data-video-none="">
              <EmptyState>
                <span data-testid="videos-no-match">{t("videos.noMatch")}</span>
                <a href={clearHref} hidden={!q} className="ms-2 font-bold text-desert-700 underline" data-video-clear="">
                  {t("videos.clearSearch")}
                </a>
              </EmptyState>
            </div>
            <p className="mb-4 text-sm text-ink-soft" aria-live="polite" hidden={shown.length === 0} data-testid="videos-count" data-video-count="">
              {t("videos.count", { n: formatNumber(lang, shown.length) })}
            </p>
            <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="videos-grid" data-video-grid="">
              {shown.map(tile)}
            </ul>
            {rest.length > 0 && <template data-video-rest="">{rest.map((v, i) => tile(v, shown.length + i))}</template>}
          </>
        )}
      </section>
      <VideoTemplates />
    </>
  );
}

/** What the filter sorts and searches a card by: the same fields as app/lib/video-library.ts, the text already normalised. */
function videoFilterData(v: VideoCard) {
  return {
    "data-search": normalizeArabic(`${v.title} ${v.description ?? ""}`),
    "data-date": v.dateUploaded,
    "data-views": v.views,
    "data-length": v.length,
    "data-title": v.title,
  };
}

function VideoTile({ video, eager, lang }: { video: VideoCard; eager: boolean; lang: Language }) {
  const { t } = useTranslation();
  const duration = formatDuration(video.length, lang);
  // Without JavaScript the tile links to the file itself, which the browser plays on its own.
  const href = video.playback.mp4 ?? video.playback.hls ?? video.playback.embed ?? "#";
  return (
    <article
      className="group relative flex h-full flex-col overflow-hidden rounded-xl border border-sand-200 bg-white shadow-sm transition hover:shadow-md"
      data-testid="video-card"
      data-guid={video.guid}
    >
      <div className="relative aspect-video bg-sand-200">
        <Thumbnail src={video.playback.thumbnail} eager={eager} />
        <PlayBadge />
        <span
          className="absolute bottom-2 end-2 rounded bg-black/75 px-1.5 py-0.5 text-sm font-bold text-white"
          dir="ltr"
          aria-label={t("videos.duration", { duration })}
          data-testid="video-duration"
        >
          {duration}
        </span>
      </div>
      <div className="flex flex-1 flex-col p-4">
        <h3 className="text-lg font-bold leading-snug" {...textProps(lang, video.title)}>
          <a
            href={href}
            {...videoOpener(playerStart(video.guid, video.playback), video.title, video.playback.thumbnail)}
            aria-label={t("videos.play", { title: video.title })}
            className="after:absolute after:inset-0 hover:text-desert-700 focus:outline-none focus-visible:underline"
            data-testid="video-open"
          >
            {video.title}
          </a>
        </h3>
        {video.description && (
          <p className="mt-2 text-ink-soft" {...textProps(lang, video.description)}>
            {excerpt(video.description, 120)}
          </p>
        )}
        <p className="mt-auto flex flex-wrap gap-x-3 pt-3 text-sm text-ink-soft">
          <bdi>
            <time dateTime={isoDate(video.dateUploaded)}>{formatDate(video.dateUploaded, lang)}</time>
          </bdi>
          <bdi data-testid="video-views">{t("videos.views", { n: formatNumber(lang, video.views) })}</bdi>
          {video.isDemo && <span className="rounded bg-sand-100 px-1.5">{t("common.demo")}</span>}
        </p>
      </div>
    </article>
  );
}

/**
 * A thumbnail (the library's, or the default path built from the video id: server/video). One that cannot be
 * loaded is hidden by the page's inline listener (root.tsx), leaving the plain tile colour. Width and height
 * reserve the 16:9 box; below the first row it loads lazily.
 */
function Thumbnail({ src, eager }: { src?: string; eager: boolean }) {
  if (!src) return null;
  return <img src={src} alt="" width={640} height={360} loading={eager ? "eager" : "lazy"} decoding="async" className="h-full w-full object-cover" />;
}
