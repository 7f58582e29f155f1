import type { ReactNode } from "react";
import { Link } from "react-router";
import { ResponsiveImage } from "./responsive-image.tsx";
import { formatDate, isoDate } from "~/lib/format.ts";
import { useLanguage } from "~/lib/i18n.ts";

export type ContentCardProps = {
  href: string;
  title: string;
  excerpt?: string;
  imageUrl?: string | null;
  date?: Date | string | null;
  category?: string | null;
  author?: string | null;
  /** Above-the-fold cards load their image at once; the rest lazily. */
  eager?: boolean;
  testId?: string;
  layout?: "vertical" | "horizontal";
  /** Rich title and excerpt (search results with <mark>ed words); `title` and `excerpt` stay the plain text. */
  titleNode?: ReactNode;
  excerptNode?: ReactNode;
  /** The image's slot width (`sizes`), when the page's grid differs from the usual one. */
  imageSizes?: string;
};

// The usual grids: one column on a phone (page padding 1rem each side), two from `sm`, three from `lg`, in
// a page at most 1280px wide. The horizontal card's image is w-32, sm:w-40.
const VERTICAL_SIZES = "(min-width: 1280px) 410px, (min-width: 1024px) 33vw, (min-width: 640px) 50vw, calc(100vw - 2rem)";
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
  eager,
  testId,
  layout = "vertical",
  titleNode,
  excerptNode,
  imageSizes,
}: ContentCardProps) {
  const horizontal = layout === "horizontal";
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
        {category && <span className="mb-1 text-sm font-bold text-desert-700">{category}</span>}
        <h3 className={`font-bold leading-snug ${horizontal ? "text-base" : "text-lg"}`}>
          <Link to={href} className="after:absolute after:inset-0 hover:text-desert-700 focus:outline-none focus-visible:underline">
            {titleNode ?? title}
          </Link>
        </h3>
        {excerpt && <p className="mt-2 text-ink-soft">{excerptNode ?? excerpt}</p>}
        <Byline author={author} date={date} className="mt-auto pt-3" />
      </div>
    </article>
  );
}

/** "Author · date" under a card's text; nothing when both are missing. */
export function Byline({ author, date, className = "" }: { author?: string | null; date?: Date | string | null; className?: string }) {
  const lang = useLanguage();
  if (!author && !date) return null;
  return (
    <p className={`text-sm text-ink-soft ${className}`}>
      {author && <span>{author}</span>}
      {author && date && <span aria-hidden="true"> · </span>}
      {date && <time dateTime={isoDate(date)}>{formatDate(date, lang)}</time>}
    </p>
  );
}
