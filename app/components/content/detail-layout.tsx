import type { ReactNode } from "react";
import { Link } from "#app/lib/link.tsx";
import { useLocalPath } from "#app/lib/addresses.ts";
import { useTranslation } from "#app/lib/i18n.ts";
import { ContentCard } from "./content-card.tsx";
import { ResponsiveImage } from "./responsive-image.tsx";
import { useImageDetails } from "./image-details.tsx";
import { libraryText } from "#domain/image-details.ts";
import { ShareButton } from "./share-button.tsx";
import { ShareLinks } from "./share-links.tsx";
import { Breadcrumbs } from "#app/components/ui/breadcrumbs.tsx";
import { excerpt, formatDate, isoDate, showsHijri } from "#domain/format.ts";
import { HijriDate } from "#app/components/layout/date-line.tsx";
import { archiveDayPath } from "#domain/archive.ts";
import { localized, textProps } from "#domain/localized.ts";
import type { Language } from "#domain/language.ts";
import type { DetailPage } from "#domain/detail-view.ts";
import { bylineLinks } from "#domain/authors.ts";

/** The main image's slot: the article's column (max-w-4xl less its padding), the screen less 2rem below it. */
export const DETAIL_IMAGE_SIZES = "(min-width: 896px) 864px, calc(100vw - 2rem)";

/**
 * The detail page's main picture: with the media library's caption and credit under it (a <figure>), the
 * credit on a smaller line of its own; a plain image when the library has neither. Each text keeps its own
 * direction (an Arabic caption on a French page).
 */
export function DetailImage({ url, className = "" }: { url: string; className?: string }) {
  const { i18n } = useTranslation();
  const lang = i18n.language as Language;
  const details = useImageDetails(url);
  const caption = libraryText(lang, details?.caption);
  const credit = libraryText(lang, details?.credit);
  const image = (
    <ResponsiveImage url={url} sizes={DETAIL_IMAGE_SIZES} width={1200} height={675} priority className="aspect-video w-full rounded-xl object-cover" />
  );
  if (!caption && !credit) return <div className={className}>{image}</div>;
  return (
    <figure className={className} data-testid="detail-figure">
      {image}
      <figcaption className="mt-2 space-y-0.5 border-s-2 border-sand-300 ps-3 text-start">
        {caption && (
          <span className="block text-sm leading-relaxed text-ink" data-testid="image-caption" {...textProps(lang, caption)}>
            {caption}
          </span>
        )}
        {credit && (
          <span className="block text-xs text-ink-soft" data-testid="image-credit" {...textProps(lang, credit)}>
            {credit}
          </span>
        )}
      </figcaption>
    </figure>
  );
}

/** `count`: the number a counted fact was written from (data-count), for the page's tests. */
type Fact = { label?: string; value: string | null | undefined; testId?: string; count?: number; node?: ReactNode };

type DetailLayoutProps = {
  kicker?: { label: string; href?: string } | null;
  title: string;
  lead?: string | null;
  date: Date | string;
  facts?: Fact[];
  imageUrl?: string | null;
  /** A player (video or audio) shown in place of, or under, the image. */
  media?: ReactNode;
  children: ReactNode;
  path: string;
  related: DetailPage["related"];
  relatedTitle: string;
  testId: string;
  /** Demo content seeded on first start is labelled as such. */
  demo?: boolean;
  /** Translation key of the date's label (the type's detail view; the publish date unless told). */
  dateLabel?: string;
};

/** The common shape of every detail page: headline, facts, media, body, share, related items. */
export function DetailLayout({
  kicker,
  title,
  lead,
  date,
  facts = [],
  imageUrl,
  media,
  children,
  path,
  related,
  relatedTitle,
  testId,
  demo,
  dateLabel = "detail.publishDate",
}: DetailLayoutProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const local = useLocalPath();
  const shown = facts.filter((f) => f.value);
  return (
    <article className="mx-auto max-w-4xl px-4 py-8" data-testid={testId}>
      <Breadcrumbs
        className="mb-4 text-sm text-ink-soft"
        steps={[
          <Link key="home" to={local("/")} className="hover:underline" data-testid="breadcrumb-home">
            {t("detail.home")}
          </Link>,
          ...(kicker
            ? [
                kicker.href ? (
                  <Link key="kicker" to={local(kicker.href)} className="hover:underline" data-testid="detail-category" {...textProps(lang, kicker.label)}>
                    {kicker.label}
                  </Link>
                ) : (
                  <span key="kicker" data-testid="detail-category" {...textProps(lang, kicker.label)}>
                    {kicker.label}
                  </span>
                ),
              ]
            : []),
        ]}
      />
      {demo && (
        <p className="mb-2 inline-block rounded bg-amber-100 px-2 py-0.5 text-xs font-bold text-amber-900" data-testid="demo-badge">
          {t("common.demo")}
        </p>
      )}
      <h1 className="text-3xl font-bold leading-tight sm:text-4xl" data-testid="detail-title" {...textProps(lang, title)}>
        {title}
      </h1>
      {lead && (
        <p className="mt-4 text-xl leading-relaxed text-ink-soft" data-testid="detail-lead" {...textProps(lang, lead)}>
          {lead}
        </p>
      )}
      <div className="mt-5 flex flex-wrap items-center justify-between gap-4 border-y border-sand-200 py-3">
        <dl className="flex flex-wrap gap-x-5 gap-y-1 text-sm text-ink-soft">
          <div className="flex gap-1">
            <dt className="sr-only">{t(dateLabel)}</dt>
            <dd>
              {/* The day's archive page (decision 0144): what else was published that day. */}
              <a href={local(archiveDayPath(date))} className="hover:underline" title={t("archive.dayLink")} data-testid="detail-date-link">
                <time dateTime={isoDate(date)} data-testid="detail-date">
                  {formatDate(date, lang)}
                </time>
              </a>
            </dd>
            {/* Beside the Gregorian date when DATE_CALENDARS asks for it (decision 0148). */}
            {showsHijri() && (
              <dd className="ms-2">
                <HijriDate value={date} lang={lang} />
              </dd>
            )}
          </div>
          {shown.map((f, i) => (
            <div key={i} className="flex gap-1" data-testid={f.testId} data-count={f.count}>
              {f.label && <dt className="font-bold">{f.label}:</dt>}
              <dd>{f.node ?? <bdi {...textProps(lang, f.value)}>{f.value}</bdi>}</dd>
            </div>
          ))}
        </dl>
        <div className="flex flex-wrap items-center gap-2">
          <ShareButton title={title} text={lead ?? undefined} url={path} />
          <ShareLinks title={title} path={path} />
        </div>
      </div>
      {media ?? (imageUrl ? <DetailImage url={imageUrl} className="mt-6" /> : null)}
      <div className="mt-6">{children}</div>

      {related.length > 0 && (
        <section className="mt-12 border-t border-sand-200 pt-8" data-testid="related">
          <h2 className="mb-5 text-2xl font-bold">{relatedTitle}</h2>
          <div className="grid gap-5 sm:grid-cols-2">
            {related.map((r) => (
              <ContentCard
                key={r.id}
                layout="horizontal"
                href={r.url}
                title={localized(lang, r.title, r.titleFr)}
                excerpt={excerpt(localized(lang, r.summary, r.summaryFr), 90)}
                imageUrl={r.imageUrl}
                date={r.publishDate}
                authors={bylineLinks(lang, r.bylines)}
                testId="related-card"
              />
            ))}
          </div>
        </section>
      )}
    </article>
  );
}
