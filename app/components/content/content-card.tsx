import type { ReactNode } from "react";
import { Link } from "react-router";
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
};

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
}: ContentCardProps) {
  const horizontal = layout === "horizontal";
  return (
    <article
      className={`group relative flex overflow-hidden rounded-xl border border-sand-200 bg-white shadow-sm transition hover:shadow-md ${horizontal ? "flex-row gap-3" : "flex-col"}`}
      data-testid={testId}
    >
      {imageUrl ? (
        <img
          src={imageUrl}
          alt=""
          width={horizontal ? 160 : 640}
          height={horizontal ? 90 : 360}
          loading={eager ? "eager" : "lazy"}
          decoding="async"
          fetchPriority={eager ? "high" : undefined}
          onError={(e) => (e.currentTarget.style.display = "none")}
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
