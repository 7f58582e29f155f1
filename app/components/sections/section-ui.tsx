/**
 * Building blocks of the section pages (culture, politics, literature, opinion): the page heading, filter
 * chips that are plain links (so filtering works before and without JavaScript), a pager, and the large card
 * of a featured story.
 */
import type { ReactNode } from "react";
import { type MetaDescriptor } from "react-router";
import { Link } from "#app/lib/link.tsx";
import { robotsMeta, rootData } from "#app/lib/seo.ts";
import { Byline, type StoryFields } from "#app/components/content/content-card.tsx";
import { useLanguage, useTranslation } from "#app/lib/i18n.ts";
import { useLocalPath } from "#app/lib/addresses.ts";
import { localized, textProps } from "#domain/localized.ts";
import { excerpt as cut, formatNumber } from "#domain/format.ts";
import { publicUrl } from "#domain/content-types/index.ts";
import type { Language } from "#domain/language.ts";
import { bylineLinks } from "#domain/authors.ts";
import type { SectionCard } from "#server/content/sections.server.ts";

/**
 * Title ("page | site") and description of a section page. Its canonical URL and language versions are root.tsx's,
 * as every reading page's; they keep the filters and the page number (each is a page of its own).
 */
export function sectionMeta(
  matches: readonly ({ id: string; data: unknown } | undefined)[],
  data: { title?: string; intro?: string | null } | undefined,
  // The page's location, which the canonical URL was made of: root.tsx makes it now, for every page alike.
  _location?: { pathname: string; search: string },
): MetaDescriptor[] {
  const root = rootData(matches);
  const siteName = (root?.lang === "ar" ? root?.site.siteName : root?.site.siteNameFr) ?? "";
  const title = data?.title ?? "";
  return [{ title: siteName && title ? `${title} | ${siteName}` : title || siteName }, { name: "description", content: data?.intro ?? "" }, robotsMeta()];
}

/** The query string after changing some parameters (null removes one); the page number always resets. */
export function hrefWith(search: string | URLSearchParams, changes: Record<string, string | null>, { keepPage = false } = {}): string {
  const params = new URLSearchParams(search);
  if (!keepPage) params.delete("page");
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === "") params.delete(key);
    else params.set(key, value);
  }
  const s = params.toString();
  return s ? `?${s}` : "?";
}

export function PageIntro({ title, intro, testId, children }: { title: string; intro?: string | null; testId: string; children?: ReactNode }) {
  const lang = useLanguage();
  return (
    <section className="border-b border-sand-200 bg-sand-100" data-testid={testId}>
      <div className="mx-auto max-w-7xl px-4 py-8 sm:py-10">
        <h1 className="text-3xl font-bold text-ink sm:text-4xl">{title}</h1>
        {intro && (
          <p className="mt-3 max-w-3xl text-lg text-ink-soft" {...textProps(lang, intro)}>
            {intro}
          </p>
        )}
        {children}
      </div>
    </section>
  );
}

export function BlockHeading({ children, id }: { children: ReactNode; id?: string }) {
  return (
    <h2 id={id} className="mb-5 border-s-4 border-desert-600 ps-3 text-2xl font-bold">
      {children}
    </h2>
  );
}

export type Chip = { key: string; label: string; to: string; active: boolean; count?: number };

/** A row of filter links; the active one is marked for assistive technology with aria-current. */
export function FilterChips({ label, chips, testId }: { label: string; chips: Chip[]; testId: string }) {
  const lang = useLanguage();
  const local = useLocalPath();
  return (
    <nav aria-label={label} data-testid={testId} className="mt-4">
      <ul className="flex flex-wrap gap-2">
        {chips.map((c) => (
          <li key={c.key}>
            <Link
              to={local(c.to)}
              preventScrollReset
              aria-current={c.active ? "true" : undefined}
              data-testid={`${testId}-${c.key}`}
              // A category's name keeps its own direction (the chip's count follows it, isolated by the flex gap).
              {...textProps(lang, c.label)}
              className={`inline-flex min-h-10 items-center gap-1 rounded-full border px-4 py-1.5 text-sm font-bold transition ${
                c.active ? "border-desert-700 bg-desert-700 text-white" : "border-sand-300 bg-white text-ink hover:border-desert-600 hover:text-desert-700"
              }`}
            >
              {c.label}
              {c.count !== undefined && <span className={c.active ? "text-sand-100" : "text-ink-soft"}>({formatNumber(lang, c.count)})</span>}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Newer / older links between pages of a listing (GET ?page=N). */
export function Pager({ page, hasMore, search }: { page: number; hasMore: boolean; search: string }) {
  const { t } = useTranslation();
  return (
    <PageLinks
      page={page}
      hasMore={hasMore}
      hrefOf={(p) => hrefWith(search, { page: p === 1 ? null : String(p) }, { keepPage: true })}
      labels={{
        nav: t("sectionPages.pagination"),
        previous: t("sectionPages.newer"),
        next: t("sectionPages.older"),
        current: t("sectionPages.pageN", { page }),
      }}
      testId="pager"
      nextTestId="pager-older"
    />
  );
}

/** Previous / next links around "page N" (listings and search results); nothing when there is one page. */
export function PageLinks(props: {
  page: number;
  hasMore: boolean;
  hrefOf: (page: number) => string;
  labels: { nav: string; previous: string; next: string; current: string };
  testId: string;
  nextTestId: string;
}) {
  const { page, hasMore, hrefOf, labels, testId, nextTestId } = props;
  const local = useLocalPath();
  if (page <= 1 && !hasMore) return null;
  const linkClass = "rounded-md border border-sand-300 bg-white px-4 py-2 font-bold hover:bg-sand-100";
  return (
    <nav aria-label={labels.nav} className="mt-8 flex items-center justify-between gap-4" data-testid={testId}>
      {page > 1 ? (
        <Link to={local(hrefOf(page - 1))} rel="prev" className={linkClass}>
          {labels.previous}
        </Link>
      ) : (
        <span />
      )}
      <span className="text-sm text-ink-soft" aria-current="page">
        {labels.current}
      </span>
      {hasMore ? (
        <Link to={local(hrefOf(page + 1))} rel="next" className={linkClass} data-testid={nextTestId}>
          {labels.next}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

/** A section's article as a card or featured story shows it, in the page's language, its excerpt cut at `excerptMax`. */
export function storyOf(a: SectionCard, lang: Language, excerptMax: number): StoryFields {
  return {
    href: publicUrl("article", a.pageSlug, a.id),
    title: localized(lang, a.title, a.titleFr),
    excerpt: cut(localized(lang, a.excerpt, a.excerptFr), excerptMax),
    imageUrl: a.imageUrl,
    date: a.publishDate,
    category: localized(lang, a.categoryName, a.categoryNameFr),
    author: localized(lang, a.authorName, a.authorNameFr),
    authors: bylineLinks(lang, a.bylines),
  };
}

/** A box of a section page's side column (most read, trending, by region), named by its heading. */
export function SideBox({ id, title, testId, children }: { id: string; title: string; testId: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-sand-200 bg-white p-5" data-testid={testId}>
      <h2 id={id} className="mb-4 text-xl font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** An entry of a ranked list in a side box: its rank, the link to the article, and a line under it. */
export function RankedItem({
  rank,
  href,
  title,
  testId,
  views,
  children,
}: {
  rank: number;
  href: string;
  title: string;
  testId: string;
  views?: number;
  children: ReactNode;
}) {
  const lang = useLanguage();
  const local = useLocalPath();
  return (
    <li className="flex gap-3" data-testid={testId} data-views={views}>
      <span className="text-2xl font-bold text-desert-600" aria-hidden="true">
        {formatNumber(lang, rank)}
      </span>
      <div className="min-w-0">
        <Link to={local(href)} className="font-bold leading-snug hover:text-desert-700" {...textProps(lang, title)}>
          {title}
        </Link>
        {children}
      </div>
    </li>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-xl border border-dashed border-sand-300 bg-white p-8 text-center text-ink-soft" data-testid="empty-state">
      {children}
    </p>
  );
}

export type FeaturedStoryProps = StoryFields & {
  /** A control over the picture (the politics play button). */
  overlay?: ReactNode;
  children?: ReactNode;
};

/** The large card at the top of a listing: picture beside the text on wide screens, above it on phones. */
export function FeaturedStory({ href, title, excerpt, imageUrl, date, category, author, authors, testId, overlay, children }: FeaturedStoryProps) {
  const lang = useLanguage();
  const local = useLocalPath();
  return (
    <article className="group relative grid overflow-hidden rounded-2xl border border-sand-200 bg-white shadow-sm md:grid-cols-2" data-testid={testId}>
      {imageUrl ? (
        <div className="relative">
          <img
            src={imageUrl}
            alt=""
            width={800}
            height={450}
            loading="eager"
            fetchPriority="high"
            decoding="async"
            onError={(e) => (e.currentTarget.style.display = "none")}
            className="aspect-video h-full w-full object-cover"
          />
          {overlay}
        </div>
      ) : null}
      <div className="flex flex-col p-5 sm:p-7">
        {category && (
          <span className="mb-2 text-sm font-bold text-desert-700" {...textProps(lang, category)}>
            {category}
          </span>
        )}
        <h3 className="text-2xl font-bold leading-snug sm:text-3xl" {...textProps(lang, title)}>
          <Link to={local(href)} className="after:absolute after:inset-0 hover:text-desert-700 focus:outline-none focus-visible:underline">
            {title}
          </Link>
        </h3>
        {excerpt && (
          <p className="mt-3 text-lg text-ink-soft" {...textProps(lang, excerpt)}>
            {excerpt}
          </p>
        )}
        {children}
        <Byline author={author} authors={authors} date={date} className="mt-auto pt-4" />
      </div>
    </article>
  );
}
