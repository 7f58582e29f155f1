import { data, useLocation } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/culture";
import type { ReadingHandle } from "#app/lib/static-page.ts";
import { ContentCard } from "#app/components/content/content-card.tsx";
import { publicUrl } from "#domain/content-types/index.ts";
import { sectionMeta, BlockHeading, EmptyState, FilterChips, hrefWith, PageIntro, Pager } from "#app/components/sections/section-ui.tsx";
import { excerpt } from "#domain/format.ts";
import { localized } from "#domain/localized.ts";
import { bylineLinks } from "#domain/authors.ts";
import { type Language } from "#domain/language.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { pageParam } from "#domain/query.ts";
import { getDb } from "#server/db/client.server.ts";
import { imageDetailsOf } from "#server/content/image-details.server.ts";
import { ImageDetailsProvider } from "#app/components/content/image-details.tsx";
import { loadSectionHead } from "#server/content/sections.server.ts";
import { loadLeadAndList } from "#server/content/listings.server.ts";
import { LEAD_AND_LIST } from "#domain/listings.ts";
import { translate } from "#server/http/i18n.server.ts";

/** No React in the browser: links and GET forms only (decision 0131). */
export const handle: ReadingHandle = { hydrate: false };

/** Spec §9: culture excerpts are cut at 120 characters. */
const EXCERPT = 120;

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const page = pageParam(url, "page", 200);
  const lang = languageOfRequest(request);
  const db = await getDb();
  const { section, chips } = await loadSectionHead(db, "culture");
  const category = url.searchParams.get("category") || undefined;
  // A chip that does not exist is a listing that does not exist (and never becomes a cache key).
  if (category && !chips.some((c) => c.slug === category)) throw data(null, { status: 404 });
  const { lead: featured, list: grid } = await loadLeadAndList(db, LEAD_AND_LIST.culture, { category }, page);
  const result = {
    title: translate(lang, "culturePage.title"),
    intro: localized(lang, section?.description, section?.descriptionFr) || translate(lang, "culturePage.intro"),
    chips,
    category: category ?? null,
    featured: page === 1 ? featured : [],
    grid,
  };
  return { ...result, images: await imageDetailsOf(db, result) };
}

export const meta: Route.MetaFunction = ({ data, matches, location }) => sectionMeta(matches, data, location);

export default function CulturePage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { search } = useLocation();
  const { chips, category, featured, grid } = loaderData;
  const chipLinks = [
    { key: "all", label: t("sectionPages.all"), to: hrefWith(search, { category: null }), active: !category },
    ...chips.map((c) => ({ key: c.slug, label: localized(lang, c.name, c.nameFr), to: hrefWith(search, { category: c.slug }), active: category === c.slug })),
  ];
  const card = (a: (typeof grid.items)[number], eager = false) => (
    <ContentCard
      key={a.id}
      href={publicUrl("article", a.pageSlug, a.id)}
      title={localized(lang, a.title, a.titleFr)}
      excerpt={excerpt(localized(lang, a.excerpt, a.excerptFr), EXCERPT)}
      imageUrl={a.imageUrl}
      date={a.publishDate}
      category={localized(lang, a.categoryName, a.categoryNameFr) ?? t("common.general")}
      author={localized(lang, a.authorName, a.authorNameFr)}
      authors={bylineLinks(lang, a.bylines)}
      eager={eager}
      testId="culture-card"
    />
  );
  return (
    <ImageDetailsProvider images={loaderData.images}>
      <PageIntro title={loaderData.title} intro={loaderData.intro} testId="culture-intro">
        <FilterChips label={t("culturePage.categories")} chips={chipLinks} testId="culture-chip" />
      </PageIntro>
      <div className="mx-auto max-w-7xl px-4 py-8">
        {featured.length > 0 && (
          <section aria-labelledby="culture-featured-title" className="mb-10" data-testid="culture-featured">
            <BlockHeading id="culture-featured-title">{t("culturePage.featured")}</BlockHeading>
            <div className="grid gap-6 md:grid-cols-3">{featured.map((a, i) => card(a, i === 0))}</div>
          </section>
        )}
        <section aria-labelledby="culture-grid-title" data-testid="culture-grid">
          <BlockHeading id="culture-grid-title">{t("culturePage.grid")}</BlockHeading>
          {grid.items.length > 0 ? (
            <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">{grid.items.map((a, i) => card(a, featured.length === 0 && i === 0))}</div>
          ) : featured.length === 0 ? (
            <EmptyState>{t(category ? "sectionPages.emptyFiltered" : "sectionPages.empty")}</EmptyState>
          ) : (
            <EmptyState>{t("sectionPages.noMore")}</EmptyState>
          )}
          <Pager page={grid.page} hasMore={grid.hasMore} search={search} />
        </section>
      </div>
    </ImageDetailsProvider>
  );
}
