import type { ReactNode } from "react";
import { ArticleBody } from "./article-body.tsx";
import { VideoPlayer } from "#app/components/media/video-player.tsx";
import { DetailImage, DetailLayout } from "./detail-layout.tsx";
import { Transcript } from "./transcript.tsx";
import { TagLinks } from "./tag-links.tsx";
import { Corrections } from "./corrections.tsx";
import { ImageDetailsProvider } from "./image-details.tsx";
import { captionsLabel, DEFAULT_CAPTIONS_LANGUAGE } from "#domain/captions.ts";
import { localizedField, mediaSourcesOf, textOf, type DetailItem, type DetailPage } from "#domain/detail-view.ts";
import { definitionOf, type DetailView } from "#domain/content-types/index.ts";
import { formatDate } from "#domain/format.ts";
import { useCount, useTranslation } from "#app/lib/i18n.ts";
import type { Language } from "#domain/language.ts";
import { languagesWithText, localized, textProps } from "#domain/localized.ts";
import { bylineLinks } from "#domain/authors.ts";
import { AuthorLinks } from "./content-card.tsx";
import { LiveSection } from "./live/live-section.tsx";

type T = ReturnType<typeof useTranslation>["t"];
type Count = ReturnType<typeof useCount>;

/** A value worth showing: not missing, not empty, not zero (no "0 views", no "episode 0"). */
const shown = (value: unknown) => value !== null && value !== undefined && value !== "" && value !== 0 && value !== false;

function kickerOf(view: DetailView, item: DetailItem, lang: Language, t: T) {
  const { category, option, label, fallback, href } = view.kicker;
  const optionValue = option && textOf(item, option.field);
  const text =
    (category && localizedField(lang, item, "categoryName")) ||
    (optionValue && t(`${option.labels}.${optionValue}`)) ||
    (label && t(label)) ||
    (fallback && t(fallback)) ||
    null;
  return text ? { label: text, href } : null;
}

function factsOf(view: DetailView, item: DetailItem, lang: Language, t: T, count: Count) {
  return view.facts.map(({ field, label, template, counted, equals, date, testId }) => {
    const raw = item[field];
    let value: string | null = null;
    if (equals !== undefined) value = raw === equals && template ? t(template) : null;
    else if (!shown(raw)) value = null;
    else if (date) value = formatDate(raw as string | Date, lang);
    else if (counted) value = count(counted, Number(raw));
    else if (template) value = t(template, { n: raw });
    else value = localizedField(lang, item, field);
    return { label: label && t(label), value, testId, count: counted && shown(raw) ? Number(raw) : undefined };
  });
}

/**
 * The byline among the facts (decision 0121): the item's author profiles, each a link to its page, in place of
 * the old author-name fact («بقلم: أ و ب»), or first when the type had none. An item naming no profile keeps its facts.
 */
function withByline(facts: ReturnType<typeof factsOf>, page: DetailPage, lang: Language, t: T) {
  const links = bylineLinks(lang, page.authors);
  if (!links.length) return facts;
  const byline = {
    label: t("common.by"),
    value: links.map((l) => l.name).join(", "),
    testId: "detail-author",
    count: undefined,
    node: <AuthorLinks authors={links} />,
  };
  const at = definitionOf(page.type).detail.facts.findIndex((f) => f.field === "authorName");
  return at === -1 ? [byline, ...facts] : facts.map((f, i) => (i === at ? byline : f));
}

/** The player of a type that has one (video, audio, or a media item's file by its kind); none: the image. */
function mediaOf(view: DetailView, page: DetailPage, title: string, t: T, lang: Language): { media?: ReactNode; imageUrl: string | null } {
  const { item } = page;
  const { video, audio, image } = mediaSourcesOf(page);
  if (!video && !audio) return { imageUrl: image };
  const captionsUrl = view.media?.captions ? textOf(item, view.media.captions) : null;
  const captions = captionsUrl ? { src: captionsUrl, srcLang: DEFAULT_CAPTIONS_LANGUAGE, label: captionsLabel(DEFAULT_CAPTIONS_LANGUAGE, lang) } : undefined;
  const media = (
    <div className="mt-6 space-y-4">
      {video ? (
        // The browser's own player on the file, taken over by app/enhance/player.js (loaded by pages with a video).
        <VideoPlayer source={video} file={page.videoFile} title={title} poster={item.imageUrl} captions={captions} />
      ) : image ? (
        <DetailImage url={image} />
      ) : null}
      {audio && (
        <figure className="rounded-xl border border-sand-200 bg-white p-4">
          <figcaption className="mb-2 font-bold">{t("detail.listen")}</figcaption>
          {/* eslint-disable-next-line jsx-a11y/media-has-caption -- an episode's transcript, when it has one, is its text alternative */}
          <audio controls preload="none" src={audio} className="w-full" data-testid={`${page.type}-audio`}>
            {t("detail.audioUnsupported")}
          </audio>
        </figure>
      )}
    </div>
  );
  return { media, imageUrl: image };
}

/**
 * The detail page of any content type, from its data (domain/detail-view.ts): the public page
 * (app/routes/public/content-detail.tsx) and the newsroom's preview, which passes a page from
 * loadPreviewPage() and gets the "preview, not published" banner above it.
 */
export function ContentDetail({ page }: { page: DetailPage }) {
  const { t, i18n } = useTranslation();
  const count = useCount();
  const lang = i18n.language as Language;
  const { item, type } = page;
  const view = definitionOf(type).detail;
  const title = localizedField(lang, item, "title") ?? item.title;
  const { media, imageUrl } = mediaOf(view, page, title, t, lang);
  const transcript = view.transcript ? textOf(item, view.transcript) : null;
  const category = textOf(item, "categorySlug");
  const bio = textOf(item, "authorBio");
  return (
    <ImageDetailsProvider images={page.images}>
      {page.preview && (
        <div className="mx-auto max-w-4xl px-4 pt-6">
          <p
            role="status"
            className="rounded-lg border-2 border-dashed border-amber-600 bg-amber-50 px-4 py-3 font-bold text-amber-950"
            data-testid="preview-banner"
            data-status={page.preview.status}
          >
            {t(`detail.preview.${page.preview.status}`, { date: formatDate(item.publishDate, lang, "dateTime") })}
          </p>
        </div>
      )}
      <DetailLayout
        testId={`${type}-detail`}
        demo={item.isDemo}
        kicker={kickerOf(view, item, lang, t)}
        title={title}
        lead={localized(lang, page.summary, page.summaryFr)}
        date={item.publishDate}
        dateLabel={view.dateLabel}
        facts={withByline(factsOf(view, item, lang, t, count), page, lang, t)}
        imageUrl={imageUrl}
        media={media}
        path={page.url}
        related={page.related}
        relatedTitle={t(view.relatedTitle)}
      >
        {/* The page of a language the item has no text in shows the Arabic text (noindex, decision 0143): say so. */}
        {!languagesWithText(item).includes(lang) && (
          <p role="note" className="mb-6 rounded-lg border border-sand-300 bg-sand-100 px-4 py-3 text-ink-soft" data-testid="arabic-only">
            {t("detail.arabicOnly")}
          </p>
        )}
        {/* A coverage that has been live (issue 44): its entries lead the page, the body stays its introduction. */}
        {page.live && <LiveSection live={page.live} path={page.url} />}
        <ArticleBody
          lang={lang}
          body={lang === "fr" && page.bodyFr ? page.bodyFr : page.body}
          verse={!!category && !!view.verseCategories?.includes(category)}
        />
        {transcript && <Transcript text={transcript} lang={lang} />}
        <Corrections corrections={page.corrections} lang={lang} />
        <TagLinks tags={page.tags} />
        {bio && (
          <p className="mt-8 rounded-lg bg-sand-100 p-4 text-ink-soft" {...textProps(lang, bio)}>
            {bio}
          </p>
        )}
      </DetailLayout>
    </ImageDetailsProvider>
  );
}
