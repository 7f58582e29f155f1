import { useTranslation } from "react-i18next";
import type { Route } from "./+types/program";
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
  return loadDetailPage(await getDb(), "program", params.slug);
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  if (!data) return [];
  const { item } = data;
  const fr = rootData(matches)?.lang === "fr";
  return contentMeta({
    matches,
    title: (fr && item.titleFr) || item.title,
    description: item.description,
    path: `/programs/${item.pageSlug}`,
    image: item.imageUrl,
    schemaType: "TVEpisode",
    publishedTime: item.publishDate,
    modifiedTime: item.updatedAt,
    author: item.hostName ?? item.authorName,
    extra: { episodeNumber: item.episodeNumber ?? undefined, genre: item.programType },
  });
};

export default function ProgramPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { item, related } = loaderData;
  const title = localized(lang, item.title, item.titleFr);
  return (
    <DetailLayout
      testId="program-detail"
      demo={item.isDemo}
      kicker={{ label: t(`programTypes.${item.programType}`), href: "/programs" }}
      title={title}
      lead={item.description}
      date={item.publishDate}
      facts={[
        { value: item.episodeNumber ? t("detail.episode", { n: item.episodeNumber }) : null },
        { value: item.season ? t("detail.season", { n: item.season }) : null },
        { label: t("detail.host"), value: item.hostName },
        { label: t("detail.guest"), value: item.guestName },
        { label: t("detail.duration"), value: item.duration },
        { label: t("detail.airDate"), value: item.airDate ? formatDate(item.airDate, lang) : null },
      ]}
      imageUrl={item.imageUrl}
      media={item.videoUrl ? <VideoPlayer source={item.videoUrl} title={title} poster={item.imageUrl} className="mt-6" /> : undefined}
      path={`/programs/${item.pageSlug}`}
      related={related}
      relatedPath="/programs"
      relatedTitle={t("detail.relatedPrograms")}
    >
      <ArticleBody text={item.content} />
    </DetailLayout>
  );
}
