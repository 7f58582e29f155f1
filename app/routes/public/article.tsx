import { useTranslation } from "react-i18next";
import type { Route } from "./+types/article";
import { DetailLayout } from "~/components/content/detail-layout.tsx";
import { ArticleBody } from "~/components/content/article-body.tsx";
import { localized } from "~/lib/localized.ts";
import { contentMeta, rootData } from "~/lib/seo.ts";
import type { Language } from "~/lib/language.ts";
import { getDb } from "../../../server/db/client.ts";
import { loadDetailPage } from "../../../server/detail-page.ts";
import { countView } from "../../../server/content/views.ts";

export async function loader({ params, request }: Route.LoaderArgs) {
  const db = await getDb();
  const page = await loadDetailPage(db, "article", params.slug);
  // Once per reader per day, in the background: the page never waits for the counter.
  countView(db, request, { contentType: "article", contentId: page.item.id });
  return page;
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  if (!data) return [];
  const { item } = data;
  const fr = rootData(matches)?.lang === "fr";
  return contentMeta({
    matches,
    title: (fr && item.titleFr) || item.title,
    description: (fr && item.excerptFr) || item.excerpt,
    path: `/articles/${item.pageSlug}`,
    image: item.imageUrl,
    schemaType: item.categorySlug === "opinion" ? "OpinionNewsArticle" : "NewsArticle",
    publishedTime: item.publishDate,
    modifiedTime: item.updatedAt,
    author: item.authorName,
    section: (fr && item.categoryNameFr) || item.categoryName,
  });
};

export default function ArticlePage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { item, related } = loaderData;
  const isVerse = item.categorySlug === "poetry";
  return (
    <DetailLayout
      testId="article-detail"
      demo={item.isDemo}
      kicker={item.categoryName ? { label: localized(lang, item.categoryName, item.categoryNameFr) ?? item.categoryName } : null}
      title={localized(lang, item.title, item.titleFr)}
      lead={localized(lang, item.excerpt, item.excerptFr)}
      date={item.publishDate}
      facts={[
        { label: t("common.by"), value: localized(lang, item.authorName, item.authorNameFr), testId: "detail-author" },
        { value: item.readTimeMinutes ? t("detail.readTime", { count: item.readTimeMinutes }) : null },
      ]}
      imageUrl={item.imageUrl}
      path={`/articles/${item.pageSlug}`}
      related={related}
      relatedPath="/articles"
      relatedTitle={t("detail.relatedArticles")}
    >
      <ArticleBody text={lang === "fr" && item.contentFr ? item.contentFr : item.content} verse={isVerse} />
      {item.authorBio && <p className="mt-8 rounded-lg bg-sand-100 p-4 text-ink-soft">{item.authorBio}</p>}
    </DetailLayout>
  );
}
