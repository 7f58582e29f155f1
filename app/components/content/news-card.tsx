import { ContentCard } from "./content-card.tsx";
import { publicUrl } from "#domain/content-types/index.ts";
import { excerpt } from "#domain/format.ts";
import { localized } from "#domain/localized.ts";
import { bylineLinks, type BylineAuthor } from "#domain/authors.ts";
import { useLanguage } from "#app/lib/i18n.ts";

export type NewsCardData = {
  id: number;
  title: string;
  titleFr: string | null;
  excerpt: string | null;
  excerptFr: string | null;
  imageUrl: string | null;
  location: string | null;
  pageSlug: string;
  publishDate: Date | string;
  categoryName: string | null;
  categoryNameFr: string | null;
  /** The author profiles, in byline order (decision 0121). */
  bylines?: BylineAuthor[];
};

export function NewsCard({ item, eager, headingLevel }: { item: NewsCardData; eager?: boolean; headingLevel?: 2 | 3 }) {
  const lang = useLanguage();
  return (
    <ContentCard
      href={publicUrl("news", item.pageSlug, item.id)}
      title={localized(lang, item.title, item.titleFr)}
      excerpt={excerpt(localized(lang, item.excerpt, item.excerptFr), 120)}
      imageUrl={item.imageUrl}
      date={item.publishDate}
      category={localized(lang, item.categoryName, item.categoryNameFr)}
      author={item.location}
      authors={bylineLinks(lang, item.bylines)}
      extra={item.bylines?.length ? item.location : null}
      eager={eager}
      headingLevel={headingLevel}
      testId="news-card"
    />
  );
}
