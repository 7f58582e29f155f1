import { data } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/author";
import type { ReadingHandle } from "#app/lib/static-page.ts";
import { ContentCard } from "#app/components/content/content-card.tsx";
import { ImageDetailsProvider } from "#app/components/content/image-details.tsx";
import { EmptyState, PageLinks } from "#app/components/sections/section-ui.tsx";
import { absoluteUrl, localUrl, robotsMeta, rootData } from "#app/lib/seo.ts";
import { AUTHOR_PAGE_SIZE, authorBio, authorName } from "#domain/authors.ts";
import { PAGE_SLUG_PATTERN } from "#domain/content-types/index.ts";
import { excerpt } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import { localized, textProps } from "#domain/localized.ts";
import { pageParam } from "#domain/query.ts";
import { authorItems, findAuthorBySlug } from "#server/content/authors.server.ts";
import { cached, CACHE_TAG_NAMES } from "#server/content/cache.server.ts";
import { imageDetailsOf } from "#server/content/image-details.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { notFound } from "#server/http/responses.server.ts";

/** Text to read: no React in the browser (app/lib/static-page.ts). */
export const handle: ReadingHandle = { hydrate: false };

/**
 * An author's page (issue 29, decision 0121): photo, name and biography in the reader's language, links, and
 * their published items of every type, newest first, AUTHOR_PAGE_SIZE a page. Cached under the "authors" tag
 * and every type's (a profile's change or any item's drops it); an unknown slug is the site's 404.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  const slug = (params.slug ?? "").normalize("NFKC").toLowerCase();
  if (!slug || slug.length > 200 || !PAGE_SLUG_PATTERN.test(slug)) notFound();
  const page = pageParam(new URL(request.url), "page", 10_000);
  const db = await getDb();
  const found = await cached(`author:${slug}:${page}`, CACHE_TAG_NAMES, async () => {
    const author = await findAuthorBySlug(db, slug);
    if (!author) return null;
    return { author, ...(await authorItems(db, author.id, { page, pageSize: AUTHOR_PAGE_SIZE })) };
  });
  if (!found) notFound();
  const { author, items, total } = found;
  // Pages past the last are not pages.
  if (page > 1 && items.length === 0) notFound();
  const lang = languageOfRequest(request);
  const result = {
    author: { ...author, displayName: authorName(lang, author), displayBio: authorBio(lang, author) },
    items,
    page,
    hasMore: page * AUTHOR_PAGE_SIZE < total,
    total,
  };
  return data({ ...result, images: await imageDetailsOf(db, { items }) });
}

export const meta: Route.MetaFunction = ({ data: loaded, matches }) => {
  const root = rootData(matches);
  if (!loaded) return [];
  const siteName = (root?.lang === "ar" ? root?.site.siteName : root?.site.siteNameFr) ?? "";
  const base = root?.site.publicUrl ?? "";
  const { author } = loaded;
  const url = localUrl(base, root?.lang ?? "ar", author.url);
  const description = (author.displayBio ?? "").slice(0, 300);
  const person = {
    "@context": "https://schema.org",
    "@type": "ProfilePage",
    mainEntity: {
      "@type": "Person",
      name: author.displayName,
      url,
      ...(author.photo_url ? { image: absoluteUrl(base, author.photo_url) } : {}),
      ...(author.links.length ? { sameAs: author.links.map((l) => l.url) } : {}),
    },
  };
  return [
    { title: siteName ? `${author.displayName} | ${siteName}` : author.displayName },
    { name: "description", content: description },
    { property: "og:type", content: "profile" },
    { property: "og:title", content: author.displayName },
    { property: "og:url", content: url },
    ...(author.photo_url ? [{ property: "og:image", content: absoluteUrl(base, author.photo_url) }] : []),
    { "script:ld+json": person },
    robotsMeta(),
  ];
};

export default function AuthorPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { author, items, page, hasMore } = loaderData;
  return (
    <ImageDetailsProvider images={loaderData.images}>
      <div className="mx-auto max-w-7xl px-4 py-8" data-testid="author-page">
        <header className="flex flex-col items-center gap-4 rounded-2xl border border-sand-200 bg-white p-6 text-center sm:flex-row sm:items-start sm:text-start">
          {author.photo_url ? (
            <img
              src={author.photo_url}
              alt={author.displayName}
              width={128}
              height={128}
              className="h-32 w-32 shrink-0 rounded-full object-cover"
              data-testid="author-photo"
            />
          ) : null}
          <div className="min-w-0 flex-1">
            <p className="text-sm font-bold text-desert-700">{t("authors.page.kicker")}</p>
            <h1 className="text-3xl font-bold" {...textProps(lang, author.displayName)} data-testid="author-name">
              {author.displayName}
            </h1>
            {author.displayBio && (
              <p className="mt-3 whitespace-pre-line text-ink-soft" {...textProps(lang, author.displayBio)} data-testid="author-bio">
                {author.displayBio}
              </p>
            )}
            {author.links.length > 0 && (
              <ul className="mt-4 flex flex-wrap justify-center gap-3 sm:justify-start" aria-label={t("authors.page.links")} data-testid="author-links">
                {author.links.map((l) => (
                  <li key={l.url}>
                    <a href={l.url} rel="noopener nofollow me" className="font-bold text-desert-700 hover:underline" {...textProps(lang, l.label)}>
                      {l.label}
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </header>
        <section aria-labelledby="author-items-heading" className="mt-10">
          <h2 id="author-items-heading" className="mb-6 text-2xl font-bold">
            {t("authors.page.items")}
          </h2>
          {items.length === 0 ? (
            <EmptyState>{t("authors.page.none")}</EmptyState>
          ) : (
            <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="author-items">
              {items.map((item, i) => (
                <ContentCard
                  key={`${item.type}-${item.id}`}
                  href={item.url}
                  title={localized(lang, item.title, item.titleFr)}
                  excerpt={excerpt(item.summary ?? "", 140)}
                  imageUrl={item.imageUrl}
                  date={item.publishDate}
                  category={t(`newsroom.s.${item.type}`)}
                  eager={i < 3}
                  testId="author-item"
                />
              ))}
            </div>
          )}
          <PageLinks
            page={page}
            hasMore={hasMore}
            hrefOf={(p) => (p === 1 ? author.url : `${author.url}?page=${p}`)}
            labels={{
              nav: t("sectionPages.pagination"),
              previous: t("sectionPages.newer"),
              next: t("sectionPages.older"),
              current: t("sectionPages.pageN", { page }),
            }}
            testId="pager"
            nextTestId="pager-older"
          />
        </section>
      </div>
    </ImageDetailsProvider>
  );
}
