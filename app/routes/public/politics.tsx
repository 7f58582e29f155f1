import { data, useLocation } from "react-router";
import type { Route } from "./+types/politics";
import { sectionMeta } from "#app/components/sections/section-ui.tsx";
import { PoliticsIntro, PoliticsListing, PoliticsSidebar, PoliticsTimeline, REGION_ORDER, type TypeParam } from "#app/components/sections/politics-blocks.tsx";
import { OPENER_PAGE_MODULES, VideoTemplates } from "#app/components/media/video-player.tsx";
import type { ReadingHandle } from "#app/lib/static-page.ts";
import { useEnhanceInApp } from "#app/lib/enhance-in-app.ts";
import { localized } from "#domain/localized.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { pageParam } from "#domain/query.ts";
import { getDb } from "#server/db/client.server.ts";
import { imageDetailsOf } from "#server/content/image-details.server.ts";
import { ImageDetailsProvider } from "#app/components/content/image-details.tsx";
import { countByRegion, findSection, sectionTimeline, type Region, type SectionCard, type SectionContentType } from "#server/content/sections.server.ts";
import { listCards, loadLeadAndList } from "#server/content/listings.server.ts";
import { LEAD_AND_LIST, LISTINGS } from "#domain/listings.ts";
import { translate } from "#server/http/i18n.server.ts";
import { cached } from "#server/content/cache.server.ts";

/** The content-type filter of the spec (all, articles, videos) as it reads in the address bar. */
const TYPE_PARAMS = { articles: "article", videos: "video" } as const satisfies Record<TypeParam, SectionContentType>;

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const page = pageParam(url, "page", 200);
  const lang = languageOfRequest(request);
  const typeParam = url.searchParams.get("type") || null;
  const regionParam = url.searchParams.get("region") || null;
  const viewParam = url.searchParams.get("view") || "list";
  // Unknown filter values name a listing that does not exist.
  if (typeParam && !(typeParam in TYPE_PARAMS)) throw data(null, { status: 404 });
  if (regionParam && !(REGION_ORDER as readonly string[]).includes(regionParam)) throw data(null, { status: 404 });
  if (viewParam !== "list" && viewParam !== "timeline") throw data(null, { status: 404 });
  const contentType = typeParam ? TYPE_PARAMS[typeParam as TypeParam] : undefined;
  const region = (regionParam as Region | null) ?? undefined;
  const filters = { contentType, region };

  const db = await getDb();
  const [section, trending, regions] = await cached(`politics:side:${typeParam ?? ""}`, ["article", "categories"], () =>
    Promise.all([findSection(db, "politics"), listCards(db, LISTINGS.trending("politics")), countByRegion(db, "politics", { contentType })]),
  );
  const timeline =
    viewParam === "timeline"
      ? await cached(`politics:timeline:${typeParam ?? ""}:${region ?? ""}`, ["article", "categories"], () => sectionTimeline(db, "politics", filters))
      : null;
  // The item flagged featured; failing that the newest, so every filter opens on a lead story.
  const { lead, list } = timeline ? { lead: [], list: null } : await loadLeadAndList(db, LEAD_AND_LIST.politics, { equals: filters }, page);
  const featured: SectionCard | null = lead[0] ?? null;
  const result = {
    title: translate(lang, "politicsPage.title"),
    intro: localized(lang, section?.description, section?.descriptionFr) || translate(lang, "politicsPage.intro"),
    type: (typeParam as TypeParam | null) ?? null,
    region: region ?? null,
    view: viewParam,
    featured: page === 1 ? featured : null,
    list,
    timeline,
    trending,
    regions,
  };
  return { ...result, images: await imageDetailsOf(db, result) };
}

export const meta: Route.MetaFunction = ({ data, matches, location }) => sectionMeta(matches, data, location);

/**
 * HTML without React in the browser: the filters and views are links, a video item opens the modal player of
 * app/enhance/video-openers.js (decision 0132); without JavaScript it links to its article.
 */
export const handle: ReadingHandle = { hydrate: false, enhance: OPENER_PAGE_MODULES };

export default function PoliticsPage({ loaderData }: Route.ComponentProps) {
  const { search } = useLocation();
  const { type, region, view, featured, list, timeline, trending, regions } = loaderData;
  useEnhanceInApp(...OPENER_PAGE_MODULES);
  return (
    <ImageDetailsProvider images={loaderData.images}>
      <PoliticsIntro title={loaderData.title} intro={loaderData.intro} type={type} region={region} view={view} search={search} />
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-8 lg:grid-cols-3">
        <div className="min-w-0 lg:col-span-2">
          {view === "timeline" && timeline ? (
            <PoliticsTimeline timeline={timeline} />
          ) : (
            <PoliticsListing featured={featured} list={list} filtered={Boolean(type || region)} search={search} />
          )}
        </div>
        <PoliticsSidebar trending={trending} regions={regions} region={region} search={search} />
      </div>

      <VideoTemplates />
    </ImageDetailsProvider>
  );
}
