import type { ReactNode } from "react";
import { Link } from "#app/lib/link.tsx";
import { CARD_IMAGE_SIZES, ResponsiveImage } from "./responsive-image.tsx";
import { formatDate, isoDate } from "#domain/format.ts";
import { useLanguage, useText } from "#app/lib/i18n.ts";
import { useLocalPath } from "#app/lib/addresses.ts";
import { textProps } from "#domain/localized.ts";
import { LiveBadge } from "./live/live-entry.tsx";

/** An author of a byline: the name in the reader's language and the address of the profile's page. */
export type BylineLink = { name: string; href: string };

/** What a card or a featured story shows of an item. */
export type StoryFields = {
  href: string;
  title: string;
  excerpt?: string;
  imageUrl?: string | null;
  date?: Date | string | null;
  category?: string | null;
  author?: string | null;
  /** The item's author profiles (names in the reader's language, links to their pages); shown instead of `author`. */
  authors?: readonly BylineLink[];
  /** More after the date in the byline (a news item's place when its authors are shown). */
  extra?: string | null;
  testId?: string;
  /** A coverage live now (issue 44): the «مباشر» badge above its title. */
  live?: boolean;
};

export type ContentCardProps = StoryFields & {
  /** Above-the-fold cards load their image at once; the rest lazily. */
  eager?: boolean;
  layout?: "vertical" | "horizontal";
  /** Rich title and excerpt (search results with <mark>ed words); `title` and `excerpt` stay the plain text. */
  titleNode?: ReactNode;
  excerptNode?: ReactNode;
  /** The image's slot width (`sizes`), when the page's grid differs from the usual one. */
  imageSizes?: string;
  /** h3 under a section's h2 (the default); h2 where the cards sit right under the page's h1 (/news). */
  headingLevel?: 2 | 3;
};

// The usual grids: one column on a phone (page padding 1rem each side), two from `sm`, three from `lg`, in
// a page at most 1280px wide. The horizontal card's image is w-32, sm:w-40.
const VERTICAL_SIZES = CARD_IMAGE_SIZES;
const HORIZONTAL_SIZES = "(min-width: 640px) 160px, 128px";

/** Cards do not prefetch on hover: a hover is not a read (the view counter) and prefetching spends readers' data. */
export function ContentCard({
  href,
  title,
  excerpt,
  imageUrl,
  date,
  category,
  author,
  authors,
  extra,
  eager,
  testId,
  layout = "vertical",
  titleNode,
  excerptNode,
  imageSizes,
  headingLevel = 3,
  live = false,
}: ContentCardProps) {
  const lang = useLanguage();
  const local = useLocalPath();
  const horizontal = layout === "horizontal";
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article
      className={`group relative flex overflow-hidden rounded-xl border border-sand-200 bg-white shadow-sm transition hover:shadow-md ${horizontal ? "flex-row gap-3" : "flex-col"}`}
      data-testid={testId}
    >
      {imageUrl ? (
        <ResponsiveImage
          url={imageUrl}
          sizes={imageSizes ?? (horizontal ? HORIZONTAL_SIZES : VERTICAL_SIZES)}
          width={horizontal ? 160 : 640}
          height={horizontal ? 90 : 360}
          priority={eager}
          lazy={!eager}
          className={horizontal ? "h-24 w-32 shrink-0 object-cover sm:w-40" : "aspect-video w-full object-cover"}
        />
      ) : null}
      <div className={`flex flex-1 flex-col ${horizontal ? "py-2 pe-3" : "p-4"}`}>
        {live && <LiveBadge className="mb-1 self-start" />}
        {category && (
          <span className="mb-1 text-sm font-bold text-desert-700" {...textProps(lang, category)}>
            {category}
          </span>
        )}
        <Heading className={`font-bold leading-snug ${horizontal ? "text-base" : "text-lg"}`} {...textProps(lang, title)}>
          <Link to={local(href)} className="after:absolute after:inset-0 hover:text-desert-700 focus:outline-none focus-visible:underline">
            {titleNode ?? title}
          </Link>
        </Heading>
        {excerpt && (
          <p className="mt-2 text-ink-soft" {...textProps(lang, excerpt)}>
            {excerptNode ?? excerpt}
          </p>
        )}
        <Byline author={author} authors={authors} date={date} extra={extra} className="mt-auto pt-3" />
      </div>
    </article>
  );
}

/**
 * "Author · date" under a card's text; nothing when both are missing. Each part is isolated (<bdi>): an
 * Arabic name beside a French date, or a Latin name beside Arabic digits, would otherwise swap places.
 * `extra`: more parts after the date (a view count).
 */
export function Byline({
  author,
  authors,
  date,
  extra,
  className = "",
}: {
  author?: string | null;
  authors?: readonly BylineLink[];
  date?: Date | string | null;
  extra?: string | null;
  className?: string;
}) {
  const lang = useLanguage();
  const parts = [
    authors?.length ? (
      <AuthorLinks key="author" authors={authors} />
    ) : author ? (
      <bdi key="author" {...textProps(lang, author)}>
        {author}
      </bdi>
    ) : null,
    date ? (
      <bdi key="date">
        <time dateTime={isoDate(date)}>{formatDate(date, lang)}</time>
      </bdi>
    ) : null,
    extra ? (
      <bdi key="extra" {...textProps(lang, extra)}>
        {extra}
      </bdi>
    ) : null,
  ].filter((p) => p !== null);
  if (parts.length === 0) return null;
  return (
    <p className={`text-sm text-ink-soft ${className}`} data-testid="byline">
      {parts.flatMap((p, i) =>
        i === 0
          ? [p]
          : [
              <span key={`sep${i}`} aria-hidden="true">
                {" · "}
              </span>,
              p,
            ],
      )}
    </p>
  );
}

/**
 * The names of a byline, each a link to the author's page, joined as the language joins names («أ و ب»,
 * «A et B»). Above a card's stretched link (relative z-10), so each name opens its author, not the item.
 */
export function AuthorLinks({ authors, testId = "byline-authors" }: { authors: readonly BylineLink[]; testId?: string }) {
  const lang = useLanguage();
  const local = useLocalPath();
  const and = useText()("common.and");
  return (
    // The run takes the names' language and direction (Arabic names on a French page read right to left).
    <bdi data-testid={testId} {...textProps(lang, authors.map((a) => a.name).join(" "))}>
      {authors.flatMap((a, i) => [
        i === 0 ? null : <span key={`and${i}`}>{i === authors.length - 1 ? ` ${and} ` : lang === "ar" ? "، " : ", "}</span>,
        <Link key={a.href} to={local(a.href)} className="relative z-10 font-bold hover:underline" data-testid="byline-author" {...textProps(lang, a.name)}>
          {a.name}
        </Link>,
      ])}
    </bdi>
  );
}
