import { useLocalPath } from "#app/lib/addresses.ts";
import { data, useLocation } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/media";
import { BlockHeading, EmptyState, FilterChips, hrefWith, PageIntro, Pager } from "#app/components/sections/section-ui.tsx";
import { OPENER_PAGE_MODULES, PlayBadge, playerStart, videoOpener, VideoTemplates } from "#app/components/media/video-player.tsx";
import type { ReadingHandle } from "#app/lib/static-page.ts";
import { useEnhanceInApp } from "#app/lib/enhance-in-app.ts";
import { CardImage } from "#app/components/content/responsive-image.tsx";
import { excerpt, formatDate, formatDuration, isoDate } from "#domain/format.ts";
import { type Language } from "#domain/language.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { localized, textProps } from "#domain/localized.ts";
import { pageParam } from "#domain/query.ts";
import { formatNumber } from "#domain/plural.ts";
import { isVideoId } from "#domain/video-source.ts";
import { getDb } from "#server/db/client.server.ts";
import { imageDetailsOf } from "#server/content/image-details.server.ts";
import { ImageDetailsProvider } from "#app/components/content/image-details.tsx";
import {
  filterOfMediaType,
  MEDIA_DESCRIPTION_MAX,
  MEDIA_FILTERS,
  mediaTypeOfFilter,
  OPENED_TOAST_MS,
  type MediaFilter,
  type MediaType,
} from "#domain/media-library.ts";
import { loadMediaPage, type MediaCard } from "#server/content/media.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { robotsMeta } from "#app/lib/seo.ts";

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const lang = languageOfRequest(request);
  const raw = url.searchParams.get("type");
  const type = mediaTypeOfFilter(raw);
  // A filter that does not exist is a listing that does not exist (as on the other section pages).
  if (type === undefined) throw data(null, { status: 404 });
  const db = await getDb();
  const { featured, items, page, hasMore } = await loadMediaPage(db, type, pageParam(url, "page", 200));
  const filter = filterOfMediaType(type);
  const result = {
    featured,
    items,
    page,
    hasMore,
    filter,
    title: translate(lang, "mediaLibrary.title"),
    intro: translate(lang, "mediaLibrary.intro"),
  };
  return { ...result, images: await imageDetailsOf(db, result) };
}

export const meta: Route.MetaFunction = ({ data }) => [{ title: data?.title }, { name: "description", content: data?.intro }, robotsMeta()];

const FILTER_LABEL: Record<MediaFilter, string> = {
  all: "mediaLibrary.filterAll",
  video: "mediaLibrary.filterVideo",
  audio: "mediaLibrary.filterAudio",
  images: "mediaLibrary.filterImages",
  documents: "mediaLibrary.filterDocuments",
};
const TYPE_LABEL: Record<MediaType, string> = {
  video: "mediaLibrary.typeVideo",
  audio: "mediaLibrary.typeAudio",
  image: "mediaLibrary.typeImage",
  document: "mediaLibrary.typeDocument",
};

/**
 * HTML without React in the browser: the filters are links, a video opens in the modal player of
 * app/enhance/video-openers.js, other files open in a new window with reading.js's toast (decision 0132).
 */
export const handle: ReadingHandle = { hydrate: false, enhance: OPENER_PAGE_MODULES };

export default function MediaLibraryPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { search } = useLocation();
  const { featured, items, filter, page, hasMore } = loaderData;
  useEnhanceInApp(...OPENER_PAGE_MODULES);

  const chips = MEDIA_FILTERS.map((f) => ({
    key: f.filter,
    label: t(FILTER_LABEL[f.filter]),
    to: hrefWith(search, { type: f.filter === "all" ? null : f.filter }),
    active: f.filter === filter,
  }));

  return (
    <ImageDetailsProvider images={loaderData.images}>
      <PageIntro title={t("mediaLibrary.title")} intro={t("mediaLibrary.intro")} testId="media-intro">
        <FilterChips label={t("mediaLibrary.filtersLabel")} chips={chips} testId="media-filter" />
      </PageIntro>

      <div className="mx-auto max-w-7xl px-4 py-8" data-testid="media-page" data-filter={filter}>
        {featured.length > 0 && (
          <section aria-labelledby="media-featured-heading" className="mb-10" data-testid="media-featured">
            <BlockHeading id="media-featured-heading">{t("mediaLibrary.featured")}</BlockHeading>
            <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
              {featured.map((m, i) => (
                <li key={m.id}>
                  <MediaTile item={m} eager={i < 2} />
                </li>
              ))}
            </ul>
          </section>
        )}
        <section aria-labelledby="media-all-heading" data-testid="media-list">
          <BlockHeading id="media-all-heading">{t("mediaLibrary.allItems")}</BlockHeading>
          {items.length === 0 && featured.length === 0 ? (
            <EmptyState>{t(page > 1 ? "sectionPages.noMore" : "mediaLibrary.empty")}</EmptyState>
          ) : (
            <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {items.map((m) => (
                <li key={m.id}>
                  <MediaTile item={m} />
                </li>
              ))}
            </ul>
          )}
          <Pager page={page} hasMore={hasMore} search={search} />
        </section>
      </div>

      <VideoTemplates />
    </ImageDetailsProvider>
  );
}

/**
 * One media item. A video opens in the modal player; any other file opens in a new window (with the
 * spec's 4000 ms toast); an item without a file says so. Without JavaScript every tile is a plain link to
 * its file.
 */
function MediaTile({ item, eager = false }: { item: MediaCard; eager?: boolean }) {
  const { t, i18n } = useTranslation();
  const local = useLocalPath();
  const lang = i18n.language as Language;
  const title = localized(lang, item.title, item.titleFr);
  const description = excerpt(item.description, MEDIA_DESCRIPTION_MAX);
  const picture = item.thumbnailUrl || item.imageUrl;
  const file = item.fileUrl?.trim() || null;
  const isVideo = item.mediaType === "video";
  const category = localized(lang, item.categoryName, item.categoryNameFr) || t("common.general");
  const showDuration = (item.mediaType === "video" || item.mediaType === "audio") && item.durationSeconds;

  const linkClass = "after:absolute after:inset-0 hover:text-desert-700 focus:outline-none focus-visible:underline";
  let action;
  if (!file) {
    action = (
      <button
        type="button"
        className={`text-start ${linkClass}`}
        data-testid="media-open"
        data-action="none"
        data-toast-title={t("mediaLibrary.noFileTitle")}
        data-toast-description={t("mediaLibrary.noFile", { title })}
        data-toast-variant="warning"
      >
        {title}
      </button>
    );
  } else if (isVideo) {
    action = (
      <a
        href={isVideoId(file) ? local(`/videos?q=${encodeURIComponent(item.title)}`) : file}
        {...videoOpener(playerStart(file), title, picture)}
        aria-label={t("mediaLibrary.play", { title })}
        className={linkClass}
        data-testid="media-open"
        data-action="play"
      >
        {title}
      </a>
    );
  } else {
    action = (
      <a
        href={file}
        target="_blank"
        rel="noopener noreferrer"
        data-toast-title={t("mediaLibrary.openedTitle")}
        data-toast-description={title}
        data-toast-duration={OPENED_TOAST_MS}
        aria-label={t("mediaLibrary.open", { title })}
        className={linkClass}
        data-testid="media-open"
        data-action="open"
      >
        {title}
      </a>
    );
  }

  return (
    <article
      className="group relative flex h-full flex-col overflow-hidden rounded-xl border border-sand-200 bg-white shadow-sm transition hover:shadow-md"
      data-testid="media-card"
      data-media-type={item.mediaType}
      data-featured={item.isFeatured ? "true" : "false"}
    >
      <div className="relative aspect-video bg-sand-200">
        {picture && <CardImage url={picture} eager={eager} className="h-full w-full object-cover" />}
        {isVideo && file && <PlayBadge />}
        <span className="absolute start-2 top-2 rounded bg-white/90 px-2 py-0.5 text-xs font-bold text-desert-700" data-testid="media-type">
          {t(TYPE_LABEL[item.mediaType])}
        </span>
        {showDuration ? (
          <span className="absolute bottom-2 end-2 rounded bg-black/75 px-1.5 py-0.5 text-sm font-bold text-white" dir="ltr">
            {formatDuration(item.durationSeconds, lang)}
          </span>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col p-4">
        <span className="mb-1 text-sm font-bold text-desert-700" data-testid="media-category" {...textProps(lang, category)}>
          {category}
        </span>
        <h3 className="text-lg font-bold leading-snug" {...textProps(lang, title)}>
          {action}
        </h3>
        <p
          className={`mt-2 ${description ? "text-ink-soft" : "italic text-ink-soft"}`}
          data-testid="media-description"
          {...(description ? textProps(lang, description) : {})}
        >
          {description || t("mediaLibrary.noDescription")}
        </p>
        <p className="mt-auto flex flex-wrap gap-x-3 pt-3 text-sm text-ink-soft">
          <bdi data-testid="media-author" {...(item.authorName ? textProps(lang, item.authorName) : {})}>
            {item.authorName || t("mediaLibrary.unknownAuthor")}
          </bdi>
          <bdi data-testid="media-views">{t("mediaLibrary.views", { n: formatNumber(lang, item.views ?? 0) })}</bdi>
          <bdi>
            <time dateTime={isoDate(item.publishDate)}>{formatDate(item.publishDate, lang)}</time>
          </bdi>
        </p>
      </div>
    </article>
  );
}
