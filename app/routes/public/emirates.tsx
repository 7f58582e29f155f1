import { useLocalPath } from "#app/lib/addresses.ts";
import { useId } from "react";
import { data, useLocation } from "react-router";
import { Link } from "#app/lib/link.tsx";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/emirates";
import { BlockHeading, EmptyState, FilterChips, hrefWith, PageIntro } from "#app/components/sections/section-ui.tsx";
import { OPENER_PAGE_MODULES, playerStart, videoOpener, VideoTemplates } from "#app/components/media/video-player.tsx";
import type { ReadingHandle } from "#app/lib/static-page.ts";
import { useEnhanceInApp } from "#app/lib/enhance-in-app.ts";
import { plainVideoUrl } from "#app/components/media/plain-video.tsx";
import { publicUrl } from "#domain/content-types/index.ts";
import { excerpt } from "#domain/format.ts";
import { localized, textProps } from "#domain/localized.ts";
import { bylineLinks } from "#domain/authors.ts";
import { Byline, type BylineLink } from "#app/components/content/content-card.tsx";
import { CardImage } from "#app/components/content/responsive-image.tsx";
import { type Language } from "#domain/language.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { EMIRATES_EXCERPT_MAX, foundingNote } from "#domain/emirates.ts";
import { getDb } from "#server/db/client.server.ts";
import { imageDetailsOf } from "#server/content/image-details.server.ts";
import { ImageDetailsProvider } from "#app/components/content/image-details.tsx";
import { listSectionArticles, loadSectionHead } from "#server/content/sections.server.ts";
import { listVideosOfCategories } from "#server/content/media.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { robotsMeta } from "#app/lib/seo.ts";

/** Every emirate has a handful of articles; one page holds them all. */
const ARTICLE_LIMIT = 24;
const VIDEO_LIMIT = 8;

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const lang = languageOfRequest(request);
  const db = await getDb();
  const { section, chips } = await loadSectionHead(db, "emirates");
  const emirate = url.searchParams.get("emirate") || undefined;
  // An emirate that does not exist is a listing that does not exist (as on the other section pages).
  if (emirate && !chips.some((c) => c.slug === emirate)) throw data(null, { status: 404 });
  const scope = emirate ? chips.filter((c) => c.slug === emirate) : chips;
  const [articles, videos] = await Promise.all([
    listSectionArticles(db, "emirates", { category: emirate }, { limit: ARTICLE_LIMIT }),
    listVideosOfCategories(
      db,
      scope.map((c) => c.id),
      VIDEO_LIMIT,
    ),
  ]);
  const result = {
    title: translate(lang, "emirates.title"),
    intro: localized(lang, section?.description, section?.descriptionFr) || translate(lang, "emirates.intro"),
    chips,
    emirate: emirate ?? null,
    articles,
    videos,
  };
  return { ...result, images: await imageDetailsOf(db, result) };
}

export const meta: Route.MetaFunction = ({ data }) => [{ title: data?.title }, { name: "description", content: data?.intro }, robotsMeta()];

/**
 * HTML without React in the browser: the filter is links, a card's video plays inline through
 * app/enhance/video-openers.js (decision 0132); without JavaScript the card links to the file.
 */
export const handle: ReadingHandle = { hydrate: false, enhance: OPENER_PAGE_MODULES };

export default function EmiratesPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { search } = useLocation();
  const { chips, emirate, articles, videos } = loaderData;
  useEnhanceInApp(...OPENER_PAGE_MODULES);
  const note = (slug: string | null | undefined, short = false) => {
    const n = foundingNote(slug);
    return n ? t(short ? n.shortKey : n.key, { year: n.year }) : null;
  };
  const chipLinks = [
    { key: "all", label: t("emirates.all"), to: hrefWith(search, { emirate: null }), active: !emirate },
    ...chips.map((c) => {
      const founded = note(c.slug, true);
      return {
        key: c.slug,
        label: founded ? `${localized(lang, c.name, c.nameFr)} · ${founded}` : localized(lang, c.name, c.nameFr),
        to: hrefWith(search, { emirate: c.slug }),
        active: emirate === c.slug,
      };
    }),
  ];

  return (
    <ImageDetailsProvider images={loaderData.images}>
      <PageIntro title={loaderData.title} intro={loaderData.intro} testId="emirates-intro">
        <FilterChips label={t("emirates.filtersLabel")} chips={chipLinks} testId="emirates-filter" />
      </PageIntro>
      <div className="mx-auto max-w-7xl px-4 py-8" data-testid="emirates-page" data-emirate={emirate ?? "all"}>
        <section aria-labelledby="emirates-articles-heading" data-testid="emirates-articles">
          <BlockHeading id="emirates-articles-heading">{t("emirates.articles")}</BlockHeading>
          {articles.length === 0 ? (
            <EmptyState>{t("emirates.empty")}</EmptyState>
          ) : (
            <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {articles.map((a, i) => (
                <li key={a.id}>
                  <EmirateCard
                    href={publicUrl("article", a.pageSlug, a.id)}
                    title={localized(lang, a.title, a.titleFr)}
                    excerpt={excerpt(localized(lang, a.excerpt, a.excerptFr), EMIRATES_EXCERPT_MAX)}
                    imageUrl={a.imageUrl}
                    emirate={localized(lang, a.categoryName, a.categoryNameFr)}
                    founded={note(a.categorySlug)}
                    date={a.publishDate}
                    author={localized(lang, a.authorName, a.authorNameFr)}
                    authors={bylineLinks(lang, a.bylines)}
                    videoSource={a.contentType === "video" ? a.videoUrl : null}
                    eager={i < 3}
                    testId="emirate-card"
                  />
                </li>
              ))}
            </ul>
          )}
        </section>
        {videos.length > 0 && (
          <section aria-labelledby="emirates-videos-heading" className="mt-12" data-testid="emirates-videos">
            <BlockHeading id="emirates-videos-heading">{t("emirates.videos")}</BlockHeading>
            <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
              {videos.map((v) => (
                <li key={v.id}>
                  <EmirateCard
                    title={localized(lang, v.title, v.titleFr)}
                    excerpt={excerpt(v.description, EMIRATES_EXCERPT_MAX)}
                    imageUrl={v.thumbnailUrl || v.imageUrl}
                    emirate={localized(lang, v.categoryName, v.categoryNameFr)}
                    founded={note(v.categorySlug)}
                    date={v.publishDate}
                    author={v.authorName}
                    videoSource={v.fileUrl}
                    testId="emirate-video-card"
                  />
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
      <VideoTemplates modal={false} />
    </ImageDetailsProvider>
  );
}

type EmirateCardProps = {
  href?: string;
  title: string;
  excerpt: string;
  imageUrl: string | null;
  emirate: string | null;
  founded: string | null;
  date: Date | string;
  author: string | null;
  authors?: readonly BylineLink[];
  /** A video played inline, in place of the picture; it turns itself off when it ends. */
  videoSource: string | null;
  eager?: boolean;
  testId: string;
};

function EmirateCard({ href, title, excerpt: text, imageUrl, emirate, founded, date, author, authors, videoSource, eager = false, testId }: EmirateCardProps) {
  const { t, i18n } = useTranslation();
  const local = useLocalPath();
  const lang = i18n.language as Language;
  const mediaId = useId();
  return (
    <article
      className="group relative flex h-full flex-col overflow-hidden rounded-xl border border-sand-200 bg-white shadow-sm transition hover:shadow-md"
      data-testid={testId}
      data-playing="false"
    >
      <div id={mediaId} className="relative z-10 aspect-video bg-sand-200">
        {imageUrl ? <CardImage url={imageUrl} eager={eager} className="h-full w-full object-cover" /> : null}
      </div>
      <div className="flex flex-1 flex-col p-4">
        <p className="mb-1 flex flex-wrap items-center gap-x-2 text-sm">
          {emirate && (
            <span className="font-bold text-desert-700" {...textProps(lang, emirate)}>
              {emirate}
            </span>
          )}
          {founded && (
            <span className="rounded bg-sand-100 px-1.5 text-ink-soft" data-testid="emirate-founded">
              {founded}
            </span>
          )}
          {videoSource && <span className="rounded bg-palm-700 px-1.5 text-xs font-bold text-white">{t("emirates.video")}</span>}
        </p>
        <h3 className="text-lg font-bold leading-snug" {...textProps(lang, title)}>
          {href ? (
            <Link to={local(href)} className="after:absolute after:inset-0 hover:text-desert-700 focus:outline-none focus-visible:underline">
              {title}
            </Link>
          ) : (
            title
          )}
        </h3>
        {text && (
          <p className="mt-2 text-ink-soft" {...textProps(lang, text)}>
            {text}
          </p>
        )}
        {videoSource && plainVideoUrl(videoSource) && (
          // Without JavaScript the toggle cannot play anything: a link to the file, which the browser plays itself.
          <a
            href={plainVideoUrl(videoSource)!}
            className="relative z-10 mt-3 inline-flex min-h-10 items-center gap-2 self-start rounded-md border border-desert-700 px-3 py-1.5 text-sm font-bold text-desert-700 hover:bg-desert-700 hover:text-white [[data-hydrated]_&]:hidden"
            data-testid="emirate-video-link"
          >
            {t("emirates.playVideo")}
          </a>
        )}
        {videoSource && (
          // The player (app/enhance/player.js) takes the picture's place, and gives it back when the video ends.
          <button
            type="button"
            {...videoOpener(playerStart(videoSource), title, imageUrl)}
            data-video-toggle=""
            data-label-play={t("emirates.playVideo")}
            data-label-hide={t("emirates.hideVideo")}
            aria-expanded="false"
            aria-controls={mediaId}
            className={`relative z-10 mt-3 min-h-10 items-center gap-2 self-start rounded-md border border-desert-700 px-3 py-1.5 text-sm font-bold text-desert-700 hover:bg-desert-700 hover:text-white ${plainVideoUrl(videoSource) ? "hidden [[data-hydrated]_&]:inline-flex" : "inline-flex"}`}
            data-testid="emirate-video-toggle"
          >
            <svg width="16" height="16" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
              <path d="M8 5v14l11-7z" />
            </svg>
            <span data-label="">{t("emirates.playVideo")}</span>
          </button>
        )}
        <Byline author={author} authors={authors} date={date} className="mt-auto pt-3" />
      </div>
    </article>
  );
}
