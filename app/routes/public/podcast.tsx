import { useTranslation } from "react-i18next";
import type { Route } from "./+types/podcast";
import { DetailLayout } from "~/components/content/detail-layout.tsx";
import { ArticleBody } from "~/components/content/article-body.tsx";
import { VideoPlayer } from "~/components/media/video-player.tsx";
import { localized } from "~/lib/localized.ts";
import { contentMeta, absoluteUrl, rootData } from "~/lib/seo.ts";
import type { Language } from "~/lib/language.ts";
import { getDb } from "../../../server/db/client.ts";
import { loadDetailPage } from "../../../server/detail-page.ts";

export async function loader({ params }: Route.LoaderArgs) {
  return loadDetailPage(await getDb(), "podcast", params.slug);
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  if (!data) return [];
  const { item } = data;
  const fr = rootData(matches)?.lang === "fr";
  const base = rootData(matches)?.site.publicUrl ?? "";
  return contentMeta({
    matches,
    title: (fr && item.titleFr) || item.title,
    description: item.description,
    path: `/podcasts/${item.pageSlug}`,
    image: item.imageUrl,
    schemaType: "PodcastEpisode",
    publishedTime: item.publishDate,
    modifiedTime: item.updatedAt,
    author: item.hostName ?? item.authorName,
    extra: {
      episodeNumber: item.episodeNumber ?? undefined,
      associatedMedia: item.audioUrl ? { "@type": "MediaObject", contentUrl: absoluteUrl(base, item.audioUrl) } : undefined,
    },
  });
};

export default function PodcastPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { item, related } = loaderData;
  const title = localized(lang, item.title, item.titleFr);
  const media = (
    <div className="mt-6 space-y-4">
      {item.videoUrl ? (
        <VideoPlayer source={item.videoUrl} title={title} poster={item.imageUrl} />
      ) : item.imageUrl ? (
        <img src={item.imageUrl} alt="" width={1200} height={675} fetchPriority="high" className="aspect-video w-full rounded-xl object-cover" />
      ) : null}
      {item.audioUrl && (
        <figure className="rounded-xl border border-sand-200 bg-white p-4">
          <figcaption className="mb-2 font-bold">{t("detail.listen")}</figcaption>
          {/* eslint-disable-next-line jsx-a11y/media-has-caption -- an episode's transcript, when it has one, is its text alternative */}
          <audio controls preload="none" src={item.audioUrl} className="w-full" data-testid="podcast-audio">
            {t("detail.audioUnsupported")}
          </audio>
        </figure>
      )}
    </div>
  );
  return (
    <DetailLayout
      testId="podcast-detail"
      demo={item.isDemo}
      kicker={{ label: t("programsPage.podcasts"), href: "/programs" }}
      title={title}
      lead={item.description}
      date={item.publishDate}
      facts={[
        { value: item.episodeNumber ? t("detail.episode", { n: item.episodeNumber }) : null },
        { value: item.season ? t("detail.season", { n: item.season }) : null },
        { label: t("detail.host"), value: item.hostName },
        { label: t("detail.guest"), value: item.guestName },
        { label: t("detail.duration"), value: item.duration },
      ]}
      media={media}
      path={`/podcasts/${item.pageSlug}`}
      related={related}
      relatedPath="/podcasts"
      relatedTitle={t("detail.relatedPodcasts")}
    >
      <ArticleBody text={item.content} />
    </DetailLayout>
  );
}
