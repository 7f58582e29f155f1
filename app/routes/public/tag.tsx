import { useLocalPath } from "#app/lib/addresses.ts";
import { localizedPath } from "#domain/addresses.ts";
import { redirect, useLocation } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/tag";
import { ContentCard } from "#app/components/content/content-card.tsx";
import { ImageDetailsProvider } from "#app/components/content/image-details.tsx";
import { EmptyState, PageIntro, Pager, sectionMeta } from "#app/components/sections/section-ui.tsx";
import { localUrl, rootData } from "#app/lib/seo.ts";
import type { ReadingHandle } from "#app/lib/static-page.ts";
import { CONTENT_TYPES } from "#domain/content-types/index.ts";
import { excerpt } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import { localized } from "#domain/localized.ts";
import { pageParam } from "#domain/query.ts";
import { TAG_PAGE_SIZE, tagFeedPath, tagPath } from "#domain/tags.ts";
import { getDb } from "#server/db/client.server.ts";
import { cached } from "#server/content/cache.server.ts";
import { imageDetailsOf } from "#server/content/image-details.server.ts";
import { listTagItems, tagBySlug } from "#server/content/tags.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { notFound } from "#server/http/responses.server.ts";

/**
 * /tags/:slug — a tag's page (decision 0122): its published items of every type, newest first, 12 a page, and its
 * RSS feed (/tags/:slug/feed.xml). An unknown slug is the site's 404; the slug in another case or Unicode form
 * answers 301 to the tag's own address; a page past the last is a 404. Cached until the items or the tags change.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const page = pageParam(url, "page", 500);
  const lang = languageOfRequest(request);
  const db = await getDb();
  const slug = params.slug ?? "";
  // An item's save may create the tag: its lookup is dropped with the items' reads too.
  const tag = await cached(`tag:${slug}`, [...CONTENT_TYPES, "tags"], () => tagBySlug(db, slug));
  if (!tag) notFound();
  if (tag.slug !== slug) throw redirect(localizedPath(lang, `${tagPath(tag.slug)}${url.search}`), 301);
  const { items, total } = await cached(`tag-items:${tag.id}:${page}`, [...CONTENT_TYPES, "tags"], () =>
    listTagItems(db, tag.id, { offset: (page - 1) * TAG_PAGE_SIZE, limit: TAG_PAGE_SIZE }),
  );
  if (page > 1 && !items.length) notFound();
  return {
    tag,
    items,
    page,
    hasMore: page * TAG_PAGE_SIZE < total,
    title: translate(lang, "tags.pageTitle").replace("{{name}}", tag.name),
    intro: translate(lang, "tags.pageDescription").replace("{{name}}", tag.name),
    images: await imageDetailsOf(db, items),
  };
}

/** A list of links: no React in the browser (app/lib/static-page.ts, decision 0115). */
export const handle: ReadingHandle = { hydrate: false };

export const meta: Route.MetaFunction = ({ data, matches, location }) => {
  if (!data) return sectionMeta(matches, undefined, location);
  const root = rootData(matches);
  const siteName = (root?.lang === "ar" ? root?.site.siteName : root?.site.siteNameFr) ?? "";
  return [
    ...sectionMeta(matches, data, location),
    {
      tagName: "link",
      rel: "alternate",
      type: "application/rss+xml",
      title: siteName ? `${siteName} — ${data.tag.name}` : data.tag.name,
      href: localUrl(root?.site.publicUrl ?? "", root?.lang ?? "ar", tagFeedPath(data.tag.slug)),
    },
  ];
};

export default function TagPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const local = useLocalPath();
  const lang = i18n.language as Language;
  const { search } = useLocation();
  const { tag, items, page, hasMore, images } = loaderData;
  return (
    <div data-testid="tag-page" data-tag={tag.slug}>
      <PageIntro title={tag.name} intro={loaderData.intro} testId="tag-intro">
        <p className="mt-2 text-sm font-bold text-desert-700">{t("tags.kicker")}</p>
        <a
          href={local(tagFeedPath(tag.slug))}
          className="mt-4 inline-flex items-center gap-2 text-sm font-bold text-desert-700 underline"
          data-testid="tag-feed"
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="currentColor">
            <path d="M6.2 19.8a2.2 2.2 0 1 1 0-4.4 2.2 2.2 0 0 1 0 4.4ZM4 10.1a9.9 9.9 0 0 1 9.9 9.9h-3.1A6.8 6.8 0 0 0 4 13.2Zm0-6a15.9 15.9 0 0 1 15.9 15.9h-3.1A12.8 12.8 0 0 0 4 7.2Z" />
          </svg>
          {t("tags.feed")}
        </a>
      </PageIntro>
      <div className="mx-auto max-w-7xl px-4 py-8">
        {items.length === 0 ? (
          <EmptyState>{t("tags.none")}</EmptyState>
        ) : (
          <ImageDetailsProvider images={images}>
            <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="tag-items">
              {items.map((item, i) => (
                <ContentCard
                  key={`${item.type}-${item.id}`}
                  href={item.url}
                  title={localized(lang, item.title, item.titleFr)}
                  excerpt={excerpt(localized(lang, item.summary, item.summaryFr), 160)}
                  imageUrl={item.imageUrl}
                  date={item.publishDate}
                  category={t(`tags.types.${item.type}`)}
                  eager={i < 3}
                  headingLevel={2}
                  testId="tag-item"
                />
              ))}
            </div>
          </ImageDetailsProvider>
        )}
        <Pager page={page} hasMore={hasMore} search={search} />
      </div>
    </div>
  );
}
