import { useTranslation } from "react-i18next";
import type { Route } from "./+types/news-item";
import { DetailLayout } from "~/components/content/detail-layout.tsx";
import { ArticleBody } from "~/components/content/article-body.tsx";
import { localized } from "~/lib/localized.ts";
import { contentMeta, rootData } from "~/lib/seo.ts";
import type { Language } from "~/lib/language.ts";
import { getDb } from "../../../server/db/client.ts";
import { loadDetailPage } from "../../../server/detail-page.ts";

export async function loader({ params }: Route.LoaderArgs) {
  return loadDetailPage(await getDb(), "news", params.slug);
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  if (!data) return [];
  const { item } = data;
  const fr = rootData(matches)?.lang === "fr";
  return contentMeta({
    matches,
    title: (fr && item.titleFr) || item.title,
    description: (fr && item.excerptFr) || item.excerpt,
    path: `/news/${item.pageSlug}`,
    image: item.imageUrl,
    schemaType: "NewsArticle",
    publishedTime: item.publishDate,
    modifiedTime: item.updatedAt,
    author: item.authorName,
    section: (fr && item.categoryNameFr) || item.categoryName,
    extra: item.location ? { contentLocation: { "@type": "Place", name: item.location } } : undefined,
  });
};

export default function NewsItemPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { item, related } = loaderData;
  return (
    <DetailLayout
      testId="news-detail"
      demo={item.isDemo}
      kicker={{ label: (item.categoryName && localized(lang, item.categoryName, item.categoryNameFr)) || t("nav.news"), href: "/news" }}
      title={localized(lang, item.title, item.titleFr)}
      lead={localized(lang, item.excerpt, item.excerptFr)}
      date={item.publishDate}
      facts={[
        { value: item.priority === "high" ? t("detail.priorityHigh") : null },
        { label: t("detail.location"), value: item.location, testId: "detail-location" },
        { label: t("common.by"), value: item.authorName, testId: "detail-author" },
      ]}
      imageUrl={item.imageUrl}
      path={`/news/${item.pageSlug}`}
      related={related}
      relatedPath="/news"
      relatedTitle={t("detail.relatedNews")}
    >
      <ArticleBody text={lang === "fr" && item.contentFr ? item.contentFr : item.content} />
    </DetailLayout>
  );
}
