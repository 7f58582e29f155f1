import { useTranslation } from "react-i18next";
import type { Route } from "./+types/coverage";
import { DetailLayout } from "~/components/content/detail-layout.tsx";
import { ArticleBody } from "~/components/content/article-body.tsx";
import { VideoPlayer } from "~/components/media/video-player.tsx";
import { formatDate } from "~/lib/format.ts";
import { localized } from "~/lib/localized.ts";
import { contentMeta, rootData } from "~/lib/seo.ts";
import type { Language } from "~/lib/language.ts";
import { getDb } from "../../../server/db/client.ts";
import { loadDetailPage } from "../../../server/detail-page.ts";

export async function loader({ params }: Route.LoaderArgs) {
  return loadDetailPage(await getDb(), "coverage", params.slug);
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  if (!data) return [];
  const { item } = data;
  const fr = rootData(matches)?.lang === "fr";
  return contentMeta({
    matches,
    title: (fr && item.titleFr) || item.title,
    description: item.excerpt,
    path: `/coverage/${item.pageSlug}`,
    image: item.imageUrl,
    schemaType: "ReportageNewsArticle",
    publishedTime: item.publishDate,
    modifiedTime: item.updatedAt,
    author: item.reporterName ?? item.authorName,
    extra: item.eventLocation ? { contentLocation: { "@type": "Place", name: item.eventLocation } } : undefined,
  });
};

export default function CoveragePage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { item, related } = loaderData;
  const title = localized(lang, item.title, item.titleFr);
  return (
    <DetailLayout
      testId="coverage-detail"
      demo={item.isDemo}
      kicker={{ label: t(`coverageTypes.${item.coverageType}`) }}
      title={title}
      lead={item.excerpt}
      date={item.publishDate}
      facts={[
        { label: t("detail.eventLocation"), value: item.eventLocation },
        { label: t("detail.eventDate"), value: item.eventDate ? formatDate(item.eventDate, lang) : null },
        { label: t("detail.reporter"), value: item.reporterName },
      ]}
      imageUrl={item.imageUrl}
      media={item.videoUrl ? <VideoPlayer source={item.videoUrl} title={title} poster={item.imageUrl} className="mt-6" /> : undefined}
      path={`/coverage/${item.pageSlug}`}
      related={related}
      relatedPath="/coverage"
      relatedTitle={t("detail.relatedCoverage")}
    >
      <ArticleBody text={item.content} />
    </DetailLayout>
  );
}
